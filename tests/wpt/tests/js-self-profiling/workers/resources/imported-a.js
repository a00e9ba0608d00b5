// Imported by profiler-worker.js's `import` command.
self.importedA = "a";

// Imported after imported-a.js: sees what it defined.
self.importedB = self.importedA + "b";

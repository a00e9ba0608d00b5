// TypeScript (npm) transpileModule of acorn's dist/acorn.js (npm) to ES5.
var BENCH = {
  name: "typescript",
  run: function () {
    var out = ts.transpileModule(ACORN_SOURCE, {
      compilerOptions: { target: ts.ScriptTarget.ES5, module: ts.ModuleKind.CommonJS },
      reportDiagnostics: false,
    });
    return out.outputText.length;
  },
};

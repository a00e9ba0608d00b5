// acorn (npm) parsing TypeScript's lib/typescript.js (npm), ~9 MB.
var BENCH = {
  name: "acorn",
  run: function () {
    var ast = acorn.parse(TYPESCRIPT_SOURCE, { ecmaVersion: "latest", sourceType: "script" });
    return ast.body.length + ":" + ast.end;
  },
};

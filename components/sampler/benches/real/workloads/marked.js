// marked (npm) rendering ~8 MB of markdown (the packages' own documentation,
// repeated with numbered headings; built by run.py).
var BENCH = {
  name: "marked",
  run: function () {
    return marked.marked.parse(MARKDOWN_SOURCE).length;
  },
};

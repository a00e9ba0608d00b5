// Inserts a script element for `src` into the document's head, after
// `configure(element)` if given, and resolves with the first event it
// fires: "load" or "error".
function insertScript(src, configure) {
  const s = document.createElement("script");
  if (configure) configure(s);
  s.src = src;
  const event = new Promise(resolve => {
    s.onload = () => resolve("load");
    s.onerror = () => resolve("error");
  });
  document.head.appendChild(s);
  return event;
}

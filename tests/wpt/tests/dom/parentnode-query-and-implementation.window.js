// querySelectorAll's static NodeList on Document, Element and
// DocumentFragment (the ParentNode mixin), @@iterator of HTMLCollection
// (an indexed getter without an iterable declaration), and
// document.implementation.createHTMLDocument().

test(() => {
  document.body.innerHTML = '<div id=a><p class=x>1</p><p class=x>2</p></div>';
  const list = document.querySelectorAll(".x");
  assert_true(list instanceof NodeList, "a NodeList");
  assert_equals(list.length, 2);
  assert_equals(list[1].textContent, "2");
  assert_equals(list.item(0).textContent, "1");
  document.getElementById("a").append(Object.assign(document.createElement("p"), { className: "x" }));
  assert_equals(list.length, 2, "static: later insertions are not seen");
  assert_equals(document.querySelectorAll(".x").length, 3);
  assert_not_equals(document.querySelectorAll(".x"), document.querySelectorAll(".x"), "[NewObject]");
  assert_array_equals([...document.getElementById("a").querySelectorAll("p")].map((p) => p.textContent), ["1", "2", ""]);
}, "querySelectorAll returns a new static NodeList");

test(() => {
  const fragment = document.createDocumentFragment();
  fragment.append(document.createElement("span"), document.createElement("b"));
  assert_equals(fragment.querySelector("b").localName, "b");
  assert_equals(fragment.querySelectorAll("span, b").length, 2);
  assert_equals(fragment.querySelector("i"), null);
  assert_throws_dom("SyntaxError", () => fragment.querySelectorAll("::"));
  assert_throws_dom("SyntaxError", () => document.querySelector("a["));
}, "DocumentFragment has querySelector and querySelectorAll; invalid selectors throw SyntaxError");

test(() => {
  document.body.innerHTML = "<i></i><b></b>";
  const names = [];
  for (const child of document.body.children) names.push(child.localName);
  assert_array_equals(names, ["i", "b"]);
  assert_equals(HTMLCollection.prototype[Symbol.iterator], Array.prototype.values);
  assert_false("forEach" in HTMLCollection.prototype, "no iterable declaration: no forEach");
}, "an HTMLCollection is iterable (%Array.prototype.values%)");

test(() => {
  assert_equals(document.implementation, document.implementation, "[SameObject]");
  const doc = document.implementation.createHTMLDocument("a title");
  assert_true(doc instanceof Document);
  assert_equals(doc.title, "a title");
  assert_equals(doc.documentElement.localName, "html");
  assert_equals(doc.head.nextElementSibling, doc.body);
  doc.body.innerHTML = "<form></form><form></form>";
  assert_equals(doc.body.childNodes.length, 2);
  assert_equals(document.implementation.createHTMLDocument().querySelector("title"), null, "no title element without a title");
  assert_true(document.implementation.hasFeature());
}, "document.implementation.createHTMLDocument builds html, head, title and body");

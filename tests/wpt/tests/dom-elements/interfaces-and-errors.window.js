// Element interfaces, createElementNS errors, invalid selectors and
// classList errors (checked in headless Chromium).

test(() => {
  assert_true(document.createElement("input") instanceof HTMLInputElement);
  assert_true(document.createElement("li") instanceof HTMLLIElement);
  assert_equals(Object.getPrototypeOf(HTMLButtonElement.prototype), HTMLElement.prototype);
  assert_equals(document.createElement("nonsense").constructor, HTMLUnknownElement);
  assert_equals(document.createElement("x-widget").constructor, HTMLElement);
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "g");
  assert_true(svg instanceof SVGElement);
  assert_false(svg instanceof HTMLElement);
  assert_equals(document.createElementNS("urn:x", "p:q").constructor, Element);
}, "elements get the interface for their name and namespace");

test(() => {
  for (const name of ["", "1a", ":a", "a:", "a b", "<a>"]) {
    assert_throws_dom("InvalidCharacterError", () => document.createElementNS("urn:x", name), name);
  }
  assert_throws_dom("NamespaceError", () => document.createElementNS(null, "a:b"));
  assert_throws_dom("NamespaceError", () => document.createElementNS("urn:x", "xml:a"));
  assert_throws_dom("NamespaceError", () => document.createElementNS("urn:x", "xmlns"));
  assert_throws_dom("NamespaceError", () => document.createElementNS("http://www.w3.org/2000/xmlns/", "a"));
  assert_throws_dom("InvalidCharacterError", () => document.createElement("a>"));
}, "createElementNS rejects bad qualified names");

test(() => {
  const ul = document.body.appendChild(document.createElement("ul"));
  ul.className = "todo-list";
  const li = ul.appendChild(document.createElement("li"));
  assert_equals(document.querySelector(".todo-list > li"), li);
  assert_true(li.matches("ul > li:first-child:last-child"));
  assert_equals(li.closest(".todo-list"), ul);
  for (const bad of ["", "a >", "..x", "[x=", "li:nope", "a,", "#1"]) {
    assert_throws_dom("SyntaxError", () => document.querySelector(bad), bad);
    assert_throws_dom("SyntaxError", () => document.querySelectorAll(bad), bad);
    assert_throws_dom("SyntaxError", () => li.matches(bad), bad);
    assert_throws_dom("SyntaxError", () => li.closest(bad), bad);
  }
}, "invalid selectors throw SyntaxError");

test(() => {
  const p = document.createElement("p");
  assert_throws_dom("SyntaxError", () => p.classList.add(""));
  assert_throws_dom("InvalidCharacterError", () => p.classList.add("a b"));
  assert_throws_js(TypeError, () => p.classList.supports("a"));
  p.classList.add("a", "b");
  assert_true(p.classList.toggle("c"));
  assert_equals(p.className, "a b c");
}, "classList validates tokens");

test(() => {
  const box = document.body.appendChild(document.createElement("input"));
  box.type = "checkbox";
  const events = [];
  for (const type of ["click", "input", "change"]) box.addEventListener(type, e => events.push(type + ":" + box.checked));
  box.click();
  assert_array_equals(events, ["click:true", "input:true", "change:true"]);
  box.addEventListener("click", e => e.preventDefault(), { once: true });
  box.click();
  assert_true(box.checked, "a canceled click puts the checkedness back");
}, "checkbox activation behavior");

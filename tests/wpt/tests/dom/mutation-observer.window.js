// META: title=MutationObserver records and delivery
"use strict";

promise_test(async () => {
  const div = document.body.appendChild(document.createElement("div"));
  const seen = [];
  const mo = new MutationObserver((records, observer) => {
    assert_equals(observer, mo);
    seen.push(...records);
  });
  mo.observe(div, { childList: true, attributes: true, attributeOldValue: true });
  div.append("a", document.createElement("b"));
  div.setAttribute("title", "1");
  div.setAttribute("title", "2");
  assert_equals(seen.length, 0, "nothing delivered synchronously");
  await Promise.resolve();
  assert_equals(seen.length, 3);
  assert_equals(seen[0].type, "childList");
  assert_equals(seen[0].addedNodes.length, 2);
  assert_equals(seen[0].addedNodes[1].localName, "b");
  assert_equals(seen[1].attributeName, "title");
  assert_equals(seen[1].oldValue, null);
  assert_equals(seen[2].oldValue, "1");
  mo.disconnect();
  div.remove();
}, "records are delivered in order at microtask timing");

test(() => {
  const mo = new MutationObserver(() => {});
  assert_throws_js(TypeError, () => mo.observe(document.body, {}));
  assert_throws_js(TypeError, () => mo.observe(document.body, { attributeOldValue: true, attributes: false }));
  assert_throws_js(TypeError, () => mo.observe(document.body, { characterDataOldValue: true, characterData: false }));
  assert_throws_js(TypeError, () => mo.observe(document.body, { attributeFilter: [], attributes: false }));
}, "invalid options throw TypeError");

test(() => {
  const text = document.body.appendChild(new Text("x"));
  const mo = new MutationObserver(() => {});
  mo.observe(document.body, { characterDataOldValue: true, subtree: true });
  text.data = "y";
  const records = mo.takeRecords();
  assert_equals(records.length, 1);
  assert_equals(records[0].type, "characterData");
  assert_equals(records[0].oldValue, "x");
  assert_equals(mo.takeRecords().length, 0);
  mo.disconnect();
  text.remove();
}, "characterDataOldValue implies characterData; takeRecords empties the queue");

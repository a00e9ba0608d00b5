// META: title=A page inserting 10,000 scripts ends
// META: timeout=long
"use strict";

promise_test(async () => {
  window.count = 0;
  const done = [];
  for (let i = 0; i < 10000; i++) {
    const s = document.createElement("script");
    if (i % 100 === 0) {
      s.src = "resources/does-not-exist.js?" + i;
      done.push(new Promise(resolve => { s.onerror = resolve; }));
    } else {
      s.text = "count++";
    }
    document.head.appendChild(s);
  }
  await Promise.all(done);
  assert_equals(count, 9900);
}, "10,000 inserted scripts (100 of them 404s) all end with their events");

// The synthetic user of the TodoMVC examples: it types into the new-todo
// input and submits, clicks checkboxes and delete buttons, as a user would,
// and reads the DOM back after each phase. Every app renders the same
// markup (below), so one user drives them all:
//
//   form.new-todo-form > input.new-todo
//   ul.todo-list > li[.completed] > input.toggle, label, button.destroy
//   .todo-count > strong (items left), button.clear-completed
//
// Used two ways: the WPT tests (tests/wpt/tests/todomvc/) load this file and
// drive an app in an iframe with `TodoDriver.run(frame.contentWindow, ...)`;
// an app page opened with `#drive` drives itself (for `jsprof profile`).
(function (global) {
  "use strict";

  // One task turn: React 18 and Vue 3 render after the event, in a
  // microtask or a MessageChannel task; two turns cover both. A message,
  // not a timer: nested timers are clamped to 4 ms, which would make the
  // phases' times the clamp's rather than the work's.
  function settle(win) {
    return new Promise((resolve) => {
      const channel = new win.MessageChannel();
      channel.port1.onmessage = () => {
        channel.port1.close();
        resolve();
      };
      channel.port2.postMessage(null);
    });
  }
  async function idle(win) {
    await settle(win);
    await settle(win);
  }

  // Types `value` as testing tools do: through the prototype's setter, so
  // that a framework tracking the value itself (React) sees the change,
  // then the `input` event a keyboard would fire.
  function type(win, input, value) {
    const setter = Object.getOwnPropertyDescriptor(win.HTMLInputElement.prototype, "value").set;
    setter.call(input, value);
    input.dispatchEvent(new win.Event("input", { bubbles: true }));
  }

  async function add(win, title) {
    const doc = win.document;
    const input = doc.querySelector(".new-todo");
    if (!input) throw new Error("no .new-todo input: the app did not render");
    type(win, input, title);
    await idle(win);
    input.closest("form").requestSubmit();
    await idle(win);
  }

  function snapshot(win) {
    const doc = win.document;
    const items = Array.from(doc.querySelectorAll(".todo-list > li"));
    const strong = doc.querySelector(".todo-count strong");
    return {
      titles: items.map((li) => li.querySelector("label").textContent),
      completed: items.map((li) => li.classList.contains("completed")),
      checked: items.map((li) => li.querySelector(".toggle").checked),
      left: strong ? Number(strong.textContent) : null,
      input: doc.querySelector(".new-todo").value,
    };
  }

  // Waits until the app has rendered its input (frameworks mount after
  // their scripts run; module apps after the document is parsed).
  async function ready(win, timeoutMs = 5000) {
    const start = win.performance.now();
    while (!win.document.querySelector(".new-todo")) {
      if (win.performance.now() - start > timeoutMs) {
        throw new Error("the app did not render .new-todo within " + timeoutMs + " ms");
      }
      await settle(win);
    }
  }

  // The phases of the issue: add `count` items, toggle every other one,
  // delete the first `remove`, clear the completed ones. `phase(name,
  // snapshot, ms)` is called after each, with the phase's duration.
  async function run(win, { count = 100, remove = 25, phase = () => {} } = {}) {
    const doc = win.document;
    await ready(win);
    let start = win.performance.now();
    const done = (name) => {
      const now = win.performance.now();
      phase(name, snapshot(win), now - start);
      start = win.performance.now();
    };
    for (let i = 1; i <= count; i++) {
      await add(win, "Todo " + i);
    }
    done("add");

    // Each click finds its checkbox afresh: an app may rebuild the list
    // (the jQuery one re-renders it as HTML on every change).
    const total = doc.querySelectorAll(".todo-list > li").length;
    for (let i = 0; i < total; i += 2) {
      doc.querySelector(".todo-list > li:nth-child(" + (i + 1) + ") .toggle").click();
      await idle(win);
    }
    done("toggle");

    for (let i = 0; i < remove; i++) {
      doc.querySelector(".todo-list > li:first-child .destroy").click();
      await idle(win);
    }
    done("delete");

    doc.querySelector(".clear-completed").click();
    await idle(win);
    done("clear");
  }

  // What each phase must show, for `count` items and `remove` deletions:
  // items 1..count, every odd-numbered one (index 0, 2, ...) completed.
  function expected(count = 100, remove = 25) {
    const all = Array.from({ length: count }, (_, i) => ({ title: "Todo " + (i + 1), done: i % 2 === 0 }));
    const view = (items) => ({
      titles: items.map((t) => t.title),
      completed: items.map((t) => t.done),
      checked: items.map((t) => t.done),
      left: items.filter((t) => !t.done).length,
      input: "",
    });
    const fresh = all.map((t) => ({ title: t.title, done: false }));
    const kept = all.slice(remove);
    return {
      add: view(fresh),
      toggle: view(all),
      delete: view(kept),
      clear: view(kept.filter((t) => !t.done)),
    };
  }

  // The uncaught errors of this realm from here on (the app's scripts ran
  // before this file; an error there shows as an app that never renders).
  const errors = [];
  global.addEventListener("error", (event) => errors.push(String(event.message)));

  global.TodoDriver = { run, expected, snapshot, ready, errors };

  // `#drive`: the page drives itself once loaded and prints each phase.
  if (global.location && global.location.hash === "#drive") {
    global.addEventListener("load", () => {
      const want = expected();
      run(global, {
        phase(name, got, ms) {
          const ok = JSON.stringify(got) === JSON.stringify(want[name]);
          console.log("todomvc " + name + ": " + got.titles.length + " items, " + got.left + " left" + (ok ? "" : " (UNEXPECTED)") + " in " + ms.toFixed(1) + " ms");
        },
      }).catch((e) => console.error("todomvc: " + e));
    });
  }
})(globalThis);

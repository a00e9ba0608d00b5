// The TodoMVC example apps (examples/todomvc/), each loaded in an iframe
// and driven by the synthetic user of examples/todomvc/drive.js; then the
// same run under a Profiler created in the app's own realm.

// The libraries each app loads (served from the pinned npm packages).
const TODOMVC_LIBRARIES = {
  react: ["react.production.min.js", "react-dom.production.min.js"],
  preact: ["preact.umd.js", "hooks.umd.js"],
  vue: ["vue.global.prod.js"],
  jquery: ["jquery.min.js"],
  vanilla: [],
};

// Where each app's own code lives: the page (inline scripts) or its modules.
const TODOMVC_APP_CODE = {
  react: ["index.html"],
  preact: ["index.html"],
  vue: ["index.html"],
  jquery: ["index.html"],
  vanilla: ["app.js", "store.js", "view.js"],
};

function loadTodoApp(t, framework, query = "") {
  const frame = document.createElement("iframe");
  frame.src = `/examples/todomvc/${framework}/index.html${query}`;
  t.add_cleanup(() => frame.remove());
  return new Promise((resolve) => {
    frame.addEventListener("load", () => {
      const win = frame.contentWindow;
      // drive.js (loaded by the app page) records the app realm's
      // uncaught errors from then on.
      resolve({ win, errors: win.TodoDriver.errors });
    });
    document.body.appendChild(frame);
  });
}

function checkPhase(name, got, want) {
  assert_array_equals(got.titles, want.titles, `${name}: the list's labels`);
  assert_array_equals(got.completed, want.completed, `${name}: li.completed`);
  assert_array_equals(got.checked, want.checked, `${name}: the checkboxes`);
  assert_equals(got.left, want.left, `${name}: items left`);
  assert_equals(got.input, want.input, `${name}: the input is emptied`);
}

function todomvcTests(framework) {
  promise_test(async (t) => {
    const { win, errors } = await loadTodoApp(t, framework);
    const want = TodoDriver.expected();
    const phases = [];
    await TodoDriver.run(win, {
      phase(name, got) {
        phases.push(name);
        checkPhase(name, got, want[name]);
      },
    });
    assert_array_equals(phases, ["add", "toggle", "delete", "clear"]);
    assert_array_equals(errors, [], "uncaught errors in the app");
  }, `${framework}: add 100 todos, toggle 50, delete 25, clear the completed`);

  promise_test(async (t) => {
    const { win, errors } = await loadTodoApp(t, framework, "?pipe=header(Document-Policy,js-profiling)");
    await TodoDriver.ready(win);
    // The app's realm: its profiler sees its frames (a profiler sees only
    // its own realm's).
    const profiler = new win.Profiler({ sampleInterval: 1, maxBufferSize: 1000000 });
    await TodoDriver.run(win, { count: 100 });
    const trace = await profiler.stop();
    assert_array_equals(errors, [], "uncaught errors in the app");

    const base = new URL(`/examples/todomvc/`, location.href).href;
    const urlOf = (frame) => (frame.resourceId === undefined ? "" : trace.resources[frame.resourceId]);
    const named = (urls) => trace.frames.filter((f) => urls.includes(urlOf(f).split("?")[0]) && f.name);
    const libraries = TODOMVC_LIBRARIES[framework].map((f) => base + "vendor/" + f);
    // Sampling decides which library files show up: a small one (Preact's
    // hooks.umd.js: thin wrappers) can go unsampled in a run, so the check
    // is that the library code as a whole is there, each frame under its
    // own file's URL with 1-based positions.
    if (libraries.length > 0) {
      assert_greater_than(named(libraries).length, 0, `named functions of ${libraries.join(", ")} in the trace`);
    }
    for (const url of libraries) {
      assert_true(named([url]).every((f) => f.line > 0 && f.column > 0), `${url}: 1-based positions`);
    }
    const app = TODOMVC_APP_CODE[framework].map((f) => base + framework + "/" + f);
    const appFrames = named(app);
    assert_greater_than(appFrames.length, 0, `the app's own functions (${app.join(", ")}) in the trace`);
    // Nothing of another realm: the test page's own script never appears.
    assert_false(trace.resources.includes(location.href), "the test page is another realm");
  }, `${framework}: profiled in its own realm, library functions under the library's URL and the app's under its own`);
}

// META: title=Frame names of the kinds of functions
// META: script=resources/profiling-helpers.js
"use strict";

// Each kind of function runs under a named caller (`callX`), so that its
// frame is found as the callee of that caller whatever its own name is.
const WORK_MS = 120;

function declaredFunction() {
  return busyWait(WORK_MS);
}
const expressionVariable = function namedExpression() {
  return busyWait(WORK_MS);
};
const arrowFunction = () => busyWait(WORK_MS);
// Not a direct assignment to a binding: no name is inferred.
const anonymousFunction = [function () { return busyWait(WORK_MS); }][0];

class Shape {
  constructor(work) {
    if (work) {
      busyWait(WORK_MS);
    }
  }
  method() {
    return busyWait(WORK_MS);
  }
  static staticMethod() {
    return busyWait(WORK_MS);
  }
  get area() {
    return busyWait(WORK_MS);
  }
  set area(value) {
    busyWait(WORK_MS);
  }
}

function boundTarget() {
  return busyWait(WORK_MS);
}
const boundFunction = boundTarget.bind(null);

const CALLS = {
  callDeclared() { declaredFunction(); },
  callExpression() { expressionVariable(); },
  callArrow() { arrowFunction(); },
  callAnonymous() { anonymousFunction(); },
  callMethod() { new Shape(false).method(); },
  callStaticMethod() { Shape.staticMethod(); },
  callConstructor() { new Shape(true); },
  callGetter() { return new Shape(false).area; },
  callSetter() { new Shape(false).area = 1; },
  callBound() { boundFunction(); },
};

function runAll() {
  for (const name of Object.keys(CALLS)) {
    CALLS[name]();
  }
}

// The names of the frames sampled directly inside caller `callerName`.
function calleeNames(trace, callerName) {
  const names = new Set();
  for (const stack of sampledStacks(trace)) {
    const index = stack.findIndex((frame) => frame.name === callerName);
    if (index > 0) {
      names.add(stack[index - 1].name);
    }
  }
  return [...names];
}

let trace;
promise_setup(async () => {
  trace = await profileWork(runAll, {
    accept: (t) => Object.keys(CALLS).every((caller) => calleeNames(t, caller).length > 0),
  });
  assertTraceIsWellFormed(trace);
});

function calleeTest(caller, expected, description) {
  promise_test(async () => {
    const names = calleeNames(trace, caller);
    assert_greater_than(names.length, 0, "samples were taken inside " + caller);
    assert_array_equals(names, [expected], "the frame called by " + caller);
  }, description);
}

calleeTest("callDeclared", "declaredFunction", "a function declaration is named by its identifier");
calleeTest("callExpression", "namedExpression", "a named function expression has its own name");
calleeTest("callArrow", "arrowFunction", "an arrow function assigned to a binding gets the inferred name");
calleeTest("callAnonymous", "", "an anonymous function has an empty name");
calleeTest("callMethod", "method", "a class method is named by its property name");
calleeTest("callStaticMethod", "staticMethod", "a static method is named by its property name");
calleeTest("callConstructor", "Shape", "a class constructor is named by its class");
calleeTest("callGetter", "get area", "a getter is named 'get x'");
calleeTest("callSetter", "set area", "a setter is named 'set x'");
calleeTest("callBound", "boundTarget",
  "a bound function has no frame of its own: its target's frame is sampled");

promise_test(async () => {
  assert_false(frameNames(trace).includes("bound boundTarget"), "no 'bound' frame");
}, "no frame is named after the bound function object");

// HTML Standard
// https://html.spec.whatwg.org/multipage/workers.html#dedicated-workers-and-the-dedicatedworkerglobalscope-interface
//
// Deviations: `postMessage` has only the `(message)` form: no transfer list
// or StructuredSerializeOptions (no overloads in the generator, no
// transferable objects in the shell; extra arguments are ignored, the
// message is cloned). No `rtc*`/`requestAnimationFrame`.
[Global=(Worker,DedicatedWorker), Exposed=DedicatedWorker]
interface DedicatedWorkerGlobalScope : WorkerGlobalScope {
  readonly attribute DOMString name;

  undefined postMessage(any message);

  undefined close();

  attribute EventHandler onmessage;
  attribute EventHandler onmessageerror;
};

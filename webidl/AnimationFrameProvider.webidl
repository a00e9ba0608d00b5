// HTML Standard
// https://html.spec.whatwg.org/multipage/imagebitmap-and-animations.html#animation-frames
//
// Deviation: only Window includes the mixin (the standard also has
// `DedicatedWorkerGlobalScope includes AnimationFrameProvider`, supported
// only for workers whose owner is a window and only in some browsers):
// a dedicated worker here has no rendering step, so it does not expose it.

callback FrameRequestCallback = undefined (DOMHighResTimeStamp time);

interface mixin AnimationFrameProvider {
  unsigned long requestAnimationFrame(FrameRequestCallback callback);
  undefined cancelAnimationFrame(unsigned long handle);
};

Window includes AnimationFrameProvider;

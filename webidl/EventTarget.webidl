// DOM Standard
// https://dom.spec.whatwg.org/#interface-eventtarget

[Exposed=*]
interface EventTarget {
  constructor();

  undefined addEventListener(DOMString type, EventListener? callback, optional (AddEventListenerOptions or boolean) options = {});
  undefined removeEventListener(DOMString type, EventListener? callback, optional (EventListenerOptions or boolean) options = {});
  boolean dispatchEvent(Event event);
};

// https://dom.spec.whatwg.org/#callbackdef-eventlistener
callback interface EventListener {
  undefined handleEvent(Event event);
};

// https://dom.spec.whatwg.org/#dictdef-eventlisteneroptions
dictionary EventListenerOptions {
  boolean capture = false;
};

// https://dom.spec.whatwg.org/#dictdef-addeventlisteneroptions
// Deviation: the `AbortSignal signal;` member is left out until the engine
// has AbortSignal.
dictionary AddEventListenerOptions : EventListenerOptions {
  boolean passive;
  boolean once = false;
};

// HTML Standard
// https://html.spec.whatwg.org/multipage/web-messaging.html#message-channels
// Deviations: MessagePort is not [Transferable] (no transfer lists), so a
// channel's ports stay in the realm that made them; `postMessage` has no
// transfer/options argument (no overloads in the generator).

[Exposed=(Window,Worker)]
interface MessageChannel {
  constructor();
  readonly attribute MessagePort port1;
  readonly attribute MessagePort port2;
};

[Exposed=(Window,Worker)]
interface MessagePort : EventTarget {
  undefined postMessage(any message);
  undefined start();
  undefined close();

  attribute EventHandler onmessage;
  attribute EventHandler onmessageerror;
};

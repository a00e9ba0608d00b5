// High Resolution Time
// https://w3c.github.io/hr-time/#sec-performance

[Exposed=*]
interface Performance : EventTarget {
  DOMHighResTimeStamp now();
  readonly attribute DOMHighResTimeStamp timeOrigin;
};

// High Resolution Time
// https://w3c.github.io/hr-time/#dom-domhighrestimestamp

typedef double DOMHighResTimeStamp;

// Console Standard
// https://console.spec.whatwg.org/#console-namespace
// Deviation: a namespace in the standard; an interface here (the generator
// has no namespaces), reached through `Window.console`. Only the logging
// methods the shell needs.

[Exposed=*]
interface Console {
  undefined log(any... data);
  undefined info(any... data);
  undefined debug(any... data);
  undefined warn(any... data);
  undefined error(any... data);
};

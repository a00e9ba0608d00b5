// Interface mixins: the members of `interface mixin` (attributes,
// operations, constants) are flattened into every interface that
// includes it, after the interface's own members; a member with its own
// [Exposed] only into the interfaces exposed there.
[Exposed=(Window,Worker)]
interface mixin Shared {
  const unsigned short LEVEL = 1;
  readonly attribute DOMString origin;
  attribute boolean flag;
  long schedule(optional long delay = 0);
  [Exposed=Window] undefined windowOnly();
};

[Exposed=Window]
interface Page {
  readonly attribute DOMString title;
  undefined close();
};
Page includes Shared;

[Exposed=Worker]
interface WorkerScope {
  undefined importScripts(USVString... urls);
};
WorkerScope includes Shared;

// Partial definitions: their members join the interface or mixin; a
// partial's [Exposed] limits where its members go.
partial interface Page {
  readonly attribute long fromPartial;
};

[Exposed=Worker]
partial interface Page {
  readonly attribute long workerOnlyPartial;
};

[Exposed=Worker]
partial interface mixin Shared {
  undefined workerOnlyMixinMember();
};

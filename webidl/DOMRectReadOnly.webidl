// Geometry Interfaces Module Level 1
// https://drafts.fxtf.org/geometry/#domrectreadonly
// Without the static fromRect(), toJSON() and DOMRectInit.

[Exposed=Window]
interface DOMRectReadOnly {
  constructor(optional unrestricted double x = 0, optional unrestricted double y = 0,
    optional unrestricted double width = 0, optional unrestricted double height = 0);

  readonly attribute unrestricted double x;
  readonly attribute unrestricted double y;
  readonly attribute unrestricted double width;
  readonly attribute unrestricted double height;
  readonly attribute unrestricted double top;
  readonly attribute unrestricted double right;
  readonly attribute unrestricted double bottom;
  readonly attribute unrestricted double left;
};

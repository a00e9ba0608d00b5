// Geometry Interfaces Module Level 1
// https://drafts.fxtf.org/geometry/#domrect

[Exposed=Window]
interface DOMRect : DOMRectReadOnly {
  constructor(optional unrestricted double x = 0, optional unrestricted double y = 0,
    optional unrestricted double width = 0, optional unrestricted double height = 0);

  attribute unrestricted double x;
  attribute unrestricted double y;
  attribute unrestricted double width;
  attribute unrestricted double height;
};

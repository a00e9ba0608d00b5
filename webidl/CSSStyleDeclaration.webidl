// CSS Object Model
// https://drafts.csswg.org/cssom/#the-cssstyledeclaration-interface
// Deviations: no `parentRule`, no `[LegacyNullToEmptyString]` (null becomes "null"), no
// `[CEReactions]`. The camel-cased attributes
// (https://drafts.csswg.org/cssom/#dom-cssstyledeclaration-camel-cased-attribute)
// are listed for the common properties below; the dashed attributes
// (`style["background-color"]`) are not exposed: use getPropertyValue.

[Exposed=Window]
interface CSSStyleDeclaration {
  attribute DOMString cssText;
  readonly attribute unsigned long length;
  getter DOMString item(unsigned long index);
  DOMString getPropertyValue(DOMString property);
  DOMString getPropertyPriority(DOMString property);
  undefined setProperty(DOMString property, DOMString value, optional DOMString priority = "");
  DOMString removeProperty(DOMString property);

  // https://drafts.csswg.org/cssom/#dom-cssstyledeclaration-cssfloat
  attribute DOMString cssFloat;

  // Camel-cased attributes
  attribute DOMString alignContent;
  attribute DOMString alignItems;
  attribute DOMString alignSelf;
  attribute DOMString animation;
  attribute DOMString background;
  attribute DOMString backgroundColor;
  attribute DOMString backgroundImage;
  attribute DOMString backgroundPosition;
  attribute DOMString backgroundRepeat;
  attribute DOMString backgroundSize;
  attribute DOMString border;
  attribute DOMString borderBottom;
  attribute DOMString borderCollapse;
  attribute DOMString borderColor;
  attribute DOMString borderLeft;
  attribute DOMString borderRadius;
  attribute DOMString borderRight;
  attribute DOMString borderStyle;
  attribute DOMString borderTop;
  attribute DOMString borderWidth;
  attribute DOMString bottom;
  attribute DOMString boxShadow;
  attribute DOMString boxSizing;
  attribute DOMString clear;
  attribute DOMString color;
  attribute DOMString content;
  attribute DOMString cursor;
  attribute DOMString display;
  attribute DOMString fill;
  attribute DOMString flex;
  attribute DOMString flexBasis;
  attribute DOMString flexDirection;
  attribute DOMString flexFlow;
  attribute DOMString flexGrow;
  attribute DOMString flexShrink;
  attribute DOMString flexWrap;
  attribute DOMString font;
  attribute DOMString fontFamily;
  attribute DOMString fontSize;
  attribute DOMString fontStyle;
  attribute DOMString fontWeight;
  attribute DOMString gap;
  attribute DOMString gridTemplateColumns;
  attribute DOMString gridTemplateRows;
  attribute DOMString height;
  attribute DOMString justifyContent;
  attribute DOMString left;
  attribute DOMString letterSpacing;
  attribute DOMString lineHeight;
  attribute DOMString listStyle;
  attribute DOMString margin;
  attribute DOMString marginBottom;
  attribute DOMString marginLeft;
  attribute DOMString marginRight;
  attribute DOMString marginTop;
  attribute DOMString maxHeight;
  attribute DOMString maxWidth;
  attribute DOMString minHeight;
  attribute DOMString minWidth;
  attribute DOMString opacity;
  attribute DOMString outline;
  attribute DOMString overflow;
  attribute DOMString overflowX;
  attribute DOMString overflowY;
  attribute DOMString padding;
  attribute DOMString paddingBottom;
  attribute DOMString paddingLeft;
  attribute DOMString paddingRight;
  attribute DOMString paddingTop;
  attribute DOMString pointerEvents;
  attribute DOMString position;
  attribute DOMString right;
  attribute DOMString stroke;
  attribute DOMString textAlign;
  attribute DOMString textDecoration;
  attribute DOMString textOverflow;
  attribute DOMString textTransform;
  attribute DOMString top;
  attribute DOMString transform;
  attribute DOMString transformOrigin;
  attribute DOMString transition;
  attribute DOMString userSelect;
  attribute DOMString verticalAlign;
  attribute DOMString visibility;
  attribute DOMString whiteSpace;
  attribute DOMString width;
  attribute DOMString wordBreak;
  attribute DOMString wordWrap;
  attribute DOMString zIndex;
};

// SVG 2
// https://svgwg.org/svg2-draft/types.html#InterfaceSVGElement
// Without `className` (an SVGAnimatedString), `ownerSVGElement`,
// `viewportElement` and the SVGElementInstance mixin. The
// HTMLOrSVGElement and ElementCSSInlineStyle mixins' members are written
// here (the generator's mixins cannot be shared with HTMLElement's
// flattened copy yet).

[Exposed=Window]
interface SVGElement : Element {
  // https://html.spec.whatwg.org/multipage/dom.html#htmlorsvgelement
  attribute long tabIndex;
  undefined focus(optional FocusOptions options = {});
  undefined blur();
};

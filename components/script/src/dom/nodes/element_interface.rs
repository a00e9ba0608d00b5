//! The element interface for a name
//! (<https://html.spec.whatwg.org/multipage/dom.html#element-interface>)
//! and the interface of an element in another namespace: the one table
//! from which "create an element" ([`Element::create`], used by the HTML
//! parser, `createElement` and `createElementNS`) picks the struct, and so
//! the prototype, of a new element.

use mozjs::context::JSContext;

use crate::dom::bindings::reflector::reflect_dom_object;
use crate::dom::bindings::root::DomRoot;
use crate::dom::html::htmlanchorelement::HTMLAnchorElement;
use crate::dom::html::htmlbodyelement::HTMLBodyElement;
use crate::dom::html::htmlbuttonelement::HTMLButtonElement;
use crate::dom::html::htmldivelement::HTMLDivElement;
use crate::dom::html::htmlelement::HTMLElement;
use crate::dom::html::htmlformelement::HTMLFormElement;
use crate::dom::html::htmlheadelement::HTMLHeadElement;
use crate::dom::html::htmlheadingelement::HTMLHeadingElement;
use crate::dom::html::htmlhtmlelement::HTMLHtmlElement;
use crate::dom::html::htmliframeelement::HTMLIFrameElement;
use crate::dom::html::htmlimageelement::HTMLImageElement;
use crate::dom::html::htmlinputelement::HTMLInputElement;
use crate::dom::html::htmllabelelement::HTMLLabelElement;
use crate::dom::html::htmllielement::HTMLLIElement;
use crate::dom::html::htmllinkelement::HTMLLinkElement;
use crate::dom::html::htmlmetaelement::HTMLMetaElement;
use crate::dom::html::htmlolistelement::HTMLOListElement;
use crate::dom::html::htmloptionelement::HTMLOptionElement;
use crate::dom::html::htmlparagraphelement::HTMLParagraphElement;
use crate::dom::html::htmlscriptelement::HTMLScriptElement;
use crate::dom::html::htmlselectelement::HTMLSelectElement;
use crate::dom::html::htmlspanelement::HTMLSpanElement;
use crate::dom::html::htmlstyleelement::HTMLStyleElement;
use crate::dom::html::htmltemplateelement::HTMLTemplateElement;
use crate::dom::html::htmltextareaelement::HTMLTextAreaElement;
use crate::dom::html::htmltitleelement::HTMLTitleElement;
use crate::dom::html::htmlulistelement::HTMLUListElement;
use crate::dom::html::htmlunknownelement::HTMLUnknownElement;
use crate::dom::html::svgelement::SVGElement;
use crate::dom::nodes::document::Document;
use crate::dom::nodes::element::{Element, HTML_NAMESPACE};

/// The SVG namespace.
pub const SVG_NAMESPACE: &str = "http://www.w3.org/2000/svg";

/// HTML elements whose element interface is `HTMLElement` itself, from
/// the element index (<https://html.spec.whatwg.org/multipage/indices.html#elements-3>)
/// and the obsolete names step 2 of "element interface" maps to
/// `HTMLElement`.
const HTMLELEMENT_NAMES: &[&str] = &[
    "abbr",
    "address",
    "article",
    "aside",
    "b",
    "bdi",
    "bdo",
    "cite",
    "code",
    "dd",
    "dfn",
    "dt",
    "em",
    "figcaption",
    "figure",
    "footer",
    "header",
    "hgroup",
    "i",
    "kbd",
    "main",
    "mark",
    "nav",
    "noscript",
    "rp",
    "rt",
    "ruby",
    "s",
    "samp",
    "search",
    "section",
    "small",
    "strong",
    "sub",
    "summary",
    "sup",
    "u",
    "var",
    "wbr", // Step 2's obsolete names:
    "acronym",
    "basefont",
    "big",
    "center",
    "nobr",
    "noembed",
    "noframes",
    "plaintext",
    "rb",
    "rtc",
    "strike",
    "tt",
];

/// HTML elements the standard gives an interface of their own that the
/// shell does not implement yet: they get `HTMLElement` (a deviation:
/// `instanceof HTMLTableElement` and the like fail; their own attributes
/// are missing).
const UNIMPLEMENTED_NAMES: &[&str] = &[
    "area",
    "audio",
    "base",
    "blockquote",
    "br",
    "canvas",
    "caption",
    "col",
    "colgroup",
    "data",
    "datalist",
    "del",
    "details",
    "dialog",
    "dir",
    "dl",
    "embed",
    "fieldset",
    "font",
    "frame",
    "frameset",
    "hr",
    "ins",
    "legend",
    "listing",
    "map",
    "marquee",
    "menu",
    "meter",
    "object",
    "optgroup",
    "output",
    "param",
    "picture",
    "pre",
    "progress",
    "q",
    "slot",
    "source",
    "table",
    "tbody",
    "td",
    "tfoot",
    "th",
    "thead",
    "time",
    "tr",
    "track",
    "video",
    "xmp",
];

/// <https://html.spec.whatwg.org/multipage/custom-elements.html#valid-custom-element-name>
/// (the PotentialCustomElementName production: an ASCII lower alpha, then
/// a hyphen somewhere, no ASCII upper alpha; the reserved names excluded).
pub fn is_valid_custom_element_name(name: &str) -> bool {
    const RESERVED: &[&str] = &[
        "annotation-xml",
        "color-profile",
        "font-face",
        "font-face-src",
        "font-face-uri",
        "font-face-format",
        "font-face-name",
        "missing-glyph",
    ];
    name.starts_with(|c: char| c.is_ascii_lowercase())
        && name.contains('-')
        && !name.chars().any(|c| c.is_ascii_uppercase())
        && !RESERVED.contains(&name)
}

/// Creates the element struct for `namespace` and `local_name`, wrapped
/// in a reflector of its interface
/// (<https://dom.spec.whatwg.org/#concept-create-element>, steps 6.1 and
/// 7: "let interface be the element interface for localName and
/// namespace").
pub fn create(
    cx: &mut JSContext,
    document: &Document,
    namespace: Option<&str>,
    prefix: Option<&str>,
    local_name: &str,
) -> DomRoot<Element> {
    let global = document.upcast_node().global();
    let element = Element::new_inherited(document, namespace, prefix, local_name);
    macro_rules! make {
        ($t:ty) => {
            reflect_dom_object(cx, global, Box::new(<$t>::new_inherited(element)), None)
                .upcast::<Element>()
        };
    }
    match namespace {
        // <https://html.spec.whatwg.org/multipage/dom.html#element-interface>
        Some(HTML_NAMESPACE) => match local_name {
            // Step 1: If name is applet, bgsound, blink, isindex, keygen,
            // multicol, nextid, or spacer, then return HTMLUnknownElement.
            "applet" | "bgsound" | "blink" | "isindex" | "keygen" | "multicol" | "nextid"
            | "spacer" => make!(HTMLUnknownElement),
            // Step 4: If this specification defines an interface
            // appropriate for the element type corresponding to the local
            // name name, then return that interface.
            "a" => make!(HTMLAnchorElement),
            "body" => make!(HTMLBodyElement),
            "button" => make!(HTMLButtonElement),
            "div" => make!(HTMLDivElement),
            "form" => make!(HTMLFormElement),
            "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => make!(HTMLHeadingElement),
            "head" => make!(HTMLHeadElement),
            "html" => make!(HTMLHtmlElement),
            "iframe" => make!(HTMLIFrameElement),
            "img" => make!(HTMLImageElement),
            "input" => make!(HTMLInputElement),
            "label" => make!(HTMLLabelElement),
            "li" => make!(HTMLLIElement),
            "link" => make!(HTMLLinkElement),
            "meta" => make!(HTMLMetaElement),
            "ol" => make!(HTMLOListElement),
            "option" => make!(HTMLOptionElement),
            "p" => make!(HTMLParagraphElement),
            "script" => make!(HTMLScriptElement),
            "select" => make!(HTMLSelectElement),
            "span" => make!(HTMLSpanElement),
            "style" => make!(HTMLStyleElement),
            "template" => {
                let template = reflect_dom_object(
                    cx,
                    global,
                    Box::new(HTMLTemplateElement::new_inherited(element)),
                    None,
                );
                // "When a template element is created, the user agent must
                // run the following steps to establish the template
                // contents."
                template.establish_template_contents(cx, document);
                template.upcast::<Element>()
            }
            "textarea" => make!(HTMLTextAreaElement),
            "title" => make!(HTMLTitleElement),
            "ul" => make!(HTMLUListElement),
            // Step 2: acronym, basefont, ... tt: HTMLElement; and the
            // elements whose interface is HTMLElement.
            name if HTMLELEMENT_NAMES.contains(&name) => make!(HTMLElement),
            // Step 3 (listing, xmp: HTMLPreElement) and Step 4 for the
            // interfaces not implemented: HTMLElement (see
            // UNIMPLEMENTED_NAMES).
            name if UNIMPLEMENTED_NAMES.contains(&name) => make!(HTMLElement),
            // Step 5: If name is a valid custom element name, then return
            // HTMLElement.
            name if is_valid_custom_element_name(name) => make!(HTMLElement),
            // Step 6: Return HTMLUnknownElement.
            _ => make!(HTMLUnknownElement),
        },
        // The SVG namespace: SVGElement (no more specific SVG interface is
        // implemented).
        Some(SVG_NAMESPACE) => make!(SVGElement),
        // Step 6.2 of "create an element": Element for every other
        // namespace (and for null).
        _ => reflect_dom_object(cx, global, Box::new(element), None),
    }
}

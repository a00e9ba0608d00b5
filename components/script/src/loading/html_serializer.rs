//! HTML's fragment serialization algorithm
//! (<https://html.spec.whatwg.org/multipage/parsing.html#serialising-html-fragments>),
//! the getters of `innerHTML` and `outerHTML`. Iterative, so a tree of any
//! depth serializes without exhausting the thread's stack.

use crate::dom::bindings::root::DomRoot;
use crate::dom::html::htmltemplateelement::HTMLTemplateElement;
use crate::dom::nodes::element::{Element, HTML_NAMESPACE};
use crate::dom::nodes::node::{Node, NodeKind};

const MATHML_NAMESPACE: &str = "http://www.w3.org/1998/Math/MathML";
const SVG_NAMESPACE: &str = "http://www.w3.org/2000/svg";

/// One step of the walk: serialize a node (its start, contents and end),
/// or close an element whose children are done.
enum Step {
    Open(DomRoot<Node>),
    Close(String),
}

/// The HTML fragment serialization algorithm on `node`: its children
/// serialized (the `innerHTML` getter).
pub fn serialize_children(node: &Node) -> String {
    let mut s = String::new();
    // Step 1: If the node serializes as void, then return the empty string.
    if node
        .root_ref()
        .downcast::<Element>()
        .is_some_and(|e| serializes_as_void(&e))
    {
        return s;
    }
    // Steps 2-5.
    let steps = serializable_children(node)
        .into_iter()
        .rev()
        .map(Step::Open)
        .collect();
    run(&mut s, steps);
    // Step 6: Return s.
    s
}

/// The HTML fragment serialization algorithm on a fictional node whose
/// only child is `node` (the `outerHTML` getter).
pub fn serialize_node(node: &Node) -> String {
    let mut s = String::new();
    run(&mut s, vec![Step::Open(node.root_ref())]);
    s
}

/// Step 3: If the node is a template element, then let the node instead be
/// the template element's template contents; then its children.
fn serializable_children(node: &Node) -> Vec<DomRoot<Node>> {
    match node.root_ref().downcast::<HTMLTemplateElement>() {
        Some(template) => template.contents().upcast_node().children(),
        None => node.children(),
    }
}

/// <https://html.spec.whatwg.org/multipage/parsing.html#serializes-as-void>:
/// an HTML element whose type is a void element, or basefont, bgsound,
/// frame, keygen, or param.
fn serializes_as_void(element: &Element) -> bool {
    element.namespace() == Some(HTML_NAMESPACE)
        && matches!(
            element.local_name(),
            "area"
                | "base"
                | "br"
                | "col"
                | "embed"
                | "hr"
                | "img"
                | "input"
                | "link"
                | "meta"
                | "source"
                | "track"
                | "wbr"
                | "basefont"
                | "bgsound"
                | "frame"
                | "keygen"
                | "param"
        )
}

/// Step 5 for each child node, in tree order (children pushed in reverse
/// so they pop in order).
fn run(s: &mut String, mut steps: Vec<Step>) {
    while let Some(step) = steps.pop() {
        let current = match step {
            Step::Close(tagname) => {
                s.push_str("</");
                s.push_str(&tagname);
                s.push('>');
                continue;
            }
            // Step 5.1: Let current node be the child node being processed.
            Step::Open(node) => node,
        };
        // Step 5.2: Append the appropriate string from the following list
        // to s:
        match current.kind() {
            // If current node is an Element:
            NodeKind::Element => {
                let Some(element) = current.downcast::<Element>() else {
                    continue;
                };
                // If current node is an element in the HTML namespace, the
                // MathML namespace, or the SVG namespace, then let tagname
                // be current node's local name. Otherwise, let tagname be
                // current node's qualified name.
                let tagname = match element.namespace() {
                    Some(HTML_NAMESPACE | MATHML_NAMESPACE | SVG_NAMESPACE) => {
                        element.local_name().to_owned()
                    }
                    _ => element.qualified_name(),
                };
                // Append a U+003C LESS-THAN SIGN character (<), followed by
                // tagname.
                s.push('<');
                s.push_str(&tagname);
                // For each attribute that the element has, append a U+0020
                // SPACE character, the attribute's serialized name as
                // described below, a U+003D EQUALS SIGN character (=), a
                // U+0022 QUOTATION MARK character ("), the attribute's
                // value, escaped as described below in attribute mode, and
                // a second U+0022 QUOTATION MARK character (").
                for (name, value) in element.attribute_list() {
                    s.push(' ');
                    s.push_str(&name);
                    s.push_str("=\"");
                    escape(s, &value, true);
                    s.push('"');
                }
                // Append a U+003E GREATER-THAN SIGN character (>).
                s.push('>');
                // If current node serializes as void, then continue on to
                // the next child node at this point.
                if serializes_as_void(&element) {
                    continue;
                }
                // Append the value of running the HTML fragment
                // serialization algorithm with current node, followed by a
                // U+003C LESS-THAN SIGN character (<), a U+002F SOLIDUS
                // character (/), tagname again, and finally a U+003E
                // GREATER-THAN SIGN character (>).
                steps.push(Step::Close(tagname));
                steps.extend(
                    serializable_children(&current)
                        .into_iter()
                        .rev()
                        .map(Step::Open),
                );
            }
            // If current node is a Text node:
            NodeKind::Text => {
                let data = current
                    .character_data()
                    .map(|c| c.data())
                    .unwrap_or_default();
                // If the parent of current node is a style, script, xmp,
                // iframe, noembed, noframes, or plaintext element, or if
                // the parent of current node is a noscript element and
                // scripting is enabled for the node, then append the value
                // of current node's data IDL attribute literally.
                let literal = current
                    .parent()
                    .and_then(|p| p.downcast::<Element>())
                    .is_some_and(|p| {
                        p.namespace() == Some(HTML_NAMESPACE)
                            && matches!(
                                p.local_name(),
                                "style"
                                    | "script"
                                    | "xmp"
                                    | "iframe"
                                    | "noembed"
                                    | "noframes"
                                    | "plaintext"
                                    | "noscript"
                            )
                    });
                if literal {
                    s.push_str(&data);
                } else {
                    // Otherwise, append the value of current node's data
                    // IDL attribute, escaped as described below.
                    escape(s, &data, false);
                }
            }
            // If current node is a Comment: append "<!--", the value of
            // current node's data IDL attribute, and "-->".
            NodeKind::Comment => {
                let data = current
                    .character_data()
                    .map(|c| c.data())
                    .unwrap_or_default();
                s.push_str("<!--");
                s.push_str(&data);
                s.push_str("-->");
            }
            // Documents and fragments are never children.
            NodeKind::Document | NodeKind::DocumentFragment | NodeKind::Attribute => {}
        }
    }
}

/// <https://html.spec.whatwg.org/multipage/parsing.html#escapingString>
fn escape(s: &mut String, value: &str, attribute_mode: bool) {
    for c in value.chars() {
        match c {
            // Step 1: Replace any occurrence of the "&" character by the
            // string "&amp;".
            '&' => s.push_str("&amp;"),
            // Step 2: Replace any occurrences of the U+00A0 NO-BREAK SPACE
            // character by the string "&nbsp;".
            '\u{a0}' => s.push_str("&nbsp;"),
            // Step 3: Replace any occurrences of the "<" character by the
            // string "&lt;".
            '<' => s.push_str("&lt;"),
            // Step 4: Replace any occurrences of the ">" character by the
            // string "&gt;".
            '>' => s.push_str("&gt;"),
            // Step 5: If the algorithm was invoked in the attribute mode,
            // then replace any occurrences of the """ character by the
            // string "&quot;".
            '"' if attribute_mode => s.push_str("&quot;"),
            c => s.push(c),
        }
    }
}

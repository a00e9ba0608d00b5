//! What the HTML parser's tree sink hands to html5ever: cheap handles,
//! element names borrowed from the DOM, and the nesting depth limit.
//!
//! # The depth limit
//!
//! Browsers cap how deep the parser nests elements (Blink and WebKit:
//! `kMaximumHTMLParserDOMTreeDepth = 512`): past the cap, a new element is
//! attached next to its would-be parent instead of inside it, so a
//! pathological document becomes a flat run of siblings at the cap. We do
//! the same with the same number, [`MAX_DEPTH`], and go one step further
//! for the parser's own stack of open elements, which html5ever, like the
//! spec, scans from the top on nearly every start tag ("has a `p` element
//! in button scope" walks the whole stack when no scope marker is on it):
//! an element attached past the cap is closed when the next start tag
//! arrives, so the stack never holds more than about `MAX_DEPTH` elements
//! and building the tree stays linear in the document's size, whatever its
//! depth.
//!
//! What a document past the cap gets, precisely: up to depth `MAX_DEPTH`
//! (the document is depth 0, `<html>` depth 1) the tree is exactly what
//! the HTML Standard builds. An element whose parent would be at depth
//! `MAX_DEPTH` is appended to that parent's parent instead (depth
//! `MAX_DEPTH`); its text and void children stay inside it, but the next
//! start tag first closes it (an end tag with its name goes to the tree
//! builder), so its would-be element children become its following
//! siblings. End tags later in the source that meant the elements closed
//! this way find them already closed and close the next matching open
//! element, as for any misnested end tag.

use std::cell::{Cell, RefCell};
use std::ops::Deref;
use std::rc::Rc;

use html5ever::interface::{ElemName, Tracer};
use html5ever::tokenizer::{Tag, TagKind, Token, TokenSink, TokenSinkResult};
use html5ever::tree_builder::TreeBuilder;
use html5ever::{local_name, ns, LocalName, Namespace};

use crate::dom::bindings::reflector::{unwrap_dom_object, DomObject};
use crate::dom::bindings::root::DomRoot;
use crate::dom::nodes::element::Element;
use crate::dom::nodes::node::Node;

/// The deepest an element is nested by the parser (the document is at
/// depth 0, its document element at 1). Blink's and WebKit's number.
pub const MAX_DEPTH: usize = 512;

/// A node as html5ever holds it. html5ever clones handles freely (every
/// step of a scope check clones one), so a handle is a reference-counted
/// pointer to one rooted node rather than a root of its own per clone; it
/// also keeps the node's `Element`, found once, since the scope checks ask
/// for element names far more often than anything else.
#[derive(Clone)]
pub struct ParserHandle(Rc<HandleInner>);

struct HandleInner {
    node: DomRoot<Node>,
    /// The node as an `Element`, or null. Valid while `node` roots it: the
    /// Rust object of a reflector is boxed and never moves.
    element: *const Element,
}

impl ParserHandle {
    pub fn new(node: DomRoot<Node>) -> ParserHandle {
        // SAFETY: `node` roots the reflector.
        let element = unsafe { unwrap_dom_object::<Element>(node.reflector().get_jsobject()) }
            .map_or(std::ptr::null(), |e| e as *const Element);
        ParserHandle(Rc::new(HandleInner { node, element }))
    }

    /// Whether both handles are the same node.
    pub fn same(&self, other: &ParserHandle) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
            || self.0.node.reflector_object() == other.0.node.reflector_object()
    }

    /// Whether both are clones of one handle. html5ever gets each element's
    /// handle once, from `create_element`, so for elements this is the
    /// same as [`ParserHandle::same`], without reading either node.
    pub fn is(&self, other: &ParserHandle) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }

    /// The element this handle is, borrowed for as long as the handle.
    pub fn element(&self) -> Option<&Element> {
        // SAFETY: null or the Element that `self.0.node` keeps alive.
        unsafe { self.0.element.as_ref() }
    }
}

impl Deref for ParserHandle {
    type Target = DomRoot<Node>;
    fn deref(&self) -> &DomRoot<Node> {
        &self.0.node
    }
}

/// An element's expanded name, borrowed from the element.
pub struct ElementNameRef<'a> {
    ns: &'a Namespace,
    local: &'a LocalName,
}

/// The name html5ever gets for a non-element (it asks only for elements).
static NO_NAMESPACE: Namespace = ns!();
static NO_LOCAL_NAME: LocalName = local_name!("");

thread_local! {
    /// Per thread, not per agent: a count of the thread's work that only
    /// grows (tests read differences), not state an agent could leak.
    static NAME_LOOKUPS: Cell<u64> = const { Cell::new(0) };
}

/// How many element names the tree builder has asked for on this thread:
/// the unit of work of its scope checks, which walk the stack of open
/// elements. A test parses documents of growing depth and checks this
/// grows linearly (a count, unlike a time, does not depend on the
/// machine).
pub fn name_lookups() -> u64 {
    NAME_LOOKUPS.with(Cell::get)
}

impl<'a> ElementNameRef<'a> {
    pub fn of(handle: &'a ParserHandle) -> ElementNameRef<'a> {
        NAME_LOOKUPS.with(|n| n.set(n.get() + 1));
        match handle.element() {
            Some(element) => ElementNameRef {
                ns: element.namespace_atom(),
                local: element.local_name_atom(),
            },
            None => ElementNameRef {
                ns: &NO_NAMESPACE,
                local: &NO_LOCAL_NAME,
            },
        }
    }
}

impl std::fmt::Debug for ElementNameRef<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.local)
    }
}

impl ElemName for ElementNameRef<'_> {
    fn ns(&self) -> &Namespace {
        self.ns
    }
    fn local_name(&self) -> &LocalName {
        self.local
    }
}

/// The tree sink's side of the depth limit: where an appended node goes,
/// and the elements attached past the cap that may still be open.
#[derive(Default)]
pub struct DepthCap {
    past_cap: RefCell<Vec<ParserHandle>>,
}

impl DepthCap {
    /// The node to append a new child node to, given the parent html5ever
    /// chose: the parent itself, or its parent when the child would be
    /// nested deeper than [`MAX_DEPTH`]. Remembers such a child element so
    /// that [`DepthLimiter`] closes it at the next start tag.
    pub fn parent_for(&self, parent: &ParserHandle, child: &ParserHandle) -> ParserHandle {
        if parent.depth() < MAX_DEPTH {
            return parent.clone();
        }
        let Some(grandparent) = parent.parent() else {
            return parent.clone();
        };
        // A `form` is never closed early: closing it would clear the form
        // element pointer, which decides the form owner of later controls
        // (and `<form>` does not nest, so forms cannot deepen the stack).
        if child.element().is_some_and(|e| !e.is_html("form")) {
            self.past_cap.borrow_mut().push(child.clone());
        }
        ParserHandle::new(grandparent)
    }

    fn take(&self) -> Vec<ParserHandle> {
        std::mem::take(&mut *self.past_cap.borrow_mut())
    }
}

/// Implemented by the tree sink, so the limiter can reach its [`DepthCap`].
pub trait HasDepthCap {
    fn depth_cap(&self) -> &DepthCap;
}

/// A token sink between html5ever's tokenizer and tree builder: before a
/// start tag, it closes the elements attached past the depth cap that are
/// still open (see the module documentation).
pub struct DepthLimiter<Sink> {
    pub tree_builder: TreeBuilder<ParserHandle, Sink>,
}

/// Finds which of some handles html5ever still holds (stack of open
/// elements, list of active formatting elements, element pointers).
struct StillHeld<'a> {
    candidates: &'a [ParserHandle],
    held: Vec<Cell<bool>>,
}

impl Tracer for StillHeld<'_> {
    type Handle = ParserHandle;
    fn trace_handle(&self, node: &ParserHandle) {
        for (candidate, held) in self.candidates.iter().zip(&self.held) {
            if candidate.is(node) {
                held.set(true);
            }
        }
    }
}

impl<Sink> TokenSink for DepthLimiter<Sink>
where
    Sink: html5ever::interface::TreeSink<Handle = ParserHandle> + HasDepthCap,
{
    type Handle = ParserHandle;

    fn process_token(&self, token: Token, line_number: u64) -> TokenSinkResult<ParserHandle> {
        if let Token::TagToken(Tag {
            kind: TagKind::StartTag,
            ..
        }) = &token
        {
            let past_cap = self.tree_builder.sink.depth_cap().take();
            if !past_cap.is_empty() {
                // Only elements html5ever still holds are closed: one it
                // never pushed (a void element) or already popped is not,
                // or its end tag would close an outer element.
                let still = StillHeld {
                    candidates: &past_cap,
                    held: past_cap.iter().map(|_| Cell::new(false)).collect(),
                };
                self.tree_builder.trace_handles(&still);
                for (element, held) in past_cap.iter().zip(&still.held).rev() {
                    let Some(name) = element.element().map(|e| e.local_name_atom().clone()) else {
                        continue;
                    };
                    if held.get() {
                        let end_tag = Token::TagToken(Tag {
                            kind: TagKind::EndTag,
                            name,
                            self_closing: false,
                            attrs: Vec::new(),
                            had_duplicate_attributes: false,
                        });
                        // An end tag never starts a script here: the
                        // elements closed are not in raw text (a start
                        // tag is being processed).
                        let _ = self.tree_builder.process_token(end_tag, line_number);
                    }
                }
            }
        }
        self.tree_builder.process_token(token, line_number)
    }

    fn end(&self) {
        self.tree_builder.end()
    }

    fn adjusted_current_node_present_but_not_in_html_namespace(&self) -> bool {
        self.tree_builder
            .adjusted_current_node_present_but_not_in_html_namespace()
    }
}

//! The steps other specifications hook into the DOM's tree algorithms, per
//! element type (as Servo's `VirtualMethods`): insertion, post-connection,
//! removing, children changed, attribute change and cloning steps.
//!
//! The tree code (`node/`, `element.rs`) runs them through the functions
//! of this module and names no element type; an element type that has
//! such steps implements [`VirtualMethods`], and [`with_vtable`] is the one
//! place that knows which types do.

use mozjs::context::JSContext;

use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::root::DomRoot;
use crate::dom::html::htmlelement::HTMLElement;
use crate::dom::html::htmliframeelement::HTMLIFrameElement;
use crate::dom::html::htmlinputelement::HTMLInputElement;
use crate::dom::html::htmloptionelement::HTMLOptionElement;
use crate::dom::html::htmlscriptelement::HTMLScriptElement;
use crate::dom::html::htmltemplateelement::HTMLTemplateElement;
use crate::dom::nodes::documentfragment::DocumentFragment;
use crate::dom::nodes::element::Element;
use crate::dom::nodes::node::Node;

/// An element type's steps in the DOM's tree algorithms; each defaults to
/// none.
pub(crate) trait VirtualMethods {
    /// The insertion steps
    /// (<https://dom.spec.whatwg.org/#concept-node-insert-ext>), run for
    /// each inclusive descendant of an inserted node once the whole subtree
    /// is connected.
    fn insertion_steps(&self) {}

    /// The post-connection steps
    /// (<https://dom.spec.whatwg.org/#concept-node-post-connection-ext>) of
    /// a node that just became connected, run after every insertion step.
    /// Steps that run script only queue themselves here; they run in
    /// [`run_post_connection_steps`], once the calling DOM method's
    /// mutations are done.
    fn post_connection_steps(&self) {}

    /// The removing steps
    /// (<https://dom.spec.whatwg.org/#concept-node-remove-ext>), run for the
    /// removed node and each of its descendants once the subtree is
    /// disconnected.
    fn removing_steps(&self) {}

    /// The children changed steps
    /// (<https://dom.spec.whatwg.org/#concept-node-children-changed-ext>).
    fn children_changed(&self) {}

    /// The attribute change steps
    /// (<https://dom.spec.whatwg.org/#concept-element-attributes-change-ext>)
    /// for the attribute `name` (no namespace), now `value` (`None`:
    /// removed).
    fn attribute_changed(&self, _name: &str, _value: Option<&str>) {}

    /// The cloning steps
    /// (<https://dom.spec.whatwg.org/#concept-node-clone-ext>) given this
    /// node, its `copy` (of the same type) and `subtree`.
    fn cloning_steps(&self, _cx: &mut JSContext, _copy: &Node, _subtree: bool) -> Fallible<()> {
        Ok(())
    }

    /// The template contents, for an element that has them
    /// (<https://html.spec.whatwg.org/multipage/scripting.html#template-contents>):
    /// the fragment parsing algorithm's context is then its contents.
    fn template_contents(&self) -> Option<DomRoot<DocumentFragment>> {
        None
    }
}

/// Runs `f` with `node`'s [`VirtualMethods`], if its type has any.
fn with_vtable<R>(node: &Node, f: impl FnOnce(&dyn VirtualMethods) -> R) -> Option<R> {
    let node = node.root_ref();
    if let Some(script) = node.downcast::<HTMLScriptElement>() {
        return Some(f(&*script));
    }
    if let Some(iframe) = node.downcast::<HTMLIFrameElement>() {
        return Some(f(&*iframe));
    }
    if let Some(template) = node.downcast::<HTMLTemplateElement>() {
        return Some(f(&*template));
    }
    if let Some(input) = node.downcast::<HTMLInputElement>() {
        return Some(f(&*input));
    }
    if let Some(option) = node.downcast::<HTMLOptionElement>() {
        return Some(f(&*option));
    }
    None
}

/// [`VirtualMethods::insertion_steps`] of `node`.
pub(crate) fn insertion_steps(node: &Node) {
    with_vtable(node, |v| v.insertion_steps());
}

/// [`VirtualMethods::post_connection_steps`] of `node`.
pub(crate) fn post_connection_steps(node: &Node) {
    with_vtable(node, |v| v.post_connection_steps());
}

/// [`VirtualMethods::removing_steps`] of `node`.
pub(crate) fn removing_steps(node: &Node) {
    with_vtable(node, |v| v.removing_steps());
}

/// [`VirtualMethods::children_changed`] of `parent`.
pub(crate) fn children_changed(parent: &Node) {
    with_vtable(parent, |v| v.children_changed());
}

/// The attribute change steps of `element` for `name`: HTML's for every
/// HTML element (the `style` attribute), then its own type's.
pub(crate) fn attribute_changed(element: &Element, name: &str, value: Option<&str>) {
    with_vtable(element.upcast_node(), |v| v.attribute_changed(name, value));
    if name == "style" {
        if let Some(style) = DomRoot::from_ref(element)
            .downcast::<HTMLElement>()
            .and_then(|e| e.existing_style())
        {
            style.style_attribute_changed(value);
        }
    }
}

/// [`VirtualMethods::cloning_steps`] of `node`, given its `copy`.
pub(crate) fn cloning_steps(
    cx: &mut JSContext,
    node: &Node,
    copy: &Node,
    subtree: bool,
) -> Fallible<()> {
    with_vtable(node, |v| v.cloning_steps(cx, copy, subtree)).unwrap_or(Ok(()))
}

/// [`VirtualMethods::template_contents`] of `element`.
pub(crate) fn template_contents(element: &Element) -> Option<DomRoot<DocumentFragment>> {
    with_vtable(element.upcast_node(), |v| v.template_contents()).flatten()
}

/// Runs the post-connection steps that the DOM operation which just
/// finished queued (called by every binding method that inserts, removes
/// or sets attributes, once its mutations are done, as DOM's "insert" runs
/// them after all insertions), and queues the mutation observer microtask
/// for the records it queued.
pub(crate) fn run_post_connection_steps(cx: &mut JSContext) {
    crate::loading::script_element::run_post_connection_steps(cx);
}

//! The agent's navigables (<https://html.spec.whatwg.org/multipage/document-sequences.html#navigables>):
//! a top-level traversable and the child navigables of its `<iframe>`s,
//! each with its own `Window` global (its own realm, in the one
//! SpiderMonkey context of the agent), kept in a per-thread registry.
//!
//! The registry roots every navigable's global and container element
//! until the runtime goes away ([`shut_down`]). Code refers to another
//! browsing context by its [`NavigableId`], never by holding an object of
//! the other realm, and [`window_proxy_for`] decides what a realm sees of
//! another window: the `Window` itself when same origin, a
//! `CrossOriginWindow` view otherwise.

use std::cell::RefCell;
use std::ptr::NonNull;
use std::rc::Rc;

use jsprof_document::Origin;
use mozjs::context::JSContext;
use mozjs::gc::RootedTraceableBox;
use mozjs::jsapi::{Heap, JSObject};

use crate::dom::bindings::conversions::RootedJsObject;
use crate::dom::bindings::root::DomRoot;
use crate::dom::crossoriginwindow::CrossOriginWindow;
use crate::dom::globalscope::GlobalScope;
use crate::dom::htmliframeelement::HTMLIFrameElement;
use crate::dom::window::Window;
use crate::script_loading::Loader;

/// A navigable's index in the registry.
pub type NavigableId = usize;

/// The deepest `<iframe>` nesting a page may have (a page framing itself
/// stops here instead of recursing forever).
pub const MAX_NESTING_DEPTH: usize = 8;

/// The most navigables one page load may create.
pub const MAX_NAVIGABLES: usize = 64;

struct Navigable {
    /// The active window's global object.
    global: RootedTraceableBox<Heap<*mut JSObject>>,
    /// <https://html.spec.whatwg.org/multipage/document-sequences.html#nav-parent>
    parent: Option<NavigableId>,
    /// <https://html.spec.whatwg.org/multipage/document-sequences.html#nav-container>
    container: Option<DomRoot<HTMLIFrameElement>>,
}

thread_local! {
    /// The blob URL store when no loader is set (scripts evaluated
    /// without a page).
    static FALLBACK_BLOB_STORE: std::sync::Arc<jsprof_net::BlobStore> =
        std::sync::Arc::new(jsprof_net::BlobStore::new());
    static NAVIGABLES: RefCell<Vec<Navigable>> = const { RefCell::new(Vec::new()) };
    static LOADER: RefCell<Option<Rc<dyn Loader>>> = const { RefCell::new(None) };
}

/// Registers `global` (a Window global) as a navigable.
pub fn register(
    global: *mut JSObject,
    parent: Option<NavigableId>,
    container: Option<DomRoot<HTMLIFrameElement>>,
) -> NavigableId {
    let root = RootedTraceableBox::new(Heap::default());
    root.set(global);
    NAVIGABLES.with(|n| {
        let mut n = n.borrow_mut();
        n.push(Navigable {
            global: root,
            parent,
            container,
        });
        n.len() - 1
    })
}

/// How many navigables exist.
pub fn count() -> usize {
    NAVIGABLES.with(|n| n.borrow().len())
}

/// The global object of navigable `id`.
pub fn global_of(id: NavigableId) -> Option<*mut JSObject> {
    NAVIGABLES.with(|n| n.borrow().get(id).map(|nav| nav.global.get()))
}

/// The `Window` of navigable `id`.
pub fn window_of<'a>(id: NavigableId) -> Option<&'a Window> {
    let global = global_of(id)?;
    // SAFETY: the registry roots the global until shut_down.
    unsafe { GlobalScope::from_global(global) }.as_window()
}

pub fn parent_of(id: NavigableId) -> Option<NavigableId> {
    NAVIGABLES.with(|n| n.borrow().get(id).and_then(|nav| nav.parent))
}

pub fn container_of(id: NavigableId) -> Option<DomRoot<HTMLIFrameElement>> {
    NAVIGABLES.with(|n| n.borrow().get(id).and_then(|nav| nav.container.clone()))
}

/// <https://html.spec.whatwg.org/multipage/document-sequences.html#nav-top>
pub fn top_of(mut id: NavigableId) -> NavigableId {
    while let Some(parent) = parent_of(id) {
        id = parent;
    }
    id
}

/// How many ancestors `id` has.
pub fn depth_of(mut id: NavigableId) -> usize {
    let mut depth = 0;
    while let Some(parent) = parent_of(id) {
        id = parent;
        depth += 1;
    }
    depth
}

/// <https://html.spec.whatwg.org/multipage/document-sequences.html#child-navigable>
/// of `id`, in creation order.
pub fn children_of(id: NavigableId) -> Vec<NavigableId> {
    NAVIGABLES.with(|n| {
        n.borrow()
            .iter()
            .enumerate()
            .filter(|(_, nav)| nav.parent == Some(id))
            .map(|(i, _)| i)
            .collect()
    })
}

/// Calls `f` with the global of `id` and of each of its descendant
/// navigables.
pub fn for_each_inclusive_descendant(id: NavigableId, mut f: impl FnMut(&GlobalScope)) {
    let mut pending = vec![id];
    while let Some(id) = pending.pop() {
        if let Some(global) = global_of(id) {
            // SAFETY: the registry roots the global until shut_down.
            f(unsafe { GlobalScope::from_global(global) });
        }
        pending.extend(children_of(id));
    }
}

/// The navigable whose container is `iframe`.
pub fn navigable_of_container(iframe: &HTMLIFrameElement) -> Option<NavigableId> {
    NAVIGABLES.with(|n| {
        n.borrow().iter().position(|nav| {
            nav.container
                .as_ref()
                .is_some_and(|c| std::ptr::eq(&**c, iframe))
        })
    })
}

/// The loader of the page (child navigables load through it too).
pub fn set_loader(loader: Rc<dyn Loader>) {
    LOADER.with(|l| *l.borrow_mut() = Some(loader));
}

pub fn loader() -> Option<Rc<dyn Loader>> {
    LOADER.with(|l| l.borrow().clone())
}

/// <https://w3c.github.io/FileAPI/#blob-url-store>: the loader's (shared
/// with the fetcher, so `blob:` URLs load), else a per-thread one.
pub fn blob_store() -> std::sync::Arc<jsprof_net::BlobStore> {
    match loader() {
        Some(loader) => loader.blob_store(),
        None => FALLBACK_BLOB_STORE.with(|s| s.clone()),
    }
}

/// Drops every root; called before the context goes away.
pub(crate) fn shut_down() {
    let navigables = NAVIGABLES.with(|n| std::mem::take(&mut *n.borrow_mut()));
    drop(navigables);
    LOADER.with(|l| l.borrow_mut().take());
}

/// What the current realm's code gets for the window of navigable
/// `target`: its `Window` (wrapped for this compartment by the caller's
/// conversion) when the current global's origin is the same as the
/// target's, else a `CrossOriginWindow` view created in the current realm
/// (one per accessing window and target, so `frames[0] ===
/// iframe.contentWindow`). `cx` is in the accessing realm.
///
/// The check is HTML's IsPlatformObjectSameOrigin
/// (<https://html.spec.whatwg.org/multipage/nav-history-apis.html#isplatformobjectsameorigin-(-o-)>):
/// the current settings object's origin and the target's document's
/// origin are same origin.
pub fn window_proxy_for(cx: &mut JSContext, target: NavigableId) -> Option<RootedJsObject> {
    let target_window = window_of(target)?;
    let current = unsafe { GlobalScope::current(cx) }?;
    let result = RootedTraceableBox::new(Heap::default());
    let accessor = current.as_window();
    let same_origin = accessor.is_none_or(|w| w.origin().same_origin(&target_window.origin()));
    if same_origin {
        result.set(global_of(target)?);
        return Some(result);
    }
    let accessor = accessor?;
    let view = accessor.cross_origin_view(cx, target, |cx| {
        CrossOriginWindow::create(cx, current, target)
    });
    result.set(view);
    Some(result)
}

/// The origin a new document at `url` gets in navigable `parent`'s child:
/// `about:blank` and `about:srcdoc` inherit the creator's origin, other
/// URLs have their own.
/// <https://html.spec.whatwg.org/multipage/document-sequences.html#determining-the-origin>
pub fn determine_origin(url: &url::Url, creator: Option<&Origin>) -> Origin {
    // Step 1: If sandboxFlags has its sandboxed origin browsing context
    // flag set, then return a new opaque origin. (No sandboxing.)
    // Step 2: If url is null, then return a new opaque origin.
    // Step 3: If url is about:srcdoc, then return the parent's origin.
    // Step 4: If url matches about:blank and sourceOrigin is non-null,
    // then return sourceOrigin.
    if url.scheme() == "about" && matches!(url.path(), "blank" | "srcdoc") {
        if let Some(creator) = creator {
            return creator.clone();
        }
    }
    // Step 5: Return url's origin.
    Origin::of(url)
}

/// The global of navigable `id`, as a non-null pointer.
pub fn global_ptr(id: NavigableId) -> Option<NonNull<JSObject>> {
    global_of(id).and_then(NonNull::new)
}

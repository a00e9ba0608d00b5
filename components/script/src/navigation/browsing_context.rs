//! The agent's navigables (<https://html.spec.whatwg.org/multipage/document-sequences.html#navigables>):
//! a top-level traversable and the child navigables of its `<iframe>`s,
//! each with its own `Window` global (its own realm, in the one
//! SpiderMonkey context of the agent), kept in the agent's registry
//! ([`Navigables`], a field of [`crate::runtime::agent::Agent`]).
//!
//! The registry roots every navigable's global and container element
//! until the agent's teardown ([`Navigables::shut_down`]), before the
//! context goes; a thread's next runtime starts with no navigable. Code refers to another
//! browsing context by its [`NavigableId`], never by holding an object of
//! the other realm; script reaches another window through its WindowProxy
//! ([`window_proxy_of`], `crate::navigation::windowproxy`), one object for the
//! navigable's lifetime, whose wrapper in each realm decides what that
//! realm sees (everything when same origin, HTML's cross-origin properties
//! otherwise).

use std::cell::RefCell;
use std::ptr::NonNull;
use std::rc::Rc;

use jsprof_document::Origin;
use mozjs::context::JSContext;
use mozjs::gc::RootedTraceableBox;
use mozjs::jsapi::{Heap, JSObject};
use mozjs::realm::AutoRealm;
use mozjs::rooted;

use crate::dom::bindings::conversions::RootedJsObject;
use crate::dom::bindings::root::DomRoot;
use crate::dom::globals::globalscope::GlobalScope;
use crate::dom::globals::window::Window;
use crate::dom::html::htmliframeelement::HTMLIFrameElement;
use crate::dom::nodes::document::Document;
use crate::loading::script_loading::Loader;
use crate::runtime::event_loop::EventLoop;

/// A navigable's index in the registry.
pub type NavigableId = usize;

/// The deepest `<iframe>` nesting a page may have (a page framing itself
/// stops here instead of recursing forever).
pub const MAX_NESTING_DEPTH: usize = 8;

/// The most navigables one page load may create.
pub const MAX_NAVIGABLES: usize = 64;

struct Navigable {
    /// The active window's global object (null once destroyed).
    global: RootedTraceableBox<Heap<*mut JSObject>>,
    /// <https://html.spec.whatwg.org/multipage/document-sequences.html#nav-parent>
    parent: Option<NavigableId>,
    /// <https://html.spec.whatwg.org/multipage/document-sequences.html#nav-container>
    container: Option<DomRoot<HTMLIFrameElement>>,
    /// Destroyed (<https://html.spec.whatwg.org/multipage/document-sequences.html#destroy-a-child-navigable>):
    /// its roots are dropped and its id is never reused.
    destroyed: bool,
    /// Whether the active document is the initial `about:blank` one
    /// (<https://html.spec.whatwg.org/multipage/dom.html#is-initial-about:blank>),
    /// whose Window a same-origin navigation keeps.
    initial_about_blank: bool,
    /// The latest navigation's number: a queued navigation commits only if
    /// no later one (or the navigable's destruction) superseded it.
    navigation: u64,
    /// Whether this navigable's loading delays its container's node
    /// document's load event
    /// (<https://html.spec.whatwg.org/multipage/iframe-embed-object.html#the-iframe-element>:
    /// "delay the load event" while the content navigable navigates).
    delaying_load: bool,
}

/// The agent's navigables, its page's loader and its blob URL store
/// without one (a field of [`crate::runtime::agent::Agent`]).
pub(crate) struct Navigables {
    list: RefCell<Vec<Navigable>>,
    loader: RefCell<Option<Rc<dyn Loader>>>,
    /// The blob URL store when no loader is set (scripts evaluated
    /// without a page).
    fallback_blob_store: std::sync::Arc<jsprof_net::BlobStore>,
}

impl Default for Navigables {
    fn default() -> Self {
        Navigables {
            list: RefCell::new(Vec::new()),
            loader: RefCell::new(None),
            fallback_blob_store: std::sync::Arc::new(jsprof_net::BlobStore::new()),
        }
    }
}

impl Navigables {
    /// Drops every root and the loader (the agent's teardown, before the
    /// context goes away).
    pub(crate) fn shut_down(&self) {
        let navigables = std::mem::take(&mut *self.list.borrow_mut());
        drop(navigables);
        let loader = self.loader.borrow_mut().take();
        drop(loader);
    }
}

static NAVIGABLES: crate::runtime::agent::AgentLocal<RefCell<Vec<Navigable>>> =
    crate::runtime::agent::AgentLocal(|a| &a.navigables.list);
static LOADER: crate::runtime::agent::AgentLocal<RefCell<Option<Rc<dyn Loader>>>> =
    crate::runtime::agent::AgentLocal(|a| &a.navigables.loader);

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
            destroyed: false,
            initial_about_blank: false,
            navigation: 0,
            delaying_load: false,
        });
        n.len() - 1
    })
}

/// How many navigables exist (not destroyed).
pub fn count() -> usize {
    NAVIGABLES.with(|n| n.borrow().iter().filter(|nav| !nav.destroyed).count())
}

/// The global object of navigable `id` (none once destroyed).
pub fn global_of(id: NavigableId) -> Option<*mut JSObject> {
    NAVIGABLES.with(|n| {
        n.borrow()
            .get(id)
            .filter(|nav| !nav.destroyed)
            .map(|nav| nav.global.get())
    })
}

/// Whether navigable `id` was destroyed (its container removed).
pub fn is_destroyed(id: NavigableId) -> bool {
    NAVIGABLES.with(|n| n.borrow().get(id).is_none_or(|nav| nav.destroyed))
}

/// Runs `f` on navigable `id`'s entry, if it exists and is not destroyed.
fn with_navigable<R>(id: NavigableId, f: impl FnOnce(&mut Navigable) -> R) -> Option<R> {
    NAVIGABLES.with(|n| {
        n.borrow_mut()
            .get_mut(id)
            .filter(|nav| !nav.destroyed)
            .map(f)
    })
}

/// Makes `global` the active window of navigable `id` (a navigation that
/// created a new Window).
pub(crate) fn set_global(id: NavigableId, global: *mut JSObject) {
    with_navigable(id, |nav| nav.global.set(global));
}

pub(crate) fn is_initial_about_blank(id: NavigableId) -> bool {
    with_navigable(id, |nav| nav.initial_about_blank).unwrap_or(false)
}

pub(crate) fn set_initial_about_blank(id: NavigableId, value: bool) {
    with_navigable(id, |nav| nav.initial_about_blank = value);
}

/// Starts a navigation of `id`: returns its number (see
/// [`is_current_navigation`]).
pub(crate) fn begin_navigation(id: NavigableId) -> Option<u64> {
    with_navigable(id, |nav| {
        nav.navigation += 1;
        nav.navigation
    })
}

/// Whether navigation `number` of `id` is still the latest, and `id` is
/// not destroyed.
pub(crate) fn is_current_navigation(id: NavigableId, number: u64) -> bool {
    with_navigable(id, |nav| nav.navigation == number).unwrap_or(false)
}

/// Sets whether `id`'s loading delays its container document's load event;
/// returns the previous value.
pub(crate) fn set_delaying_load(id: NavigableId, value: bool) -> bool {
    with_navigable(id, |nav| std::mem::replace(&mut nav.delaying_load, value)).unwrap_or(false)
}

/// The `Window` of navigable `id`, rooted (so it stays alive while the
/// caller holds it, whatever happens to the navigable meanwhile).
pub fn window_of(id: NavigableId) -> Option<DomRoot<Window>> {
    let global = global_of(id)?;
    // SAFETY: the registry roots the global of a navigable that is not
    // destroyed; the reference lives only until DomRoot roots it.
    unsafe { GlobalScope::from_global(global) }
        .as_window()
        .map(DomRoot::from_ref)
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
            .filter(|(_, nav)| nav.parent == Some(id) && !nav.destroyed)
            .map(|(i, _)| i)
            .collect()
    })
}

/// The top-level traversables (navigables without a parent) that are not
/// destroyed, in creation order.
pub fn top_level_navigables() -> Vec<NavigableId> {
    NAVIGABLES.with(|n| {
        n.borrow()
            .iter()
            .enumerate()
            .filter(|(_, nav)| nav.parent.is_none() && !nav.destroyed)
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
            !nav.destroyed
                && nav
                    .container
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
/// with the fetcher, so `blob:` URLs load), else the agent's own.
pub fn blob_store() -> std::sync::Arc<jsprof_net::BlobStore> {
    match loader() {
        Some(loader) => loader.blob_store(),
        None => crate::runtime::agent::current()
            .navigables
            .fallback_blob_store
            .clone(),
    }
}

/// The active WindowProxy of navigable `target`
/// (<https://html.spec.whatwg.org/multipage/document-sequences.html#nav-wp>),
/// an object of its active window's compartment (the bindings wrap it for
/// the caller's: a same-origin caller sees through the wrapper, another
/// sees only the cross-origin properties); `None` once the navigable is
/// destroyed.
pub fn window_proxy_of(target: NavigableId) -> Option<RootedJsObject> {
    let global = global_of(target)?;
    let result = RootedTraceableBox::new(Heap::default());
    result.set(crate::navigation::windowproxy::window_proxy_of_global(
        global,
    ));
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

/// <https://html.spec.whatwg.org/multipage/document-sequences.html#create-a-new-child-navigable>
/// for `element` (an `<iframe>` whose node document `document` has a
/// browsing context): a new Window global (a new realm of this agent) with
/// the initial `about:blank` document, whose origin is the parent
/// document's, registered as a child of the document's navigable, and the
/// parent's `frames[i]`. Returns `None` when a limit is reached
/// ([`MAX_NESTING_DEPTH`], [`MAX_NAVIGABLES`]) or the global cannot be
/// made (said on stderr).
pub fn create_child_navigable(
    cx: &mut JSContext,
    element: &HTMLIFrameElement,
    document: &Document,
) -> Option<NavigableId> {
    let parent_global = document.upcast_node().global();
    let parent_window = parent_global.as_window()?;
    // Step 1: Let parentNavigable be element's node navigable.
    let parent_id = parent_window.navigable_id();
    // Limits: a page framing itself (or too many frames) stops here.
    if depth_of(parent_id) + 1 > MAX_NESTING_DEPTH || count() >= MAX_NAVIGABLES {
        eprintln!(
            "{}: iframe not loaded: too many nested or total frames",
            document.url()
        );
        return None;
    }
    // Step 2: Let group be element's node navigable's traversable's
    // browsing context group. Step 3: Let browsingContext and document be
    // the result of creating a new browsing context and document given
    // element's node document, element, and group: a new Window global.
    let global = new_window_global(cx, parent_global, &document.url())?;
    // Steps 4-8: the document state and navigable, with parent
    // parentNavigable; Step 9: Set element's content navigable to
    // navigable (its container).
    let id = register(global, Some(parent_id), Some(DomRoot::from_ref(element)));
    // SAFETY: the registry roots the global.
    let child_window = unsafe { GlobalScope::from_global(global) }.as_window()?;
    child_window.set_navigable_id(id);
    // Creating a new browsing context and document: the initial
    // about:blank Document, whose origin is the creator's (the parent
    // document's origin, "determining the origin" step 4), in a secure
    // context when its parent's is.
    let blank = url::Url::parse("about:blank").expect("about:blank parses");
    child_window.set_origin(determine_origin(&blank, Some(&parent_window.origin())));
    // SAFETY: `global` is the live global just created for the child.
    crate::runtime::profiling::note_realm_origin(unsafe { GlobalScope::from_global(global) });
    child_window.set_secure_context(parent_window.is_secure_context());
    let child_global = NonNull::new(global)?;
    {
        let mut realm = AutoRealm::new(cx, child_global);
        // SAFETY: the registry roots the global.
        let scope = unsafe { GlobalScope::from_global(global) };
        // https://webidl.spec.whatwg.org/#SecureContext: a child of a
        // secure context has the [SecureContext] interfaces and members.
        crate::dom::bindings::glue::expose_secure_context_members_if_secure(&mut realm, scope)
            .ok()?;
        let initial = Document::new(&mut realm, scope, blank);
        initial.set_ready_state(crate::dom::nodes::document::DocumentReadyState::Complete);
        child_window.set_document(&initial);
    }
    set_initial_about_blank(id, true);
    // (The parent's WindowProxy gives the new child as `frames[i]`.)
    Some(id)
}

/// What a navigation of a child navigable loads.
pub enum NavigationTarget {
    /// A URL to fetch.
    Url(url::Url),
    /// `about:srcdoc` with the `srcdoc` attribute's value as its source.
    Srcdoc(String),
}

/// "Navigate an iframe or frame"
/// (<https://html.spec.whatwg.org/multipage/iframe-embed-object.html#navigate-an-iframe-or-frame>)
/// for navigable `id`: the container's node document delays its load
/// event, and a task fetches and loads the document (the fetch runs "in
/// parallel" in HTML; here the task blocks on it). A later navigation or
/// the navigable's destruction supersedes a queued one.
pub fn navigate(id: NavigableId, target: NavigationTarget) {
    let Some(number) = begin_navigation(id) else {
        return;
    };
    if !set_delaying_load(id, true) {
        if let Some(document) = container_of(id).and_then(|c| c.element().upcast_node().owner_doc())
        {
            document.delay_load();
        }
    }
    EventLoop::current().queue_task(Box::new(move |cx| {
        if is_current_navigation(id, number) {
            load_in_child_navigable(cx, id, target);
        }
    }));
}

/// The fetch and the document load of a child navigable's navigation
/// (<https://html.spec.whatwg.org/multipage/browsing-the-web.html#navigate>,
/// "create navigation params by fetching", "initialise the document
/// object"): the Window of the initial `about:blank` document is kept for
/// a same-origin document (step "if browsingContext's active document is
/// the initial about:blank and its origin is same origin-domain with
/// navigationParams's origin, reuse the Window"); any other document gets
/// a new Window global (a new realm), and the old realm is discarded (its
/// profiler sessions stop, its workers are terminated, its timers
/// cleared). A failed fetch leaves an empty document with an opaque
/// origin (an error page), in a new Window too.
fn load_in_child_navigable(cx: &mut JSContext, id: NavigableId, target: NavigationTarget) {
    let (Some(container), Some(parent_id)) = (container_of(id), parent_of(id)) else {
        return;
    };
    let Some(parent_window) = window_of(parent_id) else {
        return;
    };
    let Some(loader) = loader() else {
        HTMLIFrameElement::queue_iframe_load_event_steps(container);
        return;
    };
    let top_url = window_of(top_of(id)).map_or_else(|| parent_window.url(), |w| w.url());
    let creator_origin = parent_window.origin();
    // The response: fetched, or made from the srcdoc attribute
    // ("create navigation params from a srcdoc resource": status 200, a
    // `Content-Type: text/html` header, the value as body).
    let response = match target {
        NavigationTarget::Url(url) => {
            crate::loading::script_loading::fetch_navigation_response(&*loader, &url)
        }
        NavigationTarget::Srcdoc(source) => {
            let mut headers = jsprof_document::HeaderList::new();
            headers.append("content-type", "text/html");
            Ok(jsprof_net::RawResponse {
                url: url::Url::parse("about:srcdoc").expect("about:srcdoc parses"),
                status: 200,
                status_text: "OK".to_owned(),
                headers,
                body: source.into_bytes(),
            })
        }
    };
    let new_origin = response
        .as_ref()
        .ok()
        .map(|r| determine_origin(&r.url, Some(&creator_origin)));
    let Some(current) = window_of(id) else {
        return;
    };
    let reuse = is_initial_about_blank(id)
        && new_origin
            .as_ref()
            .is_some_and(|o| o.same_origin(&current.origin()));
    let window = if reuse {
        current
    } else {
        match new_window_for(cx, id, &parent_window) {
            Some(window) => window,
            None => {
                HTMLIFrameElement::queue_iframe_load_event_steps(container);
                return;
            }
        }
    };
    set_initial_about_blank(id, false);
    let Some(global) = NonNull::new(window.global_object()) else {
        return;
    };
    {
        let mut realm = AutoRealm::new(cx, global);
        let creator = Some((creator_origin, top_url));
        let loaded = response.map_err(|e| e.to_string()).and_then(|response| {
            crate::loading::script_loading::load_fetched_document(
                &mut realm, &window, response, loader, creator,
            )
            .map_err(|e| e.to_string())
        });
        if let Err(error) = loaded {
            // A failed navigation leaves an empty document (an error page
            // in browsers) with an opaque origin; the iframe still gets
            // its load event.
            eprintln!("{error}");
            // SAFETY: the registry roots the global.
            let scope = unsafe { GlobalScope::from_global(global.as_ptr()) };
            let blank = Document::new(
                &mut realm,
                scope,
                url::Url::parse("about:blank").expect("about:blank parses"),
            );
            window.set_document(&blank);
            window.set_origin(Origin::new_opaque());
            crate::runtime::profiling::note_realm_origin(scope);
            HTMLIFrameElement::queue_iframe_load_event_steps(container);
        }
        crate::runtime::perform_microtask_checkpoint(&mut realm);
    }
    // (The parent's `frames[i]` still is the child's WindowProxy, now
    // standing for the new window.)
}

/// A new Window global for navigable `id`'s next document; the previous
/// window's realm is discarded.
fn new_window_for(cx: &mut JSContext, id: NavigableId, parent: &Window) -> Option<DomRoot<Window>> {
    if let Some(old) = window_of(id) {
        discard_realm(scope_of(&old));
    }
    let parent_global = scope_of(parent);
    let new_global = new_window_global(cx, parent_global, &parent.url())?;
    rooted!(&in(cx) let global = new_global);
    // (Read after the allocations above: the registry roots the old
    // global, a copy of the pointer would not follow a moving GC.)
    let old_global = global_of(id)?;
    // The browsing context's WindowProxy now stands for the new Window
    // ("set the active document": the WindowProxy's [[Window]] becomes
    // the new Window; every realm's reference to it keeps its identity).
    if let Err(message) = crate::navigation::windowproxy::transplant_window_proxy(
        cx,
        old_global,
        NonNull::new(global.get())?,
    ) {
        eprintln!("{}: {message}", parent.url());
        return None;
    }
    set_global(id, global.get());
    let window = window_of(id)?;
    window.set_navigable_id(id);
    Some(window)
}

/// A new Window global (a new realm of this agent) for a child of the
/// window `parent` (same prefs, same reported errors list); `None`, said
/// on stderr with the parent's URL `url`, if SpiderMonkey cannot make it.
fn new_window_global(
    cx: &mut JSContext,
    parent: &GlobalScope,
    url: &url::Url,
) -> Option<*mut JSObject> {
    match GlobalScope::create_global(
        cx,
        crate::dom::globals::globalscope::GlobalKind::Window,
        parent.prefs().clone(),
        parent.reported_errors_handle(),
    ) {
        Ok(global) => Some(global),
        Err(message) => {
            eprintln!("{url}: no window for an iframe: {message}");
            None
        }
    }
}

/// The global scope of `window`.
fn scope_of(window: &Window) -> &GlobalScope {
    // SAFETY: a live Window's reflector is its global.
    unsafe { GlobalScope::from_global(window.global_object()) }
}

/// Discards the realm of a window whose document is gone: its profiler
/// sessions stop, the dedicated workers it created are terminated, its
/// timers are cleared.
fn discard_realm(global: &GlobalScope) {
    crate::runtime::profiling::stop_sessions_of_realm(global.profiler_realm_id());
    crate::runtime::workers::terminate_workers_of_realm(global.profiler_realm_id());
    global.clear_timers();
    if let Some(window) = global.as_window() {
        window.frame_callbacks().clear();
    }
}

/// <https://html.spec.whatwg.org/multipage/document-sequences.html#destroy-a-child-navigable>
/// for `container` (an `<iframe>` being removed).
pub fn destroy_child_navigable(container: &HTMLIFrameElement) {
    // Step 1: Let navigable be container's content navigable.
    // Step 2: If navigable is null, then return.
    let Some(id) = navigable_of_container(container) else {
        return;
    };
    // Step 3: Set container's content navigable to null.
    // Steps 4-6: destroy the active document and its descendants
    // ("destroy a document and its descendants": each descendant
    // navigable's document is destroyed too): each realm is discarded.
    let mut destroyed = vec![id];
    let mut index = 0;
    while let Some(&current) = destroyed.get(index) {
        destroyed.extend(children_of(current));
        index += 1;
    }
    for &navigable in &destroyed {
        if let Some(window) = window_of(navigable) {
            discard_realm(scope_of(&window));
        }
        // Its load no longer delays its container's document.
        if set_delaying_load(navigable, false) {
            if let Some(document) =
                container_of(navigable).and_then(|c| c.element().upcast_node().owner_doc())
            {
                document.undelay_load();
            }
        }
    }
    // Step 7: Remove navigable from its parent's child navigables (and,
    // for each, drop the roots: nothing of the destroyed realms stays
    // reachable from the registry).
    let removed: Vec<Navigable> = NAVIGABLES.with(|n| {
        let mut n = n.borrow_mut();
        let mut removed = Vec::new();
        for &i in &destroyed {
            let Some(nav) = n.get_mut(i) else {
                continue;
            };
            nav.destroyed = true;
            nav.parent = None;
            removed.push(Navigable {
                global: std::mem::replace(
                    &mut nav.global,
                    RootedTraceableBox::new(Heap::default()),
                ),
                parent: None,
                container: nav.container.take(),
                destroyed: true,
                initial_about_blank: false,
                navigation: 0,
                delaying_load: false,
            });
        }
        removed
    });
    drop(removed);
    // (The parent's WindowProxy no longer gives the removed child as
    // `frames[i]`.)
}

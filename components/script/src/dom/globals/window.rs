//! `Window` (<https://html.spec.whatwg.org/multipage/nav-history-apis.html#the-window-object>),
//! the `[Global]` interface of a page's realm: the global object *is* the
//! Window platform object (its struct in the global's DOM slot, see
//! `GlobalScope::create_global`). Holds the document, the map of active
//! timers and the lazily made `location`/`console`/`performance`.

use std::cell::{Cell, RefCell};
use std::ptr::{self, NonNull};
use std::rc::Rc;

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;
use mozjs::jsapi::{Heap, JSObject};
use mozjs::jsval::{ObjectValue, UndefinedValue};
use mozjs::rooted;
use mozjs::rust::HandleObject;

use crate::dom::bindings::codegen::WindowBinding::WindowMethods;
use crate::dom::bindings::codegen::{
    FrameRequestCallback, IdleRequestCallback, IdleRequestOptions,
};
use crate::dom::bindings::conversions::{RootedJsObject, RootedJsValue, USVString};
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::reflector::DomObject;
use crate::dom::bindings::root::{DomRoot, MutNullableDom};
use crate::dom::events::eventtarget::EventTarget;
use crate::dom::globals::console::Console;
use crate::dom::globals::globalscope::GlobalScope;
use crate::dom::globals::location::Location;
use crate::dom::globals::performance::Performance;
use crate::dom::nodes::document::Document;
use crate::navigation::browsing_context::{self, NavigableId};
use crate::runtime::event_loop::EventLoop;

/// A built-in function this realm made for a cross-origin property of the
/// WindowProxy of a navigable (`crate::navigation::windowproxy`).
#[derive(JSTraceable)]
struct CrossOriginFunctionEntry {
    /// The navigable whose WindowProxy the property belongs to.
    #[no_trace]
    target: NavigableId,
    /// The property's index in CrossOriginProperties.
    #[no_trace]
    index: usize,
    /// Which function of the property (a method, getter or setter).
    #[no_trace]
    which: crate::navigation::windowproxy::CrossOriginFunction,
    /// The function (boxed: a Heap must not move).
    function: Box<Heap<*mut JSObject>>,
}

#[derive(JSTraceable)]
pub struct Window {
    eventtarget: EventTarget,
    document: MutNullableDom<Document>,
    location: MutNullableDom<Location>,
    console: MutNullableDom<Console>,
    performance: MutNullableDom<Performance>,
    history: MutNullableDom<crate::dom::globals::history::History>,
    navigator: MutNullableDom<crate::dom::globals::navigator::Navigator>,
    local_storage: MutNullableDom<crate::dom::globals::storage::Storage>,
    session_storage: MutNullableDom<crate::dom::globals::storage::Storage>,
    #[no_trace]
    url: RefCell<url::Url>,
    /// <https://html.spec.whatwg.org/multipage/webappapis.html#concept-settings-object-origin>
    /// (the associated Document's origin).
    #[no_trace]
    origin: RefCell<jsprof_document::Origin>,
    /// This window's navigable, once registered.
    navigable: Cell<Option<NavigableId>>,
    /// <https://html.spec.whatwg.org/multipage/webappapis.html#secure-context>
    /// of this window's environment.
    secure_context: Cell<bool>,
    /// The functions this realm made for cross-origin properties of other
    /// windows' WindowProxy objects (HTML's
    /// \[\[CrossOriginPropertyDescriptorMap]], so that a property gives the
    /// same function every time). Objects of this realm.
    cross_origin_functions: RefCell<Vec<CrossOriginFunctionEntry>>,
    /// The map of animation frame callbacks and the idle callbacks
    /// (`crate::runtime::rendering`).
    frame_callbacks: crate::runtime::rendering::FrameCallbacks,
}

impl AsRef<EventTarget> for Window {
    fn as_ref(&self) -> &EventTarget {
        &self.eventtarget
    }
}

impl Window {
    /// Makes `global` the Window platform object: stores a new `Window` in
    /// its DOM slot, sets its \[\[Prototype]] to `Window.prototype`, and
    /// defines the `[LegacyUnforgeable]` attributes on it
    /// (<https://webidl.spec.whatwg.org/#internally-create-a-new-object-implementing-the-interface>
    /// for a `[Global]` interface).
    pub(crate) fn attach_to_global(cx: &mut JSContext, global: HandleObject) -> Result<(), String> {
        let window = Box::new(Window {
            eventtarget: EventTarget::new_inherited(),
            document: MutNullableDom::default(),
            location: MutNullableDom::default(),
            console: MutNullableDom::default(),
            performance: MutNullableDom::default(),
            history: MutNullableDom::default(),
            navigator: MutNullableDom::default(),
            local_storage: MutNullableDom::default(),
            session_storage: MutNullableDom::default(),
            url: RefCell::new(url::Url::parse("about:blank").expect("about:blank parses")),
            origin: RefCell::new(jsprof_document::Origin::new_opaque()),
            navigable: Cell::new(None),
            secure_context: Cell::new(false),
            cross_origin_functions: RefCell::new(Vec::new()),
            frame_callbacks: Default::default(),
        });
        GlobalScope::attach_platform_object(cx, global, window)
    }

    pub(crate) fn global_scope(&self) -> &GlobalScope {
        // SAFETY: a Window's reflector is its global (made by `create_global`), alive while
        // `self` is.
        unsafe { GlobalScope::from_global(self.reflector().get_jsobject()) }
    }

    /// The associated Document, an empty `about:blank` one until a page is
    /// loaded.
    pub fn document(&self, cx: &mut JSContext) -> DomRoot<Document> {
        if let Some(document) = self.document.get() {
            return document;
        }
        let url = self.url.borrow().clone();
        let document = Document::new(cx, self.global_scope(), url);
        self.document.set(Some(&document));
        document
    }

    /// The associated Document, if one was set (no `about:blank` made).
    pub fn active_document(&self) -> Option<DomRoot<Document>> {
        self.document.get()
    }

    /// The global object (this window's reflector).
    pub fn global_object(&self) -> *mut JSObject {
        self.reflector().get_jsobject()
    }

    /// Sets the associated Document (a navigation's new document).
    pub fn set_document(&self, document: &Document) {
        *self.url.borrow_mut() = document.url();
        self.location.set(None);
        if let Some(history) = self.history.get() {
            history.replace_for_new_document();
        }
        self.document.set(Some(document));
    }

    pub fn url(&self) -> url::Url {
        self.url.borrow().clone()
    }

    /// Sets the document's URL in a same-document navigation
    /// (`pushState`/`replaceState`, a fragment navigation, a traversal
    /// within the document).
    pub(crate) fn set_url_same_document(&self, url: url::Url) {
        if let Some(document) = self.document.get() {
            document.set_url(url.clone());
        }
        *self.url.borrow_mut() = url;
    }

    /// This window's `History` object
    /// (<https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-history>),
    /// made on first use.
    pub(crate) fn history(
        &self,
        cx: &mut JSContext,
    ) -> DomRoot<crate::dom::globals::history::History> {
        self.history
            .or_init(|| crate::dom::globals::history::History::new(cx, self.global_scope()))
    }

    /// This window's `localStorage` object, if one was made (the storage
    /// event goes to the Storage objects that exist).
    pub(crate) fn existing_storage(
        &self,
        kind: crate::dom::globals::storage::StorageType,
    ) -> Option<DomRoot<crate::dom::globals::storage::Storage>> {
        match kind {
            crate::dom::globals::storage::StorageType::Local => self.local_storage.get(),
            crate::dom::globals::storage::StorageType::Session => self.session_storage.get(),
        }
    }

    /// The origin of this window's settings object (its Document's).
    pub fn origin(&self) -> jsprof_document::Origin {
        self.origin.borrow().clone()
    }

    pub fn set_origin(&self, origin: jsprof_document::Origin) {
        *self.origin.borrow_mut() = origin;
    }

    pub fn set_secure_context(&self, secure: bool) {
        self.secure_context.set(secure);
    }

    /// Whether this window's environment is a secure context.
    pub fn is_secure_context(&self) -> bool {
        self.secure_context.get()
    }

    /// This window's navigable; a window not yet registered becomes a
    /// top-level traversable.
    pub fn navigable_id(&self) -> NavigableId {
        if let Some(id) = self.navigable.get() {
            return id;
        }
        let id = browsing_context::register(self.reflector().get_jsobject(), None, None);
        self.navigable.set(Some(id));
        id
    }

    pub(crate) fn set_navigable_id(&self, id: NavigableId) {
        self.navigable.set(Some(id));
    }

    /// The function this realm made for cross-origin property `index` of
    /// navigable `target`'s WindowProxy, if any.
    pub(crate) fn cross_origin_function(
        &self,
        target: NavigableId,
        index: usize,
        which: crate::navigation::windowproxy::CrossOriginFunction,
    ) -> Option<*mut JSObject> {
        self.cross_origin_functions
            .borrow()
            .iter()
            .find(|e| e.target == target && e.index == index && e.which == which)
            .map(|e| e.function.get())
    }

    /// Keeps `function` (of this realm) as the one for cross-origin
    /// property `index` of navigable `target`'s WindowProxy.
    pub(crate) fn set_cross_origin_function(
        &self,
        target: NavigableId,
        index: usize,
        which: crate::navigation::windowproxy::CrossOriginFunction,
        function: *mut JSObject,
    ) {
        self.cross_origin_functions
            .borrow_mut()
            .push(CrossOriginFunctionEntry {
                target,
                index,
                which,
                function: Heap::boxed(function),
            });
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-window-closed>:
    /// "return true if this's browsing context is null or its is closing
    /// is true; otherwise false" (a browsing context is null once its
    /// navigable was destroyed; nothing here sets "is closing").
    pub(crate) fn closed(&self) -> bool {
        browsing_context::is_destroyed(self.navigable_id())
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-length>:
    /// the number of document-tree child navigables.
    pub(crate) fn length(&self) -> u32 {
        browsing_context::children_of(self.navigable_id()).len() as u32
    }

    /// The navigable whose WindowProxy `top` returns
    /// (<https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-top>).
    pub(crate) fn top_navigable(&self) -> Option<NavigableId> {
        // Step 1: If this's navigable is null, then return null.
        let navigable = self.navigable_id();
        if browsing_context::is_destroyed(navigable) {
            return None;
        }
        // Step 2: Return this's navigable's top-level traversable's active
        // WindowProxy.
        Some(browsing_context::top_of(navigable))
    }

    /// The navigable whose WindowProxy `parent` returns
    /// (<https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-parent>).
    pub(crate) fn parent_navigable(&self) -> Option<NavigableId> {
        // Step 1: Let navigable be this's navigable.
        let navigable = self.navigable_id();
        // Step 2: If navigable is null, then return null.
        if browsing_context::is_destroyed(navigable) {
            return None;
        }
        // Step 3: If navigable's parent is not null, then set navigable to
        // navigable's parent.
        // Step 4: Return navigable's active WindowProxy.
        Some(browsing_context::parent_of(navigable).unwrap_or(navigable))
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-window-close>
    pub(crate) fn close_steps(&self) {
        // Step 1: Let thisTraversable be this's navigable.
        // Step 2: If thisTraversable is not a top-level traversable, then
        // return.
        // Step 3: If thisTraversable's is closing is true, then return.
        // Steps 4-6: close it only if it is script-closable (a top-level
        // traversable created by script, through `window.open`, with one
        // session history entry) and the incumbent global's browsing
        // context is familiar with it. This shell creates no top-level
        // traversable by script (there is no `window.open`), so no
        // navigable is script-closable and the steps never close one, as
        // for a page a browser opened itself.
    }

    /// <https://html.spec.whatwg.org/multipage/interaction.html#dom-window-focus>
    pub(crate) fn focus_steps(&self, cx: &mut JSContext) {
        // Step 1: Let current be this's navigable.
        let navigable = self.navigable_id();
        // Step 2: If current is null, then return.
        if browsing_context::is_destroyed(navigable) {
            return;
        }
        // Step 3: If the allowed to show a popup flag is set... (no
        // popups.)
        // Step 4: Run the focusing steps with current: a child navigable
        // is focused through its container, which becomes its document's
        // focused area.
        if let Some(container) = browsing_context::container_of(navigable) {
            crate::dom::html::focus::focusing_steps(cx, container.element());
        }
        // Step 5: If current is a top-level traversable, user agents are
        // encouraged to bring it to the user's attention (no windows to
        // raise here).
    }

    /// The animation frame and idle callbacks of this window.
    pub(crate) fn frame_callbacks(&self) -> &crate::runtime::rendering::FrameCallbacks {
        &self.frame_callbacks
    }

    pub fn upcast_event_target(&self) -> &EventTarget {
        &self.eventtarget
    }
}

impl WindowMethods for Window {
    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-window>
    fn Window(&self, _cx: &mut JSContext) -> DomRoot<Window> {
        DomRoot::from_ref(self)
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-self>
    fn Self_(&self, _cx: &mut JSContext) -> DomRoot<Window> {
        DomRoot::from_ref(self)
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-document-2>
    fn Document(&self, cx: &mut JSContext) -> DomRoot<Document> {
        self.document(cx)
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-location>
    fn Location(&self, cx: &mut JSContext) -> DomRoot<Location> {
        self.location
            .or_init(|| Location::new(cx, self.global_scope()))
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-history>
    fn History(&self, cx: &mut JSContext) -> DomRoot<crate::dom::globals::history::History> {
        self.history(cx)
    }

    /// <https://html.spec.whatwg.org/multipage/system-state.html#dom-navigator>
    fn Navigator(&self, cx: &mut JSContext) -> DomRoot<crate::dom::globals::navigator::Navigator> {
        self.navigator
            .or_init(|| crate::dom::globals::navigator::Navigator::new(cx, self.global_scope()))
    }

    /// <https://html.spec.whatwg.org/multipage/webstorage.html#dom-localstorage>
    fn LocalStorage(
        &self,
        cx: &mut JSContext,
    ) -> Fallible<DomRoot<crate::dom::globals::storage::Storage>> {
        // Step 1: If this's associated Local Storage is not null, then
        // return it.
        // Step 2-5: obtain a local storage bottle map (failure: a
        // "SecurityError" DOMException); a new Storage object with it.
        self.local_storage.try_or_init(|| {
            crate::dom::globals::storage::Storage::new_for_window(
                cx,
                self,
                crate::dom::globals::storage::StorageType::Local,
            )
        })
    }

    /// <https://html.spec.whatwg.org/multipage/webstorage.html#dom-sessionstorage>
    fn SessionStorage(
        &self,
        cx: &mut JSContext,
    ) -> Fallible<DomRoot<crate::dom::globals::storage::Storage>> {
        // Step 1: If this's associated Session Storage is not null, then
        // return it.
        // Step 2-5: obtain a session storage bottle map (failure: a
        // "SecurityError" DOMException); a new Storage object with it.
        self.session_storage.try_or_init(|| {
            crate::dom::globals::storage::Storage::new_for_window(
                cx,
                self,
                crate::dom::globals::storage::StorageType::Session,
            )
        })
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-frames>
    fn Frames(&self, _cx: &mut JSContext) -> DomRoot<Window> {
        DomRoot::from_ref(self)
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-length>:
    /// the number of document-tree child navigables.
    fn Length(&self, _cx: &mut JSContext) -> u32 {
        self.length()
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-top>
    fn Top(&self, _cx: &mut JSContext) -> Option<RootedJsObject> {
        browsing_context::window_proxy_of(self.top_navigable()?)
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-parent>
    fn Parent(&self, _cx: &mut JSContext) -> Option<RootedJsObject> {
        browsing_context::window_proxy_of(self.parent_navigable()?)
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-window-closed>
    fn Closed(&self, _cx: &mut JSContext) -> bool {
        self.closed()
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-window-close>
    fn Close(&self, _cx: &mut JSContext) -> Fallible<()> {
        self.close_steps();
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/interaction.html#dom-window-focus>
    fn Focus(&self, cx: &mut JSContext) -> Fallible<()> {
        self.focus_steps(cx);
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/interaction.html#dom-window-blur>:
    /// "The blur() method steps are to do nothing."
    fn Blur(&self, _cx: &mut JSContext) -> Fallible<()> {
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-opener>:
    /// step 1, "If this's browsing context's opener browsing context is
    /// null, then return null": this shell has no auxiliary browsing
    /// contexts (no `window.open`).
    fn Opener(&self, _cx: &mut JSContext) -> Option<RootedJsObject> {
        None
    }

    /// <https://html.spec.whatwg.org/multipage/web-messaging.html#dom-window-postmessage>
    fn PostMessage(
        &self,
        cx: &mut JSContext,
        message: RootedJsValue,
        target_origin: USVString,
    ) -> Fallible<()> {
        // The method steps are to run the window post message steps given
        // this, message, and options (targetOrigin).
        window_post_message_steps(cx, self.navigable_id(), &message, &target_origin.0)
    }

    // The WindowOrWorkerGlobalScope mixin (webidl/WindowOrWorkerGlobalScope.webidl),
    // implemented once by `GlobalScope`.
    crate::window_or_worker_global_scope_methods!();

    /// <https://html.spec.whatwg.org/multipage/imagebitmap-and-animations.html#dom-animationframeprovider-requestanimationframe>
    fn RequestAnimationFrame(
        &self,
        _cx: &mut JSContext,
        callback: Rc<FrameRequestCallback>,
    ) -> Fallible<u32> {
        // Step 1: If this is not supported, then throw (a Window always
        // supports it).
        Ok(self.frame_callbacks.request_animation_frame(self, callback))
    }

    /// <https://html.spec.whatwg.org/multipage/imagebitmap-and-animations.html#animationframeprovider-cancelanimationframe>
    fn CancelAnimationFrame(&self, _cx: &mut JSContext, handle: u32) -> Fallible<()> {
        // Step 1: If this is not supported, then throw (a Window always
        // supports it).
        self.frame_callbacks.cancel_animation_frame(handle);
        Ok(())
    }

    /// <https://w3c.github.io/requestidlecallback/#the-requestidlecallback-method>
    fn RequestIdleCallback(
        &self,
        _cx: &mut JSContext,
        callback: Rc<IdleRequestCallback>,
        options: IdleRequestOptions,
    ) -> Fallible<u32> {
        Ok(self
            .frame_callbacks
            .request_idle_callback(self, callback, options.timeout))
    }

    /// <https://w3c.github.io/requestidlecallback/#the-cancelidlecallback-method>
    fn CancelIdleCallback(&self, _cx: &mut JSContext, handle: u32) -> Fallible<()> {
        self.frame_callbacks.cancel_idle_callback(self, handle);
        Ok(())
    }

    /// `console` (see the deviation in `Window.webidl`).
    fn Console(&self, cx: &mut JSContext) -> DomRoot<Console> {
        self.console
            .or_init(|| Console::new(cx, self.global_scope()))
    }
}

/// Queues a global task (<https://html.spec.whatwg.org/multipage/webappapis.html#queue-a-global-task>)
/// given the window of navigable `navigable`: `steps` run in that
/// window's realm, unless the navigable is gone by then.
pub(crate) fn queue_global_task(
    navigable: NavigableId,
    steps: impl FnOnce(&mut JSContext, &Window) + 'static,
) {
    EventLoop::current().queue_task(Box::new(move |cx| {
        let Some(global) = browsing_context::global_ptr(navigable) else {
            return;
        };
        let mut realm = mozjs::realm::AutoRealm::new(cx, global);
        let cx = &mut *realm;
        let Some(window) = browsing_context::window_of(navigable) else {
            return;
        };
        steps(cx, &window);
    }));
}

/// <https://html.spec.whatwg.org/multipage/web-messaging.html#window-post-message-steps>
/// given the window of navigable `target`. `cx` is in the realm of the
/// method called (the target's for `Window.postMessage`, the caller's for
/// the cross-origin built-in of `crate::navigation::windowproxy`); `message` is a value
/// of that realm.
pub(crate) fn window_post_message_steps(
    cx: &mut JSContext,
    target: NavigableId,
    message: &RootedJsValue,
    target_origin: &str,
) -> Fallible<()> {
    use crate::dom::bindings::error::{DomExceptionName, Error};
    use crate::dom::bindings::structuredclone::{structured_deserialize, structured_serialize};
    // Step 1: Let targetRealm be targetWindow's realm.
    // Step 2: Let incumbentSettings be the incumbent settings object (the
    // global of the script that called: SpiderMonkey's scripted caller).
    // SAFETY: a query of this thread's context (inside a call from script).
    let caller = unsafe { mozjs::rust::wrappers2::GetScriptedCallerGlobal(cx) };
    let caller = if caller.is_null() {
        // SAFETY: a query of this thread's context.
        unsafe { mozjs::rust::wrappers2::CurrentGlobalOrNull(cx) }
    } else {
        caller
    };
    if caller.is_null() {
        return Ok(());
    }
    // SAFETY: `caller` is a non-null global of a realm running on this thread (the scripted
    // caller's or the current one), alive during this call.
    let Some(incumbent) = (unsafe { GlobalScope::from_global(caller) }).as_window() else {
        return Ok(());
    };
    let incumbent_origin = incumbent.origin();
    let source_navigable = incumbent.navigable_id();
    // Step 3: Let targetOrigin be options["targetOrigin"].
    // Step 4: If targetOrigin is a single U+002F SOLIDUS character (/),
    // then set targetOrigin to incumbentSettings's origin.
    let target_origin = if target_origin == "/" {
        Some(incumbent_origin.clone())
    } else if target_origin == "*" {
        None
    } else {
        // Step 5: Otherwise, if targetOrigin is not a single U+002A
        // ASTERISK character (*), then:
        // Step 5.1: Let parsedURL be the result of running the URL parser
        // on targetOrigin.
        // Step 5.2: If parsedURL is failure, then throw a "SyntaxError"
        // DOMException.
        let parsed = url::Url::parse(target_origin).map_err(|_| {
            Error::dom_with_message(
                DomExceptionName::SyntaxError,
                format!("postMessage: invalid target origin {target_origin:?}"),
            )
        })?;
        // Step 5.3: Set targetOrigin to parsedURL's origin.
        Some(jsprof_document::Origin::of(&parsed))
    };
    // Step 6: Let transfer be options["transfer"] (none).
    // Step 7: Let serializeWithTransferResult be
    // StructuredSerializeWithTransfer(message, transfer). Rethrow any
    // exceptions.
    rooted!(&in(cx) let value = message.get());
    let serialized = structured_serialize(cx, value.handle())?;
    // Step 8: Queue a global task on the posted message task source given
    // targetWindow to run the following steps:
    let origin = incumbent_origin.ascii_serialization();
    EventLoop::current().queue_task(Box::new(move |cx| {
        let Some(global) = browsing_context::global_ptr(target) else {
            return;
        };
        let mut realm = mozjs::realm::AutoRealm::new(cx, global);
        let cx = &mut *realm;
        let Some(target_window) = browsing_context::window_of(target) else {
            return;
        };
        // Step 8.1: If the targetOrigin argument is not a single literal
        // U+002A ASTERISK character (*) and targetWindow's associated
        // Document's origin is not same origin with targetOrigin, then
        // return.
        if let Some(target_origin) = &target_origin {
            if !target_window.origin().same_origin(target_origin) {
                return;
            }
        }
        // Step 8.2: Let origin be the serialization of incumbentSettings's
        // origin.
        // Step 8.3: Let source be the WindowProxy object corresponding to
        // incumbentSettings's global object (as this realm may see it).
        let source = browsing_context::window_proxy_of(source_navigable);
        rooted!(&in(cx) let mut source_object = source.as_ref().map_or(ptr::null_mut(), |s| s.get()));
        if !source_object.get().is_null() {
            rooted!(&in(cx) let mut v = ObjectValue(source_object.get()));
            // SAFETY: `v` is rooted; wrapping it into the current realm is always allowed.
            unsafe { mozjs::rust::wrappers2::JS_WrapValue(cx, v.handle_mut()) };
            source_object.set(v.to_object());
        }
        // Step 8.4: Let deserializeRecord be
        // StructuredDeserializeWithTransfer(serializeWithTransferResult,
        // targetRealm).
        rooted!(&in(cx) let mut data = UndefinedValue());
        if structured_deserialize(cx, &serialized, data.handle_mut()).is_err() {
            // Step 8.5: If this throws an exception, catch it, fire an
            // event named messageerror at targetWindow, using MessageEvent,
            // with the origin attribute initialized to origin and the
            // source attribute initialized to source, and then return.
            let event = crate::dom::events::messageevent::MessageEvent::new_message(
                cx,
                target_window.global_scope(),
                UndefinedValue(),
                &origin,
                source_object.get(),
            );
            event.upcast_event().initialize("messageerror", false, false);
            target_window
                .upcast_event_target()
                .dispatch(cx, event.upcast_event());
            return;
        }
        // Step 8.6-8.7: Fire an event named message at targetWindow, using
        // MessageEvent, with the origin attribute initialized to origin,
        // the source attribute initialized to source, the data attribute
        // initialized to messageClone, and the ports attribute initialized
        // to newPorts.
        let event = crate::dom::events::messageevent::MessageEvent::new_message(
            cx,
            target_window.global_scope(),
            data.get(),
            &origin,
            source_object.get(),
        );
        target_window
            .upcast_event_target()
            .dispatch(cx, event.upcast_event());
    }));
    Ok(())
}

fn _unused(_: *mut JSObject, _: NonNull<u8>) -> *mut u8 {
    ptr::null_mut()
}

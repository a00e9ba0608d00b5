//! `MutationObserver` (<https://dom.spec.whatwg.org/#interface-mutationobserver>)
//! and the mutation observer machinery of the DOM Standard's "Mutation
//! observers" section: registered observers on nodes, "queue a mutation
//! record" (called by the mutation algorithms in `node/mutation.rs`,
//! `element.rs` and `characterdata.rs`), and "notify mutation observers"
//! at microtask timing.
//!
//! The mutation algorithms run without a JS context, so a record is queued
//! as plain data ([`PendingRecord`]) and the microtask is queued by
//! [`queue_pending_microtask`], which the binding method that made the
//! change calls when its mutations are done (with the script element's
//! post-connection steps), and the HTML parser after each of its steps
//! that can mutate observed nodes.
//!
//! A registered observer's `source` marks a transient registered observer
//! (<https://dom.spec.whatwg.org/#transient-registered-observer>): the
//! ancestor whose `subtree` registration it copies onto a removed node.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;
use mozjs::jsval::ObjectValue;
use mozjs::rooted;
use mozjs::rust::HandleObject;

use crate::dom::bindings::callback::ExceptionHandling;
use crate::dom::bindings::codegen::MutationObserverBinding::MutationObserverMethods;
use crate::dom::bindings::codegen::{MutationCallback, MutationObserverInit};
use crate::dom::bindings::conversions::DOMString;
use crate::dom::bindings::error::{Error, Fallible};
use crate::dom::bindings::native::{call_native, ReturnKind};
use crate::dom::bindings::reflector::DomGlobal;
use crate::dom::bindings::reflector::{reflect_dom_object, DomObject, Reflector};
use crate::dom::bindings::root::{Dom, DomRoot};
use crate::dom::globals::globalscope::GlobalScope;
use crate::dom::nodes::mutationrecord::{MutationRecord, PendingRecord};
use crate::dom::nodes::node::Node;

/// A registered observer's options
/// (<https://dom.spec.whatwg.org/#dictdef-mutationobserverinit>, after the
/// defaults `observe()` fills in).
#[derive(Clone, Debug, Default)]
pub struct ObserverOptions {
    pub child_list: bool,
    pub attributes: bool,
    pub character_data: bool,
    pub subtree: bool,
    pub attribute_old_value: bool,
    pub character_data_old_value: bool,
    pub attribute_filter: Option<Vec<String>>,
}

/// <https://dom.spec.whatwg.org/#registered-observer>
#[derive(JSTraceable)]
pub struct RegisteredObserver {
    pub observer: Dom<MutationObserver>,
    #[no_trace]
    pub options: ObserverOptions,
    /// For a transient registered observer, the node of its source
    /// registered observer; `None` for a registered observer.
    pub source: Option<Dom<Node>>,
}

/// <https://dom.spec.whatwg.org/#concept-node-remove> step 14: "For each
/// inclusive ancestor ancestor of parent: if ancestor's registered observer
/// list is non-empty, then for each registered of it: if registered's
/// options["subtree"] is true, then append a new transient registered
/// observer whose observer is registered's observer, options is
/// registered's options, and source is registered to node's registered
/// observer list."
pub fn add_transient_observers(parent: &Node, node: &Node) {
    if !any_registered() {
        return;
    }
    let mut transients = Vec::new();
    let mut ancestor = Some(DomRoot::from_ref(parent));
    while let Some(current) = ancestor {
        current.for_each_registered_observer(|registered| {
            if registered.options.subtree {
                transients.push(RegisteredObserver {
                    observer: Dom::from_ref(&*registered.observer.root()),
                    options: registered.options.clone(),
                    source: Some(Dom::from_ref(&*current)),
                });
            }
        });
        ancestor = current.parent();
    }
    for transient in transients {
        let observer = transient.observer.root();
        node.add_registered_observer(transient);
        registered(|r| r.set(r.get() + 1));
        // (Kept so that "notify mutation observers" step 6.3 finds it.)
        observer.node_list.borrow_mut().push(Dom::from_ref(node));
    }
}

#[derive(JSTraceable)]
pub struct MutationObserver {
    pub(crate) reflector: Reflector,
    /// <https://dom.spec.whatwg.org/#concept-mo-callback>
    callback: Rc<MutationCallback>,
    /// <https://dom.spec.whatwg.org/#mutationobserver-node-list> (strong
    /// references here: a node and its observer keep each other alive,
    /// which the tracing GC collects together).
    node_list: RefCell<Vec<Dom<Node>>>,
    /// <https://dom.spec.whatwg.org/#concept-mo-queue>
    record_queue: RefCell<Vec<PendingRecord>>,
}

/// This agent's mutation observer state (a field of
/// [`Agent`](crate::runtime::agent::Agent), dropped with it before the context).
#[derive(Default)]
pub(crate) struct MutationObservers {
    /// <https://dom.spec.whatwg.org/#mutation-observer-microtask-queued>
    microtask_queued: Cell<bool>,
    /// Set when a record was queued and the microtask still has to be
    /// (by [`queue_pending_microtask`], which has a context).
    microtask_wanted: Cell<bool>,
    /// <https://dom.spec.whatwg.org/#pending-mutation-observers>
    pending: RefCell<Vec<DomRoot<MutationObserver>>>,
    /// How many registered observers exist on this agent's nodes: with
    /// none, queuing a record is one check, not a walk of the ancestors.
    registered: Cell<usize>,
}

impl MutationObservers {
    /// Drops the pending observers' roots.
    pub(crate) fn clear(&self) {
        drop(std::mem::take(&mut *self.pending.borrow_mut()));
    }
}

/// Runs `f` on a field of this agent's [`MutationObservers`]; without an
/// agent (it shut down) `f` does not run and the result is the default.
fn with_observers<R: Default>(f: impl FnOnce(&MutationObservers) -> R) -> R {
    crate::runtime::agent::existing().map_or_else(R::default, |a| f(&a.mutation_observers))
}

fn microtask_queued<R: Default>(f: impl FnOnce(&Cell<bool>) -> R) -> R {
    with_observers(|o| f(&o.microtask_queued))
}

fn microtask_wanted<R: Default>(f: impl FnOnce(&Cell<bool>) -> R) -> R {
    with_observers(|o| f(&o.microtask_wanted))
}

fn pending<R: Default>(f: impl FnOnce(&RefCell<Vec<DomRoot<MutationObserver>>>) -> R) -> R {
    with_observers(|o| f(&o.pending))
}

fn registered<R: Default>(f: impl FnOnce(&Cell<usize>) -> R) -> R {
    with_observers(|o| f(&o.registered))
}

/// Whether any node of this agent has a registered observer.
pub fn any_registered() -> bool {
    registered(Cell::get) != 0
}

/// <https://dom.spec.whatwg.org/#queue-a-tree-mutation-record>
pub fn queue_tree_mutation_record(
    target: &Node,
    added: &[DomRoot<Node>],
    removed: &[DomRoot<Node>],
    previous_sibling: Option<&Node>,
    next_sibling: Option<&Node>,
) {
    if !any_registered() {
        return;
    }
    // Step 1: Assert: either addedNodes or removedNodes is not empty.
    if added.is_empty() && removed.is_empty() {
        return;
    }
    // Step 2: Queue a mutation record of "childList" for target with null,
    // null, null, addedNodes, removedNodes, previousSibling, and
    // nextSibling.
    queue_mutation_record(
        "childList",
        target,
        None,
        None,
        None,
        added,
        removed,
        previous_sibling,
        next_sibling,
    );
}

/// "Queue a mutation record of "attributes" for element with name,
/// namespace and oldValue"
/// (<https://dom.spec.whatwg.org/#handle-attribute-changes> step 1).
pub fn queue_attribute_record(element: &Node, name: &str, old_value: Option<&str>) {
    if !any_registered() {
        return;
    }
    queue_mutation_record(
        "attributes",
        element,
        Some(name),
        None,
        old_value,
        &[],
        &[],
        None,
        None,
    );
}

/// <https://dom.spec.whatwg.org/#concept-cd-replace> step 4: a
/// "characterData" record for `node` with its old data.
pub fn queue_character_data_record(node: &Node, old_value: &str) {
    if !any_registered() {
        return;
    }
    queue_mutation_record(
        "characterData",
        node,
        None,
        None,
        Some(old_value),
        &[],
        &[],
        None,
        None,
    );
}

/// <https://dom.spec.whatwg.org/#queue-a-mutation-record>
#[allow(clippy::too_many_arguments)]
fn queue_mutation_record(
    kind: &'static str,
    target: &Node,
    name: Option<&str>,
    namespace: Option<&str>,
    old_value: Option<&str>,
    added: &[DomRoot<Node>],
    removed: &[DomRoot<Node>],
    previous_sibling: Option<&Node>,
    next_sibling: Option<&Node>,
) {
    // Step 1: Let interestedObservers be an empty map (insertion-ordered:
    // observer, mapped old value).
    let mut interested: Vec<(DomRoot<MutationObserver>, Option<String>)> = Vec::new();
    // Step 2: Let nodes be the inclusive ancestors of target.
    let mut node = Some(DomRoot::from_ref(target));
    // Step 3: For each node in nodes, and then for each registered of
    // node's registered observer list:
    while let Some(current) = node {
        let is_target = std::ptr::eq(&*current, target);
        current.for_each_registered_observer(|registered| {
            // Step 3.1: Let options be registered's options.
            let options = &registered.options;
            // Step 3.2: If none of the following are true ... then:
            let skip =
                // node is not target and options["subtree"] is false;
                (!is_target && !options.subtree)
                // type is "attributes" and options["attributes"] either
                // does not exist or is false;
                || (kind == "attributes" && !options.attributes)
                // type is "attributes", options["attributeFilter"]
                // exists, and options["attributeFilter"] does not contain
                // name or namespace is non-null;
                || (kind == "attributes"
                    && options.attribute_filter.as_ref().is_some_and(|filter| {
                        namespace.is_some() || !filter.iter().any(|f| Some(f.as_str()) == name)
                    }))
                // type is "characterData" and options["characterData"]
                // either does not exist or is false;
                || (kind == "characterData" && !options.character_data)
                // type is "childList" and options["childList"] is false.
                || (kind == "childList" && !options.child_list);
            if skip {
                return;
            }
            // Step 3.2.1: Let mo be registered's observer.
            let mo = registered.observer.root();
            // Step 3.2.2: If interestedObservers[mo] does not exist, then
            // set interestedObservers[mo] to null.
            let index = match interested.iter().position(|(o, _)| *o == mo) {
                Some(index) => index,
                None => {
                    interested.push((mo, None));
                    interested.len() - 1
                }
            };
            // Step 3.2.3: If either type is "attributes" and
            // options["attributeOldValue"] is true, or type is
            // "characterData" and options["characterDataOldValue"] is
            // true, then set interestedObservers[mo] to oldValue.
            if (kind == "attributes" && options.attribute_old_value)
                || (kind == "characterData" && options.character_data_old_value)
            {
                interested[index].1 = old_value.map(str::to_owned);
            }
        });
        node = current.parent();
    }
    if interested.is_empty() {
        return;
    }
    // Step 4: For each observer → mappedOldValue of interestedObservers:
    for (observer, mapped_old_value) in interested {
        // Step 4.1: Let record be a new MutationRecord object with its type
        // set to type, target set to target, attributeName set to name,
        // attributeNamespace set to namespace, oldValue set to
        // mappedOldValue, addedNodes set to addedNodes, removedNodes set to
        // removedNodes, previousSibling set to previousSibling, and
        // nextSibling set to nextSibling.
        let record = PendingRecord {
            kind,
            target: Dom::from_ref(target),
            attribute_name: name.map(str::to_owned),
            attribute_namespace: namespace.map(str::to_owned),
            old_value: mapped_old_value,
            added: added.iter().map(|n| Dom::from_ref(&**n)).collect(),
            removed: removed.iter().map(|n| Dom::from_ref(&**n)).collect(),
            previous_sibling: previous_sibling.map(Dom::from_ref),
            next_sibling: next_sibling.map(Dom::from_ref),
        };
        // Step 4.2: Enqueue record to observer's record queue.
        observer.record_queue.borrow_mut().push(record);
        // Step 4.3: Append observer to the surrounding agent's pending
        // mutation observers.
        pending(|pending| {
            let mut pending = pending.borrow_mut();
            if !pending.contains(&observer) {
                pending.push(observer);
            }
        });
    }
    // Step 5: Queue a mutation observer microtask (see
    // `queue_pending_microtask`).
    microtask_wanted(|w| w.set(true));
}

/// <https://dom.spec.whatwg.org/#queue-a-mutation-observer-compound-microtask>
/// for the records queued since the last call: called once the DOM
/// operation that queued them is done (the caller has a context, `cx`,
/// in some realm).
pub fn queue_pending_microtask(cx: &mut JSContext) {
    if !microtask_wanted(|w| w.replace(false)) {
        return;
    }
    // Step 1: If the surrounding agent's mutation observer microtask
    // queued is true, then return.
    if microtask_queued(Cell::get) {
        return;
    }
    // Step 2: Set the surrounding agent's mutation observer microtask
    // queued to true.
    microtask_queued(|q| q.set(true));
    // Step 3: Queue a microtask to notify mutation observers.
    unsafe extern "C" fn notify(
        cx: *mut mozjs::context::RawJSContext,
        argc: u32,
        vp: *mut mozjs::jsval::JSVal,
    ) -> bool {
        // SAFETY: SpiderMonkey calls a native with its live context and
        // argument vector.
        unsafe {
            call_native(
                cx,
                argc,
                vp,
                "notifyMutationObservers",
                ReturnKind::Value,
                |cx, args| {
                    notify_mutation_observers(cx);
                    args.rval().set(mozjs::jsval::UndefinedValue());
                    Ok(())
                },
            )
        }
    }
    // SAFETY: `cx` is a live context in a realm; the function object is
    // rooted until the microtask holds it.
    unsafe {
        let function = mozjs::jsapi::JS_NewFunction(
            cx.raw_cx(),
            Some(notify),
            0,
            0,
            c"notifyMutationObservers".as_ptr(),
        );
        if function.is_null() {
            microtask_queued(|q| q.set(false));
            return;
        }
        rooted!(&in(cx) let object = mozjs::jsapi::JS_GetFunctionObject(function));
        if crate::dom::bindings::promise::enqueue_callback_microtask(cx, object.get()).is_err() {
            microtask_queued(|q| q.set(false));
        }
    }
}

/// <https://dom.spec.whatwg.org/#notify-mutation-observers>
fn notify_mutation_observers(cx: &mut JSContext) {
    // Step 1: Set the surrounding agent's mutation observer microtask
    // queued to false.
    microtask_queued(|q| q.set(false));
    // Step 2: Let notifySet be a clone of the surrounding agent's pending
    // mutation observers.
    // Step 3: Empty the surrounding agent's pending mutation observers.
    let notify_set = pending(|p| std::mem::take(&mut *p.borrow_mut()));
    // Steps 4-5: signal slots (no shadow DOM here).
    // Step 6: For each mo of notifySet:
    for mo in notify_set {
        // Step 6.1: Let records be a clone of mo's record queue.
        // Step 6.2: Empty mo's record queue.
        let pending = std::mem::take(&mut *mo.record_queue.borrow_mut());
        // Step 6.3: For each node of mo's node list, remove all transient
        // registered observers whose observer is mo from node's registered
        // observer list.
        mo.remove_transient_observers(None);
        // Step 6.4: If records is not empty, then invoke mo's callback with
        // « records, mo » and "report", and with callback this value mo.
        if pending.is_empty() {
            continue;
        }
        let global = mo.global_scope();
        let mut realm = mo.enter_relevant_realm(cx);
        let cx = &mut *realm;
        let records: Vec<DomRoot<MutationRecord>> = pending
            .iter()
            .map(|record| MutationRecord::from_pending(cx, global, record))
            .collect();
        rooted!(&in(cx) let this = ObjectValue(mo.reflector().get_jsobject()));
        let _ = mo
            .callback
            .Call_(cx, this.handle(), records, &mo, ExceptionHandling::Report);
    }
}

impl MutationObserver {
    /// Removes this observer's transient registered observers from the
    /// nodes of its node list (those whose source is on `source` only,
    /// when given), and those nodes from the list if nothing else is
    /// registered there.
    fn remove_transient_observers(&self, source: Option<&Node>) {
        let nodes: Vec<DomRoot<Node>> = self.node_list.borrow().iter().map(Dom::root).collect();
        let mut keep = Vec::new();
        for node in nodes {
            let removed = node.remove_transient_observers(self, source);
            registered(|r| r.set(r.get().saturating_sub(removed)));
            if node.has_registered_observer(self) && !keep.contains(&node) {
                keep.push(node);
            }
        }
        *self.node_list.borrow_mut() = keep.iter().map(|n| Dom::from_ref(&**n)).collect();
    }

    fn new_with_proto(
        cx: &mut JSContext,
        global: &GlobalScope,
        callback: Rc<MutationCallback>,
        proto: Option<HandleObject>,
    ) -> DomRoot<MutationObserver> {
        reflect_dom_object(
            cx,
            global,
            Box::new(MutationObserver {
                reflector: Reflector::new(),
                callback,
                node_list: RefCell::new(Vec::new()),
                record_queue: RefCell::new(Vec::new()),
            }),
            proto,
        )
    }
}

impl MutationObserverMethods for MutationObserver {
    /// <https://dom.spec.whatwg.org/#dom-mutationobserver-mutationobserver>:
    /// set this's callback to callback.
    fn Constructor(
        cx: &mut JSContext,
        global: &GlobalScope,
        proto: Option<HandleObject>,
        callback: Rc<MutationCallback>,
    ) -> Fallible<DomRoot<MutationObserver>> {
        Ok(Self::new_with_proto(cx, global, callback, proto))
    }

    /// <https://dom.spec.whatwg.org/#dom-mutationobserver-observe>
    fn Observe(
        &self,
        _cx: &mut JSContext,
        target: DomRoot<Node>,
        options: MutationObserverInit,
    ) -> Fallible<()> {
        let mut attributes = options.attributes;
        let mut character_data = options.character_data;
        // Step 1: If either options["attributeOldValue"] or
        // options["attributeFilter"] exists, and options["attributes"] does
        // not exist, then set options["attributes"] to true.
        if (options.attribute_old_value.is_some() || options.attribute_filter.is_some())
            && attributes.is_none()
        {
            attributes = Some(true);
        }
        // Step 2: If options["characterDataOldValue"] exists and
        // options["characterData"] does not exist, then set
        // options["characterData"] to true.
        if options.character_data_old_value.is_some() && character_data.is_none() {
            character_data = Some(true);
        }
        let attributes = attributes.unwrap_or(false);
        let character_data = character_data.unwrap_or(false);
        // Step 3: If none of options["childList"], options["attributes"],
        // and options["characterData"] is true, then throw a TypeError.
        if !options.child_list && !attributes && !character_data {
            return Err(Error::Type(
                "observe() needs childList, attributes or characterData to be true".into(),
            ));
        }
        // Step 4: If options["attributeOldValue"] is true and
        // options["attributes"] is false, then throw a TypeError.
        if options.attribute_old_value == Some(true) && !attributes {
            return Err(Error::Type(
                "attributeOldValue needs attributes to be true".into(),
            ));
        }
        // Step 5: If options["attributeFilter"] is present and
        // options["attributes"] is false, then throw a TypeError.
        if options.attribute_filter.is_some() && !attributes {
            return Err(Error::Type(
                "attributeFilter needs attributes to be true".into(),
            ));
        }
        // Step 6: If options["characterDataOldValue"] is true and
        // options["characterData"] is false, then throw a TypeError.
        if options.character_data_old_value == Some(true) && !character_data {
            return Err(Error::Type(
                "characterDataOldValue needs characterData to be true".into(),
            ));
        }
        let options = ObserverOptions {
            child_list: options.child_list,
            attributes,
            character_data,
            subtree: options.subtree,
            attribute_old_value: options.attribute_old_value == Some(true),
            character_data_old_value: options.character_data_old_value == Some(true),
            attribute_filter: options
                .attribute_filter
                .map(|f| f.into_iter().map(|s: DOMString| s.to_string()).collect()),
        };
        // Step 7: For each registered of target's registered observer list,
        // if registered's observer is this:
        if target.set_registered_observer_options(self, &options) {
            // Step 7.1: For each node of this's node list, remove all
            // transient registered observers whose source is registered
            // from node's registered observer list.
            self.remove_transient_observers(Some(&target));
            // Step 7.2: Set registered's options to options (above).
            return Ok(());
        }
        // Step 8.1: Append a new registered observer whose observer is this
        // and options is options to target's registered observer list.
        target.add_registered_observer(RegisteredObserver {
            observer: Dom::from_ref(self),
            options,
            source: None,
        });
        registered(|r| r.set(r.get() + 1));
        // Step 8.2: Append a weak reference to target to this's node list.
        self.node_list.borrow_mut().push(Dom::from_ref(&*target));
        Ok(())
    }

    /// <https://dom.spec.whatwg.org/#dom-mutationobserver-disconnect>
    fn Disconnect(&self, _cx: &mut JSContext) -> Fallible<()> {
        // Step 1: For each node of this's node list, remove any registered
        // observer from node's registered observer list for which this is
        // the observer.
        let nodes = std::mem::take(&mut *self.node_list.borrow_mut());
        for node in nodes {
            let removed = node.root().remove_registered_observers(self);
            registered(|r| r.set(r.get().saturating_sub(removed)));
        }
        // Step 2: Empty this's record queue.
        self.record_queue.borrow_mut().clear();
        Ok(())
    }

    /// <https://dom.spec.whatwg.org/#dom-mutationobserver-takerecords>
    fn TakeRecords(&self, cx: &mut JSContext) -> Fallible<Vec<DomRoot<MutationRecord>>> {
        // Step 1: Let records be a clone of this's record queue.
        // Step 2: Empty this's record queue.
        let pending = std::mem::take(&mut *self.record_queue.borrow_mut());
        // Step 3: Return records.
        let global = self.global_scope();
        Ok(pending
            .iter()
            .map(|record| MutationRecord::from_pending(cx, global, record))
            .collect())
    }
}

//! `Storage` (<https://html.spec.whatwg.org/multipage/webstorage.html#the-storage-interface>):
//! `localStorage` and `sessionStorage`, kept in memory.
//!
//! Local storage bottles are per origin and shared by every Window of the
//! process (a process-wide map); session storage bottles are per
//! top-level traversable and origin (navigables belong to one agent, so
//! the map is the agent's: [`SessionBottles`], emptied with it). Nothing is written to disk: a new process
//! starts empty. Each origin's bottle holds at most [`QUOTA`] code units
//! of keys and values (a "QuotaExceededError" DOMException beyond).
//! Changes fire `storage` events (`StorageEvent`) at the other Windows of
//! the page that have a Storage object of the same type and origin.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::sync::{LazyLock, Mutex};

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;

use crate::dom::bindings::codegen::StorageBinding::StorageMethods;
use crate::dom::bindings::conversions::DOMString;
use crate::dom::bindings::error::{DomExceptionName, Error, Fallible};
use crate::dom::bindings::reflector::DomGlobal;
use crate::dom::bindings::reflector::{reflect_dom_object, Reflector};
use crate::dom::bindings::root::DomRoot;
use crate::dom::events::storageevent::StorageEvent;
use crate::dom::globals::window::{queue_global_task, Window};
use crate::navigation::browsing_context::{self, NavigableId};

/// The most UTF-16 code units of keys and values one origin's bottle may
/// hold: 5 Mi, as Firefox counts ("5 MB" of characters; Chromium allows
/// 10 MiB of UTF-16, the same number of code units).
pub const QUOTA: usize = 5 * 1024 * 1024;

/// <https://html.spec.whatwg.org/multipage/webstorage.html#concept-storage-type>
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StorageType {
    Local,
    Session,
}

/// A storage bottle's map
/// (<https://storage.spec.whatwg.org/#storage-bottle>) with its size.
#[derive(Default)]
struct Bottle {
    /// Keys in code point order: the order `key(n)` gives (any order the
    /// map keeps while unchanged will do).
    map: BTreeMap<String, String>,
    /// The code units of every key and value.
    used: usize,
}

fn code_units(s: &str) -> usize {
    s.encode_utf16().count()
}

/// Local storage bottles by origin (the serialization of a tuple origin).
static LOCAL: LazyLock<Mutex<HashMap<String, Bottle>>> = LazyLock::new(Default::default);

/// Session storage bottles by top-level traversable and origin (a field
/// of [`crate::runtime::agent::Agent`]).
#[derive(Default)]
pub(crate) struct SessionBottles(RefCell<HashMap<(NavigableId, String), Bottle>>);

impl SessionBottles {
    /// Drops every bottle (the agent's teardown).
    pub(crate) fn clear(&self) {
        let bottles = std::mem::take(&mut *self.0.borrow_mut());
        drop(bottles);
    }
}

/// This agent's session storage bottles.
static SESSION: crate::runtime::agent::AgentLocal<RefCell<HashMap<(NavigableId, String), Bottle>>> =
    crate::runtime::agent::AgentLocal(|a| &a.session_storage.0);

#[derive(JSTraceable)]
pub struct Storage {
    pub(crate) reflector: Reflector,
    /// <https://html.spec.whatwg.org/multipage/webstorage.html#concept-storage-type>
    #[no_trace]
    kind: StorageType,
    /// The origin (serialized) of the bottle.
    origin: String,
    /// The top-level traversable of a session storage bottle.
    top: NavigableId,
}

impl Storage {
    /// The Storage object of `window` for `kind`, on the bottle map
    /// <https://html.spec.whatwg.org/multipage/webstorage.html#obtain-a-local-storage-bottle-map>
    /// (or the session one) gives: a "SecurityError" DOMException for an
    /// opaque origin (which has no storage shelf).
    pub(crate) fn new_for_window(
        cx: &mut JSContext,
        window: &Window,
        kind: StorageType,
    ) -> Fallible<DomRoot<Storage>> {
        let origin = window.origin();
        if origin.is_opaque() {
            return Err(Error::dom_with_message(
                DomExceptionName::SecurityError,
                "storage is not available to documents of an opaque origin",
            ));
        }
        let top = browsing_context::top_of(window.navigable_id());
        Ok(reflect_dom_object(
            cx,
            window.global_scope(),
            Box::new(Storage {
                reflector: Reflector::new(),
                kind,
                origin: origin.ascii_serialization(),
                top,
            }),
            None,
        ))
    }

    /// Runs `f` on this's map (the bottle, made on first use).
    fn with_bottle<R>(&self, f: impl FnOnce(&mut Bottle) -> R) -> R {
        match self.kind {
            StorageType::Local => {
                let mut local = LOCAL.lock().unwrap_or_else(|e| e.into_inner());
                f(local.entry(self.origin.clone()).or_default())
            }
            StorageType::Session => SESSION.with(|session| {
                let mut session = session.borrow_mut();
                f(session.entry((self.top, self.origin.clone())).or_default())
            }),
        }
    }

    fn window(&self) -> &Window {
        // (Storage is exposed on Window only.)
        self.global_scope()
            .as_window()
            .expect("Storage lives in a Window global")
    }

    /// <https://html.spec.whatwg.org/multipage/webstorage.html#concept-storage-broadcast>
    fn broadcast(&self, key: Option<String>, old_value: Option<String>, new_value: Option<String>) {
        let window = self.window();
        // Step 1: Let thisDocument be storage's relevant global object's
        // associated Document.
        // Step 2: Let url be the serialization of thisDocument's URL.
        let url = window.url().to_string();
        // Step 3: Let remoteStorages be all Storage objects excluding
        // storage whose type is storage's type, whose relevant settings
        // object's origin is same origin with storage's relevant settings
        // object's origin, and, if type is "session", whose relevant
        // settings object's associated Document's node navigable's
        // traversable navigable is thisDocument's node navigable's
        // traversable navigable. (The Windows of this page: the navigables
        // of the top-level traversable.)
        let mut remote = Vec::new();
        browsing_context::for_each_inclusive_descendant(self.top, |global| {
            let Some(other) = global.as_window() else {
                return;
            };
            let Some(storage) = other.existing_storage(self.kind) else {
                return;
            };
            if std::ptr::eq(&*storage, self) || storage.origin != self.origin {
                return;
            }
            remote.push((other.navigable_id(), storage));
        });
        // Step 4: For each remoteStorage of remoteStorages: queue a global
        // task on the DOM manipulation task source given remoteStorage's
        // relevant global object to fire an event named storage at
        // remoteStorage's relevant global object, using StorageEvent, with
        // key initialized to key, oldValue initialized to oldValue,
        // newValue initialized to newValue, url initialized to url, and
        // storageArea initialized to remoteStorage.
        for (navigable, storage) in remote {
            let (key, old_value, new_value, url) = (
                key.clone(),
                old_value.clone(),
                new_value.clone(),
                url.clone(),
            );
            queue_global_task(navigable, move |cx, window| {
                let event = StorageEvent::new_trusted(
                    cx,
                    window.global_scope(),
                    key,
                    old_value,
                    new_value,
                    url,
                    &storage,
                );
                window
                    .upcast_event_target()
                    .dispatch(cx, event.upcast_event());
            });
        }
    }
}

impl StorageMethods for Storage {
    /// <https://html.spec.whatwg.org/multipage/webstorage.html#dom-storage-length>:
    /// this's map's size.
    fn Length(&self, _cx: &mut JSContext) -> u32 {
        self.with_bottle(|b| b.map.len() as u32)
    }

    /// <https://html.spec.whatwg.org/multipage/webstorage.html#dom-storage-key>
    fn Key(&self, _cx: &mut JSContext, index: u32) -> Fallible<Option<DOMString>> {
        // Step 1: If index is greater than or equal to this's map's size,
        // then return null.
        // Step 2: Let keys be the result of running get the keys on this's
        // map.
        // Step 3: Return keys[index].
        Ok(self.with_bottle(|b| b.map.keys().nth(index as usize).cloned()))
    }

    /// <https://html.spec.whatwg.org/multipage/webstorage.html#dom-storage-getitem>
    fn GetItem(&self, _cx: &mut JSContext, key: DOMString) -> Fallible<Option<DOMString>> {
        // Step 1: If this's map[key] does not exist, then return null.
        // Step 2: Return this's map[key].
        Ok(self.with_bottle(|b| b.map.get(&key).cloned()))
    }

    /// <https://html.spec.whatwg.org/multipage/webstorage.html#dom-storage-setitem>
    fn SetItem(&self, _cx: &mut JSContext, key: DOMString, value: DOMString) -> Fallible<()> {
        let old_value = self.with_bottle(|b| -> Fallible<Option<Option<String>>> {
            // Step 1: Let oldValue be null.
            // Step 2: Let reorder be true.
            // Step 3: If this's map[key] exists: set oldValue to it; if
            // oldValue is value, then return; set reorder to false.
            let old = b.map.get(&key).cloned();
            if old.as_deref() == Some(value.as_str()) {
                return Ok(None);
            }
            // Step 4: If value cannot be stored, then throw a
            // "QuotaExceededError" DOMException.
            let freed = old.as_ref().map_or(0, |v| code_units(&key) + code_units(v));
            let used = b.used - freed + code_units(&key) + code_units(&value);
            if used > QUOTA {
                return Err(Error::dom_with_message(
                    DomExceptionName::QuotaExceededError,
                    format!(
                        "setting the value of {key:?} exceeded the quota of {QUOTA} code units per origin"
                    ),
                ));
            }
            // Step 5: Set this's map[key] to value.
            // Step 6: If reorder is true, then reorder this (the map keeps
            // its order by key).
            b.used = used;
            b.map.insert(key.clone(), value.clone());
            Ok(Some(old))
        })?;
        // Step 7: Broadcast this with key, oldValue, and value.
        if let Some(old_value) = old_value {
            self.broadcast(Some(key), old_value, Some(value));
        }
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/webstorage.html#dom-storage-removeitem>
    fn RemoveItem(&self, _cx: &mut JSContext, key: DOMString) -> Fallible<()> {
        // Step 1: If this's map[key] does not exist, then return.
        // Step 2: Set oldValue to this's map[key].
        // Step 3: Remove this's map[key].
        // Step 4: Reorder this.
        let old_value = self.with_bottle(|b| {
            let old = b.map.remove(&key)?;
            b.used -= code_units(&key) + code_units(&old);
            Some(old)
        });
        // Step 5: Broadcast this with key, oldValue, and null.
        if let Some(old_value) = old_value {
            self.broadcast(Some(key), Some(old_value), None);
        }
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/webstorage.html#the-storage-interface>:
    /// the supported property names are the keys of this's map.
    fn SupportedPropertyNames(&self, _cx: &mut JSContext) -> Vec<DOMString> {
        self.with_bottle(|b| b.map.keys().cloned().collect())
    }

    /// The named getter: `getItem(key)`.
    fn NamedGetter(&self, cx: &mut JSContext, name: DOMString) -> Option<DOMString> {
        self.GetItem(cx, name).ok().flatten()
    }

    /// The named setter: `setItem(key, value)`.
    fn NamedSetter(&self, cx: &mut JSContext, name: DOMString, value: DOMString) -> Fallible<()> {
        self.SetItem(cx, name, value)
    }

    /// The named deleter: `removeItem(key)`.
    fn NamedDeleter(&self, cx: &mut JSContext, name: DOMString) -> Fallible<()> {
        self.RemoveItem(cx, name)
    }

    /// <https://html.spec.whatwg.org/multipage/webstorage.html#dom-storage-clear>
    fn Clear(&self, _cx: &mut JSContext) -> Fallible<()> {
        // Step 1: If this's map is empty, then return.
        // Step 2: Clear this's map.
        let cleared = self.with_bottle(|b| {
            if b.map.is_empty() {
                return false;
            }
            b.map.clear();
            b.used = 0;
            true
        });
        // Step 3: Broadcast this with null, null, and null.
        if cleared {
            self.broadcast(None, None, None);
        }
        Ok(())
    }
}

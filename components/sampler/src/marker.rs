//! Markers: what the agent was doing at each sample, per the spec
//! repository's markers extension
//! (<https://github.com/WICG/js-self-profiling/blob/main/markers.md>).
//!
//! # What is recorded
//!
//! Per agent (= JS thread) the sampler reads, without locks, at each sample:
//!
//! * the GC depth counter (`GcWatch` in `glue.rs`), above 0 during every
//!   major GC slice and minor GC (SpiderMonkey's GC slice and nursery
//!   callbacks), with or without JS on the stack: `gc`;
//! * whether JS is on the stack (the `ProfilingStack` or JIT frames the
//!   capture found, which covers built-ins called from script): `script`;
//! * the *activity word* of this module, which the embedder sets around its
//!   own work on the thread outside script ([`other_work`]: HTML parsing,
//!   structured clone, fetch processing, timers' bookkeeping): `other`.
//!
//! Precedence: `gc`, then `script`, then `other`; none of them is idle (no
//! marker). `style`, `layout` and `paint` are never produced: the shell
//! computes no style, lays nothing out and paints nothing.
//!
//! With a stack, the signal handler reads the GC counter, the activity word
//! and the `profilerRealmID` of the context's current realm at the moment
//! it captures (`glue_capture.cpp`, `note_marker_state`); without JS on the
//! stack, the sampling thread reads the counter and the word itself.
//!
//! # Who may see a marker (the proposal's Privacy and Security section)
//!
//! * Only sessions whose realm is cross-origin isolated get markers
//!   ([`crate::SessionOptions::markers`] is `None` otherwise).
//! * A marker is shown only for work whose responsible document is
//!   same-origin with the profiler's: script and a GC inside script by the
//!   origin of the realm running ([`set_realm_origin`]), `other` work by the
//!   origin its guard names. A GC with neither script nor other work on the
//!   thread is the agent's own (the proposal mitigates it with cross-origin
//!   isolation alone). Work whose origin is unknown gets no marker (fail
//!   closed).

use std::collections::HashMap;
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};

pub use jsprof_trace::ProfilerMarker;

/// An origin, as the markers' same-origin check compares it: equal tags are
/// the same origin (tuple origins by serialization; each opaque origin gets
/// its own tag). Process-wide, so that a worker's tag equals its owner's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OriginTag(NonZeroU32);

static NEXT_TAG: AtomicU32 = AtomicU32::new(1);
static TAGS: Mutex<Option<HashMap<String, OriginTag>>> = Mutex::new(None);

impl OriginTag {
    /// The tag of the tuple origin serialized as `serialized` (its ASCII
    /// serialization).
    pub fn of(serialized: &str) -> OriginTag {
        let mut tags = TAGS.lock().unwrap_or_else(|e| e.into_inner());
        *tags
            .get_or_insert_with(HashMap::new)
            .entry(serialized.to_owned())
            .or_insert_with(OriginTag::unique)
    }

    /// A tag equal to no other (an opaque origin).
    pub fn unique() -> OriginTag {
        // Never `u32::MAX` (the unknown origin's word).
        let n = NEXT_TAG
            .fetch_add(1, Ordering::Relaxed)
            .clamp(1, u32::MAX - 1);
        OriginTag(NonZeroU32::new(n).unwrap_or(NonZeroU32::MIN))
    }

    fn word(self) -> u64 {
        u64::from(self.0.get())
    }
}

thread_local! {
    /// This thread's activity word: 0 outside the embedder's own work, else
    /// the tag of the origin responsible for it.
    static ACTIVITY: Arc<AtomicU64> = Arc::new(AtomicU64::new(0));
}

/// `profilerRealmID` (process-unique) → origin of the realm's global. Read
/// by the JS thread when it resolves captures and by the sampling thread
/// when it delivers samples without stack (never by the signal handler).
static REALM_ORIGINS: RwLock<Option<HashMap<u64, OriginTag>>> = RwLock::new(None);

/// This thread's activity word (shared with the agent's sampling thread
/// and, through a pointer, its signal handler).
pub(crate) fn activity_word() -> Arc<AtomicU64> {
    ACTIVITY.with(Arc::clone)
}

/// Records the origin of the global whose realm has `realm_id` (JS thread,
/// when the global is created).
pub fn set_realm_origin(realm_id: u64, origin: OriginTag) {
    let mut map = REALM_ORIGINS.write().unwrap_or_else(|e| e.into_inner());
    map.get_or_insert_with(HashMap::new)
        .insert(realm_id, origin);
}

/// Forgets a destroyed realm.
pub(crate) fn forget_realm(realm_id: u64) {
    let mut map = REALM_ORIGINS.write().unwrap_or_else(|e| e.into_inner());
    if let Some(map) = map.as_mut() {
        map.remove(&realm_id);
    }
}

fn realm_origin(realm_id: u64) -> Option<OriginTag> {
    let map = REALM_ORIGINS.read().unwrap_or_else(|e| e.into_inner());
    map.as_ref()?.get(&realm_id).copied()
}

/// The embedder's own work on this thread for a document (or worker) of
/// `origin`, until dropped: samples outside script carry `other`.
/// Nested work restores the outer one's origin when it ends.
#[must_use = "the work ends when the guard is dropped"]
pub struct OtherWork {
    previous: u64,
}

/// Marks the embedder's own work on this thread for `origin` (see
/// [`OtherWork`]). One thread-local access and two relaxed atomic
/// operations.
pub fn other_work(origin: OriginTag) -> OtherWork {
    let previous = ACTIVITY.with(|a| a.swap(origin.word(), Ordering::Relaxed));
    OtherWork { previous }
}

/// [`other_work`] for the document or worker whose global has realm
/// `realm_id` (its origin as [`set_realm_origin`] recorded it; the work of
/// a realm of unknown origin shows no marker).
pub fn other_work_for_realm(realm_id: u64) -> OtherWork {
    let word = realm_origin(realm_id).map_or(UNKNOWN_ORIGIN, OriginTag::word);
    let previous = ACTIVITY.with(|a| a.swap(word, Ordering::Relaxed));
    OtherWork { previous }
}

/// The activity word of work whose origin is not known: no tag equals it.
const UNKNOWN_ORIGIN: u64 = u32::MAX as u64;

impl Drop for OtherWork {
    fn drop(&mut self) {
        let previous = self.previous;
        let _ = ACTIVITY.try_with(|a| a.store(previous, Ordering::Relaxed));
    }
}

/// Whose work a sample shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Responsible {
    /// The agent's own (a GC outside any work): shown to every session with
    /// markers.
    Agent,
    /// Work for a document or worker of this origin.
    Origin(OriginTag),
    /// Script running in this realm (its origin looked up on the JS thread).
    Realm(u64),
    /// Not known: no marker.
    Unknown,
}

/// The marker state observed at a sample, before the per-session check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Observed {
    pub marker: Option<ProfilerMarker>,
    pub responsible: Responsible,
}

impl Observed {
    pub(crate) const IDLE: Observed = Observed {
        marker: None,
        responsible: Responsible::Unknown,
    };

    /// From the state read at a capture: `in_gc`, whether script was on the
    /// stack, the activity word and the current realm's ID.
    pub(crate) fn at_capture(in_gc: bool, script: bool, activity: u64, realm: u64) -> Observed {
        let of_script = if realm != 0 {
            Responsible::Realm(realm)
        } else {
            Responsible::Unknown
        };
        let (marker, responsible) = if in_gc && script {
            // A GC triggered inside script: the script's.
            (ProfilerMarker::Gc, of_script)
        } else if script {
            (ProfilerMarker::Script, of_script)
        } else {
            return Observed::outside_script(in_gc, activity);
        };
        Observed {
            marker: Some(marker),
            responsible,
        }
    }

    /// With no script on the stack (read by the sampling thread, or by the
    /// handler after the script returned).
    pub(crate) fn outside_script(in_gc: bool, activity: u64) -> Observed {
        let work = u32::try_from(activity)
            .ok()
            .and_then(NonZeroU32::new)
            .map(OriginTag);
        match (in_gc, work) {
            (true, Some(origin)) => Observed {
                marker: Some(ProfilerMarker::Gc),
                responsible: Responsible::Origin(origin),
            },
            (true, None) => Observed {
                marker: Some(ProfilerMarker::Gc),
                responsible: Responsible::Agent,
            },
            (false, Some(origin)) => Observed {
                marker: Some(ProfilerMarker::Other),
                responsible: Responsible::Origin(origin),
            },
            (false, None) => Observed::IDLE,
        }
    }

    /// Script (or a GC inside it) whose realm the capture could not read:
    /// the realm of the leaf-most JS frame the sample resolved to, if any.
    pub(crate) fn or_realm(self, leaf_realm: Option<u64>) -> Observed {
        match (self.marker, self.responsible, leaf_realm) {
            (Some(_), Responsible::Unknown, Some(realm)) => Observed {
                responsible: Responsible::Realm(realm),
                ..self
            },
            _ => self,
        }
    }

    /// The sample's marker for a session whose markers scope is `scope`
    /// (its origin when its realm is cross-origin isolated, else `None`):
    /// the proposal's same-origin rule.
    pub(crate) fn for_session(&self, scope: Option<OriginTag>) -> Option<ProfilerMarker> {
        let scope = scope?;
        let visible = match self.responsible {
            Responsible::Agent => true,
            Responsible::Origin(origin) => origin == scope,
            Responsible::Realm(realm) => realm_origin(realm) == Some(scope),
            Responsible::Unknown => false,
        };
        self.marker.filter(|_| visible)
    }
}

/// A marker as one byte (the trace builder's sample records).
pub(crate) fn encode(marker: Option<ProfilerMarker>) -> u8 {
    match marker {
        None => 0,
        Some(ProfilerMarker::Script) => 1,
        Some(ProfilerMarker::Gc) => 2,
        Some(ProfilerMarker::Style) => 3,
        Some(ProfilerMarker::Layout) => 4,
        Some(ProfilerMarker::Paint) => 5,
        Some(ProfilerMarker::Other) => 6,
    }
}

/// The inverse of [`encode`].
pub(crate) fn decode(code: u8) -> Option<ProfilerMarker> {
    Some(match code {
        1 => ProfilerMarker::Script,
        2 => ProfilerMarker::Gc,
        3 => ProfilerMarker::Style,
        4 => ProfilerMarker::Layout,
        5 => ProfilerMarker::Paint,
        6 => ProfilerMarker::Other,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_round_trip_through_their_byte() {
        for m in [
            None,
            Some(ProfilerMarker::Script),
            Some(ProfilerMarker::Gc),
            Some(ProfilerMarker::Style),
            Some(ProfilerMarker::Layout),
            Some(ProfilerMarker::Paint),
            Some(ProfilerMarker::Other),
        ] {
            assert_eq!(decode(encode(m)), m);
        }
    }

    #[test]
    fn same_origin_rule() {
        let a = OriginTag::of("https://a.test");
        let b = OriginTag::of("https://b.test");
        assert_eq!(OriginTag::of("https://a.test"), a);
        assert_ne!(OriginTag::unique(), OriginTag::unique());
        set_realm_origin(7001, a);
        set_realm_origin(7002, b);
        let script_a = Observed::at_capture(false, true, 0, 7001);
        let script_b = Observed::at_capture(false, true, 0, 7002);
        assert_eq!(script_a.for_session(Some(a)), Some(ProfilerMarker::Script));
        assert_eq!(script_b.for_session(Some(a)), None);
        assert_eq!(script_a.for_session(None), None, "not isolated");
        // A GC inside script is the script's.
        let gc_in_b = Observed::at_capture(true, true, 0, 7002);
        assert_eq!(gc_in_b.for_session(Some(a)), None);
        assert_eq!(gc_in_b.for_session(Some(b)), Some(ProfilerMarker::Gc));
        // A GC outside any work is the agent's.
        let idle_gc = Observed::outside_script(true, 0);
        assert_eq!(idle_gc.for_session(Some(a)), Some(ProfilerMarker::Gc));
        // Other work: its origin's only.
        let parse_b = Observed::outside_script(false, b.word());
        assert_eq!(parse_b.for_session(Some(b)), Some(ProfilerMarker::Other));
        assert_eq!(parse_b.for_session(Some(a)), None);
        // Unknown realm: nothing.
        let unknown = Observed::at_capture(false, true, 0, 0);
        assert_eq!(unknown.for_session(Some(a)), None);
        // ... unless its stack resolved to frames of a known realm.
        let leaf_a = unknown.or_realm(Some(7001));
        assert_eq!(leaf_a.for_session(Some(a)), Some(ProfilerMarker::Script));
        assert_eq!(unknown.or_realm(Some(7002)).for_session(Some(a)), None);
        assert_eq!(Observed::IDLE.or_realm(Some(7001)), Observed::IDLE);
        assert_eq!(
            Observed::outside_script(false, 0).for_session(Some(a)),
            None
        );
    }

    #[test]
    fn other_work_nests() {
        let a = OriginTag::of("https://nest-a.test");
        let b = OriginTag::of("https://nest-b.test");
        let word = activity_word();
        {
            let _outer = other_work(a);
            assert_eq!(word.load(Ordering::Relaxed), a.word());
            {
                let _inner = other_work(b);
                assert_eq!(word.load(Ordering::Relaxed), b.word());
            }
            assert_eq!(word.load(Ordering::Relaxed), a.word());
        }
        assert_eq!(word.load(Ordering::Relaxed), 0);
    }
}

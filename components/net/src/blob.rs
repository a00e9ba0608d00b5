//! The blob URL store: `blob:<origin>/<uuid>` URLs that name in-memory bytes.
//! <https://w3c.github.io/FileAPI/#BlobURLStore>

use std::collections::HashMap;
use std::fmt::Write;
use std::sync::{Arc, Mutex, PoisonError};

use jsprof_document::{Origin, PolicyContainer};
use url::{Position, Url};

/// What a `blob:` URL names: the blob's bytes and type, and the origin of
/// the environment that created it.
/// <https://w3c.github.io/FileAPI/#blob-url-entry>
#[derive(Clone, Debug)]
pub struct BlobEntry {
    /// The blob's bytes (shared, not copied, by [`BlobStore::resolve`]).
    pub bytes: Arc<[u8]>,
    /// The blob's `type`: lowercase printable ASCII, or empty.
    pub mime_type: String,
    /// The origin of the environment that registered it.
    pub origin: Origin,
    /// The policy container of the environment that registered it (what a
    /// `blob:` worker made from this URL gets).
    pub policy: PolicyContainer,
    /// The environment that registered it ([`BlobCreator::environment`];
    /// 0: none in particular), whose destruction revokes it.
    pub environment: u64,
}

/// The environment settings object that registers a blob URL
/// (<https://w3c.github.io/FileAPI/#add-an-entry> step 2, "the current
/// settings object"): the parts of it its blob URL entry keeps.
#[derive(Clone, Debug)]
pub struct BlobCreator {
    /// The environment's origin.
    pub origin: Origin,
    /// The environment's policy container.
    pub policy: PolicyContainer,
    /// A process-unique ID of the environment (its global), for
    /// [`BlobStore::revoke_environment`].
    pub environment: u64,
}

/// The blob URL store of one agent cluster: thread-safe, shared as an
/// `Arc<BlobStore>` between the script side (which registers and revokes
/// for `URL.createObjectURL`/`revokeObjectURL`) and the
/// [`Fetcher`](crate::Fetcher) (which resolves at fetch time).
///
/// Fetch resolves a blob URL's entry when the URL is *parsed*; this store is
/// consulted when the URL is *fetched*, so a URL revoked in between fails to
/// load here, unless the caller resolved the entry at parse time (as `new
/// Worker()` does) and uses it.
#[derive(Debug, Default)]
pub struct BlobStore {
    entries: Mutex<HashMap<String, BlobEntry>>,
}

/// The store's key for a URL: its serialization without the fragment.
fn key(url: &Url) -> &str {
    &url[..Position::AfterQuery]
}

/// A random (version 4) UUID, lowercase.
/// <https://wicg.github.io/uuid/#generate-a-random-uuid>
fn random_uuid() -> String {
    let mut bytes = [0u8; 16];
    let provider = rustls::crypto::ring::default_provider();
    if provider.secure_random.fill(&mut bytes).is_err() {
        // The system RNG failed: still make a URL unique in this process.
        use std::sync::atomic::{AtomicU64, Ordering};
        static COUNTER: AtomicU64 = AtomicU64::new(1);
        bytes[..8].copy_from_slice(&COUNTER.fetch_add(1, Ordering::Relaxed).to_be_bytes());
    }
    // Set the version (4) and variant (10xx) bits.
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    let mut uuid = String::with_capacity(36);
    for (i, byte) in bytes.iter().enumerate() {
        if matches!(i, 4 | 6 | 8 | 10) {
            uuid.push('-');
        }
        let _ = write!(uuid, "{byte:02x}");
    }
    uuid
}

/// The `type` a Blob keeps for a given type string: empty if it has a
/// character outside U+0020-U+007E, else lowercased.
/// <https://w3c.github.io/FileAPI/#constructorBlob> step 3.
fn normalize_blob_type(mime_type: &str) -> String {
    if mime_type.chars().all(|c| (' '..='~').contains(&c)) {
        mime_type.to_ascii_lowercase()
    } else {
        String::new()
    }
}

impl BlobStore {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, BlobEntry>> {
        // A panic elsewhere while holding the lock leaves a usable map.
        self.entries.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Registers bytes under a new blob URL for `origin` (the creating
    /// environment's origin): "add an entry to the blob URL store" with
    /// "generate a new blob URL" (`blob:` + the origin's serialization, `/`,
    /// a random UUID; `blob:null/...` for an opaque origin).
    pub fn register(&self, origin: &Origin, bytes: impl Into<Arc<[u8]>>, mime_type: &str) -> Url {
        let creator = BlobCreator {
            origin: origin.clone(),
            policy: PolicyContainer::default(),
            environment: 0,
        };
        self.register_from(&creator, bytes, mime_type)
    }

    /// <https://w3c.github.io/FileAPI/#add-an-entry>: registers bytes under
    /// a new blob URL whose entry's environment is `creator` (its origin,
    /// its policy container, its ID).
    pub fn register_from(
        &self,
        creator: &BlobCreator,
        bytes: impl Into<Arc<[u8]>>,
        mime_type: &str,
    ) -> Url {
        let origin = &creator.origin;
        let entry = BlobEntry {
            bytes: bytes.into(),
            mime_type: normalize_blob_type(mime_type),
            origin: origin.clone(),
            policy: creator.policy,
            environment: creator.environment,
        };
        loop {
            // Generate a new blob URL, steps 1-7.
            let text = format!("blob:{}/{}", origin.ascii_serialization(), random_uuid());
            let url = match Url::parse(&text) {
                Ok(url) => url,
                // Cannot happen for a serialized origin and a UUID; fall back
                // to the opaque form rather than panic.
                Err(_) => match Url::parse(&format!("blob:null/{}", random_uuid())) {
                    Ok(url) => url,
                    Err(_) => continue,
                },
            };
            let mut entries = self.lock();
            if let std::collections::hash_map::Entry::Vacant(slot) =
                entries.entry(key(&url).to_owned())
            {
                slot.insert(entry);
                return url;
            }
        }
    }

    /// Removes the entry for `url` (fragment ignored):
    /// `URL.revokeObjectURL`. Returns whether there was one.
    pub fn revoke(&self, url: &Url) -> bool {
        self.lock().remove(key(url)).is_some()
    }

    /// Removes every entry registered by `environment` (not 0): "when an
    /// environment settings object is destroyed, remove its blob URL
    /// entries" (<https://w3c.github.io/FileAPI/#lifeTime>). Returns how
    /// many there were.
    pub fn revoke_environment(&self, environment: u64) -> usize {
        if environment == 0 {
            return 0;
        }
        let mut entries = self.lock();
        let before = entries.len();
        entries.retain(|_, entry| entry.environment != environment);
        before - entries.len()
    }

    /// The entry for `url` (fragment ignored), if registered and not revoked.
    /// <https://w3c.github.io/FileAPI/#blob-url-resolve>
    pub fn resolve(&self, url: &Url) -> Option<BlobEntry> {
        if url.scheme() != "blob" {
            return None;
        }
        self.lock().get(key(url)).cloned()
    }

    /// The number of registered URLs.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether no URL is registered.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn register_resolve_revoke() {
        let store = BlobStore::new();
        let origin = Origin::of(&Url::parse("https://a.test:8443/page").unwrap());
        let url = store.register(&origin, b"hello".to_vec(), "Text/Plain");
        assert!(
            url.as_str().starts_with("blob:https://a.test:8443/"),
            "{url}"
        );
        assert_eq!(url.as_str().len(), "blob:https://a.test:8443/".len() + 36);
        let entry = store.resolve(&url).unwrap();
        assert_eq!(&*entry.bytes, b"hello");
        assert_eq!(entry.mime_type, "text/plain");
        assert_eq!(entry.origin, origin);
        // The fragment is ignored.
        let mut with_fragment = url.clone();
        with_fragment.set_fragment(Some("x"));
        assert!(store.resolve(&with_fragment).is_some());
        assert_eq!(Origin::of(&url), origin);
        assert!(store.revoke(&with_fragment));
        assert!(store.resolve(&url).is_none());
        assert!(!store.revoke(&url));
        assert!(store.is_empty());
    }

    #[test]
    fn opaque_origin_and_odd_types() {
        let store = BlobStore::new();
        let url = store.register(&Origin::new_opaque(), Vec::new(), "text/é");
        assert!(url.as_str().starts_with("blob:null/"), "{url}");
        assert_eq!(store.resolve(&url).unwrap().mime_type, "");
        let other = store.register(&Origin::new_opaque(), Vec::new(), "");
        assert_ne!(url, other);
        assert_eq!(store.len(), 2);
        assert!(store
            .resolve(&Url::parse("https://a.test/").unwrap())
            .is_none());
    }

    #[test]
    fn entries_keep_their_creator_and_go_with_it() {
        let store = BlobStore::new();
        let origin = Origin::of(&Url::parse("https://a.test/").unwrap());
        let policy = PolicyContainer {
            document_policy: jsprof_document::process_response_policy(
                &jsprof_document::HeaderList::new().with("Document-Policy", "js-profiling"),
            )
            .policy,
            embedder_policy: jsprof_document::EmbedderPolicyValue::RequireCorp,
        };
        let creator = |environment| BlobCreator {
            origin: origin.clone(),
            policy,
            environment,
        };
        let a1 = store.register_from(&creator(7), b"1".to_vec(), "");
        let a2 = store.register_from(&creator(7), b"2".to_vec(), "");
        let b = store.register_from(&creator(8), b"3".to_vec(), "");
        let plain = store.register(&origin, b"4".to_vec(), "");
        assert_eq!(store.resolve(&a1).unwrap().policy, policy);
        assert_eq!(store.resolve(&a1).unwrap().environment, 7);
        assert_eq!(
            store.resolve(&plain).unwrap().policy,
            PolicyContainer::default()
        );
        assert_eq!(store.revoke_environment(7), 2);
        assert!(store.resolve(&a1).is_none() && store.resolve(&a2).is_none());
        assert!(store.resolve(&b).is_some() && store.resolve(&plain).is_some());
        // 0 is no environment in particular: nothing goes with it.
        assert_eq!(store.revoke_environment(0), 0);
        assert_eq!(store.len(), 2);
    }

    #[test]
    fn uuid_shape() {
        let uuid = random_uuid();
        let parts: Vec<&str> = uuid.split('-').collect();
        assert_eq!(
            parts.iter().map(|p| p.len()).collect::<Vec<_>>(),
            [8, 4, 4, 4, 12]
        );
        assert!(parts[2].starts_with('4'));
        assert!(matches!(parts[3].as_bytes()[0], b'8' | b'9' | b'a' | b'b'));
        assert_ne!(uuid, random_uuid());
    }
}

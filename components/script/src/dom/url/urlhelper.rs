//! The URL decomposition getters that `URL`, `Location` and
//! `WorkerLocation` share (as Servo's `UrlHelper`): the URL Standard and
//! HTML define each of them by the same steps on a URL record
//! (<https://url.spec.whatwg.org/#urlutils-members>,
//! <https://html.spec.whatwg.org/multipage/nav-history-apis.html#the-location-interface>,
//! <https://html.spec.whatwg.org/multipage/workers.html#worker-locations>).
//! `origin` is not here: each interface serializes its own kind of origin.

use url::Url;

use crate::dom::bindings::conversions::USVString;

pub(crate) struct UrlHelper;

impl UrlHelper {
    /// `href`: the serialization of the URL.
    pub(crate) fn href(url: &Url) -> USVString {
        USVString(url.to_string())
    }

    /// `protocol`: the URL's scheme, followed by ":".
    pub(crate) fn protocol(url: &Url) -> USVString {
        USVString(format!("{}:", url.scheme()))
    }

    /// `host`: the empty string if the URL's host is null; the host,
    /// serialized, if its port is null; else the host, ":" and the port.
    pub(crate) fn host(url: &Url) -> USVString {
        let host = url.host_str().unwrap_or_default();
        USVString(match url.port() {
            Some(port) => format!("{host}:{port}"),
            None => host.to_owned(),
        })
    }

    /// `hostname`: the URL's host, serialized, or the empty string if null.
    pub(crate) fn hostname(url: &Url) -> USVString {
        USVString(url.host_str().unwrap_or_default().to_owned())
    }

    /// `port`: the URL's port, serialized, or the empty string if null.
    pub(crate) fn port(url: &Url) -> USVString {
        USVString(url.port().map(|p| p.to_string()).unwrap_or_default())
    }

    /// `pathname`: the result of URL path serializing the URL.
    pub(crate) fn pathname(url: &Url) -> USVString {
        USVString(url.path().to_owned())
    }

    /// `search`: the empty string if the URL's query is null or empty,
    /// else "?" followed by the query.
    pub(crate) fn search(url: &Url) -> USVString {
        USVString(match url.query() {
            None | Some("") => String::new(),
            Some(q) => format!("?{q}"),
        })
    }

    /// `hash`: the empty string if the URL's fragment is null or empty,
    /// else "#" followed by the fragment.
    pub(crate) fn hash(url: &Url) -> USVString {
        USVString(match url.fragment() {
            None | Some("") => String::new(),
            Some(f) => format!("#{f}"),
        })
    }
}

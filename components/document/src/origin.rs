//! Origins, potentially trustworthy origins and URLs, secure contexts.
//!
//! [`Origin`] wraps `url::Origin` (tuple origins; a fresh opaque origin for
//! `data:` and other schemes without one). One choice the URL standard leaves
//! to the engine: `file:` URLs get a tuple origin `("file", host, no port)`,
//! as Chromium's URL layer does, so a `file:` page and the `file:` scripts
//! beside it are same origin (their frames can be profiled), and `file:`
//! origins are potentially trustworthy (step 6 of the Secure Contexts
//! algorithm, unreachable for opaque origins).

use url::{Host, Url};

/// An origin. <https://html.spec.whatwg.org/multipage/browsers.html#concept-origin>
///
/// Equality is "same origin": tuple origins compare by (scheme, host, port);
/// an opaque origin equals only itself and its clones.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Origin(url::Origin);

impl Origin {
    /// <https://url.spec.whatwg.org/#concept-url-origin>
    ///
    /// `blob:` URLs: the blob URL store is not modelled here, so this is the
    /// origin of the URL in the blob's path (steps 2-5); a loader that knows
    /// the blob URL entry uses its environment's origin instead (step 1).
    pub fn of(url: &Url) -> Origin {
        match url.scheme() {
            "blob" => {
                // Step 2: Let pathURL be the result of parsing the result of
                // URL path serializing url.
                // Step 3: If pathURL is failure, then return a new opaque
                // origin.
                // Step 4: If pathURL's scheme is "http", "https", or "file",
                // then return pathURL's origin.
                // Step 5: Return a new opaque origin.
                match Url::parse(url.path()) {
                    Ok(path_url) if matches!(path_url.scheme(), "http" | "https" | "file") => {
                        Origin::of(&path_url)
                    }
                    _ => Origin::new_opaque(),
                }
            }
            // "file": left to the engine; see the module documentation.
            "file" => Origin(url::Origin::Tuple(
                "file".to_owned(),
                Host::Domain(url.host_str().unwrap_or("").to_owned()),
                0,
            )),
            // "ftp", "http", "https", "ws", "wss": the tuple origin;
            // otherwise a new opaque origin (what `url` implements).
            _ => Origin(url.origin()),
        }
    }

    /// A new opaque origin, different from every other.
    pub fn new_opaque() -> Origin {
        Origin(url::Origin::new_opaque())
    }

    /// Whether this is an opaque origin.
    pub fn is_opaque(&self) -> bool {
        !self.0.is_tuple()
    }

    /// The scheme of a tuple origin.
    pub fn scheme(&self) -> Option<&str> {
        match &self.0 {
            url::Origin::Tuple(scheme, _, _) => Some(scheme),
            url::Origin::Opaque(_) => None,
        }
    }

    /// The host of a tuple origin (empty domain for a `file:` origin
    /// without host).
    pub fn host(&self) -> Option<&Host<String>> {
        match &self.0 {
            url::Origin::Tuple(_, host, _) => Some(host),
            url::Origin::Opaque(_) => None,
        }
    }

    /// The underlying `url` crate origin.
    pub fn as_url_origin(&self) -> &url::Origin {
        &self.0
    }

    /// <https://html.spec.whatwg.org/multipage/browsers.html#same-origin>
    pub fn same_origin(&self, other: &Origin) -> bool {
        // Step 1: If A and B are the same opaque origin, then return true.
        // Step 2: If A and B are both tuple origins and their schemes, hosts,
        // and ports are identical, then return true.
        // Step 3: Return false.
        self == other
    }

    /// <https://html.spec.whatwg.org/multipage/browsers.html#ascii-serialisation-of-an-origin>
    pub fn ascii_serialization(&self) -> String {
        match &self.0 {
            // Step 1: If origin is an opaque origin, then return "null".
            url::Origin::Opaque(_) => "null".to_owned(),
            // Steps 2-6 for the `file:` tuple (which has no port): scheme,
            // "://", host.
            url::Origin::Tuple(scheme, host, _) if scheme == "file" => format!("file://{host}"),
            // Steps 2-6: scheme "://" host [":" port], the port omitted when
            // it is the scheme's default.
            url::Origin::Tuple(..) => self.0.ascii_serialization(),
        }
    }

    /// <https://w3c.github.io/webappsec-secure-contexts/#is-origin-trustworthy>
    pub(crate) fn is_potentially_trustworthy(&self) -> bool {
        // Step 1: If origin is an opaque origin, return "Not Trustworthy".
        // Step 2: Assert: origin is a tuple origin.
        let url::Origin::Tuple(scheme, host, _) = &self.0 else {
            return false;
        };
        // Step 3: If origin's scheme is either "https" or "wss", return
        // "Potentially Trustworthy".
        if scheme == "https" || scheme == "wss" {
            return true;
        }
        // Step 4: If origin's host matches one of the CIDR notations
        // 127.0.0.0/8 or ::1/128, return "Potentially Trustworthy".
        match host {
            Host::Ipv4(ip) if ip.is_loopback() => return true,
            // (`Ipv6Addr::is_loopback` is exactly ::1/128.)
            Host::Ipv6(ip) if ip.is_loopback() => return true,
            // Step 5: If the user agent conforms to the name resolution rules
            // in [let-localhost-be-localhost] (ours resolves these names to
            // loopback only) and origin's host is "localhost" or
            // "localhost.", or ends with ".localhost" or ".localhost.",
            // return "Potentially Trustworthy".
            Host::Domain(domain) if is_localhost_name(domain) => return true,
            _ => {}
        }
        // Step 6: If origin's scheme is "file", return "Potentially
        // Trustworthy".
        if scheme == "file" {
            return true;
        }
        // Step 7: authenticated schemes: none besides https and wss here.
        // Step 8: configured trustworthy origins: none.
        // Step 9: Return "Not Trustworthy".
        false
    }
}

fn is_localhost_name(domain: &str) -> bool {
    // Hosts from the URL parser are already ASCII-lowercased.
    let name = domain.strip_suffix('.').unwrap_or(domain);
    name == "localhost" || name.ends_with(".localhost")
}

/// <https://w3c.github.io/webappsec-secure-contexts/#is-url-trustworthy>
pub fn is_url_potentially_trustworthy(url: &Url) -> bool {
    // Step 1: If url is "about:blank" or "about:srcdoc", return "Potentially
    // Trustworthy".
    if url.scheme() == "about" && matches!(url.path(), "blank" | "srcdoc") {
        return true;
    }
    // Step 2: If url's scheme is "data", return "Potentially Trustworthy".
    if url.scheme() == "data" {
        return true;
    }
    // Step 3: Return the result of executing "Is origin potentially
    // trustworthy?" on url's origin.
    Origin::of(url).is_potentially_trustworthy()
}

/// The kind of environment asking whether it is a secure context.
#[derive(Clone, Copy, Debug)]
pub enum Environment<'a> {
    /// A `Window` (a document), with its top-level creation URL (the
    /// document's URL for a top-level document).
    Window {
        /// The environment's top-level creation URL.
        top_level_creation_url: &'a Url,
    },
    /// A worker, with whether its first owner is a secure context.
    Worker {
        /// Whether the worker's first owner's relevant settings object is a
        /// secure context.
        owner_is_secure_context: bool,
    },
    /// A worklet.
    Worklet,
}

/// <https://html.spec.whatwg.org/multipage/webappapis.html#secure-context>
pub fn is_secure_context(environment: Environment<'_>) -> bool {
    match environment {
        // Step 1.2: If global is a WorkerGlobalScope, then:
        // Step 1.2.1: If global's owner set[0]'s relevant settings object is
        // a secure context, then return true.
        // Step 1.2.2: Return false.
        Environment::Worker {
            owner_is_secure_context,
        } => owner_is_secure_context,
        // Step 1.3: If global is a WorkletGlobalScope, then return true.
        Environment::Worklet => true,
        // Step 2: If the result of Is url potentially trustworthy? given
        // environment's top-level creation URL is "Potentially Trustworthy",
        // then return true.
        // Step 3: Return false.
        Environment::Window {
            top_level_creation_url,
        } => is_url_potentially_trustworthy(top_level_creation_url),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(s: &str) -> Url {
        Url::parse(s).unwrap()
    }

    fn origin(s: &str) -> Origin {
        Origin::of(&url(s))
    }

    #[test]
    fn tuple_origins_compare_by_scheme_host_port() {
        assert!(origin("https://a.test/x").same_origin(&origin("https://a.test:443/y?z")));
        assert!(origin("http://a.test/").same_origin(&origin("http://A.TEST:80/")));
        assert!(!origin("https://a.test/").same_origin(&origin("http://a.test/")));
        assert!(!origin("https://a.test/").same_origin(&origin("https://a.test:8443/")));
        assert!(!origin("https://a.test/").same_origin(&origin("https://b.a.test/")));
        assert!(!origin("https://a.test/").is_opaque());
        assert_eq!(origin("https://a.test/").scheme(), Some("https"));
    }

    #[test]
    fn opaque_origins_are_unique_but_equal_to_their_clones() {
        let a = origin("data:text/javascript,1");
        let b = origin("data:text/javascript,1");
        assert!(a.is_opaque());
        assert!(!a.same_origin(&b));
        assert!(a.same_origin(&a.clone()));
        assert_eq!(a.scheme(), None);
        assert_eq!(a.host(), None);
        assert!(origin("about:blank").is_opaque());
        assert!(origin("javascript:1").is_opaque());
        assert!(Origin::new_opaque().is_opaque());
    }

    #[test]
    fn serialization() {
        assert_eq!(
            origin("https://a.test/x").ascii_serialization(),
            "https://a.test"
        );
        assert_eq!(
            origin("https://a.test:8443/").ascii_serialization(),
            "https://a.test:8443"
        );
        assert_eq!(
            origin("http://127.0.0.1:80/").ascii_serialization(),
            "http://127.0.0.1"
        );
        assert_eq!(
            origin("http://[::1]:8000/").ascii_serialization(),
            "http://[::1]:8000"
        );
        assert_eq!(
            origin("https://b\u{fc}cher.test/").ascii_serialization(),
            "https://xn--bcher-kva.test"
        );
        assert_eq!(origin("data:,x").ascii_serialization(), "null");
        assert_eq!(
            origin("file:///tmp/a.html").ascii_serialization(),
            "file://"
        );
        assert_eq!(
            origin("file://server/share/a.js").ascii_serialization(),
            "file://server"
        );
    }

    #[test]
    fn file_urls_share_a_tuple_origin_per_host() {
        let page = origin("file:///home/me/page.html");
        assert!(!page.is_opaque());
        assert!(page.same_origin(&origin("file:///other/dir/script.js")));
        assert!(!page.same_origin(&origin("file://server/script.js")));
        assert!(!page.same_origin(&origin("http://localhost/")));
    }

    #[test]
    fn blob_origins_come_from_the_inner_url() {
        assert!(origin("blob:https://a.test/uuid").same_origin(&origin("https://a.test/")));
        assert!(origin("blob:file:///uuid").same_origin(&origin("file:///x")));
        assert!(origin("blob:data:text/plain,x").is_opaque());
        assert!(origin("blob:ws://a.test/uuid").is_opaque());
        assert!(origin("blob:not a url").is_opaque());
    }

    #[test]
    fn potentially_trustworthy_origins() {
        for trustworthy in [
            "https://a.test/",
            "wss://a.test/",
            "http://127.0.0.1/",
            "http://127.255.0.9:8080/",
            "http://[::1]/",
            "http://localhost/",
            "http://LOCALHOST:3000/",
            "http://localhost./",
            "http://app.localhost/",
            "http://a.b.localhost./",
            "file:///tmp/x",
        ] {
            assert!(
                origin(trustworthy).is_potentially_trustworthy(),
                "{trustworthy}"
            );
        }
        for untrustworthy in [
            "http://a.test/",
            "ws://a.test/",
            "http://128.0.0.1/",
            "http://[::2]/",
            "http://localhost.test/",
            "http://notlocalhost/",
            "http://localhostx/",
            "ftp://localhostx/",
            "data:,x",
            "blob:http://a.test/x",
        ] {
            assert!(
                !origin(untrustworthy).is_potentially_trustworthy(),
                "{untrustworthy}"
            );
        }
        assert!(!Origin::new_opaque().is_potentially_trustworthy());
        assert!(origin("blob:https://a.test/x").is_potentially_trustworthy());
    }

    #[test]
    fn potentially_trustworthy_urls() {
        assert!(is_url_potentially_trustworthy(&url("about:blank")));
        assert!(is_url_potentially_trustworthy(&url("about:srcdoc")));
        assert!(!is_url_potentially_trustworthy(&url("about:config")));
        assert!(is_url_potentially_trustworthy(&url("data:text/html,hi")));
        assert!(is_url_potentially_trustworthy(&url("https://a.test/")));
        assert!(!is_url_potentially_trustworthy(&url("http://a.test/")));
        assert!(is_url_potentially_trustworthy(&url("file:///x.html")));
    }

    #[test]
    fn secure_contexts() {
        let https = url("https://a.test/");
        let http = url("http://a.test/");
        let local = url("http://127.0.0.1:8000/");
        assert!(is_secure_context(Environment::Window {
            top_level_creation_url: &https
        }));
        assert!(!is_secure_context(Environment::Window {
            top_level_creation_url: &http
        }));
        assert!(is_secure_context(Environment::Window {
            top_level_creation_url: &local
        }));
        assert!(is_secure_context(Environment::Worker {
            owner_is_secure_context: true
        }));
        assert!(!is_secure_context(Environment::Worker {
            owner_is_secure_context: false
        }));
        assert!(is_secure_context(Environment::Worklet));
    }
}

//! `URL` (<https://url.spec.whatwg.org/#url-class>) on the `url` crate,
//! with the File API's `createObjectURL`/`revokeObjectURL`
//! (<https://w3c.github.io/FileAPI/#creating-revoking>) on the blob URL
//! store shared with the loader (`jsprof_net::BlobStore`).

use std::cell::RefCell;

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;
use mozjs::rust::HandleObject;

use crate::dom::bindings::codegen::URLBinding::URLMethods;
use crate::dom::bindings::conversions::{DOMString, USVString};
use crate::dom::bindings::error::{Error, Fallible};
use crate::dom::bindings::reflector::DomGlobal;
use crate::dom::bindings::reflector::{reflect_dom_object, Reflector};
use crate::dom::bindings::root::{DomRoot, MutNullableDom};
use crate::dom::fetch::blob::Blob;
use crate::dom::globals::globalscope::GlobalScope;
use crate::dom::url::urlhelper::UrlHelper;
use crate::dom::url::urlsearchparams::{parse, URLSearchParams};
use crate::navigation::browsing_context;

#[derive(JSTraceable)]
pub struct URL {
    pub(crate) reflector: Reflector,
    /// <https://url.spec.whatwg.org/#concept-url-url>
    #[no_trace]
    url: RefCell<url::Url>,
    /// <https://url.spec.whatwg.org/#concept-url-query-object>, made on
    /// first use (its list parsed from the query then, as it would have
    /// been at construction and kept since).
    query_object: MutNullableDom<URLSearchParams>,
}

impl URL {
    /// The URLSearchParams update steps' step 4: set this's URL's query to
    /// `query` (null: none).
    pub(crate) fn set_query_from_search_params(&self, query: Option<String>) {
        self.url.borrow_mut().set_query(query.as_deref());
    }

    /// Sets this's query object's list to the result of parsing this's
    /// URL's query (empty for a null query), if the object exists.
    fn reparse_query_object(&self) {
        if let Some(params) = self.query_object.get() {
            let query = self.url.borrow().query().map(str::to_owned);
            params.set_list(query.as_deref().map(parse).unwrap_or_default());
        }
    }
}

/// <https://url.spec.whatwg.org/#api-url-parser>
fn api_url_parser(url: &str, base: Option<&str>) -> Option<url::Url> {
    // Step 1: Let parsedBase be null.
    // Step 2: If base is non-null: parse it; failure → failure.
    let parsed_base = match base {
        Some(base) => Some(url::Url::parse(base).ok()?),
        None => None,
    };
    // Step 3: Return the result of running the basic URL parser on url
    // with parsedBase.
    url::Url::options()
        .base_url(parsed_base.as_ref())
        .parse(url)
        .ok()
}

/// The current global's origin (its window's, else the URL origin of
/// nothing: opaque).
fn settings_origin(global: &GlobalScope) -> jsprof_document::Origin {
    global.origin()
}

impl URLMethods for URL {
    /// <https://url.spec.whatwg.org/#dom-url-url>
    fn Constructor(
        cx: &mut JSContext,
        global: &GlobalScope,
        proto: Option<HandleObject>,
        url: USVString,
        base: Option<USVString>,
    ) -> Fallible<DomRoot<URL>> {
        // Step 1: Let parsedURL be the result of running the API URL parser
        // on url with base, if given.
        // Step 2: If parsedURL is failure, then throw a TypeError.
        let parsed = api_url_parser(&url.0, base.as_ref().map(|b| b.0.as_str()))
            .ok_or_else(|| Error::Type(format!("{:?} is not a valid URL", url.0)))?;
        // Step 3: Initialize this with parsedURL.
        Ok(reflect_dom_object(
            cx,
            global,
            Box::new(URL {
                reflector: Reflector::new(),
                url: RefCell::new(parsed),
                query_object: MutNullableDom::default(),
            }),
            proto,
        ))
    }

    /// <https://url.spec.whatwg.org/#dom-url-canparse>
    fn CanParse(
        _cx: &mut JSContext,
        _global: &GlobalScope,
        url: USVString,
        base: Option<USVString>,
    ) -> Fallible<bool> {
        Ok(api_url_parser(&url.0, base.as_ref().map(|b| b.0.as_str())).is_some())
    }

    fn Href(&self, _cx: &mut JSContext) -> USVString {
        UrlHelper::href(&self.url.borrow())
    }

    /// <https://url.spec.whatwg.org/#dom-url-href>
    fn SetHref(&self, _cx: &mut JSContext, value: USVString) -> Fallible<()> {
        // Step 1: Let parsedURL be the result of running the basic URL
        // parser on the given value.
        // Step 2: If parsedURL is failure, then throw a TypeError.
        let parsed = url::Url::parse(&value.0)
            .map_err(|_| Error::Type(format!("{:?} is not a valid URL", value.0)))?;
        // Step 3: Set this's URL to parsedURL.
        *self.url.borrow_mut() = parsed;
        // Step 4: Empty this's query object's list.
        // Step 5: Let query be this's URL's query.
        // Step 6: If query is non-null, then set this's query object's list
        // to the result of parsing query.
        self.reparse_query_object();
        Ok(())
    }

    fn Origin(&self, _cx: &mut JSContext) -> USVString {
        USVString(jsprof_document::Origin::of(&self.url.borrow()).ascii_serialization())
    }

    fn Protocol(&self, _cx: &mut JSContext) -> USVString {
        UrlHelper::protocol(&self.url.borrow())
    }

    fn Username(&self, _cx: &mut JSContext) -> USVString {
        USVString(self.url.borrow().username().to_owned())
    }

    fn Password(&self, _cx: &mut JSContext) -> USVString {
        USVString(self.url.borrow().password().unwrap_or("").to_owned())
    }

    fn Host(&self, _cx: &mut JSContext) -> USVString {
        UrlHelper::host(&self.url.borrow())
    }

    fn Hostname(&self, _cx: &mut JSContext) -> USVString {
        UrlHelper::hostname(&self.url.borrow())
    }

    fn Port(&self, _cx: &mut JSContext) -> USVString {
        UrlHelper::port(&self.url.borrow())
    }

    fn Pathname(&self, _cx: &mut JSContext) -> USVString {
        UrlHelper::pathname(&self.url.borrow())
    }

    /// <https://url.spec.whatwg.org/#dom-url-search>: empty for a null or
    /// empty query, else "?" + query.
    fn Search(&self, _cx: &mut JSContext) -> USVString {
        UrlHelper::search(&self.url.borrow())
    }

    /// <https://url.spec.whatwg.org/#dom-url-search>: the setter.
    fn SetSearch(&self, _cx: &mut JSContext, value: USVString) -> Fallible<()> {
        // Step 1: Let url be this's URL.
        // Step 2: If the given value is the empty string: set url's query
        // to null, empty this's query object's list, potentially strip
        // trailing spaces from an opaque path with this (the url crate's
        // set_query does), and return.
        // Step 3: Let input be the given value with a single leading "?"
        // removed, if any.
        // Step 4: Set url's query to the empty string.
        // Step 5: Basic URL parse input with url as url and query state as
        // state override (set_query percent-encodes with the query, or
        // special-query, percent-encode set).
        {
            let mut url = self.url.borrow_mut();
            if value.0.is_empty() {
                url.set_query(None);
            } else {
                let input = value.0.strip_prefix('?').unwrap_or(&value.0);
                url.set_query(Some(input));
            }
        }
        // Step 6: Set this's query object's list to the result of parsing
        // input (the query as stored; parsing percent-decodes it again).
        self.reparse_query_object();
        Ok(())
    }

    /// <https://url.spec.whatwg.org/#dom-url-searchparams>: this's query
    /// object.
    fn SearchParams(&self, cx: &mut JSContext) -> DomRoot<URLSearchParams> {
        if let Some(params) = self.query_object.get() {
            return params;
        }
        // (https://url.spec.whatwg.org/#url-initialize, steps 3-5: a new
        // URLSearchParams object, initialized with this's URL's query,
        // whose URL object is this.)
        let global = self.global_scope();
        let query = self.url.borrow().query().map(str::to_owned);
        let params = URLSearchParams::new_for_url(cx, global, self, query.as_deref());
        self.query_object.set(Some(&params));
        params
    }

    /// <https://url.spec.whatwg.org/#dom-url-hash>
    fn Hash(&self, _cx: &mut JSContext) -> USVString {
        UrlHelper::hash(&self.url.borrow())
    }

    /// <https://url.spec.whatwg.org/#dom-url-tojson>
    fn ToJSON(&self, _cx: &mut JSContext) -> Fallible<USVString> {
        Ok(USVString(self.url.borrow().to_string()))
    }

    /// <https://w3c.github.io/FileAPI/#dfn-createObjectURL>: the result of
    /// adding an entry to the blob URL store for obj
    /// (<https://w3c.github.io/FileAPI/#add-an-entry>).
    fn CreateObjectURL(
        _cx: &mut JSContext,
        global: &GlobalScope,
        obj: DomRoot<Blob>,
    ) -> Fallible<DOMString> {
        // Step 1: Let store be the user agent's blob URL store.
        let store = browsing_context::blob_store();
        // Step 2: Let url be the result of generating a new blob URL.
        // Step 3: Let entry be a new blob URL entry consisting of object
        // and the current settings object (its origin, its policy
        // container, for the blob: workers made from it, and its identity,
        // for the removal of its entries when it is destroyed).
        // Step 4: Set store[url] to entry.
        // Step 5: Return url.
        let creator = jsprof_net::BlobCreator {
            origin: settings_origin(global),
            policy: jsprof_document::PolicyContainer {
                document_policy: global.document_policy().unwrap_or_default(),
                embedder_policy: global.embedder_policy(),
            },
            environment: global.profiler_realm_id(),
        };
        Ok(store
            .register_from(&creator, obj.bytes(), obj.type_string())
            .to_string())
    }

    /// <https://w3c.github.io/FileAPI/#dfn-revokeObjectURL>
    fn RevokeObjectURL(_cx: &mut JSContext, global: &GlobalScope, url: DOMString) -> Fallible<()> {
        // Step 1: Let url record be the result of parsing url.
        // Step 2: If url record's scheme is not "blob", return.
        let Ok(record) = url::Url::parse(&url) else {
            return Ok(());
        };
        if record.scheme() != "blob" {
            return Ok(());
        }
        // Step 3: Let entry be urlRecord's blob URL entry.
        // Step 4: If entry is null, then return.
        // Step 5: Let isAuthorized be the result of checking for same-partition
        // blob URL usage with entry and the current settings object.
        // Step 6: If isAuthorized is false, then return.
        let store = browsing_context::blob_store();
        let Some(entry) = store.resolve(&record) else {
            return Ok(());
        };
        if !entry.origin.same_origin(&settings_origin(global)) {
            return Ok(());
        }
        // Step 7: Remove an entry from the Blob URL Store for url.
        store.revoke(&record);
        Ok(())
    }
}

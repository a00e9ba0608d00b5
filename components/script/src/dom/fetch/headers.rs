//! `Headers` (<https://fetch.spec.whatwg.org/#headers-class>): a header
//! list and its guard.
//!
//! Names and values arrive as ByteStrings (the IDL conversion has
//! already thrown a TypeError for a code point above U+00FF) and are kept
//! as isomorphic-decoded strings (one char per byte).

use std::cell::{Cell, RefCell};

use jsprof_document::HeaderList;
use jsprof_net::api_fetch::{
    is_cors_safelisted_request_header, is_forbidden_request_header,
    is_forbidden_response_header_name, is_header_name, is_header_value,
    is_no_cors_safelisted_request_header_name, normalize_header_value,
};
use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;
use mozjs::rust::HandleObject;

use crate::dom::bindings::codegen::ByteStringSequenceSequenceOrByteStringByteStringRecord as HeadersInit;
use crate::dom::bindings::codegen::HeadersBinding::HeadersMethods;
use crate::dom::bindings::conversions::ByteString;
use crate::dom::bindings::error::{Error, Fallible};
use crate::dom::bindings::reflector::{reflect_dom_object, Reflector};
use crate::dom::bindings::root::DomRoot;
use crate::dom::globals::globalscope::GlobalScope;

/// <https://fetch.spec.whatwg.org/#concept-headers-guard>
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Guard {
    /// `immutable`.
    Immutable,
    /// `request`.
    Request,
    /// `request-no-cors`.
    RequestNoCors,
    /// `response`.
    Response,
    /// `none`.
    None,
}

#[derive(JSTraceable)]
pub struct Headers {
    pub(crate) reflector: Reflector,
    /// <https://fetch.spec.whatwg.org/#concept-headers-header-list>:
    /// (name as given, isomorphic-decoded value), in order.
    list: RefCell<Vec<(String, String)>>,
    #[no_trace]
    guard: Cell<Guard>,
}

/// <https://infra.spec.whatwg.org/#isomorphic-decode>
pub fn isomorphic_decode(bytes: &ByteString) -> String {
    bytes.as_bytes().iter().map(|&b| char::from(b)).collect()
}

/// Isomorphic encode.
fn bytes(value: &str) -> Vec<u8> {
    value.chars().map(|c| c as u32 as u8).collect()
}

/// <https://fetch.spec.whatwg.org/#no-cors-safelisted-request-header>
fn is_no_cors_safelisted_request_header(name: &str, value: &str) -> bool {
    // Step 1: If name is not a no-CORS-safelisted request-header name,
    // then return false.
    // Step 2: Return whether (name, value) is a CORS-safelisted
    // request-header.
    is_no_cors_safelisted_request_header_name(name)
        && is_cors_safelisted_request_header(name, value)
}

/// <https://fetch.spec.whatwg.org/#privileged-no-cors-request-header-name>
fn is_privileged_no_cors_request_header_name(name: &str) -> bool {
    name.eq_ignore_ascii_case("Range")
}

impl Headers {
    /// A new `Headers` with an empty list and `guard`.
    pub fn new(cx: &mut JSContext, global: &GlobalScope, guard: Guard) -> DomRoot<Headers> {
        Headers::new_with_proto(cx, global, guard, None)
    }

    fn new_with_proto(
        cx: &mut JSContext,
        global: &GlobalScope,
        guard: Guard,
        proto: Option<HandleObject>,
    ) -> DomRoot<Headers> {
        reflect_dom_object(
            cx,
            global,
            Box::new(Headers {
                reflector: Reflector::new(),
                list: RefCell::new(Vec::new()),
                guard: Cell::new(guard),
            }),
            proto,
        )
    }

    /// A `Headers` holding `list` (a response's, already filtered) with
    /// `guard`.
    pub fn from_list(
        cx: &mut JSContext,
        global: &GlobalScope,
        list: &HeaderList,
        guard: Guard,
    ) -> DomRoot<Headers> {
        let headers = Headers::new(cx, global, Guard::None);
        *headers.list.borrow_mut() = list
            .iter()
            .map(|(n, v)| (n.to_owned(), v.iter().map(|&b| char::from(b)).collect()))
            .collect();
        headers.guard.set(guard);
        headers
    }

    /// A new `Headers` object of `global` with this's header list and
    /// guard (the headers of a cloned `Request` or `Response`).
    pub fn copy(&self, cx: &mut JSContext, global: &GlobalScope) -> DomRoot<Headers> {
        Headers::from_list(cx, global, &self.header_list(), self.guard())
    }

    pub fn guard(&self) -> Guard {
        self.guard.get()
    }

    pub fn set_guard(&self, guard: Guard) {
        self.guard.set(guard);
    }

    /// The header list, for a request to send.
    pub fn pairs(&self) -> Vec<(String, String)> {
        self.list.borrow().clone()
    }

    /// The header list as a [`HeaderList`].
    pub fn header_list(&self) -> HeaderList {
        self.list
            .borrow()
            .iter()
            .map(|(n, v)| (n.clone(), bytes(v)))
            .collect()
    }

    /// Empties the header list.
    pub fn clear(&self) {
        self.list.borrow_mut().clear();
    }

    /// <https://fetch.spec.whatwg.org/#concept-header-list-contains>
    pub fn contains(&self, name: &str) -> bool {
        self.list
            .borrow()
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case(name))
    }

    /// <https://fetch.spec.whatwg.org/#concept-header-list-get>: the
    /// values of `name` joined with ", ", `None` if absent.
    pub fn get_value(&self, name: &str) -> Option<String> {
        let list = self.list.borrow();
        let values: Vec<&str> = list
            .iter()
            .filter(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
            .collect();
        (!values.is_empty()).then(|| values.join(", "))
    }

    /// <https://fetch.spec.whatwg.org/#concept-header-list-set>
    fn set_value(&self, name: &str, value: &str) {
        let mut list = self.list.borrow_mut();
        // Step 1: If list contains name, then set the value of the first
        // such header to value and remove the others.
        if let Some(first) = list.iter().position(|(n, _)| n.eq_ignore_ascii_case(name)) {
            list[first].1 = value.to_owned();
            let mut index = 0;
            list.retain(|(n, _)| {
                let keep = index <= first || !n.eq_ignore_ascii_case(name);
                index += 1;
                keep
            });
        } else {
            // Step 2: Otherwise, append (name, value) to list.
            list.push((name.to_owned(), value.to_owned()));
        }
    }

    /// <https://fetch.spec.whatwg.org/#concept-header-list-delete>
    fn delete_name(&self, name: &str) {
        self.list
            .borrow_mut()
            .retain(|(n, _)| !n.eq_ignore_ascii_case(name));
    }

    /// <https://fetch.spec.whatwg.org/#headers-validate>
    fn validate(&self, name: &str, value: &str) -> Fallible<bool> {
        // Step 1: If name is not a header name or value is not a header
        // value, then throw a TypeError.
        if !is_header_name(name) {
            return Err(Error::Type(format!("{name:?} is not a valid header name")));
        }
        if !is_header_value(&bytes(value)) {
            return Err(Error::Type(format!(
                "{value:?} is not a valid header value"
            )));
        }
        match self.guard.get() {
            // Step 2: If headers's guard is "immutable", then throw a
            // TypeError.
            Guard::Immutable => Err(Error::Type("the headers are immutable".to_owned())),
            // Step 3: If headers's guard is "request" and (name, value) is
            // a forbidden request-header, then return false.
            Guard::Request if is_forbidden_request_header(name, value) => Ok(false),
            // Step 4: If headers's guard is "response" and name is a
            // forbidden response-header name, then return false.
            Guard::Response if is_forbidden_response_header_name(name) => Ok(false),
            // Step 5: Return true.
            _ => Ok(true),
        }
    }

    /// <https://fetch.spec.whatwg.org/#remove-privileged-no-cors-request-headers>
    fn remove_privileged_no_cors_request_headers(&self) {
        // Step 1: For each headerName of privileged no-CORS request-header
        // names: delete headerName from headers's header list.
        self.delete_name("Range");
    }

    /// <https://fetch.spec.whatwg.org/#concept-headers-append>
    pub fn append(&self, name: &str, value: &str) -> Fallible<()> {
        // Step 1: Normalize value.
        let value = normalize_header_value(value);
        // Step 2: If validating (name, value) for headers returns false,
        // then return.
        if !self.validate(name, value)? {
            return Ok(());
        }
        // Step 3: If headers's guard is "request-no-cors": let
        // temporaryValue be the result of getting name from headers's
        // header list; if null, set it to value, otherwise to
        // temporaryValue, followed by 0x2C 0x20, followed by value; if
        // (name, temporaryValue) is not a no-CORS-safelisted
        // request-header, then return.
        if self.guard.get() == Guard::RequestNoCors {
            let temporary = match self.get_value(name) {
                None => value.to_owned(),
                Some(existing) => format!("{existing}, {value}"),
            };
            if !is_no_cors_safelisted_request_header(name, &temporary) {
                return Ok(());
            }
        }
        // Step 4: Append (name, value) to headers's header list.
        self.list
            .borrow_mut()
            .push((name.to_owned(), value.to_owned()));
        // Step 5: If headers's guard is "request-no-cors", then remove
        // privileged no-CORS request-headers from headers.
        if self.guard.get() == Guard::RequestNoCors {
            self.remove_privileged_no_cors_request_headers();
        }
        Ok(())
    }

    /// <https://fetch.spec.whatwg.org/#concept-headers-fill>
    pub fn fill(&self, object: &HeadersInit) -> Fallible<()> {
        match object {
            // Step 1: If object is a sequence, then for each header of
            // object: if header's size is not 2, then throw a TypeError;
            // append (header[0], header[1]) to headers. (A Headers object
            // converts to this sequence through its iterator.)
            HeadersInit::ByteStringSequenceSequence(sequence) => {
                for header in sequence {
                    let [name, value] = header.as_slice() else {
                        return Err(Error::Type(format!(
                            "a header must be a [name, value] pair, not {} item(s)",
                            header.len()
                        )));
                    };
                    self.append(&isomorphic_decode(name), &isomorphic_decode(value))?;
                }
            }
            // Step 2: Otherwise, object is a record: for each key → value
            // of object, append (key, value) to headers.
            HeadersInit::ByteStringByteStringRecord(record) => {
                for (key, value) in &record.0 {
                    self.append(&isomorphic_decode(key), &isomorphic_decode(value))?;
                }
            }
        }
        Ok(())
    }
}

impl Headers {
    /// <https://fetch.spec.whatwg.org/#concept-header-list-sort-and-combine>
    fn sort_and_combine(&self) -> Vec<(String, String)> {
        // Step 1: Let headers be a new list.
        let mut headers = Vec::new();
        // Step 2: Let names be the result of convert header names to a
        // sorted-lowercase set with all the names of the headers in list.
        let names = sorted_lowercase_set(self.list.borrow().iter().map(|(n, _)| n));
        // Step 3: For each name of names:
        for name in names {
            if name == "set-cookie" {
                // Step 3.1: If name is `set-cookie`: let values be all the
                // values of headers in list whose name is `set-cookie`, in
                // order; for each value, append (name, value) to headers.
                for (n, v) in self.list.borrow().iter() {
                    if n.eq_ignore_ascii_case(&name) {
                        headers.push((name.clone(), v.clone()));
                    }
                }
            } else if let Some(value) = self.get_value(&name) {
                // Step 3.2: Otherwise: let value be the result of getting
                // name from list; append (name, value) to headers.
                headers.push((name, value));
            }
        }
        // Step 4: Return headers.
        headers
    }
}

impl HeadersMethods for Headers {
    /// <https://fetch.spec.whatwg.org/#ref-for-dfn-iterable%E2%91%A0>: the
    /// value pairs to iterate over are the return value of running sort
    /// and combine with this's header list (recomputed at each step).
    fn PairIterableEntry(
        &self,
        _cx: &mut JSContext,
        index: u32,
    ) -> Option<(ByteString, ByteString)> {
        self.sort_and_combine()
            .into_iter()
            .nth(index as usize)
            .map(|(name, value)| (ByteString(bytes(&name)), ByteString(bytes(&value))))
    }

    /// <https://fetch.spec.whatwg.org/#dom-headers>
    fn Constructor(
        cx: &mut JSContext,
        global: &GlobalScope,
        proto: Option<HandleObject>,
        init: Option<HeadersInit>,
    ) -> Fallible<DomRoot<Headers>> {
        // Step 1: Set this's guard to "none".
        let headers = Headers::new_with_proto(cx, global, Guard::None, proto);
        // Step 2: If init is given, then fill this with init.
        if let Some(init) = init {
            headers.fill(&init)?;
        }
        Ok(headers)
    }

    /// <https://fetch.spec.whatwg.org/#dom-headers-append>
    fn Append(&self, _cx: &mut JSContext, name: ByteString, value: ByteString) -> Fallible<()> {
        // The append(name, value) method steps are to append (name, value)
        // to this.
        self.append(&isomorphic_decode(&name), &isomorphic_decode(&value))
    }

    /// <https://fetch.spec.whatwg.org/#dom-headers-delete>
    fn Delete(&self, _cx: &mut JSContext, name: ByteString) -> Fallible<()> {
        let name = isomorphic_decode(&name);
        // Step 1: If validating (name, ``) for this returns false, then
        // return.
        if !self.validate(&name, "")? {
            return Ok(());
        }
        // Step 2: If this's guard is "request-no-cors", name is not a
        // no-CORS-safelisted request-header name, and name is not a
        // privileged no-CORS request-header name, then return.
        if self.guard.get() == Guard::RequestNoCors
            && !is_no_cors_safelisted_request_header_name(&name)
            && !is_privileged_no_cors_request_header_name(&name)
        {
            return Ok(());
        }
        // Step 3: If this's header list does not contain name, then return.
        // Step 4: Delete name from this's header list.
        self.delete_name(&name);
        // Step 5: If this's guard is "request-no-cors", then remove
        // privileged no-CORS request-headers from this.
        if self.guard.get() == Guard::RequestNoCors {
            self.remove_privileged_no_cors_request_headers();
        }
        Ok(())
    }

    /// <https://fetch.spec.whatwg.org/#dom-headers-get>
    fn Get(&self, _cx: &mut JSContext, name: ByteString) -> Fallible<Option<ByteString>> {
        let name = isomorphic_decode(&name);
        // Step 1: If name is not a header name, then throw a TypeError.
        if !is_header_name(&name) {
            return Err(Error::Type(format!("{name:?} is not a valid header name")));
        }
        // Step 2: Return the result of getting name from this's header
        // list.
        Ok(self.get_value(&name).map(|v| ByteString(bytes(&v))))
    }

    /// <https://fetch.spec.whatwg.org/#dom-headers-getsetcookie>
    fn GetSetCookie(&self, _cx: &mut JSContext) -> Fallible<Vec<ByteString>> {
        // Step 1: If this's header list does not contain `Set-Cookie`, then
        // return « ».
        // Step 2: Return the values of all headers in this's header list
        // whose name is a byte-case-insensitive match for `Set-Cookie`, in
        // order.
        Ok(self
            .list
            .borrow()
            .iter()
            .filter(|(n, _)| n.eq_ignore_ascii_case("Set-Cookie"))
            .map(|(_, v)| ByteString(bytes(v)))
            .collect())
    }

    /// <https://fetch.spec.whatwg.org/#dom-headers-has>
    fn Has(&self, _cx: &mut JSContext, name: ByteString) -> Fallible<bool> {
        let name = isomorphic_decode(&name);
        // Step 1: If name is not a header name, then throw a TypeError.
        if !is_header_name(&name) {
            return Err(Error::Type(format!("{name:?} is not a valid header name")));
        }
        // Step 2: Return true if this's header list contains name;
        // otherwise false.
        Ok(self.contains(&name))
    }

    /// <https://fetch.spec.whatwg.org/#dom-headers-set>
    fn Set(&self, _cx: &mut JSContext, name: ByteString, value: ByteString) -> Fallible<()> {
        let name = isomorphic_decode(&name);
        let value = isomorphic_decode(&value);
        // Step 1: Normalize value.
        let value = normalize_header_value(&value);
        // Step 2: If validating (name, value) for this returns false, then
        // return.
        if !self.validate(&name, value)? {
            return Ok(());
        }
        // Step 3: If this's guard is "request-no-cors" and (name, value) is
        // not a no-CORS-safelisted request-header, then return.
        if self.guard.get() == Guard::RequestNoCors
            && !is_no_cors_safelisted_request_header(&name, value)
        {
            return Ok(());
        }
        // Step 4: Set (name, value) in this's header list.
        self.set_value(&name, value);
        // Step 5: If this's guard is "request-no-cors", then remove
        // privileged no-CORS request-headers from this.
        if self.guard.get() == Guard::RequestNoCors {
            self.remove_privileged_no_cors_request_headers();
        }
        Ok(())
    }
}

/// <https://fetch.spec.whatwg.org/#convert-header-names-to-a-sorted-lowercase-set>
pub fn sorted_lowercase_set<S: AsRef<str>>(names: impl Iterator<Item = S>) -> Vec<String> {
    // Step 1: Let headerNamesSet be a new ordered set.
    // Step 2: For each name of headerNames, append the result of
    // byte-lowercasing name to headerNamesSet.
    let mut set: Vec<String> = names.map(|n| n.as_ref().to_ascii_lowercase()).collect();
    // Step 3: Return the result of sorting headerNamesSet in ascending
    // order with byte less than.
    set.sort();
    set.dedup();
    set
}

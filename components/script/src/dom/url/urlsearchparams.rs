//! `URLSearchParams` (<https://url.spec.whatwg.org/#interface-urlsearchparams>):
//! a list of name-value pairs parsed and serialized as
//! `application/x-www-form-urlencoded` (the `url` crate's
//! `form_urlencoded`), kept in step with its `URL` object's query (the
//! update steps) when it is a URL's `searchParams`.

use std::cell::RefCell;

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;
use mozjs::rust::HandleObject;

use crate::dom::bindings::codegen::URLSearchParamsBinding::URLSearchParamsMethods;
use crate::dom::bindings::codegen::USVStringSequenceSequenceOrUSVStringUSVStringRecordOrUSVString as Init;
use crate::dom::bindings::conversions::{DOMString, USVString};
use crate::dom::bindings::error::{Error, Fallible};
use crate::dom::bindings::reflector::{reflect_dom_object, Reflector};
use crate::dom::bindings::root::{DomRoot, MutNullableDom};
use crate::dom::globals::globalscope::GlobalScope;
use crate::dom::url::url::URL;

#[derive(JSTraceable)]
pub struct URLSearchParams {
    pub(crate) reflector: Reflector,
    /// <https://url.spec.whatwg.org/#concept-urlsearchparams-list>
    list: RefCell<Vec<(String, String)>>,
    /// <https://url.spec.whatwg.org/#concept-urlsearchparams-url-object>
    url_object: MutNullableDom<URL>,
}

/// <https://url.spec.whatwg.org/#concept-urlencoded-parser> of `input`
/// (UTF-8 bytes: the parser's input is a byte sequence).
pub(crate) fn parse(input: &str) -> Vec<(String, String)> {
    url::form_urlencoded::parse(input.as_bytes())
        .map(|(name, value)| (name.into_owned(), value.into_owned()))
        .collect()
}

/// <https://url.spec.whatwg.org/#concept-urlencoded-serializer> of
/// `list` with UTF-8.
pub(crate) fn serialize(list: &[(String, String)]) -> String {
    url::form_urlencoded::Serializer::new(String::new())
        .extend_pairs(list)
        .finish()
}

impl URLSearchParams {
    /// A new URLSearchParams for `url`'s query object
    /// (<https://url.spec.whatwg.org/#concept-url-query-object>), its
    /// list parsed from `query`.
    pub(crate) fn new_for_url(
        cx: &mut JSContext,
        global: &GlobalScope,
        url: &URL,
        query: Option<&str>,
    ) -> DomRoot<URLSearchParams> {
        let params = reflect_dom_object(
            cx,
            global,
            Box::new(URLSearchParams {
                reflector: Reflector::new(),
                list: RefCell::new(query.map(parse).unwrap_or_default()),
                url_object: MutNullableDom::default(),
            }),
            None,
        );
        params.url_object.set(Some(url));
        params
    }

    /// The list, application/x-www-form-urlencoded serialized (a fetch or
    /// XHR body: <https://fetch.spec.whatwg.org/#concept-bodyinit-extract>).
    pub(crate) fn serialized(&self) -> String {
        serialize(&self.list.borrow())
    }

    /// Sets the list (the URL's href or search setter's steps).
    pub(crate) fn set_list(&self, list: Vec<(String, String)>) {
        *self.list.borrow_mut() = list;
    }

    /// <https://url.spec.whatwg.org/#concept-urlsearchparams-update>
    fn update(&self) {
        // Step 1: If query's URL object is null, then return.
        let Some(url) = self.url_object.get() else {
            return;
        };
        // Step 2: Let serializedQuery be the serialization of query's list.
        let serialized = serialize(&self.list.borrow());
        // Step 3: If serializedQuery is the empty string, then set
        // serializedQuery to null.
        // Step 4: Set query's URL object's URL's query to serializedQuery.
        // Step 5: If serializedQuery is null, then potentially strip
        // trailing spaces from an opaque path with query's URL object (the
        // url crate's set_query does this).
        url.set_query_from_search_params((!serialized.is_empty()).then_some(serialized));
    }
}

impl URLSearchParamsMethods for URLSearchParams {
    /// <https://url.spec.whatwg.org/#dom-urlsearchparams-urlsearchparams>
    fn Constructor(
        cx: &mut JSContext,
        global: &GlobalScope,
        proto: Option<HandleObject>,
        init: Init,
    ) -> Fallible<DomRoot<URLSearchParams>> {
        // https://url.spec.whatwg.org/#concept-urlsearchparams-initialize
        let list = match init {
            // Step 1: If init is a sequence, then for each innerSequence of
            // init:
            Init::USVStringSequenceSequence(pairs) => {
                let mut list = Vec::with_capacity(pairs.len());
                for pair in pairs {
                    // Step 1.1: If innerSequence's size is not 2, then throw
                    // a TypeError.
                    let [name, value]: [USVString; 2] = pair.try_into().map_err(|p: Vec<_>| {
                        Error::Type(format!(
                            "URLSearchParams: each pair must have exactly two items, not {}",
                            p.len()
                        ))
                    })?;
                    // Step 1.2: Append (innerSequence[0], innerSequence[1])
                    // to query's list.
                    list.push((name.0, value.0));
                }
                list
            }
            // Step 2: Otherwise, if init is a record, then for each name →
            // value of init, append (name, value) to query's list.
            Init::USVStringUSVStringRecord(record) => record
                .0
                .into_iter()
                .map(|(name, value)| (name.0, value.0))
                .collect(),
            // Step 3: Otherwise: set query's list to the result of parsing
            // init (with a leading "?" removed: the constructor's step 1).
            Init::USVString(init) => parse(init.0.strip_prefix('?').unwrap_or(&init.0)),
        };
        Ok(reflect_dom_object(
            cx,
            global,
            Box::new(URLSearchParams {
                reflector: Reflector::new(),
                list: RefCell::new(list),
                url_object: MutNullableDom::default(),
            }),
            proto,
        ))
    }

    /// <https://url.spec.whatwg.org/#dom-urlsearchparams-size>
    fn Size(&self, _cx: &mut JSContext) -> u32 {
        self.list.borrow().len() as u32
    }

    /// <https://url.spec.whatwg.org/#dom-urlsearchparams-append>
    fn Append(&self, _cx: &mut JSContext, name: USVString, value: USVString) -> Fallible<()> {
        // Step 1: Append (name, value) to this's list.
        self.list.borrow_mut().push((name.0, value.0));
        // Step 2: Run the update steps for this.
        self.update();
        Ok(())
    }

    /// <https://url.spec.whatwg.org/#dom-urlsearchparams-delete>
    fn Delete(
        &self,
        _cx: &mut JSContext,
        name: USVString,
        value: Option<USVString>,
    ) -> Fallible<()> {
        {
            let mut list = self.list.borrow_mut();
            match value {
                // Step 1: If value is given, then remove all tuples whose
                // name is name and value is value from this's list.
                Some(value) => list.retain(|(n, v)| !(*n == name.0 && *v == value.0)),
                // Step 2: Otherwise, remove all tuples whose name is name
                // from this's list.
                None => list.retain(|(n, _)| *n != name.0),
            }
        }
        // Step 3: Run the update steps for this.
        self.update();
        Ok(())
    }

    /// <https://url.spec.whatwg.org/#dom-urlsearchparams-get>: the value of
    /// the first tuple whose name is name in this's list, if there is such
    /// a tuple; otherwise null.
    fn Get(&self, _cx: &mut JSContext, name: USVString) -> Fallible<Option<USVString>> {
        Ok(self
            .list
            .borrow()
            .iter()
            .find(|(n, _)| *n == name.0)
            .map(|(_, v)| USVString(v.clone())))
    }

    /// <https://url.spec.whatwg.org/#dom-urlsearchparams-getall>: the values
    /// of all tuples whose name is name in this's list, in list order.
    fn GetAll(&self, _cx: &mut JSContext, name: USVString) -> Fallible<Vec<USVString>> {
        Ok(self
            .list
            .borrow()
            .iter()
            .filter(|(n, _)| *n == name.0)
            .map(|(_, v)| USVString(v.clone()))
            .collect())
    }

    /// <https://url.spec.whatwg.org/#dom-urlsearchparams-has>
    fn Has(
        &self,
        _cx: &mut JSContext,
        name: USVString,
        value: Option<USVString>,
    ) -> Fallible<bool> {
        let list = self.list.borrow();
        Ok(match value {
            // Step 1: If value is given and there is a tuple whose name is
            // name and value is value in this's list, then return true.
            Some(value) => list.iter().any(|(n, v)| *n == name.0 && *v == value.0),
            // Step 2: If value is not given and there is a tuple whose name
            // is name in this's list, then return true.
            // Step 3: Return false.
            None => list.iter().any(|(n, _)| *n == name.0),
        })
    }

    /// <https://url.spec.whatwg.org/#dom-urlsearchparams-set>
    fn Set(&self, _cx: &mut JSContext, name: USVString, value: USVString) -> Fallible<()> {
        {
            let mut list = self.list.borrow_mut();
            // Step 1: If this's list contains any tuples whose name is name,
            // then set the value of the first such tuple to value and remove
            // the others.
            if let Some(first) = list.iter().position(|(n, _)| *n == name.0) {
                list[first].1 = value.0;
                let mut index = 0;
                list.retain(|(n, _)| {
                    let keep = index <= first || *n != name.0;
                    index += 1;
                    keep
                });
            } else {
                // Step 2: Otherwise, append (name, value) to this's list.
                list.push((name.0, value.0));
            }
        }
        // Step 3: Run the update steps for this.
        self.update();
        Ok(())
    }

    /// <https://url.spec.whatwg.org/#dom-urlsearchparams-sort>
    fn Sort(&self, _cx: &mut JSContext) -> Fallible<()> {
        // Step 1: Sort all tuples in this's list, if any, by their names.
        // Sorting must be done by comparison of code units. The relative
        // order between tuples with equal names must be preserved (a
        // stable sort).
        self.list
            .borrow_mut()
            .sort_by(|(a, _), (b, _)| a.encode_utf16().cmp(b.encode_utf16()));
        // Step 2: Run the update steps for this.
        self.update();
        Ok(())
    }

    /// <https://url.spec.whatwg.org/#urlsearchparams-stringification-behavior>:
    /// the serialization of this's list.
    fn Stringifier(&self, _cx: &mut JSContext) -> Fallible<DOMString> {
        Ok(serialize(&self.list.borrow()))
    }

    /// <https://url.spec.whatwg.org/#interface-urlsearchparams>: the value
    /// pairs to iterate over are this's list's tuples, read live at each
    /// step.
    fn PairIterableEntry(&self, _cx: &mut JSContext, index: u32) -> Option<(USVString, USVString)> {
        self.list
            .borrow()
            .get(index as usize)
            .map(|(name, value)| (USVString(name.clone()), USVString(value.clone())))
    }
}

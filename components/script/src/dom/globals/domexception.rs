//! `DOMException` (<https://webidl.spec.whatwg.org/#idl-DOMException>).

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;
use mozjs::rust::HandleObject;

use crate::dom::bindings::codegen::DOMExceptionBinding::DOMExceptionMethods;
use crate::dom::bindings::conversions::DOMString;
use crate::dom::bindings::error::{legacy_code_for_name, DomExceptionName, Fallible};
use crate::dom::bindings::reflector::{reflect_dom_object, Reflector};
use crate::dom::bindings::root::DomRoot;
use crate::dom::globals::globalscope::GlobalScope;

/// A `DOMException`: a platform object whose prototype chain ends in
/// `Error.prototype`.
#[derive(JSTraceable)]
pub struct DOMException {
    pub(crate) reflector: Reflector,
    name: DOMString,
    message: DOMString,
}

impl DOMException {
    /// A new `DOMException` in `global`.
    pub fn new(
        cx: &mut JSContext,
        global: &GlobalScope,
        name: DOMString,
        message: DOMString,
    ) -> DomRoot<DOMException> {
        reflect_dom_object(
            cx,
            global,
            Box::new(DOMException::new_inherited(name, message)),
            None,
        )
    }

    /// A `DOMException` named `name`, with `message` or the name's default
    /// message.
    pub fn new_named(
        cx: &mut JSContext,
        global: &GlobalScope,
        name: DomExceptionName,
        message: Option<&str>,
    ) -> DomRoot<DOMException> {
        let message = message.unwrap_or(name.default_message()).to_owned();
        DOMException::new(cx, global, name.as_str().to_owned(), message)
    }

    /// <https://webidl.spec.whatwg.org/#domexception-name>
    pub fn name(&self) -> &str {
        &self.name
    }

    /// <https://webidl.spec.whatwg.org/#domexception-message>
    pub fn message(&self) -> &str {
        &self.message
    }

    fn new_inherited(name: DOMString, message: DOMString) -> DOMException {
        DOMException {
            reflector: Reflector::new(),
            name,
            message,
        }
    }
}

impl DOMExceptionMethods for DOMException {
    /// <https://webidl.spec.whatwg.org/#dom-domexception-domexception>
    fn Constructor(
        cx: &mut JSContext,
        global: &GlobalScope,
        proto: Option<HandleObject>,
        message: DOMString,
        name: DOMString,
    ) -> Fallible<DomRoot<DOMException>> {
        // Step 1: Set this's name to name.
        // Step 2: Set this's message to message.
        Ok(reflect_dom_object(
            cx,
            global,
            Box::new(DOMException::new_inherited(name, message)),
            proto,
        ))
    }

    /// <https://webidl.spec.whatwg.org/#dom-domexception-name>
    fn Name(&self, _cx: &mut JSContext) -> DOMString {
        self.name.clone()
    }

    /// <https://webidl.spec.whatwg.org/#dom-domexception-message>
    fn Message(&self, _cx: &mut JSContext) -> DOMString {
        self.message.clone()
    }

    /// <https://webidl.spec.whatwg.org/#dom-domexception-code>: the legacy
    /// code of this's name in the error names table, or 0.
    fn Code(&self, _cx: &mut JSContext) -> u16 {
        legacy_code_for_name(&self.name)
    }
}

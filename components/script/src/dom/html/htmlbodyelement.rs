//! `HTMLBodyElement` (<https://html.spec.whatwg.org/multipage/sections.html#the-body-element>):
//! its event handler IDL attributes of the Window-reflecting body element
//! event handler set and of `WindowEventHandlers` are the Window's
//! (<https://html.spec.whatwg.org/multipage/webappapis.html#determining-the-target-of-an-event-handler>).

use std::rc::Rc;

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;

use crate::dom::bindings::codegen::EventHandlerNonNull;
use crate::dom::bindings::codegen::HTMLBodyElementBinding::HTMLBodyElementMethods;
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::root::DomRoot;
use crate::dom::events::eventtarget::EventTarget;
use crate::dom::html::htmlelement::HTMLElement;
use crate::dom::nodes::element::Element;

#[derive(JSTraceable)]
pub struct HTMLBodyElement {
    htmlelement: HTMLElement,
}

impl AsRef<HTMLElement> for HTMLBodyElement {
    fn as_ref(&self) -> &HTMLElement {
        &self.htmlelement
    }
}

impl HTMLBodyElement {
    pub fn new_inherited(element: Element) -> HTMLBodyElement {
        HTMLBodyElement {
            htmlelement: HTMLElement::new_inherited(element),
        }
    }

    /// <https://html.spec.whatwg.org/multipage/webappapis.html#determining-the-target-of-an-event-handler>
    /// for the handlers this interface declares: null if the element's
    /// node document is not an active document (Step 3), else its relevant
    /// global object, the Window (Step 4).
    fn target(&self) -> Option<DomRoot<EventTarget>> {
        let document = self
            .htmlelement
            .upcast_element()
            .upcast_node()
            .owner_doc()?;
        let window = document.upcast_node().global().as_window()?;
        let active = window
            .active_document()
            .is_some_and(|d| d.reflector_object() == document.reflector_object());
        active.then(|| DomRoot::from_ref(window.upcast_event_target()))
    }
}

/// The getter and setter of a Window-reflecting event handler IDL
/// attribute (<https://html.spec.whatwg.org/multipage/webappapis.html#event-handler-idl-attributes>):
/// the getter returns null, and the setter does nothing, when the target
/// is null.
macro_rules! window_reflecting_handler {
    ($getter:ident, $setter:ident, $type_:literal) => {
        fn $getter(&self, cx: &mut JSContext) -> Option<Rc<EventHandlerNonNull>> {
            self.target()?.get_event_handler(cx, $type_)
        }

        fn $setter(
            &self,
            _cx: &mut JSContext,
            value: Option<Rc<EventHandlerNonNull>>,
        ) -> Fallible<()> {
            if let Some(target) = self.target() {
                target.set_event_handler($type_, value);
            }
            Ok(())
        }
    };
}

impl HTMLBodyElementMethods for HTMLBodyElement {
    window_reflecting_handler!(Onblur, SetOnblur, "blur");
    window_reflecting_handler!(Onerror, SetOnerror, "error");
    window_reflecting_handler!(Onfocus, SetOnfocus, "focus");
    window_reflecting_handler!(Onload, SetOnload, "load");
    window_reflecting_handler!(Onmessage, SetOnmessage, "message");
    window_reflecting_handler!(
        Onrejectionhandled,
        SetOnrejectionhandled,
        "rejectionhandled"
    );
    window_reflecting_handler!(
        Onunhandledrejection,
        SetOnunhandledrejection,
        "unhandledrejection"
    );
}

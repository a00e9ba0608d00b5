//! `XMLHttpRequestEventTarget` (<https://xhr.spec.whatwg.org/#xmlhttprequesteventtarget>):
//! the event handlers of `XMLHttpRequest` (all provided by the generated
//! trait).

use jsprof_script_derive::JSTraceable;

use crate::dom::bindings::codegen::XMLHttpRequestEventTargetBinding::XMLHttpRequestEventTargetMethods;
use crate::dom::events::eventtarget::EventTarget;

#[derive(JSTraceable)]
pub struct XMLHttpRequestEventTarget {
    eventtarget: EventTarget,
}

impl AsRef<EventTarget> for XMLHttpRequestEventTarget {
    fn as_ref(&self) -> &EventTarget {
        &self.eventtarget
    }
}

impl XMLHttpRequestEventTarget {
    pub fn new_inherited() -> XMLHttpRequestEventTarget {
        XMLHttpRequestEventTarget {
            eventtarget: EventTarget::new_inherited(),
        }
    }

    pub fn upcast_event_target(&self) -> &EventTarget {
        &self.eventtarget
    }
}

impl XMLHttpRequestEventTargetMethods for XMLHttpRequestEventTarget {}

//! `HTMLFormElement` (<https://html.spec.whatwg.org/multipage/forms.html#the-form-element>):
//! form submission up to the navigation, and resetting.
//!
//! The shell does not navigate the top-level page: a submission that is
//! not canceled ends, after the `submit` event, with a warning on the
//! console (standard error) naming the URL the page would have gone to;
//! the page stays. Constraint validation is not implemented (every form
//! is valid).

use std::cell::Cell;

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;

use crate::dom::bindings::codegen::HTMLFormElementBinding::HTMLFormElementMethods;
use crate::dom::bindings::conversions::{DOMString, USVString};
use crate::dom::bindings::error::{DomExceptionName, Error, Fallible};
use crate::dom::bindings::root::DomRoot;
use crate::dom::events::submitevent::SubmitEvent;
use crate::dom::html::htmlbuttonelement::HTMLButtonElement;
use crate::dom::html::htmlelement::HTMLElement;
use crate::dom::html::htmlinputelement::HTMLInputElement;
use crate::dom::html::htmlselectelement::HTMLSelectElement;
use crate::dom::html::htmltextareaelement::HTMLTextAreaElement;
use crate::dom::nodes::element::{Element, HTML_NAMESPACE};

#[derive(JSTraceable)]
pub struct HTMLFormElement {
    htmlelement: HTMLElement,
    /// <https://html.spec.whatwg.org/multipage/forms.html#firing-submission-events>
    firing_submission_events: Cell<bool>,
    /// <https://html.spec.whatwg.org/multipage/forms.html#locked-for-reset>
    locked_for_reset: Cell<bool>,
}

impl AsRef<HTMLElement> for HTMLFormElement {
    fn as_ref(&self) -> &HTMLElement {
        &self.htmlelement
    }
}

/// Whether `element` is a submit button
/// (<https://html.spec.whatwg.org/multipage/forms.html#concept-submit-button>).
pub fn is_submit_button(element: &Element) -> bool {
    let root = DomRoot::from_ref(element);
    if let Some(button) = root.downcast::<HTMLButtonElement>() {
        return button.button_type() == "submit";
    }
    root.downcast::<HTMLInputElement>()
        .is_some_and(|i| i.is_submit_button())
}

impl HTMLFormElement {
    pub fn new_inherited(element: Element) -> HTMLFormElement {
        HTMLFormElement {
            htmlelement: HTMLElement::new_inherited(element),
            firing_submission_events: Cell::new(false),
            locked_for_reset: Cell::new(false),
        }
    }

    pub fn element(&self) -> &Element {
        self.htmlelement.upcast_element()
    }

    /// The listed elements whose form owner is this form, in tree order
    /// (<https://html.spec.whatwg.org/multipage/forms.html#category-listed>:
    /// button, fieldset, input, object, output, select, textarea).
    pub fn listed_elements(&self) -> Vec<DomRoot<Element>> {
        crate::dom::html::forms::tree_root(self.element())
            .element_descendants()
            .into_iter()
            .filter(|e| {
                e.namespace() == Some(HTML_NAMESPACE)
                    && matches!(
                        e.local_name(),
                        "button"
                            | "fieldset"
                            | "input"
                            | "object"
                            | "output"
                            | "select"
                            | "textarea"
                    )
                    && crate::dom::html::forms::form_owner(e)
                        .is_some_and(|f| std::ptr::eq::<HTMLFormElement>(&*f, self))
            })
            .collect()
    }

    /// <https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#concept-form-submit>
    /// ("submit" `self` from `submitter`), up to the navigation.
    pub fn submit_form(&self, cx: &mut JSContext, submitter: &Element, from_submit_method: bool) {
        // Step 1: If form cannot navigate, then return (a form that is not
        // connected cannot navigate).
        if !self.element().upcast_node().is_connected() {
            return;
        }
        // Step 2: If form's constructing entry list is true, then return.
        // Step 3: Let form document be form's node document.
        // Step 4: (sandboxed forms browsing context flag: none here.)
        // Step 5: If submitted from submit() method is false, then:
        if !from_submit_method {
            // Step 5.1: If form's firing submission events is true, then
            // return.
            if self.firing_submission_events.get() {
                return;
            }
            // Step 5.2: Set form's firing submission events to true.
            self.firing_submission_events.set(true);
            // Step 5.3: For each element field in the list of submittable
            // elements whose form owner is form, set field's user validity
            // to true. Step 5.4: If the submitter element's no-validate
            // state is false, then interactively validate the constraints
            // of form (no constraint validation: every form is valid).
            // Step 5.5: Let submitterButton be null if submitter is form.
            // Otherwise, let submitterButton be submitter.
            let submitter_button = if std::ptr::eq(submitter, self.element()) {
                None
            } else {
                DomRoot::from_ref(submitter).downcast::<HTMLElement>()
            };
            // Step 5.6: Let shouldContinue be the result of firing an event
            // named submit at form using SubmitEvent, with the submitter
            // attribute initialized to submitterButton, the bubbles
            // attribute initialized to true, and the cancelable attribute
            // initialized to true.
            let node = self.element().upcast_node();
            let event = SubmitEvent::new_submit(cx, node.global(), submitter_button.as_deref());
            let should_continue = node.as_ref().dispatch(cx, event.upcast_event());
            // Step 5.7: Set form's firing submission events to false.
            self.firing_submission_events.set(false);
            // Step 5.8: If shouldContinue is false, then return.
            if !should_continue {
                return;
            }
            // Step 5.9: If form cannot navigate, then return.
            if !self.element().upcast_node().is_connected() {
                return;
            }
        }
        // Steps 6-11: the entry list, encoding, and action (the
        // submitter's formaction is not supported).
        // Step 12: If action is the empty string, let action be the URL of
        // the form document.
        let action = self.action_url();
        let method =
            self.element()
                .reflected_enumerated("method", &["get", "post", "dialog"], "get", "get");
        // Step 13-25: plan to navigate to the action URL. The shell has no
        // navigation of the top-level page: say so on the console.
        eprintln!(
            "jsprof: form submission ({method} {action}) not performed: the shell does not navigate the page"
        );
    }

    /// The form's action
    /// (<https://html.spec.whatwg.org/multipage/forms.html#dom-fs-action>):
    /// the `action` attribute parsed relative to the document, or the
    /// document's URL when absent or empty.
    fn action_url(&self) -> String {
        match self.element().get_attribute("action") {
            Some(a) if !a.is_empty() => self.element().reflected_url("action"),
            _ => self
                .element()
                .upcast_node()
                .owner_doc()
                .map(|d| d.url().to_string())
                .unwrap_or_default(),
        }
    }

    /// <https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#concept-form-reset>
    pub fn reset_form(&self, cx: &mut JSContext) {
        // Step 1: Let reset be the result of firing an event named reset at
        // form, with the bubbles and cancelable attributes initialized to
        // true.
        let reset = crate::dom::html::forms::fire_event(cx, self.element(), "reset", true, true);
        // Step 2: If reset is true, then invoke the reset algorithm of each
        // resettable element whose form owner is form.
        if reset {
            for element in self.listed_elements() {
                if let Some(input) = element.downcast::<HTMLInputElement>() {
                    input.reset();
                } else if let Some(select) = element.downcast::<HTMLSelectElement>() {
                    select.reset();
                } else if let Some(textarea) = element.downcast::<HTMLTextAreaElement>() {
                    textarea.reset();
                }
            }
        }
    }
}

impl HTMLFormElementMethods for HTMLFormElement {
    crate::reflect_string_attribute!(
        /// <https://html.spec.whatwg.org/multipage/forms.html#dom-form-acceptcharset>:
        /// reflects `accept-charset`.
        |this| this.element(), AcceptCharset, SetAcceptCharset, "accept-charset"
    );

    /// <https://html.spec.whatwg.org/multipage/forms.html#dom-fs-action>
    fn Action(&self, _cx: &mut JSContext) -> USVString {
        USVString(self.action_url())
    }

    fn SetAction(&self, _cx: &mut JSContext, value: USVString) -> Fallible<()> {
        self.element().set_reflected_string("action", &value.0);
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/forms.html#dom-form-autocomplete>:
    /// reflects `autocomplete`, limited to only known values ("on").
    fn Autocomplete(&self, _cx: &mut JSContext) -> DOMString {
        self.element()
            .reflected_enumerated("autocomplete", &["on", "off"], "on", "on")
    }

    fn SetAutocomplete(&self, _cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        self.element().set_reflected_string("autocomplete", &value);
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/forms.html#dom-fs-enctype>:
    /// reflects `enctype`, limited to only known values.
    fn Enctype(&self, _cx: &mut JSContext) -> DOMString {
        const URLENCODED: &str = "application/x-www-form-urlencoded";
        self.element().reflected_enumerated(
            "enctype",
            &[URLENCODED, "multipart/form-data", "text/plain"],
            URLENCODED,
            URLENCODED,
        )
    }

    fn SetEnctype(&self, _cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        self.element().set_reflected_string("enctype", &value);
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/forms.html#dom-fs-encoding>:
    /// must reflect the `enctype` content attribute.
    fn Encoding(&self, cx: &mut JSContext) -> DOMString {
        self.Enctype(cx)
    }

    fn SetEncoding(&self, cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        self.SetEnctype(cx, value)
    }

    /// <https://html.spec.whatwg.org/multipage/forms.html#dom-fs-method>:
    /// reflects `method`, limited to only known values ("get").
    fn Method(&self, _cx: &mut JSContext) -> DOMString {
        self.element()
            .reflected_enumerated("method", &["get", "post", "dialog"], "get", "get")
    }

    fn SetMethod(&self, _cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        self.element().set_reflected_string("method", &value);
        Ok(())
    }

    crate::reflect_string_attribute!(
        /// <https://html.spec.whatwg.org/multipage/forms.html#dom-form-name>:
        /// reflects `name`.
        |this| this.element(), Name, SetName, "name"
    );

    crate::reflect_bool_attribute!(
        /// <https://html.spec.whatwg.org/multipage/forms.html#dom-fs-novalidate>:
        /// reflects `novalidate`.
        |this| this.element(), NoValidate, SetNoValidate, "novalidate"
    );

    crate::reflect_string_attribute!(
        /// <https://html.spec.whatwg.org/multipage/forms.html#dom-fs-target>:
        /// reflects `target`.
        |this| this.element(), Target, SetTarget, "target"
    );

    crate::reflect_string_attribute!(
        /// <https://html.spec.whatwg.org/multipage/forms.html#dom-form-rel>:
        /// reflects `rel`.
        |this| this.element(), Rel, SetRel, "rel"
    );

    /// <https://html.spec.whatwg.org/multipage/forms.html#dom-form-length>:
    /// the number of nodes the `elements` collection represents (the
    /// listed elements other than image buttons).
    fn Length(&self, _cx: &mut JSContext) -> u32 {
        let count = self
            .listed_elements()
            .into_iter()
            .filter(|e| {
                e.downcast::<HTMLInputElement>()
                    .is_none_or(|i| i.input_type() != "image")
            })
            .count();
        u32::try_from(count).unwrap_or(u32::MAX)
    }

    /// <https://html.spec.whatwg.org/multipage/forms.html#dom-form-submit>:
    /// submit this from this, with submitted from submit() method set to
    /// true (no `submit` event).
    fn Submit(&self, cx: &mut JSContext) -> Fallible<()> {
        self.submit_form(cx, self.element(), true);
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/forms.html#dom-form-requestsubmit>
    fn RequestSubmit(
        &self,
        cx: &mut JSContext,
        submitter: Option<DomRoot<HTMLElement>>,
    ) -> Fallible<()> {
        // Step 1: If submitter is not null, then:
        let submitter = match submitter {
            Some(submitter) => {
                let element = submitter.upcast_element();
                // Step 1.1: If submitter is not a submit button, then throw
                // a TypeError.
                if !is_submit_button(element) {
                    return Err(Error::Type(
                        "The submitter is not a submit button.".to_owned(),
                    ));
                }
                // Step 1.2: If submitter's form owner is not this form
                // element, then throw a "NotFoundError" DOMException.
                let owner = crate::dom::html::forms::form_owner(element);
                if !owner.is_some_and(|f| std::ptr::eq::<HTMLFormElement>(&*f, self)) {
                    return Err(Error::dom_with_message(
                        DomExceptionName::NotFoundError,
                        "The submitter's form owner is not this form.",
                    ));
                }
                DomRoot::from_ref(element)
            }
            // Step 2: Otherwise, set submitter to this form element.
            None => DomRoot::from_ref(self.element()),
        };
        // Step 3: Submit this form element, from submitter.
        self.submit_form(cx, &submitter, false);
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/forms.html#dom-form-reset>
    fn Reset(&self, cx: &mut JSContext) -> Fallible<()> {
        // Step 1: If the form element is marked as locked for reset, then
        // return.
        if self.locked_for_reset.get() {
            return Ok(());
        }
        // Step 2: Mark the form element as locked for reset.
        self.locked_for_reset.set(true);
        // Step 3: Reset the form element.
        self.reset_form(cx);
        // Step 4: Unmark the form element as locked for reset.
        self.locked_for_reset.set(false);
        Ok(())
    }
}

//! The built-in functions of the cross-origin properties of a Window
//! (operations, getters and setters, made in the accessing realm and kept
//! by it), and their steps on the window they reach.

use std::ffi::CString;

use mozjs::context::{JSContext, RawJSContext};
use mozjs::jsapi::{
    GetFunctionNativeReserved, JSObject, JS_GetFunctionObject, SetFunctionNativeReserved,
};
use mozjs::jsval::{BooleanValue, Int32Value, JSVal, NullValue, ObjectValue, UInt32Value};
use mozjs::rooted;
use mozjs::rust::wrappers2::NewFunctionWithReserved;
use mozjs::rust::HandleObject;

use super::cross_origin::{
    current_window, security_error, target_window, CrossOriginFunction, CrossOriginKind,
    CROSS_ORIGIN_PROPERTIES,
};
use super::window_proxy_value;
use crate::dom::bindings::conversions::{FromJsValue, RootedJsValue, USVString};
use crate::dom::bindings::error::{throw_dom_error, DomExceptionName, Error};
use crate::dom::bindings::native::{call_native, ReturnKind};
use crate::navigation::browsing_context::NavigableId;

/// Reserved slots of the cross-origin built-in functions.
const SLOT_PROPERTY: usize = 0;
const SLOT_TARGET: usize = 1;

/// The built-in function of the current realm for cross-origin property
/// `index` of the window of `navigable` (its operation, getter or
/// setter), made on first use and then kept by the current window, so
/// that a property gives the same function every time. The function is
/// bound to O (`wrapper`, the WindowProxy's wrapper in the current realm,
/// kept in a reserved slot), not to its `this` value.
pub(super) fn cross_origin_function(
    cx: &mut JSContext,
    wrapper: HandleObject,
    navigable: NavigableId,
    index: usize,
    which: CrossOriginFunction,
) -> Result<*mut JSObject, ()> {
    let Some(current) = current_window(cx) else {
        throw_dom_error(cx, security_error(CROSS_ORIGIN_PROPERTIES[index].0));
        return Err(());
    };
    if let Some(function) = current.cross_origin_function(navigable, index, which) {
        return Ok(function);
    }
    let (property, kind) = CROSS_ORIGIN_PROPERTIES[index];
    let (name, length) = match (which, kind) {
        (CrossOriginFunction::Value, CrossOriginKind::Method(length)) => {
            (property.to_owned(), length)
        }
        (CrossOriginFunction::Setter, _) => (format!("set {property}"), 1),
        _ => (format!("get {property}"), 0),
    };
    let name = CString::new(name).unwrap_or_default();
    // SAFETY: the live context in the current realm; the new function is
    // rooted before the next allocation, its slots set before use.
    unsafe {
        let function =
            NewFunctionWithReserved(cx, Some(cross_origin_native), length, 0, name.as_ptr());
        if function.is_null() {
            return Err(());
        }
        rooted!(&in(cx) let object = JS_GetFunctionObject(function));
        let property_value = Int32Value((index * 4 + which as usize) as i32);
        SetFunctionNativeReserved(object.get(), SLOT_PROPERTY, &property_value);
        let target = ObjectValue(wrapper.get());
        SetFunctionNativeReserved(object.get(), SLOT_TARGET, &target);
        current.set_cross_origin_function(navigable, index, which, object.get());
        Ok(object.get())
    }
}

/// The steps of a cross-origin built-in function: those of the IDL
/// operation, getter or setter it stands for, on the window its
/// [`SLOT_TARGET`] wrapper reaches.
unsafe extern "C" fn cross_origin_native(cx: *mut RawJSContext, argc: u32, vp: *mut JSVal) -> bool {
    // SAFETY: SpiderMonkey calls a native with a live context and `argc`
    // values at `vp`; the callee is one of the functions made by
    // cross_origin_function, whose slots hold an int and an object.
    unsafe {
        let callee = mozjs::jsapi::CallArgs::from_vp(vp, argc).callee();
        let property = *GetFunctionNativeReserved(callee, SLOT_PROPERTY);
        let target = *GetFunctionNativeReserved(callee, SLOT_TARGET);
        call_native(
            cx,
            argc,
            vp,
            "a cross-origin WindowProxy function",
            ReturnKind::Value,
            |cx, args| {
                if !property.is_int32() || !target.is_object() {
                    return Err(());
                }
                let property = property.to_int32() as usize;
                let (index, which) = (property / 4, property % 4);
                let name = CROSS_ORIGIN_PROPERTIES
                    .get(index)
                    .map(|(p, _)| *p)
                    .unwrap_or_default();
                rooted!(&in(cx) let wrapper = target.to_object());
                let Some(window) = target_window(wrapper.get()) else {
                    throw_dom_error(cx, security_error(name));
                    return Err(());
                };
                let navigable = window.navigable_id();
                let mut rval = args.rval();
                // (The return value slot holds the callee until set.)
                rval.set(mozjs::jsval::UndefinedValue());
                match (name, which) {
                    // <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-window>,
                    // #dom-self, #dom-frames: "return this's relevant realm's
                    // WindowProxy" (its wrapper here).
                    ("window" | "self" | "frames", 1) => rval.set(ObjectValue(wrapper.get())),
                    ("closed", 1) => rval.set(BooleanValue(window.closed())),
                    ("length", 1) => rval.set(UInt32Value(window.length())),
                    ("top", 1) => rval.set(match window.top_navigable() {
                        Some(top) => window_proxy_value(cx, top)?,
                        None => NullValue(),
                    }),
                    ("parent", 1) => rval.set(match window.parent_navigable() {
                        Some(parent) => window_proxy_value(cx, parent)?,
                        None => NullValue(),
                    }),
                    // <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-opener>:
                    // "If this's browsing context's opener browsing context
                    // is null, then return null": this shell has no
                    // auxiliary browsing contexts (no `window.open`).
                    ("opener", 1) => rval.set(NullValue()),
                    ("close", 0) => window.close_steps(),
                    ("focus", 0) => window.focus_steps(cx),
                    // <https://html.spec.whatwg.org/multipage/interaction.html#dom-window-blur>:
                    // "The blur() method steps are to do nothing."
                    ("blur", 0) => {}
                    ("postMessage", 0) => {
                        let message =
                            RootedJsValue::from_js(cx, args.get(0), ()).map_err(|_| ())?;
                        let target_origin = USVString::from_js(cx, args.get(1), ())?;
                        if let Err(error) = crate::dom::globals::window::window_post_message_steps(
                            cx,
                            navigable,
                            &message,
                            &target_origin.0,
                        ) {
                            throw_dom_error(cx, error);
                            return Err(());
                        }
                    }
                    // The cross-origin Location object is not implemented.
                    ("location", _) => {
                        throw_dom_error(
                        cx,
                        Error::dom_with_message(
                            DomExceptionName::SecurityError,
                            "Blocked a cross-origin access to \"location\": cross-origin Location objects are not implemented",
                        ),
                    );
                        return Err(());
                    }
                    _ => {
                        throw_dom_error(cx, security_error(name));
                        return Err(());
                    }
                }
                Ok(())
            },
        )
    }
}

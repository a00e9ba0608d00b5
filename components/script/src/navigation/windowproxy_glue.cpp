/* The script crate's only C++: the handler of the cross-compartment wrappers
 * of WindowProxy objects (see src/navigation/windowproxy/mod.rs for the
 * design and the invariants).
 *
 * A WindowProxy (https://html.spec.whatwg.org/multipage/nav-history-apis.html#the-windowproxy-exotic-object)
 * lives in the compartment of its browsing context's active Window. Code of
 * another Window (another compartment) reaches it only through a
 * cross-compartment wrapper, which SpiderMonkey creates through the embedder's
 * wrap callback and which must be a js::CrossCompartmentWrapper (flag
 * CROSS_COMPARTMENT): mozjs's glue handlers cannot be one, hence this class.
 *
 * Each internal method checks IsPlatformObjectSameOrigin(W) against the
 * current realm (the caller's: a wrapper lives in the caller's compartment
 * and its traps run before entering the target's realm) and then either
 * forwards to CrossCompartmentWrapper (same origin: the ordinary WindowProxy
 * behaviour, which forwards to the Window) or runs the cross-origin steps of
 * the WindowProxy exotic object. The steps that need the DOM (which
 * properties exist, their values, the SecurityError) are Rust callbacks;
 * the steps here are the ones that only combine internal methods. */

#include "jsapi.h"
#include "jsfriendapi.h"
#include "js/CallAndConstruct.h"
#include "js/Proxy.h"
#include "js/PropertyDescriptor.h"
#include "js/Wrapper.h"

extern "C" {

/* The Rust side (src/navigation/windowproxy/cross_origin.rs). Each
 * returns false with an exception pending on failure. */
struct JsprofWindowProxyCallbacks {
  /* IsPlatformObjectSameOrigin(W) for the Window behind `wrapper`, against
   * the current realm. Cannot fail. */
  bool (*is_same_origin)(JSContext* cx, JSObject* wrapper);
  /* The cross-origin branch of [[GetOwnProperty]]; *is_none when the
   * result is undefined. */
  bool (*get_own_property)(JSContext* cx, JS::HandleObject wrapper,
                           JS::HandleId id,
                           JS::MutableHandle<JS::PropertyDescriptor> desc,
                           bool* is_none);
  /* The cross-origin branch of [[OwnPropertyKeys]]. */
  bool (*own_property_keys)(JSContext* cx, JS::HandleObject wrapper,
                            JS::MutableHandleIdVector props);
  /* Throws a "SecurityError" DOMException in the current realm about `id`
   * (JS::VoidHandlePropertyKey when the access has no key); returns false. */
  bool (*throw_security_error)(JSContext* cx, JS::HandleId id);
};
}

namespace {

class CrossOriginWindowWrapper final : public js::CrossCompartmentWrapper {
  JsprofWindowProxyCallbacks mCallbacks;

  bool sameOrigin(JSContext* cx, JS::HandleObject wrapper) const {
    return mCallbacks.is_same_origin(cx, wrapper);
  }

  bool securityError(JSContext* cx, JS::HandleId id) const {
    return mCallbacks.throw_security_error(cx, id);
  }

  bool securityError(JSContext* cx) const {
    return mCallbacks.throw_security_error(cx, JS::VoidHandlePropertyKey);
  }

 public:
  explicit CrossOriginWindowWrapper(const JsprofWindowProxyCallbacks& aCallbacks)
      : js::CrossCompartmentWrapper(0, /* aHasPrototype = */ false,
                                    /* aHasSecurityPolicy = */ true),
        mCallbacks(aCallbacks) {}

  /* https://html.spec.whatwg.org/multipage/nav-history-apis.html#windowproxy-getprototypeof */
  bool getPrototype(JSContext* cx, JS::HandleObject wrapper,
                    JS::MutableHandleObject protop) const override {
    // Step 1: Let W be the value of the [[Window]] internal slot of this.
    // Step 2: If IsPlatformObjectSameOrigin(W) is true, then return !
    // OrdinaryGetPrototypeOf(W).
    if (sameOrigin(cx, wrapper)) {
      return js::CrossCompartmentWrapper::getPrototype(cx, wrapper, protop);
    }
    // Step 3: Return null.
    protop.set(nullptr);
    return true;
  }

  bool getPrototypeIfOrdinary(JSContext* cx, JS::HandleObject wrapper,
                              bool* isOrdinary,
                              JS::MutableHandleObject protop) const override {
    // [[GetPrototypeOf]] is not ordinary: it depends on the caller.
    *isOrdinary = false;
    return true;
  }

  /* https://html.spec.whatwg.org/multipage/nav-history-apis.html#windowproxy-setprototypeof */
  bool setPrototype(JSContext* cx, JS::HandleObject wrapper,
                    JS::HandleObject proto,
                    JS::ObjectOpResult& result) const override {
    // Step 1: Return ! SetImmutablePrototype(this, V): true only when V is
    // the current [[GetPrototypeOf]] result.
    JS::RootedObject current(cx);
    if (!getPrototype(cx, wrapper, &current)) {
      return false;
    }
    if (current == proto) {
      return result.succeed();
    }
    return result.failCantSetProto();
  }

  bool setImmutablePrototype(JSContext* cx, JS::HandleObject wrapper,
                             bool* succeeded) const override {
    // The prototype is already immutable (see setPrototype).
    *succeeded = true;
    return true;
  }

  /* https://html.spec.whatwg.org/multipage/nav-history-apis.html#windowproxy-isextensible */
  bool isExtensible(JSContext* cx, JS::HandleObject wrapper,
                    bool* extensible) const override {
    // Step 1: Return true.
    *extensible = true;
    return true;
  }

  /* https://html.spec.whatwg.org/multipage/nav-history-apis.html#windowproxy-preventextensions */
  bool preventExtensions(JSContext* cx, JS::HandleObject wrapper,
                         JS::ObjectOpResult& result) const override {
    // Step 1: Return false.
    return result.failCantPreventExtensions();
  }

  /* https://html.spec.whatwg.org/multipage/nav-history-apis.html#windowproxy-getownproperty */
  bool getOwnPropertyDescriptor(
      JSContext* cx, JS::HandleObject wrapper, JS::HandleId id,
      JS::MutableHandle<mozilla::Maybe<JS::PropertyDescriptor>> desc)
      const override {
    // Steps 1-2 (array indices) and 3 (same origin: OrdinaryGetOwnProperty
    // of W) are the wrapped WindowProxy's own answer when same origin.
    if (sameOrigin(cx, wrapper)) {
      return js::CrossCompartmentWrapper::getOwnPropertyDescriptor(cx, wrapper,
                                                                   id, desc);
    }
    // Steps 2 and 4-7 when cross origin.
    JS::Rooted<JS::PropertyDescriptor> pd(cx);
    bool isNone = true;
    if (!mCallbacks.get_own_property(cx, wrapper, id, &pd, &isNone)) {
      return false;
    }
    if (isNone) {
      desc.set(mozilla::Nothing());
    } else {
      desc.set(mozilla::Some(pd.get()));
    }
    return true;
  }

  /* https://html.spec.whatwg.org/multipage/nav-history-apis.html#windowproxy-defineownproperty */
  bool defineProperty(JSContext* cx, JS::HandleObject wrapper, JS::HandleId id,
                      JS::Handle<JS::PropertyDescriptor> desc,
                      JS::ObjectOpResult& result) const override {
    // Step 2: If IsPlatformObjectSameOrigin(W) is true, then (the wrapped
    // WindowProxy's steps 2.1-2.2).
    if (sameOrigin(cx, wrapper)) {
      return js::CrossCompartmentWrapper::defineProperty(cx, wrapper, id, desc,
                                                         result);
    }
    // Step 3: Throw a "SecurityError" DOMException.
    return securityError(cx, id);
  }

  /* https://html.spec.whatwg.org/multipage/nav-history-apis.html#windowproxy-delete */
  bool delete_(JSContext* cx, JS::HandleObject wrapper, JS::HandleId id,
               JS::ObjectOpResult& result) const override {
    // Step 2: If IsPlatformObjectSameOrigin(W) is true, then (the wrapped
    // WindowProxy's steps 2.1-2.2).
    if (sameOrigin(cx, wrapper)) {
      return js::CrossCompartmentWrapper::delete_(cx, wrapper, id, result);
    }
    // Step 3: Throw a "SecurityError" DOMException.
    return securityError(cx, id);
  }

  /* https://html.spec.whatwg.org/multipage/nav-history-apis.html#windowproxy-ownpropertykeys */
  bool ownPropertyKeys(JSContext* cx, JS::HandleObject wrapper,
                       JS::MutableHandleIdVector props) const override {
    // Step 5: same origin: the keys of W (with the array indices first).
    if (sameOrigin(cx, wrapper)) {
      return js::CrossCompartmentWrapper::ownPropertyKeys(cx, wrapper, props);
    }
    // Steps 2-4 and 6.
    return mCallbacks.own_property_keys(cx, wrapper, props);
  }

  /* [[HasProperty]] is the ordinary one
   * (https://tc39.es/ecma262/#sec-ordinaryhasproperty) on top of the
   * WindowProxy's [[GetOwnProperty]] and [[GetPrototypeOf]]: cross origin,
   * the prototype is null, so it is whether [[GetOwnProperty]] (which
   * throws for a property that is not cross-origin accessible) finds P. */
  bool has(JSContext* cx, JS::HandleObject wrapper, JS::HandleId id,
           bool* bp) const override {
    if (sameOrigin(cx, wrapper)) {
      return js::CrossCompartmentWrapper::has(cx, wrapper, id, bp);
    }
    return hasOwn(cx, wrapper, id, bp);
  }

  bool hasOwn(JSContext* cx, JS::HandleObject wrapper, JS::HandleId id,
              bool* bp) const override {
    if (sameOrigin(cx, wrapper)) {
      return js::CrossCompartmentWrapper::hasOwn(cx, wrapper, id, bp);
    }
    JS::Rooted<mozilla::Maybe<JS::PropertyDescriptor>> desc(cx);
    if (!getOwnPropertyDescriptor(cx, wrapper, id, &desc)) {
      return false;
    }
    *bp = desc.isSome();
    return true;
  }

  /* https://html.spec.whatwg.org/multipage/nav-history-apis.html#windowproxy-get */
  bool get(JSContext* cx, JS::HandleObject wrapper, JS::HandleValue receiver,
           JS::HandleId id, JS::MutableHandleValue vp) const override {
    // Step 3: If IsPlatformObjectSameOrigin(W) is true, then return ?
    // OrdinaryGet(this, P, Receiver).
    if (sameOrigin(cx, wrapper)) {
      return js::CrossCompartmentWrapper::get(cx, wrapper, receiver, id, vp);
    }
    // Step 4: Return ? CrossOriginGet(this, P, Receiver).
    // https://html.spec.whatwg.org/multipage/nav-history-apis.html#crossoriginget-(-o,-p,-receiver-)
    // Step 1: Let desc be ? O.[[GetOwnProperty]](P).
    JS::Rooted<mozilla::Maybe<JS::PropertyDescriptor>> desc(cx);
    if (!getOwnPropertyDescriptor(cx, wrapper, id, &desc)) {
      return false;
    }
    // Step 2: Assert: desc is not undefined. ([[GetOwnProperty]] throws
    // rather than answer undefined for a cross-origin object.)
    if (desc.isNothing()) {
      vp.setUndefined();
      return true;
    }
    // Step 3: If IsDataDescriptor(desc) is true, then return
    // desc.[[Value]].
    if (desc->isDataDescriptor()) {
      vp.set(desc->value());
      return true;
    }
    // Step 4: Assert: IsAccessorDescriptor(desc) is true.
    // Step 5: Let getter be desc.[[Get]].
    JS::RootedObject getter(cx, desc->getter());
    // Step 6: If getter is undefined, then throw a "SecurityError"
    // DOMException.
    if (!getter) {
      return securityError(cx, id);
    }
    // Step 7: Return ? Call(getter, Receiver).
    JS::RootedValue fun(cx, JS::ObjectValue(*getter));
    return JS::Call(cx, receiver, fun, JS::HandleValueArray::empty(), vp);
  }

  /* https://html.spec.whatwg.org/multipage/nav-history-apis.html#windowproxy-set */
  bool set(JSContext* cx, JS::HandleObject wrapper, JS::HandleId id,
           JS::HandleValue v, JS::HandleValue receiver,
           JS::ObjectOpResult& result) const override {
    // Step 2: If IsPlatformObjectSameOrigin(W) is true, then (the wrapped
    // WindowProxy's steps 2.1-2.2: OrdinarySet).
    if (sameOrigin(cx, wrapper)) {
      return js::CrossCompartmentWrapper::set(cx, wrapper, id, v, receiver,
                                              result);
    }
    // Step 3: Return ? CrossOriginSet(this, P, V, Receiver).
    // https://html.spec.whatwg.org/multipage/nav-history-apis.html#crossoriginset-(-o,-p,-v,-receiver-)
    // Step 1: Let desc be ? O.[[GetOwnProperty]](P).
    JS::Rooted<mozilla::Maybe<JS::PropertyDescriptor>> desc(cx);
    if (!getOwnPropertyDescriptor(cx, wrapper, id, &desc)) {
      return false;
    }
    // Step 2: Assert: desc is not undefined.
    // Step 3: If desc.[[Set]] is present and its value is not undefined,
    // then:
    if (desc.isSome() && desc->isAccessorDescriptor() && desc->setter()) {
      // Step 3.1: Let setter be desc.[[Set]].
      JS::RootedValue setter(cx, JS::ObjectValue(*desc->setter()));
      // Step 3.2: Perform ? Call(setter, Receiver, «V»).
      JS::RootedValue ignored(cx);
      if (!JS::Call(cx, receiver, setter, JS::HandleValueArray(v), &ignored)) {
        return false;
      }
      // Step 3.3: Return true.
      return result.succeed();
    }
    // Step 4: Throw a "SecurityError" DOMException.
    return securityError(cx, id);
  }

  /* For-in and the enumerable keys: the ordinary steps on top of
   * [[OwnPropertyKeys]] and [[GetOwnProperty]] (none of the cross-origin
   * properties is enumerable), never the target's. */
  bool getOwnEnumerablePropertyKeys(
      JSContext* cx, JS::HandleObject wrapper,
      JS::MutableHandleIdVector props) const override {
    if (sameOrigin(cx, wrapper)) {
      return js::CrossCompartmentWrapper::getOwnEnumerablePropertyKeys(
          cx, wrapper, props);
    }
    return js::BaseProxyHandler::getOwnEnumerablePropertyKeys(cx, wrapper,
                                                              props);
  }

  bool enumerate(JSContext* cx, JS::HandleObject wrapper,
                 JS::MutableHandleIdVector props) const override {
    if (sameOrigin(cx, wrapper)) {
      return js::CrossCompartmentWrapper::enumerate(cx, wrapper, props);
    }
    return js::BaseProxyHandler::enumerate(cx, wrapper, props);
  }

  /* A built-in called with a cross-origin WindowProxy as `this` (for
   * example Object.prototype.toString's internal checks) must not run on
   * the target. */
  bool nativeCall(JSContext* cx, JS::IsAcceptableThis test,
                  JS::NativeImpl impl,
                  const JS::CallArgs& args) const override {
    JS::RootedObject wrapper(cx, &args.thisv().toObject());
    if (sameOrigin(cx, wrapper)) {
      return js::CrossCompartmentWrapper::nativeCall(cx, test, impl, args);
    }
    return securityError(cx);
  }
};

}  // namespace

extern "C" {

/* The handler, made once per process (it is never freed: wrappers live
 * until the process ends). */
const void* jsprof_new_cross_origin_window_wrapper_handler(
    const JsprofWindowProxyCallbacks* callbacks) {
  return new CrossOriginWindowWrapper(*callbacks);
}

/* A cross-compartment wrapper of `obj` (in the current compartment) with
 * `handler`. */
JSObject* jsprof_new_wrapper(JSContext* cx, JS::HandleObject obj,
                             const void* handler) {
  return js::Wrapper::New(cx, obj,
                          static_cast<const js::Wrapper*>(handler));
}

}  // extern "C"

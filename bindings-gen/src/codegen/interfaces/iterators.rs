//! Pair iterators (<https://webidl.spec.whatwg.org/#es-iterators>):
//! `entries()`, `keys()`, `values()`, `forEach()` and the iterator
//! prototype's `next()`, over the trait's `PairIterableEntry`.

use quote::quote;

use super::{Iface, Members};
use crate::codegen::types::rust_type;
use crate::codegen::{c_str, ident};
use crate::ir::*;

/// The pair iterator of an interface declaring `iterable<K, V>` (a value
/// iterator is the runtime's: `IteratorKind::Value` in the interface spec).
pub(super) fn pair_iterator(target: &Iface, members: &mut Members) {
    let Iface {
        iface,
        name,
        self_ty,
        methods_trait,
        ..
    } = target;
    let Members {
        trait_items,
        natives,
        method_specs,
        ..
    } = members;
    if let Some(Iterable::Pair(k, v)) = &iface.iterable {
        let kt = rust_type(k);
        let vt = rust_type(v);
        trait_items.push(quote! {
            /// `iterable<K, V>`: the value pair at `index` in the current
            /// list of value pairs to iterate over
            /// (<https://webidl.spec.whatwg.org/#dfn-value-pairs-to-iterate-over>),
            /// `None` when `index` is not below its length.
            fn PairIterableEntry(&self, cx: &mut JSContext, index: u32) -> Option<(#kt, #vt)>;
        });
        let id = ident(name);
        for (native, method, kind) in [
            (
                "iterable_entries",
                "entries",
                quote!(IterationKind::KeyValue),
            ),
            ("iterable_keys", "keys", quote!(IterationKind::Key)),
            ("iterable_values", "values", quote!(IterationKind::Value)),
        ] {
            let native = ident(native);
            let what = format!("{name}.{method}");
            let doc =
                format!(" `{method}()` (<https://webidl.spec.whatwg.org/#es-iterable-{method}>).");
            natives.push(quote! {
                #[doc = #doc]
                pub(crate) unsafe extern "C" fn #native(cx: *mut RawJSContext, argc: u32, vp: *mut JSVal) -> bool {
                    call_native(cx, argc, vp, #what, ReturnKind::Value, |cx, args| {
                        pair_iterable_method::<#self_ty>(cx, &args, #what, #kind, PrototypeList::#id)
                    })
                }
            });
            let key = c_str(method);
            method_specs.push(quote!(function_spec(#key, Some(#native), 0, JSPROP_ENUMERATE)));
        }
        let for_each_what = format!("{name}.forEach");
        let next_what = format!("{name} Iterator.next");
        let iterator_name = c_str(&format!("{name} Iterator"));
        natives.push(quote! {
            /// `forEach(callback, thisArg)` (<https://webidl.spec.whatwg.org/#es-forEach>).
            pub(crate) unsafe extern "C" fn iterable_for_each(cx: *mut RawJSContext, argc: u32, vp: *mut JSVal) -> bool {
                call_native(cx, argc, vp, #for_each_what, ReturnKind::Value, |cx, args| {
                    pair_iterable_for_each::<#self_ty, #kt, #vt>(cx, &args, #for_each_what, |this, cx, index| {
                        <#self_ty as #methods_trait>::PairIterableEntry(this, cx, index)
                    })
                })
            }

            /// The iterator prototype object's `next()`
            /// (<https://webidl.spec.whatwg.org/#es-iterator-prototype-object>).
            pub(crate) unsafe extern "C" fn iterator_next(cx: *mut RawJSContext, argc: u32, vp: *mut JSVal) -> bool {
                call_native(cx, argc, vp, #next_what, ReturnKind::Value, |cx, args| {
                    pair_iterator_next::<#self_ty, #kt, #vt>(cx, &args, #next_what, |this, cx, index| {
                        <#self_ty as #methods_trait>::PairIterableEntry(this, cx, index)
                    })
                })
            }

            static PAIR_ITERATOR: PairIteratorSpec = PairIteratorSpec {
                name: #iterator_name,
                next: iterator_next,
            };
        });
        method_specs.push(quote!(function_spec(
            c"forEach",
            Some(iterable_for_each),
            1,
            JSPROP_ENUMERATE
        )));
    }
}

//! Running scripts: the list of scripts that will execute in order as
//! soon as possible, and "execute the script element"
//! (<https://html.spec.whatwg.org/multipage/scripting.html#execute-the-script-element>).

use mozjs::context::JSContext;

use super::{with_state, PendingScript};
use crate::dom::events::event::Event;
use crate::dom::html::htmlscriptelement::HTMLScriptElement;
use crate::dom::nodes::document::Document;
use crate::loading::script_loading::run_classic_script;

/// <https://html.spec.whatwg.org/multipage/webappapis.html#fire-a-simple-event>
/// (not bubbling, not cancelable, trusted) named `type_` at `script`.
pub(super) fn fire_simple_event(cx: &mut JSContext, script: &HTMLScriptElement, type_: &str) {
    let node = script.element().upcast_node();
    let event = Event::new(cx, node.global(), type_, false, false);
    event.set_trusted(true);
    node.as_ref().dispatch(cx, &event);
}

/// Step 33.3.3 of "prepare the script element": the steps to run when the
/// result of `id`, in `document`'s list of scripts that will execute in
/// order as soon as possible, is ready.
pub(super) fn run_in_order_scripts(cx: &mut JSContext, document: &Document, id: u64) {
    // The first script of `document`'s list, and whether its result is
    // ready.
    let first = || {
        with_state(|s| {
            let s = s.borrow();
            s.in_order
                .iter()
                .copied()
                .find(|i| {
                    s.waiting
                        .get(i)
                        .is_some_and(|w| std::ptr::eq(&*w.document, document))
                })
                .map(|i| (i, s.waiting.get(&i).is_some_and(|w| w.result.is_some())))
        })
    };
    // Step 33.3.3.1: If scripts[0] is not el, then abort these steps.
    if first().map(|(i, _)| i) != Some(id) {
        return;
    }
    // Step 33.3.3.2: While scripts is not empty, and scripts[0]'s result is
    // not "uninitialized":
    while let Some((next, true)) = first() {
        let Some(waiting) = with_state(|s| {
            let mut s = s.borrow_mut();
            // Step 33.3.3.2.2: Remove scripts[0].
            s.in_order.retain(|i| *i != next);
            s.waiting.remove(&next)
        }) else {
            break;
        };
        // Step 33.3.3.2.1: Execute the script element scripts[0].
        let pending = PendingScript {
            element: waiting.element,
            result: waiting.result.flatten(),
            module: waiting.module,
        };
        execute_the_script_element(cx, document, pending);
        crate::runtime::perform_microtask_checkpoint(cx);
        // Mark as ready step 4: el's delaying the load event is false.
        document.undelay_load();
    }
}

/// <https://html.spec.whatwg.org/multipage/scripting.html#execute-the-script-element>
/// (`cx` in the realm of `document`'s global).
pub(crate) fn execute_the_script_element(
    cx: &mut JSContext,
    document: &Document,
    pending: PendingScript,
) {
    let script = pending.element;
    // Step 1: Let document be el's node document.
    let node_document = script.element().upcast_node().owner_doc();
    // Step 2: If el's preparation-time document is not equal to document,
    // then return.
    let same = match (script.preparation_time_document(), node_document) {
        (Some(a), Some(b)) => std::ptr::eq(&*a, &*b),
        (None, _) => true,
        _ => false,
    };
    if !same {
        return;
    }
    // Step 3: Unblock rendering on el (no rendering).
    // Steps 4-8 for a module script: `module_loading`.
    if let Some(module) = pending.module {
        crate::loading::module_loading::execute_module_script_element(
            cx, document, &script, module,
        );
        return;
    }
    // Step 4: If el's result is null, then fire an event named error at
    // el, and return.
    let Some(classic) = pending.result else {
        fire_simple_event(cx, &script, "error");
        return;
    };
    // Step 5: If el's from an external file is true, or el's type is
    // "module", then increment document's ignore-destructive-writes
    // counter (no document.write here).
    // Step 6 ("classic"):
    // Step 6.1: Let oldCurrentScript be the value to which document's
    // currentScript object was most recently set.
    let old_current_script = document.current_script();
    // Step 6.2: If el's root is not a shadow root, then set document's
    // currentScript attribute to el (no shadow roots).
    document.set_current_script(Some(&script));
    // Step 6.3: Run the classic script given by el's result.
    let filename = classic.record.url.clone();
    let line = classic.record.start_line;
    run_classic_script(cx, &classic.source, &filename, line, classic.record);
    // (Run a classic script, step 9: clean up after running script: if the
    // JavaScript execution context stack is now empty, perform a
    // microtask checkpoint. A script the parser or a task runs leaves it
    // empty; one another script inserted runs inside that script, whose
    // own clean-up performs the checkpoint.)
    // <https://html.spec.whatwg.org/multipage/webappapis.html#clean-up-after-running-script>
    if execution_context_stack_is_empty(cx) {
        crate::runtime::perform_microtask_checkpoint(cx);
    }
    // Step 6.4: Set document's currentScript attribute to
    // oldCurrentScript.
    document.set_current_script(old_current_script.as_deref());
    // Step 7: Decrement the ignore-destructive-writes counter.
    // Step 8: If el's from an external file is true, then fire an event
    // named load at el.
    if script.from_an_external_file() {
        fire_simple_event(cx, &script, "load");
    }
}

/// Whether the JavaScript execution context stack holds no script (no
/// scripted frame is running on `cx`), as "clean up after running
/// script" asks (<https://html.spec.whatwg.org/multipage/webappapis.html#clean-up-after-running-script>).
fn execution_context_stack_is_empty(cx: &mut JSContext) -> bool {
    // SAFETY: `cx` is this thread's live context; the call only reads its
    // activation stack.
    unsafe { mozjs::jsapi::JS::GetScriptedCallerGlobal(cx.raw_cx()).is_null() }
}

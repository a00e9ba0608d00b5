//! `console` (<https://console.spec.whatwg.org/>): the logging methods
//! print their formatted arguments as one line, `log`/`info`/`debug` on
//! stdout and `warn`/`error` on stderr, with no prefix.

use std::io::Write;

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;
use mozjs::rooted;

use crate::dom::bindings::codegen::ConsoleBinding::ConsoleMethods;
use crate::dom::bindings::conversions::{to_rust_string, RootedJsValue};
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::reflector::{reflect_dom_object, Reflector};
use crate::dom::bindings::root::DomRoot;
use crate::dom::globals::globalscope::GlobalScope;

#[derive(JSTraceable)]
pub struct Console {
    pub(crate) reflector: Reflector,
}

/// Which stream a log level goes to.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stream {
    Stdout,
    Stderr,
}

impl Console {
    pub fn new(cx: &mut JSContext, global: &GlobalScope) -> DomRoot<Console> {
        reflect_dom_object(
            cx,
            global,
            Box::new(Console {
                reflector: Reflector::new(),
            }),
            None,
        )
    }

    /// <https://console.spec.whatwg.org/#logger>
    fn logger(&self, cx: &mut JSContext, stream: Stream, args: Vec<RootedJsValue>) -> Fallible<()> {
        // Step 1: If args is empty, return.
        if args.is_empty() {
            return Ok(());
        }
        // Step 2-4: Formatter (no format specifiers are processed: each
        // argument is converted to a string and joined with spaces), then
        // Printer.
        let mut parts = Vec::with_capacity(args.len());
        for arg in &args {
            rooted!(&in(cx) let value = arg.get());
            // Step: an exception while formatting is swallowed, as
            // consoles do, and the argument is shown as its type.
            let text = match to_rust_string(cx, value.handle()) {
                Ok(s) => s,
                Err(()) => {
                    // SAFETY: clearing the pending exception of this thread's context is always
                    // allowed.
                    unsafe { mozjs::rust::wrappers2::JS_ClearPendingException(cx) };
                    "[object]".to_owned()
                }
            };
            parts.push(text);
        }
        let line = parts.join(" ");
        match stream {
            Stream::Stdout => {
                let mut out = std::io::stdout().lock();
                let _ = writeln!(out, "{line}");
                let _ = out.flush();
            }
            Stream::Stderr => {
                let _ = writeln!(std::io::stderr().lock(), "{line}");
            }
        }
        Ok(())
    }
}

impl ConsoleMethods for Console {
    /// <https://console.spec.whatwg.org/#log>
    fn Log(&self, cx: &mut JSContext, data: Vec<RootedJsValue>) -> Fallible<()> {
        self.logger(cx, Stream::Stdout, data)
    }

    /// <https://console.spec.whatwg.org/#info>
    fn Info(&self, cx: &mut JSContext, data: Vec<RootedJsValue>) -> Fallible<()> {
        self.logger(cx, Stream::Stdout, data)
    }

    /// <https://console.spec.whatwg.org/#debug>
    fn Debug(&self, cx: &mut JSContext, data: Vec<RootedJsValue>) -> Fallible<()> {
        self.logger(cx, Stream::Stdout, data)
    }

    /// <https://console.spec.whatwg.org/#warn>
    fn Warn(&self, cx: &mut JSContext, data: Vec<RootedJsValue>) -> Fallible<()> {
        self.logger(cx, Stream::Stderr, data)
    }

    /// <https://console.spec.whatwg.org/#error>
    fn Error(&self, cx: &mut JSContext, data: Vec<RootedJsValue>) -> Fallible<()> {
        self.logger(cx, Stream::Stderr, data)
    }
}

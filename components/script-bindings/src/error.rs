//! Errors of DOM methods, and throwing them as JS exceptions
//! (<https://webidl.spec.whatwg.org/#es-exceptions>).

use std::fmt;

use mozjs::context::JSContext;
use mozjs::jsapi::ExceptionStackBehavior;
use mozjs::jsval::UndefinedValue;
use mozjs::rooted;
use mozjs::rust::wrappers2::JS_SetPendingException;

use crate::global::GlobalBindings;
use crate::hooks::hooks;
use crate::native::to_cstring;

/// Why a DOM method failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// A `DOMException` with this name, and a message (else the name's
    /// default description).
    Dom(DomExceptionName, Option<String>),
    /// A `TypeError`.
    Type(String),
    /// A `RangeError`.
    Range(String),
    /// A JS exception is already pending (or, after a callback called with
    /// `ExceptionHandling::Report`, was reported).
    JSFailed,
}

impl Error {
    /// A `DOMException` named `name` with its default message.
    pub fn dom(name: DomExceptionName) -> Error {
        Error::Dom(name, None)
    }

    /// A `DOMException` named `name` with `message`.
    pub fn dom_with_message(name: DomExceptionName, message: impl Into<String>) -> Error {
        Error::Dom(name, Some(message.into()))
    }

    /// A `DOMException` by name (`"NotAllowedError"`, ...); unknown names
    /// are `OperationError`s.
    pub fn dom_by_name(name: &str, message: impl Into<String>) -> Error {
        let name = DomExceptionName::from_name(name).unwrap_or(DomExceptionName::OperationError);
        Error::Dom(name, Some(message.into()))
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Dom(name, Some(message)) => write!(f, "{}: {message}", name.as_str()),
            Error::Dom(name, None) => write!(f, "{}: {}", name.as_str(), name.default_message()),
            Error::Type(message) => write!(f, "TypeError: {message}"),
            Error::Range(message) => write!(f, "RangeError: {message}"),
            Error::JSFailed => write!(f, "JavaScript exception"),
        }
    }
}

pub type Fallible<T> = Result<T, Error>;
pub type ErrorResult = Fallible<()>;

macro_rules! dom_exception_names {
    ($($name:ident = $code:expr, $message:expr;)*) => {
        /// The names of the error names table
        /// (<https://webidl.spec.whatwg.org/#dfn-error-names-table>).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum DomExceptionName {
            $($name,)*
        }

        impl DomExceptionName {
            pub const ALL: &'static [DomExceptionName] = &[$(DomExceptionName::$name,)*];

            pub fn as_str(self) -> &'static str {
                match self {
                    $(DomExceptionName::$name => stringify!($name),)*
                }
            }

            /// The legacy `code` (0 for names without one).
            pub fn legacy_code(self) -> u16 {
                match self {
                    $(DomExceptionName::$name => $code,)*
                }
            }

            pub fn default_message(self) -> &'static str {
                match self {
                    $(DomExceptionName::$name => $message,)*
                }
            }

            pub fn from_name(name: &str) -> Option<DomExceptionName> {
                match name {
                    $(stringify!($name) => Some(DomExceptionName::$name),)*
                    _ => None,
                }
            }
        }
    };
}

dom_exception_names! {
    IndexSizeError = 1, "The index is not in the allowed range.";
    HierarchyRequestError = 3, "The operation would yield an incorrect node tree.";
    WrongDocumentError = 4, "The object is in the wrong document.";
    InvalidCharacterError = 5, "The string contains invalid characters.";
    NoModificationAllowedError = 7, "The object can not be modified.";
    NotFoundError = 8, "The object can not be found here.";
    NotSupportedError = 9, "The operation is not supported.";
    InUseAttributeError = 10, "The attribute is in use by another element.";
    InvalidStateError = 11, "The object is in an invalid state.";
    SyntaxError = 12, "The string did not match the expected pattern.";
    InvalidModificationError = 13, "The object can not be modified in this way.";
    NamespaceError = 14, "The operation is not allowed by Namespaces in XML.";
    InvalidAccessError = 15, "The object does not support the operation or argument.";
    TypeMismatchError = 17, "The type of the object does not match the expected type.";
    SecurityError = 18, "The operation is insecure.";
    NetworkError = 19, "A network error occurred.";
    AbortError = 20, "The operation was aborted.";
    URLMismatchError = 21, "The given URL does not match another URL.";
    QuotaExceededError = 22, "The quota has been exceeded.";
    TimeoutError = 23, "The operation timed out.";
    InvalidNodeTypeError = 24, "The supplied node is incorrect or has an incorrect ancestor for this operation.";
    DataCloneError = 25, "The object can not be cloned.";
    EncodingError = 0, "The encoding operation (either encoded or decoding) failed.";
    NotReadableError = 0, "The I/O read operation failed.";
    UnknownError = 0, "The operation failed for an unknown transient reason.";
    ConstraintError = 0, "A mutation operation in a transaction failed because a constraint was not satisfied.";
    DataError = 0, "Provided data is inadequate.";
    TransactionInactiveError = 0, "A request was placed against a transaction which is currently not active, or which is finished.";
    ReadOnlyError = 0, "The mutating operation was attempted in a \"readonly\" transaction.";
    VersionError = 0, "An attempt was made to open a database using a lower version than the existing version.";
    OperationError = 0, "The operation failed for an operation-specific reason.";
    NotAllowedError = 0, "The request is not allowed by the user agent or the platform in the current context.";
    OptOutError = 0, "The user opted out of the process.";
}

/// The legacy code of a `DOMException` name (0 for any other name).
pub fn legacy_code_for_name(name: &str) -> u16 {
    DomExceptionName::from_name(name).map_or(0, DomExceptionName::legacy_code)
}

/// Throws a `TypeError`.
pub fn throw_type_error(cx: &mut JSContext, message: &str) {
    mozjs::error::throw_type_error(cx, &to_cstring(message));
}

/// Throws a `RangeError`.
pub fn throw_range_error(cx: &mut JSContext, message: &str) {
    mozjs::error::throw_range_error(cx, &to_cstring(message));
}

/// Throws `error` in the current realm: a `DOMException` object, a
/// `TypeError` or `RangeError`, or nothing for [`Error::JSFailed`] (already
/// pending).
pub fn throw_dom_error(cx: &mut JSContext, error: Error) {
    match error {
        Error::Type(message) => throw_type_error(cx, &message),
        Error::Range(message) => throw_range_error(cx, &message),
        // Already pending.
        Error::JSFailed => {}
        Error::Dom(name, message) => {
            // SAFETY: the current global lives while its realm is entered, which outlasts this
            // call.
            let Some(global) = (unsafe { GlobalBindings::current(cx) }) else {
                throw_type_error(cx, &Error::Dom(name, message).to_string());
                return;
            };
            let text = message
                .clone()
                .unwrap_or_else(|| name.default_message().to_owned());
            rooted!(&in(cx) let mut value = UndefinedValue());
            if !(hooks().new_dom_exception)(cx, global, name.as_str(), text, value.handle_mut()) {
                throw_type_error(cx, &Error::Dom(name, message).to_string());
                return;
            }
            // SAFETY: `value` is rooted above and `cx` is in the current realm.
            unsafe {
                JS_SetPendingException(cx, value.handle(), ExceptionStackBehavior::Capture);
            }
        }
    }
}

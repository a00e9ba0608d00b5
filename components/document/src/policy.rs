//! Document-Policy: the `js-profiling` and `js-profiling-mode` configuration
//! points.
//!
//! The header is an RFC 8941 dictionary, parsed with `sfv`. Each member whose
//! name is a supported configuration point must have a value of the point's
//! type, or the whole header fails to parse ("fail" in the Document Policy
//! draft); a header that fails yields the default policy and one
//! [`PolicyWarning`] for the console, never an error for the page. Unknown
//! members, `*`, and parameters such as `report-to` are ignored (reporting is
//! not implemented). Duplicate keys: the last value wins, as RFC 8941
//! dictionaries specify.
//!
//! Precedence: `js-profiling-mode` (the newer form in the spec repository), if
//! present, decides alone: `eager` or `lazy` enables profiling in that mode,
//! and any other value disables it (and, being invalid for the enum, fails
//! the header). Otherwise `js-profiling` (boolean) decides, and means eager.

use std::fmt;

use sfv::{BareItem, ListEntry};

use crate::headers::HeaderList;

/// The response header that carries the document policy.
pub(crate) const DOCUMENT_POLICY_HEADER: &str = "Document-Policy";
/// The boolean configuration point of the JS Self-Profiling spec.
pub(crate) const JS_PROFILING: &str = "js-profiling";
/// The enum configuration point (`eager` | `lazy`) of the spec repository.
pub(crate) const JS_PROFILING_MODE: &str = "js-profiling-mode";

/// At most this many bytes of an offending value are quoted in a warning.
const QUOTE_LIMIT: usize = 64;

/// When the agent's sampler pays its set-up cost.
///
/// In both modes SpiderMonkey's profiler instrumentation (which discards all
/// JIT code when toggled and slows call-dense code by up to a third while on)
/// is on only while at least one profiling session of the agent is started:
/// a page with the policy but no running `Profiler` must not run slower than
/// a page without it. The mode only decides when the cheap, overhead-free
/// preparation happens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ProfilingMode {
    /// Prepare the sampler when the document is created with the policy
    /// (profiling stack installed on the context, sampling thread created
    /// and parked, script sources recorded), so the first `new Profiler()`
    /// only has to switch the instrumentation on.
    Eager,
    /// Prepare the sampler at the first `new Profiler()`, which then pays
    /// the whole set-up; a page that never profiles pays nothing at all.
    Lazy,
}

impl ProfilingMode {
    /// The token naming this mode in `js-profiling-mode`.
    pub fn token(self) -> &'static str {
        match self {
            ProfilingMode::Eager => "eager",
            ProfilingMode::Lazy => "lazy",
        }
    }

    fn from_token(token: &str) -> Option<Self> {
        match token {
            "eager" => Some(ProfilingMode::Eager),
            "lazy" => Some(ProfilingMode::Lazy),
            _ => None,
        }
    }
}

/// The effective JS profiling policy of a document.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum JsProfiling {
    /// `new Profiler()` throws `NotAllowedError`; the sampler is never set up.
    Disabled,
    /// Profiling is allowed; the mode says when the sampler is set up.
    Enabled(ProfilingMode),
}

/// When the engine should prepare the agent's sampler for a document (see
/// [`ProfilingMode`]; the instrumentation itself is on only while a session
/// runs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SamplerSetup {
    /// Never: profiling is not allowed.
    Never,
    /// As the document is created (eager).
    AtDocumentCreation,
    /// At the first `new Profiler()` (lazy).
    AtFirstProfiler,
}

/// A document policy restricted to the configuration points this engine
/// supports. <https://wicg.github.io/document-policy/#policies>
///
/// The default is the empty policy: every point at its default value, so
/// profiling is disabled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct DocumentPolicy {
    /// The declared value of `js-profiling`, if any.
    js_profiling: Option<bool>,
    /// The declared value of `js-profiling-mode`, if any.
    js_profiling_mode: Option<ProfilingMode>,
}

impl DocumentPolicy {
    /// A policy declaring exactly these values (absent = not declared).
    pub const fn new(js_profiling: Option<bool>, js_profiling_mode: Option<ProfilingMode>) -> Self {
        DocumentPolicy {
            js_profiling,
            js_profiling_mode,
        }
    }

    /// The policy of `Document-Policy: js-profiling-mode=<mode>`.
    pub const fn enabled(mode: ProfilingMode) -> Self {
        DocumentPolicy::new(None, Some(mode))
    }

    /// The declared `js-profiling` value, if the header had one.
    pub fn declared_js_profiling(&self) -> Option<bool> {
        self.js_profiling
    }

    /// The declared `js-profiling-mode` value, if the header had one.
    pub fn declared_js_profiling_mode(&self) -> Option<ProfilingMode> {
        self.js_profiling_mode
    }

    /// The effective JS profiling policy: `js-profiling-mode` if declared,
    /// else `js-profiling` (true means eager), else disabled.
    pub fn js_profiling(&self) -> JsProfiling {
        match (self.js_profiling_mode, self.js_profiling) {
            (Some(mode), _) => JsProfiling::Enabled(mode),
            (None, Some(true)) => JsProfiling::Enabled(ProfilingMode::Eager),
            (None, Some(false) | None) => JsProfiling::Disabled,
        }
    }

    /// "Get the policy value for js-profiling in the Document", as step 2 of
    /// the `Profiler` constructor uses it: false means throw
    /// `NotAllowedError`. With the newer `js-profiling-mode` point this is
    /// true exactly when that point (or, absent it, `js-profiling`) enables
    /// profiling. <https://wicg.github.io/document-policy/#algo-get-policy-value>
    pub fn js_profiling_allowed(&self) -> bool {
        // Step 1: Let policy be document's Document Policy.
        // Step 2: If policy[feature] exists, return its value.
        // Step 3: Return feature's default value (false).
        matches!(self.js_profiling(), JsProfiling::Enabled(_))
    }

    /// The effective mode, if profiling is allowed.
    pub fn mode(&self) -> Option<ProfilingMode> {
        match self.js_profiling() {
            JsProfiling::Enabled(mode) => Some(mode),
            JsProfiling::Disabled => None,
        }
    }

    /// When the sampler should be prepared for this document.
    pub fn sampler_setup(&self) -> SamplerSetup {
        match self.js_profiling() {
            JsProfiling::Disabled => SamplerSetup::Never,
            JsProfiling::Enabled(ProfilingMode::Eager) => SamplerSetup::AtDocumentCreation,
            JsProfiling::Enabled(ProfilingMode::Lazy) => SamplerSetup::AtFirstProfiler,
        }
    }
}

/// The kind of a structured-field value, for warnings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ValueKind {
    /// An inner list `(a b)`.
    InnerList,
    /// An integer.
    Integer,
    /// A decimal.
    Decimal,
    /// A string.
    String,
    /// A token.
    Token,
    /// A byte sequence.
    ByteSequence,
    /// A boolean.
    Boolean,
    /// A date (RFC 9651; never produced by the RFC 8941 parser).
    Date,
    /// A display string (RFC 9651; never produced by the RFC 8941 parser).
    DisplayString,
}

impl ValueKind {
    fn of(entry: &ListEntry) -> Self {
        match entry {
            ListEntry::InnerList(_) => ValueKind::InnerList,
            ListEntry::Item(item) => match &item.bare_item {
                BareItem::Integer(_) => ValueKind::Integer,
                BareItem::Decimal(_) => ValueKind::Decimal,
                BareItem::String(_) => ValueKind::String,
                BareItem::Token(_) => ValueKind::Token,
                BareItem::ByteSequence(_) => ValueKind::ByteSequence,
                BareItem::Boolean(_) => ValueKind::Boolean,
                BareItem::Date(_) => ValueKind::Date,
                BareItem::DisplayString(_) => ValueKind::DisplayString,
            },
        }
    }

    fn describe(self) -> &'static str {
        match self {
            ValueKind::InnerList => "an inner list",
            ValueKind::Integer => "an integer",
            ValueKind::Decimal => "a decimal",
            ValueKind::String => "a string",
            ValueKind::Token => "a token",
            ValueKind::ByteSequence => "a byte sequence",
            ValueKind::Boolean => "a boolean",
            ValueKind::Date => "a date",
            ValueKind::DisplayString => "a display string",
        }
    }
}

/// Why a `Document-Policy` header was ignored: the console warning. Its
/// `Display` is the message to print; it never quotes more than a few dozen
/// bytes of the header, however large.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PolicyWarning {
    /// The header is not an RFC 8941 dictionary.
    Syntax {
        /// The parser's message (without the index).
        message: String,
        /// The byte offset of the error in the combined header, if known.
        index: Option<usize>,
    },
    /// A supported configuration point has a value of the wrong type.
    WrongType {
        /// The configuration point.
        feature: &'static str,
        /// What the point's type requires.
        expected: &'static str,
        /// What the header had.
        found: ValueKind,
    },
    /// `js-profiling-mode` is a token but neither `eager` nor `lazy`.
    UnknownMode {
        /// The token (truncated to a few dozen bytes).
        value: String,
    },
}

impl fmt::Display for PolicyWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{DOCUMENT_POLICY_HEADER} header ignored: ")?;
        match self {
            PolicyWarning::Syntax {
                message,
                index: Some(index),
            } => write!(f, "not a structured dictionary ({message} at byte {index})"),
            PolicyWarning::Syntax {
                message,
                index: None,
            } => write!(f, "not a structured dictionary ({message})"),
            PolicyWarning::WrongType {
                feature,
                expected,
                found,
            } => write!(
                f,
                "'{feature}' must be {expected}, not {}",
                found.describe()
            ),
            PolicyWarning::UnknownMode { value } => write!(
                f,
                "'{JS_PROFILING_MODE}' must be 'eager' or 'lazy', not '{value}'"
            ),
        }?;
        write!(f, "; JS profiling is disabled")
    }
}

/// A parsed policy with the warning to log, if the header was ignored.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PolicyOutcome {
    /// The document's policy (the default one if the header was ignored).
    pub policy: DocumentPolicy,
    /// The console warning, if the header failed to parse.
    pub warning: Option<PolicyWarning>,
}

fn quote(value: &str) -> String {
    if value.len() <= QUOTE_LIMIT {
        return value.to_owned();
    }
    // Tokens are ASCII, so any byte index is a char boundary; stay safe anyway.
    let mut end = QUOTE_LIMIT;
    while !value.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &value[..end])
}

/// <https://wicg.github.io/document-policy/#algo-parse-document-policy>,
/// restricted to the supported configuration points.
pub fn parse_document_policy(policy_string: &[u8]) -> Result<DocumentPolicy, PolicyWarning> {
    // Step 1: Let policy be a new ordered map.
    let mut policy = DocumentPolicy::default();
    // Step 2: Let defaultEndpoint be null. (Reporting is not implemented:
    // endpoints, from `*` or `report-to`, are not kept.)
    // Step 3: Let dict be the result of parsing policyString as a dictionary.
    let parsed = sfv::Parser::new(policy_string)
        .with_version(crate::headers::STRUCTURED_FIELD_VERSION)
        .parse::<sfv::Dictionary>();
    // Step 4: If parsing fails, then fail.
    let dict = parsed.map_err(|error| PolicyWarning::Syntax {
        message: format!("{error:#}"),
        index: error.index(),
    })?;
    // Step 5: For each name->(value, parameters) in dict:
    for (name, entry) in &dict {
        // Step 5.1-5.2: the reporting endpoint (`report-to`) is ignored.
        // Step 5.3: If name is "*", set defaultEndpoint (ignored).
        // Step 5.4: Otherwise, if name is the name of a supported
        // configuration point, then:
        match name.as_str() {
            JS_PROFILING => {
                // Step 5.4.2: If policy[configuration point] exists, then
                // continue. (It cannot: dictionary keys are unique, the last
                // duplicate having overwritten earlier ones.)
                // Step 5.4.3: boolean type.
                // Step 5.4.3.1: If value is not a Boolean, then fail.
                let Some(value) = as_item(entry).and_then(BareItem::as_boolean) else {
                    return Err(PolicyWarning::WrongType {
                        feature: JS_PROFILING,
                        expected: "a boolean (?1 or ?0)",
                        found: ValueKind::of(entry),
                    });
                };
                // Step 5.4.3.2: Set policy[configuration point] to value.
                policy.js_profiling = Some(value);
            }
            JS_PROFILING_MODE => {
                // Step 5.4.4: enum type.
                // Step 5.4.4.1: If value is not a Token, then fail.
                let Some(token) = as_item(entry).and_then(BareItem::as_token) else {
                    return Err(PolicyWarning::WrongType {
                        feature: JS_PROFILING_MODE,
                        expected: "a token (eager or lazy)",
                        found: ValueKind::of(entry),
                    });
                };
                // Step 5.4.4.2: If value is not one of the allowed enum
                // values, then fail.
                let Some(mode) = ProfilingMode::from_token(token.as_str()) else {
                    return Err(PolicyWarning::UnknownMode {
                        value: quote(token.as_str()),
                    });
                };
                // Step 5.4.4.3: Set policy[configuration point] to value.
                policy.js_profiling_mode = Some(mode);
            }
            // Not a supported configuration point: ignored.
            _ => {}
        }
    }
    // Step 6: set each configuration's endpoint to defaultEndpoint (not kept).
    // Step 7: Return policy.
    Ok(policy)
}

fn as_item(entry: &ListEntry) -> Option<&BareItem> {
    match entry {
        ListEntry::Item(item) => Some(&item.bare_item),
        ListEntry::InnerList(_) => None,
    }
}

/// <https://wicg.github.io/document-policy/#algo-process-response-policy>:
/// the policy declared by a response's `Document-Policy` header lines.
///
/// A header that fails to parse gives the default policy and a warning.
pub fn process_response_policy(headers: &HeaderList) -> PolicyOutcome {
    // Step 1: Abort these steps if response's header list does not contain a
    // header whose name is `Document-Policy` (the empty policy results).
    // Step 2: Let header be the concatenation of the values of all
    // `Document-Policy` headers, separated by commas.
    let Some(header) = headers.get(DOCUMENT_POLICY_HEADER) else {
        return PolicyOutcome::default();
    };
    // Step 3: Let document policy be the result of executing Parse document
    // policy on header.
    // Step 4: Return document policy. (Failure: the default policy, warned.)
    match parse_document_policy(&header) {
        Ok(policy) => PolicyOutcome {
            policy,
            warning: None,
        },
        Err(warning) => PolicyOutcome {
            policy: DocumentPolicy::default(),
            warning: Some(warning),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(header: &str) -> PolicyOutcome {
        process_response_policy(&HeaderList::new().with("Document-Policy", header))
    }

    fn effective(header: &str) -> JsProfiling {
        let outcome = parse(header);
        assert_eq!(outcome.warning, None, "unexpected warning for {header:?}");
        outcome.policy.js_profiling()
    }

    fn rejected(header: &str) -> PolicyWarning {
        let outcome = parse(header);
        assert_eq!(outcome.policy, DocumentPolicy::default(), "for {header:?}");
        assert!(!outcome.policy.js_profiling_allowed());
        outcome
            .warning
            .unwrap_or_else(|| panic!("no warning for {header:?}"))
    }

    use JsProfiling::{Disabled, Enabled};
    use ProfilingMode::{Eager, Lazy};

    #[test]
    fn no_header_is_the_default_disabled_policy_without_warning() {
        let outcome = process_response_policy(&HeaderList::new().with("Content-Type", "text/html"));
        assert_eq!(outcome, PolicyOutcome::default());
        assert!(!outcome.policy.js_profiling_allowed());
        assert_eq!(outcome.policy.sampler_setup(), SamplerSetup::Never);
    }

    #[test]
    fn js_profiling_boolean_forms() {
        assert_eq!(effective("js-profiling"), Enabled(Eager));
        assert_eq!(effective("js-profiling=?1"), Enabled(Eager));
        assert_eq!(effective("js-profiling=?0"), Disabled);
        assert_eq!(effective("  js-profiling  "), Enabled(Eager));
    }

    #[test]
    fn js_profiling_mode_forms() {
        assert_eq!(effective("js-profiling-mode=eager"), Enabled(Eager));
        assert_eq!(effective("js-profiling-mode=lazy"), Enabled(Lazy));
    }

    #[test]
    fn mode_takes_precedence_over_boolean() {
        assert_eq!(
            effective("js-profiling=?0, js-profiling-mode=lazy"),
            Enabled(Lazy)
        );
        assert_eq!(
            effective("js-profiling-mode=lazy, js-profiling=?0"),
            Enabled(Lazy)
        );
        assert_eq!(
            effective("js-profiling, js-profiling-mode=lazy"),
            Enabled(Lazy)
        );
        assert_eq!(
            effective("js-profiling-mode=eager, js-profiling=?0"),
            Enabled(Eager)
        );
    }

    #[test]
    fn declared_values_are_kept_separately() {
        let policy = parse("js-profiling=?0, js-profiling-mode=lazy").policy;
        assert_eq!(policy.declared_js_profiling(), Some(false));
        assert_eq!(policy.declared_js_profiling_mode(), Some(Lazy));
        let policy = parse("js-profiling").policy;
        assert_eq!(policy.declared_js_profiling(), Some(true));
        assert_eq!(policy.declared_js_profiling_mode(), None);
    }

    #[test]
    fn accessors_follow_the_effective_policy() {
        let lazy = DocumentPolicy::enabled(Lazy);
        assert!(lazy.js_profiling_allowed());
        assert_eq!(lazy.mode(), Some(Lazy));
        assert_eq!(lazy.sampler_setup(), SamplerSetup::AtFirstProfiler);
        let eager = DocumentPolicy::new(Some(true), None);
        assert_eq!(eager.mode(), Some(Eager));
        assert_eq!(eager.sampler_setup(), SamplerSetup::AtDocumentCreation);
        let off = DocumentPolicy::new(Some(false), None);
        assert_eq!(off.mode(), None);
        assert!(!off.js_profiling_allowed());
        assert_eq!(ProfilingMode::Lazy.token(), "lazy");
        assert_eq!(ProfilingMode::Eager.token(), "eager");
    }

    #[test]
    fn unknown_keys_and_parameters_are_ignored() {
        assert_eq!(effective("unknown-feature=5, js-profiling"), Enabled(Eager));
        assert_eq!(effective("js-profiling;report-to=endpoint"), Enabled(Eager));
        assert_eq!(
            effective("js-profiling;report-to=\"main\";x=1"),
            Enabled(Eager)
        );
        assert_eq!(
            effective("js-profiling-mode=lazy;report-to=none, *;report-to=default"),
            Enabled(Lazy)
        );
        // Unknown keys with any value type, including inner lists.
        assert_eq!(
            effective("oversized-images=(1.0 2), js-profiling"),
            Enabled(Eager)
        );
        // Only unknown keys: the default.
        assert_eq!(effective("something=1.0, something-else=?0"), Disabled);
    }

    #[test]
    fn empty_header_is_an_empty_policy() {
        assert_eq!(effective(""), Disabled);
        assert_eq!(effective("   "), Disabled);
    }

    #[test]
    fn several_header_lines_combine_into_one_dictionary() {
        let headers = HeaderList::new()
            .with("Document-Policy", "unknown=1")
            .with("document-policy", "js-profiling-mode=lazy");
        let outcome = process_response_policy(&headers);
        assert_eq!(outcome.warning, None);
        assert_eq!(outcome.policy.js_profiling(), Enabled(Lazy));

        // Last value wins across lines too.
        let headers = HeaderList::new()
            .with("Document-Policy", "js-profiling")
            .with("Document-Policy", "js-profiling=?0");
        assert_eq!(
            process_response_policy(&headers).policy.js_profiling(),
            Disabled
        );

        // One bad line spoils the combined field.
        let headers = HeaderList::new()
            .with("Document-Policy", "js-profiling")
            .with("Document-Policy", "!!");
        let outcome = process_response_policy(&headers);
        assert!(matches!(
            outcome.warning,
            Some(PolicyWarning::Syntax { .. })
        ));
        assert!(!outcome.policy.js_profiling_allowed());

        // An empty line makes a trailing comma, which RFC 8941 rejects.
        let headers = HeaderList::new()
            .with("Document-Policy", "js-profiling")
            .with("Document-Policy", "");
        assert!(process_response_policy(&headers).warning.is_some());
    }

    #[test]
    fn duplicates_last_value_wins() {
        assert_eq!(effective("js-profiling, js-profiling=?0"), Disabled);
        assert_eq!(effective("js-profiling=?0, js-profiling"), Enabled(Eager));
        assert_eq!(
            effective("js-profiling-mode=lazy, js-profiling-mode=eager"),
            Enabled(Eager)
        );
        assert_eq!(
            effective("js-profiling-mode=eager, js-profiling-mode=lazy"),
            Enabled(Lazy)
        );
        // An invalid value overwritten by a valid one is never seen.
        assert_eq!(effective("js-profiling=5, js-profiling"), Enabled(Eager));
        // A valid value overwritten by an invalid one fails the header.
        assert!(matches!(
            rejected("js-profiling, js-profiling=5"),
            PolicyWarning::WrongType { .. }
        ));
    }

    #[test]
    fn wrong_types_fail_the_whole_header() {
        assert_eq!(
            rejected("js-profiling=5"),
            PolicyWarning::WrongType {
                feature: JS_PROFILING,
                expected: "a boolean (?1 or ?0)",
                found: ValueKind::Integer,
            }
        );
        assert_eq!(
            rejected("js-profiling-mode=?1"),
            PolicyWarning::WrongType {
                feature: JS_PROFILING_MODE,
                expected: "a token (eager or lazy)",
                found: ValueKind::Boolean,
            }
        );
        let found = |h: &str| match rejected(h) {
            PolicyWarning::WrongType { found, .. } => found,
            other => panic!("{other:?}"),
        };
        assert_eq!(found("js-profiling=1.5"), ValueKind::Decimal);
        assert_eq!(found("js-profiling=\"yes\""), ValueKind::String);
        assert_eq!(found("js-profiling=yes"), ValueKind::Token);
        assert_eq!(found("js-profiling=:AQID:"), ValueKind::ByteSequence);
        assert_eq!(found("js-profiling=(?1)"), ValueKind::InnerList);
        assert_eq!(found("js-profiling-mode=\"lazy\""), ValueKind::String);
        assert_eq!(found("js-profiling-mode=(lazy)"), ValueKind::InnerList);
        // The whole header fails, so a valid sibling does not survive.
        assert!(matches!(
            rejected("js-profiling-mode=lazy, js-profiling=5"),
            PolicyWarning::WrongType { .. }
        ));
        assert!(matches!(
            rejected("js-profiling, js-profiling-mode=?1"),
            PolicyWarning::WrongType { .. }
        ));
    }

    #[test]
    fn unknown_mode_disables_profiling() {
        assert_eq!(
            rejected("js-profiling-mode=sometimes"),
            PolicyWarning::UnknownMode {
                value: "sometimes".into()
            }
        );
        // Tokens are case-sensitive.
        assert!(matches!(
            rejected("js-profiling-mode=Eager"),
            PolicyWarning::UnknownMode { .. }
        ));
        // Even with js-profiling on: the mode point takes precedence.
        assert!(matches!(
            rejected("js-profiling, js-profiling-mode=off"),
            PolicyWarning::UnknownMode { .. }
        ));
        // A boolean-looking mode without "=" is ?1, not a token.
        assert!(matches!(
            rejected("js-profiling-mode"),
            PolicyWarning::WrongType {
                found: ValueKind::Boolean,
                ..
            }
        ));
    }

    #[test]
    fn bad_syntax_yields_default_and_a_warning() {
        for header in [
            "js-profiling=",
            "js-profiling,",
            ",js-profiling",
            "JS-Profiling",
            "js-profiling=?2",
            "js-profiling=\"unterminated",
            "js-profiling;",
            "js-profiling js-profiling-mode=lazy",
            "js-profiling=@1659578233",
            "js-profiling=%\"display\"",
            "\u{e9}",
        ] {
            assert!(
                matches!(rejected(header), PolicyWarning::Syntax { .. }),
                "{header:?}"
            );
        }
        // Bytes that are not UTF-8 at all.
        let outcome = process_response_policy(
            &HeaderList::new().with("Document-Policy", &b"js-profiling\xff"[..]),
        );
        assert!(matches!(
            outcome.warning,
            Some(PolicyWarning::Syntax { .. })
        ));
        assert!(!outcome.policy.js_profiling_allowed());
    }

    #[test]
    fn syntax_warning_has_the_error_position() {
        let warning = rejected("js-profiling, !");
        let PolicyWarning::Syntax { index, message } = &warning else {
            panic!("{warning:?}");
        };
        assert_eq!(*index, Some(14));
        assert!(!message.contains("index"), "{message}");
        let text = warning.to_string();
        assert!(
            text.starts_with("Document-Policy header ignored: "),
            "{text}"
        );
        assert!(text.contains("at byte 14"), "{text}");
        assert!(text.ends_with("JS profiling is disabled"), "{text}");
    }

    #[test]
    fn warning_messages_name_the_problem() {
        assert_eq!(
            rejected("js-profiling=5").to_string(),
            "Document-Policy header ignored: 'js-profiling' must be a boolean (?1 or ?0), \
             not an integer; JS profiling is disabled"
        );
        assert_eq!(
            rejected("js-profiling-mode=never").to_string(),
            "Document-Policy header ignored: 'js-profiling-mode' must be 'eager' or 'lazy', \
             not 'never'; JS profiling is disabled"
        );
    }

    #[test]
    fn huge_headers_parse_and_warnings_stay_short() {
        // 100 000 unknown members, then the point: parsed, last one counts.
        let mut header = String::new();
        for i in 0..100_000 {
            header.push_str(&format!("k{i}=?1, "));
        }
        header.push_str("js-profiling-mode=lazy");
        assert_eq!(effective(&header), Enabled(Lazy));

        // A 1 MiB token as the mode: rejected, and the warning quotes only
        // its start.
        let long = "a".repeat(1 << 20);
        let warning = rejected(&format!("js-profiling-mode={long}"));
        let PolicyWarning::UnknownMode { value } = &warning else {
            panic!("{warning:?}");
        };
        assert_eq!(value.len(), QUOTE_LIMIT + 3);
        assert!(warning.to_string().len() < 300);

        // A 1 MiB string that never ends: a syntax error, a short warning.
        let warning = rejected(&format!("js-profiling=\"{long}"));
        assert!(matches!(warning, PolicyWarning::Syntax { .. }));
        assert!(warning.to_string().len() < 300);

        // A huge inner list as the boolean's value.
        let list = "?1 ".repeat(200_000);
        assert!(matches!(
            rejected(&format!("js-profiling=({list})")),
            PolicyWarning::WrongType {
                found: ValueKind::InnerList,
                ..
            }
        ));
    }

    #[test]
    fn quote_truncates_on_a_char_boundary() {
        assert_eq!(quote("short"), "short");
        let s = "\u{e9}".repeat(40); // 80 bytes, 2 per char
        let q = quote(&s);
        assert!(q.ends_with("..."));
        assert_eq!(q.len(), QUOTE_LIMIT + 3);
        let s = format!("a{}", "\u{e9}".repeat(40)); // boundary falls mid-char
        let q = quote(&s);
        assert_eq!(q.len(), QUOTE_LIMIT - 1 + 3);
    }
}

//! The document component: Document-Policy, origins and secure contexts,
//! script CORS status and muted errors, cross-origin isolation, timestamp
//! coarsening, and worker policy inheritance.
//!
//! Everything here is pure: no I/O, no SpiderMonkey, no global state. Bad
//! input never panics: parsers return typed results, and a console warning
//! is a returned value ([`PolicyWarning`]), never a print.
//!
//! # Who calls what
//!
//! * The **loader**, for a document response: [`process_response_policy`]
//!   gives the document's [`DocumentPolicy`] (and a warning to log);
//!   [`is_secure_context`] and [`CrossOriginIsolation::from_response`] give
//!   `self.crossOriginIsolated`; [`Origin::of`] the document's origin.
//! * The **loader**, for each `<script src>`: [`fetch_classic_script`] with
//!   the element's [`CorsSettings`], then
//!   [`PendingScriptFetch::process_response`] for each response until a
//!   [`ScriptCorsOutcome`]: `Blocked` (fire `error` at the element) or
//!   `Run { muted_errors, .. }`, which the script's host-defined data keeps.
//! * The **shell**, reporting an uncaught exception:
//!   [`error_info_to_report`] turns the real error fields into
//!   `"Script error."`, `""`, 0, 0, null for a muted script; code created by
//!   `eval`/`new Function` takes [`dynamic_code_muted_errors`].
//! * The **`Profiler` constructor**: [`DocumentPolicy::js_profiling_allowed`]
//!   ("get the policy value for js-profiling in the Document"; false means
//!   `NotAllowedError`). The **sampler** never records a frame of a script
//!   whose muted errors is true.
//! * **Timestamps**: [`coarsen_time`] / [`coarsen_duration`], 5 µs when
//!   cross-origin isolated, 100 µs otherwise.
//! * **Workers**: [`worker_document_policy`].
//!
//! # Document-Policy and the eager/lazy modes
//!
//! `Document-Policy: js-profiling` (or `js-profiling=?1`) allows profiling in
//! eager mode; `js-profiling-mode=eager` or `js-profiling-mode=lazy` (the
//! newer form, which takes precedence) picks the mode. The mode tells the
//! sampler when to prepare itself. It never decides whether the page pays
//! SpiderMonkey's profiler instrumentation (which discards all JIT code when
//! toggled and costs up to a third of the speed of call-dense code while on):
//! that is on only while at least one `Profiler` of the agent is started, in
//! both modes, so a page with the policy and no running profiler runs as fast
//! as a page without it.
//!
//! * [`ProfilingMode::Eager`]: the sampler is prepared when the document is
//!   created with the policy ([`SamplerSetup::AtDocumentCreation`]: profiling
//!   stack installed, sampling thread created and parked, script sources
//!   recorded), so the first `new Profiler()` only switches the
//!   instrumentation on.
//! * [`ProfilingMode::Lazy`]: the sampler is prepared at the first
//!   `new Profiler()` ([`SamplerSetup::AtFirstProfiler`]), which pays the
//!   whole set-up then; a page that never profiles pays nothing.
//!
//! Without the policy, [`SamplerSetup::Never`]. See [`policy`] for the
//! parsing rules (malformed headers, duplicates, unknown keys).

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod cors;
pub mod headers;
pub mod isolation;
pub mod mime;
pub mod origin;
pub mod policy;
pub mod script;
pub mod time;
pub mod worker;

pub use cors::{CorsSettings, CredentialsMode, RequestMode, ResponseTainting};
pub use headers::HeaderList;
pub use isolation::{
    obtain_embedder_policy, obtain_opener_policy, CrossOriginIsolation, EmbedderPolicy,
    EmbedderPolicyValue, OpenerPolicy, OpenerPolicyValue,
};
pub use origin::{is_secure_context, is_url_potentially_trustworthy, Environment, Origin};
pub use policy::{
    parse_document_policy, process_response_policy, DocumentPolicy, JsProfiling, PolicyOutcome,
    PolicyWarning, ProfilingMode, SamplerSetup,
};
pub use script::{
    classic_script_outcome, dynamic_code_muted_errors, error_info_to_report, fetch_classic_script,
    BlockReason, ErrorInfo, FetchStep, OutgoingRequest, PendingScriptFetch, ResponseInfo,
    ScriptCorsOutcome, ScriptFetchParams,
};
pub use time::{coarsen_duration, coarsen_time, time_resolution};
pub use worker::{worker_document_policy, PolicyContainer, WorkerPolicy, WorkerPolicySource};

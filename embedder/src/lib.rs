//! The jsprof shell: the command line around the engine components.

use jsprof_script::{JsRuntime, ScriptError};

/// The bundled demo script, run when `jsprof` is given no arguments.
pub const DEMO_SCRIPT: &str = include_str!("../demo/demo.js");
/// The file name the demo is compiled with (shown in errors and traces).
pub const DEMO_FILENAME: &str = "jsprof:demo/demo.js";

/// Evaluates one classic script in a fresh runtime on this thread and returns
/// its completion value as a string.
pub fn evaluate(source: &str, filename: &str) -> Result<String, EvalError> {
    let mut runtime = JsRuntime::new().map_err(EvalError::Engine)?;
    runtime
        .evaluate(source, filename, 1)
        .map_err(EvalError::Script)
}

/// Why an evaluation produced no result.
#[derive(Debug)]
pub enum EvalError {
    /// SpiderMonkey could not be started.
    Engine(String),
    /// The script threw or did not compile.
    Script(ScriptError),
}

impl std::fmt::Display for EvalError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EvalError::Engine(message) => write!(f, "engine error: {message}"),
            EvalError::Script(error) => write!(f, "uncaught exception: {error}"),
        }
    }
}

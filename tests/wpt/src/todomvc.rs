//! `./mach todomvc [APP] [jsprof profile options]`: profiles one of the
//! TodoMVC example apps (`examples/todomvc/`) with `jsprof profile`.
//!
//! The apps' libraries are the pinned npm packages of
//! [`thirdparty::APP_LIBRARIES`](jsprof_wpt::thirdparty::APP_LIBRARIES),
//! fetched and checked as for the WPT tests, and the apps are served by the
//! WPT server on loopback; the page is opened with `#drive`, so that the
//! synthetic user of `examples/todomvc/drive.js` adds 100 todos, toggles 50,
//! deletes 25 and clears the completed ones while the profiler runs.

use std::path::PathBuf;
use std::process::{Command, ExitCode};

use jsprof_wpt::config::Hosts;
use jsprof_wpt::server::{Server, Setup};
use jsprof_wpt::thirdparty;

const APPS: [&str; 5] = ["react", "preact", "vue", "jquery", "vanilla"];

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(e) => {
            eprintln!("todomvc: {e}");
            ExitCode::from(1)
        }
    }
}

fn run() -> Result<ExitCode, String> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let jsprof = match args.iter().position(|a| a == "--jsprof") {
        Some(i) if i + 1 < args.len() => {
            let path = PathBuf::from(args.remove(i + 1));
            args.remove(i);
            path
        }
        _ => return Err("usage: todomvc --jsprof PATH [APP] [jsprof profile options]".into()),
    };
    let app = match args.first() {
        Some(first) if !first.starts_with('-') => args.remove(0),
        _ => "react".to_owned(),
    };
    if !APPS.contains(&app.as_str()) {
        return Err(format!("unknown app `{app}` (one of {})", APPS.join(", ")));
    }
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let scratch = tempfile::tempdir().map_err(|e| format!("cannot create a directory: {e}"))?;
    let fallback = thirdparty::todomvc_files(&repo, scratch.path())?;
    let hosts = Hosts::default();
    let server = Server::start(Setup {
        root: scratch.path().to_owned(),
        fallback,
        hosts: hosts.clone(),
        timeout_multiplier: 1.0,
    })?;
    let url = format!(
        "http://{}:{}/examples/todomvc/{app}/index.html#drive",
        hosts.primary,
        server.http_port()
    );
    let status = Command::new(&jsprof)
        .arg("profile")
        .args(&args)
        .arg("--map")
        .arg(format!("{}=127.0.0.1", hosts.primary))
        .arg(&url)
        .status()
        .map_err(|e| format!("cannot run {}: {e}", jsprof.display()))?;
    drop(server);
    Ok(match status.code() {
        Some(0) => ExitCode::SUCCESS,
        Some(code) => ExitCode::from(code.clamp(1, 255) as u8),
        None => ExitCode::from(1),
    })
}

//! `jsprof --help` and each subcommand's: what each option does, its
//! default, the exit statuses; and usage errors in the shell's words.

use std::process::{Command, Output};

fn jsprof(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_jsprof"))
        .args(args)
        .output()
        .unwrap()
}

/// The help of `args` (exit status 0, on stdout), its lines joined (the
/// text is wrapped to the terminal's width).
fn help(args: &[&str]) -> String {
    let out = jsprof(args);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn every_command_has_its_help() {
    let top = help(&["--help"]);
    for expected in [
        "Usage: jsprof [OPTIONS] [URL|PATH] jsprof <COMMAND>",
        "profile",
        "eval",
        "convert",
        "merge",
        "report",
        "symbolicate",
        "--timeout <SECONDS>",
        "--max-heap <MB>",
        "[default: 1024]",
        "--map <HOST=IP>",
        "--host-rules <RULES>",
        "--ca-file <FILE>",
        "--insecure",
        "--quiet",
        "profiles the bundled page-load demo",
        "124 --timeout stopped the page",
    ] {
        assert!(top.contains(expected), "{expected}: {top}");
    }
    assert!(help(&["-h"]).starts_with("A minimal browser shell"));
    let profile = help(&["profile", "--help"]);
    for expected in [
        "Usage: jsprof profile [OPTIONS] [URL|PATH]",
        "--interval <MS>",
        "[default: 1]",
        "--max-samples <N>",
        "[default: 100000]",
        "--duration <SECONDS>",
        "--out <FILE>",
        "[default: jsprof-trace.json]",
        "--top <N>",
        "[default: 10]",
        "--flamegraph <PATH>",
        "--no-flamegraph",
        "--format <FORMAT>",
        "--sourcemaps",
        "--timeout <SECONDS>",
        "--host-rules <RULES>",
    ] {
        assert!(profile.contains(expected), "{expected}: {profile}");
    }
    let eval = help(&["eval", "--help"]);
    for expected in [
        "Usage: jsprof eval [OPTIONS] <FILE|->",
        "--timeout",
        "--max-heap",
    ] {
        assert!(eval.contains(expected), "{expected}: {eval}");
    }
    assert!(!eval.contains("--quiet"), "{eval}");
    for (tool, expected) in [
        ("convert", "--to <FORMAT>"),
        ("merge", "--strict"),
        ("report", "--min-percent <P>"),
        ("symbolicate", "--sourcemap <URL=FILE>"),
    ] {
        let text = help(&[tool, "--help"]);
        assert!(
            text.contains(&format!("Usage: jsprof {tool} [OPTIONS]")),
            "{text}"
        );
        assert!(text.contains(expected), "{expected}: {text}");
    }
}

#[test]
fn usage_errors_are_one_line_and_status_1() {
    for (args, message) in [
        (
            &["--timout", "1", "x.html"][..],
            "jsprof: unknown option --timout",
        ),
        (
            &["--duration", "1", "x.html"],
            "jsprof: --duration is an option of `jsprof profile`",
        ),
        (
            &["profile", "--top", "-3"],
            "jsprof: --top: not a whole number: -3",
        ),
        (
            &["profile", "--format", "jpeg"],
            "jsprof: --format: unknown format jpeg",
        ),
        (
            &["eval"],
            "jsprof: the following required arguments were not provided",
        ),
        (&["x.html", "y.html"], "jsprof: more than one page given"),
        (
            &["convert", "t.json"],
            "jsprof: the following required arguments were not provided",
        ),
    ] {
        let out = jsprof(args);
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.starts_with(message), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

//! The sampler's integration tests, one binary with its own runner:
//! SpiderMonkey allows one engine per process, on one thread, so the cases
//! cannot run on libtest's threads. Each case is reported as libtest
//! reports it (`test <module>::<case> ... ok`), with a closing `test
//! result:` line; any failure fails the run. The first argument that does
//! not start with `-` selects the cases whose name contains it, as
//! libtest's filter does:
//! `cargo test --release --workspace --test it -- bare_context::`.
//!
//! * `glue_build`: the C++ glue was built against the linked SpiderMonkey.
//! * `bare_context`: the sampler on a bare SpiderMonkey context (no DOM).
//!
//! The start-rule fuzzer's run is not here: it is `walk_fuzz` of the
//! test-only `jsprof-walk-fuzz` crate (`walk-fuzz/`), which builds the
//! fuzzer.

mod bare_context;
mod glue_build;

use std::panic::{catch_unwind, AssertUnwindSafe};

/// The filter and the tallies of a run.
pub(crate) struct Runner {
    filter: Option<String>,
    passed: usize,
    failed: usize,
    filtered_out: usize,
}

impl Runner {
    /// Whether the filter selects the case `name`.
    pub(crate) fn selects(&self, name: &str) -> bool {
        self.filter.as_deref().is_none_or(|f| name.contains(f))
    }

    /// Counts `n` cases left out by the filter.
    pub(crate) fn skip(&mut self, n: usize) {
        self.filtered_out += n;
    }

    /// Runs the case `name` and reports it; a panic fails it.
    pub(crate) fn run(&mut self, name: &str, case: impl FnOnce()) {
        match catch_unwind(AssertUnwindSafe(case)) {
            Ok(()) => {
                println!("test {name} ... ok");
                self.passed += 1;
            }
            Err(_) => {
                println!("test {name} ... FAILED");
                self.failed += 1;
            }
        }
    }
}

fn main() {
    let mut runner = Runner {
        filter: std::env::args().skip(1).find(|a| !a.starts_with('-')),
        passed: 0,
        failed: 0,
        filtered_out: 0,
    };
    glue_build::run(&mut runner);
    bare_context::run(&mut runner);
    let Runner {
        passed,
        failed,
        filtered_out,
        ..
    } = runner;
    let outcome = if failed == 0 { "ok" } else { "FAILED" };
    println!(
        "\ntest result: {outcome}. {passed} passed; {failed} failed; 0 ignored; 0 measured; {filtered_out} filtered out\n"
    );
    if failed > 0 {
        eprintln!("{failed} case(s) failed");
        std::process::exit(1);
    }
}

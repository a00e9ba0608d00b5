//! The web-platform-tests harness of the jsprof shell.
//!
//! A loopback WPT server ([`server`], [`routes`]: WPT layout, `.headers`,
//! `.sub.` substitution, generated `.window.html`/`.any.html` pages,
//! redirect and CORS handlers, HTTP and HTTPS on two host names), WPT's own
//! testharness.js from the pinned `wpt-runner` npm package ([`thirdparty`]),
//! our testharnessreport.js and the result channel ([`report`]), a runner
//! driving the shell as a child process ([`runner`]), test discovery
//! ([`discover`]) and expectation metadata ([`metadata`]). The test target
//! (`src/main.rs`, `cargo test --test wpt`) ties them together.

pub mod config;
pub mod discover;
pub mod metadata;
pub mod report;
pub mod routes;
pub mod runner;
pub mod server;
pub mod substitute;
pub mod thirdparty;
pub mod verdict;
pub mod wrappers;

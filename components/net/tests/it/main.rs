//! The loading layer's integration tests, one binary: the fetcher against
//! the loopback test server (`fetch`), script-made fetches (`api_fetch`),
//! servers that misbehave (`hostile_servers`), and parsers under bad input
//! (`robustness`).

mod api_fetch;
mod fetch;
mod hostile_servers;
mod robustness;

//! The test server's integration tests, one binary: the server through the
//! fetcher (`server`).

mod server;

//! WebIDL to Rust bindings for SpiderMonkey. Built by the bindings-gen issue.

//! The URL Standard's `URL` and `URLSearchParams`.

// The folder is the URL Standard's area; `url` is its `URL` interface (one
// file per interface, named after it).
#[allow(clippy::module_inception)]
pub mod url;
pub mod urlhelper;
pub mod urlsearchparams;

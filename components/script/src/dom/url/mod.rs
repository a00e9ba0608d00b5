//! The URL Standard's `URL` and `URLSearchParams`.

pub mod url;
pub mod urlhelper;
pub mod urlsearchparams;

//! The Fetch API's objects (`Headers`, `Request`, `Response`, bodies and
//! `Blob`) and `XMLHttpRequest`.

pub mod blob;
pub mod body;
pub mod headers;
pub mod request;
pub mod response;
pub mod xmlhttprequest;
pub mod xmlhttprequesteventtarget;

//! The globals and what hangs off them: `GlobalScope`, `Window`, `Location`,
//! `History`, `Navigator`, storage, `console`, `crypto`, `performance`,
//! idle callbacks, and `DOMException`.

pub mod console;
pub mod crypto;
pub mod domexception;
pub mod globalscope;
pub mod history;
pub mod idledeadline;
pub mod location;
pub mod navigator;
pub mod performance;
pub mod storage;
pub mod window;

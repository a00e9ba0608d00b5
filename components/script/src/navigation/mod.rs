//! Browsing contexts and the `WindowProxy` objects that stand for them.

pub mod browsing_context;
pub mod windowproxy;

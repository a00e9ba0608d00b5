//! Dedicated workers as seen from script: `Worker`, the worker's global
//! scopes, message channels and ports.

pub mod dedicatedworkerglobalscope;
pub mod messagechannel;
pub mod messageport;
pub mod worker;
pub mod workerglobalscope;
pub mod workerlocation;
pub mod workernavigator;

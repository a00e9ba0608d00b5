//! The DOM: one module per WebIDL interface (the struct and its
//! `*Methods` implementation), in folders by area, plus the bindings
//! runtime. The generated bindings name every interface's struct through
//! [`types`].

pub mod bindings;
pub mod encoding;
pub mod events;
pub mod fetch;
pub mod globals;
pub mod html;
pub mod nodes;
pub mod profiler;
pub mod testing;
pub mod types;
pub mod url;
pub mod workers;

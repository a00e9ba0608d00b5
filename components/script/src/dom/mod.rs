//! The DOM: one module per WebIDL interface (the struct and its
//! `*Methods` implementation), plus the bindings runtime.

pub mod bindings;
pub mod blob;
pub mod console;
pub mod crossoriginwindow;
pub mod customevent;
pub mod dedicatedworkerglobalscope;
pub mod document;
pub mod domexception;
pub mod element;
pub mod errorevent;
pub mod event;
pub mod eventtarget;
pub mod globalscope;
pub mod htmlelement;
pub mod htmliframeelement;
pub mod htmlscriptelement;
pub mod location;
pub mod messagechannel;
pub mod messageevent;
pub mod messageport;
pub mod node;
pub mod performance;
pub mod profiler;
pub mod promiserejectionevent;
pub mod response;
pub mod testbinding;
pub mod testworkeronly;
pub mod text;
pub mod url;
pub mod window;
pub mod worker;
pub mod workerglobalscope;
pub mod workerlocation;

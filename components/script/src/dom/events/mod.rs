//! Events, event targets and listeners, and abort signals.

pub mod abortcontroller;
pub mod abortsignal;
pub mod customevent;
pub mod errorevent;
pub mod event;
pub mod eventtarget;
pub mod focusevent;
pub mod hashchangeevent;
pub mod inputevent;
pub mod keyboardevent;
pub mod messageevent;
pub mod mouseevent;
pub mod popstateevent;
pub mod progressevent;
pub mod promiserejectionevent;
pub mod storageevent;
pub mod submitevent;
pub mod uievent;

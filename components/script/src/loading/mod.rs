//! Loading code and documents: fetches, classic and module scripts, the
//! `<script>` element, import maps, worker scripts, and HTML tree building
//! and serialization.

pub mod fetch;
pub(crate) mod html_serializer;
pub mod html_tree_builder;
pub(crate) mod html_tree_sink;
pub mod import_map;
pub mod module_loading;
pub mod script_element;
pub mod script_loading;
pub mod script_registry;
pub mod worker_scripts;

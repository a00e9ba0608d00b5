//! The DOM tree: nodes, elements, documents, their collections and
//! observers, selectors, and the reflected and style attributes.

pub mod attr;
pub mod characterdata;
pub mod comment;
pub mod cssstyledeclaration;
pub mod document;
pub mod documentfragment;
pub mod domimplementation;
pub mod domrect;
pub mod domrectreadonly;
pub mod domstringmap;
pub mod domtokenlist;
pub mod element;
pub mod element_interface;
pub mod htmlcollection;
pub mod mutationobserver;
pub mod mutationrecord;
pub mod namednodemap;
pub mod node;
pub mod nodelist;
pub mod nodemixins;
pub mod reflection;
pub mod selectors;
pub mod text;
pub(crate) mod virtualmethods;

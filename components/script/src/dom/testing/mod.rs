//! Test-only interfaces (`TestBinding`...), installed only when
//! `dom.testbinding.enabled` is on: the bindings' own test surface.

pub mod testbinding;
pub mod testcollection;
pub mod testderivedcollection;
pub mod testderivedlist;
pub mod testindexedlist;
pub mod testnamedmap;
pub mod testoverridemap;
pub mod testpairiterable;
pub mod testsecureonly;
pub mod testworkeronly;

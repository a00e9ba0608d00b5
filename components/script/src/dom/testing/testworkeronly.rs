//! `TestWorkerOnly`: a test-only interface exposed only on dedicated
//! worker globals (checks `[Exposed]`).

use jsprof_script_derive::JSTraceable;

use crate::dom::bindings::codegen::TestWorkerOnlyBinding::TestWorkerOnlyMethods;
use crate::dom::bindings::reflector::Reflector;

#[derive(JSTraceable)]
pub struct TestWorkerOnly {
    pub(crate) reflector: Reflector,
}

impl TestWorkerOnlyMethods for TestWorkerOnly {}

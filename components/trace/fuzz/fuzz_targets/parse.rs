//! Any bytes: the reader never panics; an accepted trace has every ID in
//! range, an acyclic trie and ordered finite timestamps, survives a JSON
//! round trip, and converts to every format.
#![no_main]

use jsprof_trace::convert::{self, Format};
use jsprof_trace::{from_slice, Profile};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(trace) = from_slice(data) else {
        return;
    };
    assert!(trace.stack_depths().iter().all(Option::is_some));
    for s in &trace.samples {
        assert!(s.timestamp.is_finite());
        assert!(s.stack_id.is_none_or(|id| id < trace.stacks.len() as u64));
    }
    let json = serde_json::to_vec(&trace).unwrap();
    assert_eq!(from_slice(&json).unwrap(), trace);
    let profile = Profile::from_trace(&trace, None);
    for format in Format::ALL {
        convert::write(&profile, format, &mut Vec::new()).unwrap();
    }
});

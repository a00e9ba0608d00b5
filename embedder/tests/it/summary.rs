//! The profile summary's parts.

use jsprof_sampler::{ProfilerMarker, ProfilerSample};
use jsprof_shell::marker_shares;

fn sample(marker: Option<ProfilerMarker>) -> ProfilerSample {
    ProfilerSample {
        timestamp: 0.0,
        stack_id: None,
        marker,
    }
}

#[test]
fn shares_per_marker_only_when_there_are_markers() {
    assert_eq!(marker_shares(&[sample(None), sample(None)]), None);
    let samples = [
        sample(Some(ProfilerMarker::Script)),
        sample(Some(ProfilerMarker::Script)),
        sample(Some(ProfilerMarker::Gc)),
        sample(None),
    ];
    assert_eq!(
        marker_shares(&samples).unwrap(),
        "markers: script 50.0 % (2), gc 25.0 % (1), none 25.0 % (1)\n"
    );
}

//! The reader: valid traces round-trip, every kind of bad input is one
//! error line naming the JSON path.

use jsprof_trace::{for_each_sample, from_str, ProfilerMarker, ProfilerTrace};

const EXPLAINER: &str = include_str!("../data/explainer.json");

#[test]
fn explainer_example_reads_and_round_trips() {
    // The appendix example of the explainer (samples before frames).
    let trace = from_str(EXPLAINER).unwrap();
    assert_eq!(trace.resources.len(), 2);
    assert_eq!(trace.frames[1].name, "l");
    assert_eq!(trace.stacks[2].parent_id, Some(1));
    assert_eq!(trace.samples.len(), 3);
    assert_eq!(trace.samples[2].stack_id, None);
    let frames: Vec<&str> = trace
        .stack_frames(2)
        .map(|f| trace.frames[f as usize].name.as_str())
        .collect();
    assert_eq!(frames, ["a", "l", "b"]);
    let json = serde_json::to_string(&trace).unwrap();
    assert_eq!(from_str(&json).unwrap(), trace);
}

#[test]
fn markers_and_unknown_members() {
    let trace = from_str(
        r#"{"resources":[],"frames":[],"stacks":[],"extra":{"a":[1,2]},
            "samples":[{"timestamp":1,"marker":"gc","future":true},{"timestamp":2}]}"#,
    )
    .unwrap();
    assert_eq!(trace.samples[0].marker, Some(ProfilerMarker::Gc));
    assert_eq!(trace.samples[1].marker, None);
}

/// Every marker, and a sample with a marker and no stack (GC or the
/// shell's own work outside script), round-trip through the JSON model
/// byte for byte.
#[test]
fn markers_round_trip() {
    let json = r#"{"resources":[],"frames":[{"name":"f"}],"stacks":[{"frameId":0}],"samples":[{"timestamp":1.0,"stackId":0,"marker":"script"},{"timestamp":2.0,"stackId":0,"marker":"gc"},{"timestamp":3.0,"marker":"gc"},{"timestamp":4.0,"marker":"style"},{"timestamp":5.0,"marker":"layout"},{"timestamp":6.0,"marker":"paint"},{"timestamp":7.0,"marker":"other"},{"timestamp":8.0}]}"#;
    let trace = from_str(json).unwrap();
    assert_eq!(trace.samples[2].stack_id, None);
    assert_eq!(trace.samples[2].marker, Some(ProfilerMarker::Gc));
    assert_eq!(trace.samples[7].marker, None);
    assert_eq!(serde_json::to_string(&trace).unwrap(), json);
}

fn error(json: &str) -> String {
    let message = from_str(json).unwrap_err().to_string();
    assert!(!message.contains('\n'), "one line: {message}");
    message
}

fn trace_with(frames: &str, stacks: &str, samples: &str) -> String {
    format!(r#"{{"resources":["r"],"frames":{frames},"stacks":{stacks},"samples":{samples}}}"#)
}

#[test]
fn out_of_range_ids() {
    // (frames, stacks, samples, the error naming the bad id)
    let cases = [
        (
            r#"[{"name":"f","resourceId":1}]"#,
            "[]",
            "[]",
            "$.frames[0].resourceId: 1 is out of range (the trace has 1 resources)",
        ),
        (
            r#"[{"name":"f"}]"#,
            r#"[{"frameId":0},{"frameId":1}]"#,
            "[]",
            "$.stacks[1].frameId: 1 is out of range (the trace has 1 frames)",
        ),
        (
            r#"[{"name":"f"}]"#,
            r#"[{"frameId":0,"parentId":5}]"#,
            "[]",
            "$.stacks[0].parentId: 5 is out of range (the trace has 1 stacks)",
        ),
        (
            r#"[{"name":"f"}]"#,
            r#"[{"frameId":0}]"#,
            r#"[{"timestamp":1,"stackId":0},{"timestamp":2,"stackId":18446744073709551615}]"#,
            "$.samples[1].stackId: 18446744073709551615 is out of range (the trace has 1 stacks)",
        ),
    ];
    for (frames, stacks, samples, expected) in cases {
        assert_eq!(error(&trace_with(frames, stacks, samples)), expected);
    }
}

#[test]
fn cycles() {
    assert_eq!(
        error(&trace_with(
            r#"[{"name":"f"}]"#,
            r#"[{"frameId":0,"parentId":0}]"#,
            "[]"
        )),
        "$.stacks[0].parentId: the parentId chain from this stack forms a cycle"
    );
    let message = error(&trace_with(
        r#"[{"name":"f"}]"#,
        r#"[{"frameId":0},{"frameId":0,"parentId":2},{"frameId":0,"parentId":3},{"frameId":0,"parentId":1}]"#,
        "[]",
    ));
    assert!(
        message.ends_with("the parentId chain from this stack forms a cycle"),
        "{message}"
    );
}

#[test]
fn timestamps() {
    assert_eq!(
        error(&trace_with("[]", "[]", r#"[{"timestamp":5},{"timestamp":4.5}]"#)),
        "$.samples[1].timestamp: 4.5 is earlier than the previous sample's 5 (samples must be in time order)"
    );
    let message = error(&trace_with("[]", "[]", r#"[{"timestamp":1e999}]"#));
    assert!(
        message.starts_with("$.samples[0].timestamp: number out of range"),
        "{message}"
    );
    let message = error(&trace_with("[]", "[]", r#"[{"timestamp":"1"}]"#));
    assert!(
        message.starts_with("$.samples[0].timestamp: invalid type: string"),
        "{message}"
    );
    let message = error(&trace_with("[]", "[]", r#"[{"stackId":0}]"#));
    assert!(
        message.starts_with("$.samples[0]: the required member `timestamp` is missing"),
        "{message}"
    );
}

#[test]
fn wrong_types() {
    let cases = [
        (
            r#"[]"#,
            "$: invalid type: sequence, expected a ProfilerTrace object",
        ),
        (
            r#"{"resources":[1],"frames":[],"stacks":[],"samples":[]}"#,
            "$.resources[0]: invalid type: integer `1`, expected a string",
        ),
        (
            r#"{"resources":[],"frames":[{"name":3}],"stacks":[],"samples":[]}"#,
            "$.frames[0].name: invalid type: integer `3`",
        ),
        (
            r#"{"resources":[],"frames":[{"name":"f","line":-1}],"stacks":[],"samples":[]}"#,
            "$.frames[0].line: invalid value: integer `-1`, expected u64",
        ),
        (
            r#"{"resources":[],"frames":[{"name":"f","column":1.5}],"stacks":[],"samples":[]}"#,
            "$.frames[0].column: invalid type: floating point `1.5`, expected u64",
        ),
        (
            r#"{"resources":[],"frames":[{"name":"f","resourceId":null}],"stacks":[],"samples":[]}"#,
            "$.frames[0].resourceId: invalid type: null, expected u64",
        ),
        (
            r#"{"resources":[],"frames":[{}],"stacks":[],"samples":[]}"#,
            "$.frames[0]: the required member `name` is missing",
        ),
        (
            r#"{"resources":[],"frames":[],"stacks":[{"parentId":0}],"samples":[]}"#,
            "$.stacks[0]: the required member `frameId` is missing",
        ),
        (
            r#"{"resources":[],"frames":[],"stacks":{},"samples":[]}"#,
            "$.stacks: invalid type: map, expected an array",
        ),
        (
            r#"{"resources":[],"frames":[],"stacks":[],"samples":[{"timestamp":1,"marker":"nap"}]}"#,
            "$.samples[0].marker: unknown marker \"nap\"",
        ),
        (
            r#"{"resources":[],"frames":[],"stacks":[]}"#,
            "$: the required member `samples` is missing",
        ),
        (
            r#"{"resources":[],"resources":[],"frames":[],"stacks":[],"samples":[]}"#,
            "$.resources: duplicate member",
        ),
        (
            r#"{"resources":[],"frames":[],"stacks":[],"samples":[]} x"#,
            "$: trailing characters",
        ),
        (
            r#"{"resources":[],"frames":[],"stacks":[],"samples":[{"timestamp":1}"#,
            "$.samples[1]: EOF while parsing a list",
        ),
        ("", "$: EOF while parsing a value"),
    ];
    for (json, expected) in cases {
        let message = error(json);
        assert!(
            message.starts_with(expected),
            "{json}\n  got {message}\n  expected {expected}"
        );
    }
}

#[test]
fn deep_nesting_does_not_overflow_the_stack() {
    // Unknown members are skipped without recursion; deep nesting where a
    // trace member is expected is a type error at the first level.
    let json = format!(
        r#"{{"x":{}{}, "resources":[],"frames":[],"stacks":[],"samples":[]}}"#,
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    assert!(from_str(&json).is_ok());
    let json = format!(
        r#"{{"resources":{}{}, "frames":[],"stacks":[],"samples":[]}}"#,
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    assert!(error(&json).starts_with("$.resources[0]: invalid type: sequence, expected a string"));
}

#[test]
fn samples_stream_when_they_come_last() {
    // Samples after the tables reach the callback while the input is still
    // being read: the callback sees the third sample before the reader
    // meets the bad fourth one.
    let json = trace_with(
        r#"[{"name":"f"}]"#,
        r#"[{"frameId":0}]"#,
        r#"[{"timestamp":1,"stackId":0},{"timestamp":2},{"timestamp":3,"stackId":0},{"timestamp":"bad"}]"#,
    );
    let mut seen = Vec::new();
    let error = for_each_sample(json.as_bytes(), |tables, sample| {
        assert_eq!(tables.stacks.len(), 1);
        assert!(tables.samples.is_empty());
        seen.push(sample.timestamp);
    })
    .unwrap_err();
    assert_eq!(seen, [1.0, 2.0, 3.0]);
    assert_eq!(error.path, "$.samples[3].timestamp");
}

#[test]
fn samples_before_tables_are_checked_after() {
    let json = r#"{"samples":[{"timestamp":1,"stackId":0}],"resources":[],"frames":[{"name":"f"}],"stacks":[]}"#;
    assert_eq!(
        error(json),
        "$.samples[0].stackId: 0 is out of range (the trace has 0 stacks)"
    );
}

#[test]
fn stack_depths_and_walk_survive_bad_tables() {
    let mut trace: ProfilerTrace = from_str(EXPLAINER).unwrap();
    assert_eq!(trace.stack_depths(), [Some(1), Some(2), Some(3)]);
    trace.stacks[0].parent_id = Some(2); // a cycle, built by hand
    assert_eq!(trace.stack_depths(), [None, None, None]);
    assert_eq!(trace.stack_frames(2).count(), 3); // bounded
    trace.stacks[0].parent_id = Some(99);
    assert_eq!(trace.stack_frames(2).count(), 3);
}

/// Timestamps parse correctly rounded (serde_json's `float_roundtrip`), so
/// a trace survives reading and writing unchanged. Found by the fuzzer:
/// 1601.90499993093041 read as 1601.904999930931, written, and read back
/// as 1601.9049999309307.
#[test]
fn timestamps_round_trip_exactly() {
    for text in [
        "1601.90499993093041",
        "1551.73499998637",
        "0.1",
        "643.7000000000001",
    ] {
        let json = format!(
            r#"{{"resources":[],"frames":[],"stacks":[],"samples":[{{"timestamp":{text}}}]}}"#
        );
        let trace = from_str(&json).unwrap();
        assert_eq!(
            trace.samples[0].timestamp,
            text.parse::<f64>().unwrap(),
            "{text}"
        );
        let again = from_str(&serde_json::to_string(&trace).unwrap()).unwrap();
        assert_eq!(again, trace);
    }
}

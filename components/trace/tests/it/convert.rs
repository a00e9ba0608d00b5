//! Every format from both fixtures, checked against the format's published
//! schema or documentation where no consumer runs in `cargo test`
//! (Firefox's Gecko format, Sentry's sample format, folded stacks, SVG), and
//! the combiner, the report and source maps.

use std::collections::BTreeMap;
use std::io::Read;

use crate::common::{fixtures, profile, self_samples};
use jsprof_trace::convert::{self, Format};
use jsprof_trace::{from_slice, Combiner, Mode, ProfilerTrace};
use serde_json::Value;

fn output(trace: &ProfilerTrace, format: Format) -> Vec<u8> {
    let mut out = Vec::new();
    convert::write(&profile(trace), format, &mut out).unwrap();
    out
}

fn json(trace: &ProfilerTrace, format: Format) -> Value {
    serde_json::from_slice(&output(trace, format)).unwrap()
}

#[test]
fn every_fixture_converts_to_every_format() {
    for (name, trace) in fixtures() {
        assert!(trace.samples.len() > 10, "{name}");
        for format in Format::ALL {
            assert!(!output(&trace, format).is_empty(), "{name} {format}");
        }
    }
}

/// The functions of each sample of the original trace, leaf first, as
/// `name (resource:line:column)` labels.
fn sample_labels(trace: &ProfilerTrace) -> Vec<Vec<String>> {
    trace
        .samples
        .iter()
        .map(|s| match s.stack_id {
            Some(id) => trace.stack_frames(id).map(|f| label(trace, f)).collect(),
            None => Vec::new(),
        })
        .collect()
}

fn label(trace: &ProfilerTrace, frame: u64) -> String {
    let f = &trace.frames[frame as usize];
    match (f.resource(&trace.resources), f.line, f.column) {
        (Some(r), Some(l), Some(c)) => format!("{} ({r}:{l}:{c})", f.display_name()),
        (Some(r), None, _) => format!("{} ({r})", f.display_name()),
        _ => f.display_name().to_owned(),
    }
}

/// The Gecko profile format as documented: schemas, every index in range,
/// JS frames located by `name (url:line:col)` with their line and column,
/// and each sample's stack (walked through `prefix`) naming the same
/// functions as the trace's sample, at the same time.
#[test]
fn firefox_gecko_profile_matches_the_documented_format() {
    for (name, trace) in fixtures() {
        let v = json(&trace, Format::Firefox);
        assert_eq!(v["meta"]["version"], 28);
        assert!(v["meta"]["interval"].as_f64().unwrap() > 0.0);
        let categories = v["meta"]["categories"].as_array().unwrap();
        let thread = &v["threads"][0];
        let strings = thread["stringTable"].as_array().unwrap();
        let schema = &thread["frameTable"]["schema"];
        let column_of = |key: &str| schema[key].as_u64().unwrap() as usize;
        let frames = thread["frameTable"]["data"].as_array().unwrap();
        let frame_labels: Vec<&str> = frames
            .iter()
            .map(|f| {
                let label = strings[f[column_of("location")].as_u64().unwrap() as usize]
                    .as_str()
                    .unwrap();
                // The line and column columns agree with the location.
                if let (Some(l), Some(c)) = (
                    f[column_of("line")].as_u64(),
                    f[column_of("column")].as_u64(),
                ) {
                    assert!(label.ends_with(&format!(":{l}:{c})")), "{label}");
                }
                assert!((f[column_of("category")].as_u64().unwrap() as usize) < categories.len());
                label
            })
            .collect();
        assert_eq!(thread["stackTable"]["schema"]["prefix"], 0);
        assert_eq!(thread["stackTable"]["schema"]["frame"], 1);
        let stacks = thread["stackTable"]["data"].as_array().unwrap();
        assert_eq!(thread["samples"]["schema"]["stack"], 0);
        assert_eq!(thread["samples"]["schema"]["time"], 1);
        let samples = thread["samples"]["data"].as_array().unwrap();
        assert_eq!(samples.len(), trace.samples.len(), "{name}");
        for ((s, original), want) in samples
            .iter()
            .zip(&trace.samples)
            .zip(sample_labels(&trace))
        {
            assert_eq!(s[1].as_f64(), Some(original.timestamp));
            let mut got = Vec::new();
            let mut stack = s[0].as_u64();
            while let Some(id) = stack {
                let entry = &stacks[id as usize];
                got.push(frame_labels[entry[1].as_u64().unwrap() as usize].to_owned());
                stack = entry[0].as_u64();
                assert!(got.len() <= stacks.len());
            }
            assert_eq!(got, want);
        }
    }
}

/// Sentry's sample format (the 002 seed): frames with function, file and
/// position; stacks leaf first naming the trace's functions; samples with
/// thread IDs and elapsed nanoseconds as strings; thread metadata for every
/// thread used.
#[test]
fn sentry_profile_matches_the_sample_format() {
    for (_, trace) in fixtures() {
        let v = json(&trace, Format::Sentry);
        assert_eq!(v["version"], "1");
        assert_eq!(v["platform"], "javascript");
        let id = v["event_id"].as_str().unwrap();
        assert!(
            id.len() == 32
                && id
                    .bytes()
                    .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        );
        for key in ["release", "device", "os", "transaction"] {
            assert!(!v[key].is_null(), "{key}");
        }
        let p = &v["profile"];
        let frames = p["frames"].as_array().unwrap();
        let frame_label = |f: &Value| match (
            f["abs_path"].as_str(),
            f["lineno"].as_u64(),
            f["colno"].as_u64(),
        ) {
            (Some(r), Some(l), Some(c)) => {
                format!("{} ({r}:{l}:{c})", f["function"].as_str().unwrap())
            }
            (Some(r), None, _) => format!("{} ({r})", f["function"].as_str().unwrap()),
            _ => f["function"].as_str().unwrap().to_owned(),
        };
        let stacks = p["stacks"].as_array().unwrap();
        let samples = p["samples"].as_array().unwrap();
        let want: Vec<(f64, Vec<String>)> = trace
            .samples
            .iter()
            .zip(sample_labels(&trace))
            .filter(|(s, _)| s.stack_id.is_some())
            .map(|(s, labels)| (s.timestamp, labels))
            .collect();
        assert_eq!(samples.len(), want.len());
        let start = trace.samples[0].timestamp;
        for (s, (timestamp, labels)) in samples.iter().zip(want) {
            let elapsed: u64 = s["elapsed_since_start_ns"]
                .as_str()
                .unwrap()
                .parse()
                .unwrap();
            assert_eq!(elapsed, ((timestamp - start) * 1e6).round() as u64);
            assert!(p["thread_metadata"][s["thread_id"].as_str().unwrap()].is_object());
            let stack = stacks[s["stack_id"].as_u64().unwrap() as usize]
                .as_array()
                .unwrap();
            let got: Vec<String> = stack
                .iter()
                .map(|f| frame_label(&frames[f.as_u64().unwrap() as usize]))
                .collect();
            assert_eq!(got, labels);
        }
    }
}

/// Folded stacks parse back to the same per-leaf counts.
#[test]
fn folded_counts_match_the_trace() {
    for (_, trace) in fixtures() {
        let text = String::from_utf8(output(&trace, Format::Folded)).unwrap();
        let mut counts: BTreeMap<String, u64> = BTreeMap::new();
        for line in text.lines() {
            let (stack, count) = line.rsplit_once(' ').unwrap();
            let leaf = stack.rsplit(';').next().unwrap();
            let name = leaf.split(" (").next().unwrap().to_owned();
            *counts.entry(name).or_default() += count.parse::<u64>().unwrap();
        }
        assert_eq!(counts, self_samples(&trace));
    }
}

/// The flame graph is an SVG with inferno's search and zoom script and a
/// title per function naming its resource, line and column.
#[test]
fn svg_flame_graph_has_titles_with_positions() {
    for (_, trace) in fixtures() {
        let svg = String::from_utf8(output(&trace, Format::Svg)).unwrap();
        assert!(svg.starts_with("<?xml") && svg.contains("<svg"));
        assert!(svg.contains("function search(") || svg.contains("search"));
        for f in &trace.frames {
            if let (Some(r), Some(l), Some(c)) = (f.resource(&trace.resources), f.line, f.column) {
                let title = format!("{} ({r}:{l}:{c})", f.display_name());
                assert!(svg.contains(&title.replace('&', "&amp;")), "{title}");
            }
        }
    }
}

#[test]
fn trace_format_round_trips() {
    for (_, trace) in fixtures() {
        let back = from_slice(&output(&trace, Format::Trace)).unwrap();
        assert_eq!(back.samples.len(), trace.samples.len());
        assert_eq!(self_samples(&back), self_samples(&trace));
    }
}

#[test]
fn pprof_is_gzipped_protobuf() {
    let (_, trace) = &fixtures()[0];
    let bytes = output(trace, Format::Pprof);
    assert_eq!(&bytes[..2], &[0x1f, 0x8b]);
    let mut raw = Vec::new();
    flate2::read::GzDecoder::new(&bytes[..])
        .read_to_end(&mut raw)
        .unwrap();
    let decoded = <convert::PprofProfile as prost::Message>::decode(&raw[..]).unwrap();
    assert_eq!(decoded, convert::encode_pprof(&profile(trace)));
    let total: i64 = decoded.sample.iter().map(|s| s.value[0]).sum();
    assert_eq!(total as usize, trace.samples.len());
}

#[test]
fn aggregate_and_timeline_combine_traces() {
    let fixtures = fixtures();
    let (_, a) = &fixtures[0];
    let (_, b) = &fixtures[1];
    let mut aggregate = Combiner::new(Mode::Aggregate, Some(1.0));
    let mut timeline = Combiner::new(Mode::Timeline, Some(1.0));
    for trace in [a, b, a] {
        let json = serde_json::to_vec(trace).unwrap();
        aggregate.add_reader(&json[..]).unwrap();
        timeline.add_reader(&json[..]).unwrap();
    }
    // An invalid trace adds nothing.
    assert!(aggregate.add_reader(&b"{\"resources\":[]}"[..]).is_err());
    let aggregate = aggregate.finish();
    let timeline = timeline.finish();
    let total = 2 * a.samples.len() + b.samples.len();
    assert_eq!(aggregate.traces, 3);
    assert_eq!(aggregate.total_weight() as usize, total);
    assert_eq!(timeline.samples.len(), total);
    // Timeline: traces one after another, in order.
    assert!(timeline
        .samples
        .windows(2)
        .all(|w| w[0].timestamp <= w[1].timestamp));
    // Both have the same per-leaf counts: twice a's plus b's.
    let mut want = self_samples(a);
    for v in want.values_mut() {
        *v *= 2;
    }
    for (k, v) in self_samples(b) {
        *want.entry(k).or_default() += v;
    }
    let mut out = Vec::new();
    convert::write(&aggregate, Format::Trace, &mut out).unwrap();
    assert_eq!(self_samples(&from_slice(&out).unwrap()), want);
    let mut out = Vec::new();
    convert::write(&timeline, Format::Trace, &mut out).unwrap();
    assert_eq!(self_samples(&from_slice(&out).unwrap()), want);
    // Samples per resource count leaf frames.
    let leaf_resource_samples: u64 = aggregate.samples_per_resource.iter().sum();
    assert!(leaf_resource_samples > 0 && leaf_resource_samples <= total as u64);
}

#[test]
fn report_has_both_trees_with_percentages() {
    let (_, trace) = &fixtures()[0];
    let report = jsprof_trace::report::call_trees(&profile(trace), &Default::default());
    let top_down = report.find("top-down").unwrap();
    let bottom_up = report.find("bottom-up").unwrap();
    assert!(top_down < bottom_up);
    // The first line of the bottom-up tree is the function with the most
    // self samples, and its self% equals its total%.
    let counts = self_samples(trace);
    let (best, best_count) = counts.iter().max_by_key(|(_, &c)| c).unwrap();
    let first = report[bottom_up..].lines().nth(2).unwrap();
    assert!(first.contains(best.as_str()), "{first}");
    let percent = 100.0 * *best_count as f64 / trace.samples.len() as f64;
    assert!(
        first
            .trim_start()
            .starts_with(&format!("{percent:.1} {percent:>6.1}")),
        "{first}"
    );
}

/// Markers (the markers extension) survive the combiner's timeline and
/// become Gecko interval markers: one per run of equal markers, from its
/// first sample to the next sample, in the matching category.
#[test]
fn firefox_profile_carries_sample_markers() {
    let trace = from_slice(
        br#"{"resources":[],"frames":[{"name":"f"}],"stacks":[{"frameId":0}],"samples":[
            {"timestamp":0,"stackId":0,"marker":"script"},
            {"timestamp":1,"stackId":0,"marker":"script"},
            {"timestamp":2,"stackId":0,"marker":"gc"},
            {"timestamp":3,"marker":"gc"},
            {"timestamp":4},
            {"timestamp":5,"marker":"other"}]}"#,
    )
    .unwrap();
    let p = profile(&trace);
    let markers: Vec<_> = p.samples.iter().map(|s| s.marker).collect();
    assert_eq!(
        markers,
        trace.samples.iter().map(|s| s.marker).collect::<Vec<_>>()
    );
    let v = json(&trace, Format::Firefox);
    let thread = &v["threads"][0];
    let strings = thread["stringTable"].as_array().unwrap();
    let categories = v["meta"]["categories"].as_array().unwrap();
    let data = thread["markers"]["data"].as_array().unwrap();
    let described: Vec<String> = data
        .iter()
        .map(|m| {
            format!(
                "{} {}-{} {} {}",
                strings[m[0].as_u64().unwrap() as usize].as_str().unwrap(),
                m[1],
                m[2],
                m[3],
                categories[m[4].as_u64().unwrap() as usize]["name"]
                    .as_str()
                    .unwrap()
            )
        })
        .collect();
    assert_eq!(
        described,
        [
            "script 0.0-2.0 1 JavaScript",
            "gc 2.0-4.0 1 GC / CC",
            format!("other 5.0-{:?} 1 Other", 5.0 + p.interval_ms).as_str(),
        ]
    );
}

/// Names that are only whitespace (a hostile or broken trace; the
/// fuzzer's input, 2026-11-25): every format is still written, and the
/// flame graph draws the stack (inferno trims a folded line, and
/// `      1`, a one-frame stack named five spaces, had no stack left).
#[test]
fn blank_names_convert_to_every_format() {
    let trace = from_slice(
        br#"{"resources": [], "frames": [{"name": "     ", "line": 23, "column": 400}, {"name": " ;\t"}],
             "stacks": [{"frameId": 0}, {"frameId": 0, "parentId": 0}, {"frameId": 1, "parentId": 1}],
             "samples": [{"timestamp": 1.0, "stackId": 0}, {"timestamp": 3.0}]}"#,
    )
    .unwrap();
    for format in Format::ALL {
        assert!(!output(&trace, format).is_empty(), "{format}");
    }
    let svg = String::from_utf8(output(&trace, Format::Svg)).unwrap();
    assert!(svg.contains("1 samples with script running"), "{svg}");
    assert!(!svg.contains("no samples"), "{svg}");
}

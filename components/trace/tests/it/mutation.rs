//! A fixed-budget mutation test of the reader (a poor man's fuzzer that
//! runs in `cargo test`; `fuzz/` has the cargo-fuzz target): mutated traces
//! never panic; whatever is accepted satisfies every invariant and converts
//! to every format.

use jsprof_trace::convert::{self, Format};
use jsprof_trace::testing::{random_trace, Rng};
use jsprof_trace::{from_slice, Profile, ProfilerTrace};

const TOKENS: &[&str] = &[
    "-1",
    "0",
    "1",
    "null",
    "true",
    "1e999",
    "-0",
    "1.5",
    "\"x\"",
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "\"stackId\":",
    "\"parentId\":0,",
    "\"frameId\":",
    "18446744073709551616",
    "\"\\u0000\"",
    "\"timestamp\":-5,",
];

fn mutate(rng: &mut Rng, input: &[u8]) -> Vec<u8> {
    let mut out = input.to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(out.len() as u64 + 1) as usize;
        match rng.below(5) {
            0 if !out.is_empty() => {
                let at = at.min(out.len() - 1);
                out[at] = rng.below(256) as u8;
            }
            1 => {
                let end = (at + 1 + rng.below(8) as usize).min(out.len());
                out.drain(at..end);
            }
            2 => {
                let token = TOKENS[rng.below(TOKENS.len() as u64) as usize];
                out.splice(at..at, token.bytes());
            }
            3 => {
                // Replace a number with another.
                if let Some(pos) = out[at..].iter().position(u8::is_ascii_digit) {
                    let pos = at + pos;
                    out[pos] = b"0123456789"[rng.below(10) as usize];
                }
            }
            _ => {
                let end = (at + rng.below(16) as usize).min(out.len());
                let copy = out[at..end].to_vec();
                out.splice(at..at, copy);
            }
        }
    }
    out
}

fn check_invariants(trace: &ProfilerTrace) {
    for f in &trace.frames {
        if let Some(r) = f.resource_id {
            assert!(r < trace.resources.len() as u64);
        }
    }
    for s in &trace.stacks {
        assert!(s.frame_id < trace.frames.len() as u64);
    }
    assert!(trace.stack_depths().iter().all(Option::is_some));
    for pair in trace.samples.windows(2) {
        assert!(pair[0].timestamp <= pair[1].timestamp);
    }
    for s in &trace.samples {
        assert!(s.timestamp.is_finite());
        if let Some(id) = s.stack_id {
            assert!(id < trace.stacks.len() as u64);
        }
    }
}

#[test]
fn mutated_traces_never_panic_and_accepted_ones_are_valid() {
    let mut rng = Rng::new(18);
    let seeds: Vec<Vec<u8>> = vec![
        include_bytes!("../data/explainer.json").to_vec(),
        serde_json::to_vec(&random_trace(&mut rng, 2, 6, 12, 10.0)).unwrap(),
        serde_json::to_vec(&random_trace(&mut rng, 1, 3, 5, 1.0)).unwrap(),
    ];
    let (mut accepted, mut rejected) = (0, 0);
    for i in 0..20_000 {
        let input = mutate(&mut rng, &seeds[i % seeds.len()]);
        match from_slice(&input) {
            Ok(trace) => {
                accepted += 1;
                check_invariants(&trace);
                let profile = Profile::from_trace(&trace, None);
                for format in Format::ALL {
                    let mut out = Vec::new();
                    convert::write(&profile, format, &mut out).unwrap();
                }
            }
            Err(error) => {
                rejected += 1;
                let text = error.to_string();
                assert!(text.starts_with('$') && !text.contains('\n'), "{text}");
            }
        }
    }
    // Both paths were exercised.
    assert!(
        accepted > 100 && rejected > 1000,
        "{accepted} accepted, {rejected} rejected"
    );
}

#[test]
fn generated_traces_round_trip() {
    let mut rng = Rng::new(7);
    for _ in 0..50 {
        let trace = random_trace(&mut rng, 3, 20, 200, 1.0);
        let json = serde_json::to_vec(&trace).unwrap();
        assert_eq!(from_slice(&json).unwrap(), trace);
    }
}

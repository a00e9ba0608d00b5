//! Google's pprof format: a gzip-compressed `profile.proto`, written with
//! hand-written prost messages (no protoc).
//! <https://github.com/google/pprof/blob/main/proto/profile.proto>

use std::collections::HashMap;
use std::io::{self, Write};

use prost::Message;

use super::{resource, IDLE};
use crate::Profile;

/// `perftools.profiles.Profile` (the fields written).
#[derive(Clone, PartialEq, Message)]
pub struct PprofProfile {
    #[prost(message, repeated, tag = "1")]
    pub sample_type: Vec<ValueType>,
    #[prost(message, repeated, tag = "2")]
    pub sample: Vec<Sample>,
    #[prost(message, repeated, tag = "4")]
    pub location: Vec<Location>,
    #[prost(message, repeated, tag = "5")]
    pub function: Vec<Function>,
    #[prost(string, repeated, tag = "6")]
    pub string_table: Vec<String>,
    #[prost(int64, tag = "9")]
    pub time_nanos: i64,
    #[prost(int64, tag = "10")]
    pub duration_nanos: i64,
    #[prost(message, optional, tag = "11")]
    pub period_type: Option<ValueType>,
    #[prost(int64, tag = "12")]
    pub period: i64,
    #[prost(int64, tag = "14")]
    pub default_sample_type: i64,
}

/// `perftools.profiles.ValueType`.
#[derive(Clone, PartialEq, Message)]
pub struct ValueType {
    #[prost(int64, tag = "1")]
    pub r#type: i64,
    #[prost(int64, tag = "2")]
    pub unit: i64,
}

/// `perftools.profiles.Sample`.
#[derive(Clone, PartialEq, Message)]
pub struct Sample {
    /// Leaf first.
    #[prost(uint64, repeated, tag = "1")]
    pub location_id: Vec<u64>,
    #[prost(int64, repeated, tag = "2")]
    pub value: Vec<i64>,
}

/// `perftools.profiles.Location`.
#[derive(Clone, PartialEq, Message)]
pub struct Location {
    #[prost(uint64, tag = "1")]
    pub id: u64,
    #[prost(message, repeated, tag = "4")]
    pub line: Vec<Line>,
}

/// `perftools.profiles.Line`.
#[derive(Clone, PartialEq, Message)]
pub struct Line {
    #[prost(uint64, tag = "1")]
    pub function_id: u64,
    #[prost(int64, tag = "2")]
    pub line: i64,
    #[prost(int64, tag = "3")]
    pub column: i64,
}

/// `perftools.profiles.Function`.
#[derive(Clone, PartialEq, Message)]
pub struct Function {
    #[prost(uint64, tag = "1")]
    pub id: u64,
    #[prost(int64, tag = "2")]
    pub name: i64,
    #[prost(int64, tag = "3")]
    pub system_name: i64,
    #[prost(int64, tag = "4")]
    pub filename: i64,
    #[prost(int64, tag = "5")]
    pub start_line: i64,
}

/// The profile as a `profile.proto` message (not compressed): sample types
/// `samples/count` and `cpu/nanoseconds` (the sample's weight times the
/// interval), period type `cpu/nanoseconds` with the interval as period,
/// one function and one location per frame (line and column of the
/// function's definition), one pprof sample per distinct stack with the
/// summed weights. Samples without a stack are a `(idle)` location.
pub fn encode_pprof(profile: &Profile) -> PprofProfile {
    let t = &profile.tables;
    let mut strings = vec![String::new()];
    let mut string_ids: HashMap<String, i64> = HashMap::new();
    let mut intern = |s: &str| -> i64 {
        if s.is_empty() {
            return 0;
        }
        *string_ids.entry(s.to_owned()).or_insert_with(|| {
            strings.push(s.to_owned());
            strings.len() as i64 - 1
        })
    };
    let interval_ns = (profile.interval_ms * 1e6).round() as i64;
    let sample_type = vec![
        ValueType {
            r#type: intern("samples"),
            unit: intern("count"),
        },
        ValueType {
            r#type: intern("cpu"),
            unit: intern("nanoseconds"),
        },
    ];
    let period_type = Some(sample_type[1].clone());
    let mut functions = Vec::with_capacity(t.frames.len() + 1);
    let mut locations = Vec::with_capacity(t.frames.len() + 1);
    for (i, f) in t.frames.iter().enumerate() {
        let id = i as u64 + 1;
        let name = intern(f.display_name());
        functions.push(Function {
            id,
            name,
            system_name: name,
            filename: intern(resource(profile, f).unwrap_or("")),
            start_line: f.line.unwrap_or(0) as i64,
        });
        locations.push(Location {
            id,
            line: vec![Line {
                function_id: id,
                line: f.line.unwrap_or(0) as i64,
                column: f.column.unwrap_or(0) as i64,
            }],
        });
    }
    let idle_id = t.frames.len() as u64 + 1;
    let idle_name = intern(IDLE);
    functions.push(Function {
        id: idle_id,
        name: idle_name,
        system_name: idle_name,
        filename: 0,
        start_line: 0,
    });
    locations.push(Location {
        id: idle_id,
        line: vec![Line {
            function_id: idle_id,
            line: 0,
            column: 0,
        }],
    });
    let mut weights: HashMap<Option<u64>, u64> = HashMap::new();
    for s in &profile.samples {
        *weights.entry(s.stack_id).or_default() += s.weight;
    }
    let mut by_stack: Vec<(Option<u64>, u64)> = weights.into_iter().collect();
    by_stack.sort();
    let sample = by_stack
        .into_iter()
        .map(|(stack, weight)| Sample {
            location_id: match stack {
                Some(id) => t.stack_frames(id).map(|f| f + 1).collect(),
                None => vec![idle_id],
            },
            value: vec![weight as i64, weight as i64 * interval_ns],
        })
        .collect();
    let start_ms = profile.samples.first().map_or(0.0, |s| s.timestamp);
    PprofProfile {
        sample_type,
        sample,
        location: locations,
        function: functions,
        string_table: strings,
        time_nanos: 0,
        duration_nanos: ((profile.end_ms() - start_ms) * 1e6).round() as i64,
        period_type,
        period: interval_ns,
        default_sample_type: 0,
    }
}

/// Writes the profile as gzip-compressed `profile.proto` ([`encode_pprof`]),
/// the form `go tool pprof`, Pyroscope and Parca read.
pub fn write_pprof(profile: &Profile, out: &mut dyn Write) -> io::Result<()> {
    let bytes = encode_pprof(profile).encode_to_vec();
    let mut gz = flate2::write::GzEncoder::new(out, flate2::Compression::default());
    gz.write_all(&bytes)?;
    gz.finish()?.flush()
}

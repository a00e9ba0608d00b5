//! Google's pprof format: a gzip-compressed `profile.proto`, written with
//! hand-written prost messages (no protoc).
//! <https://github.com/google/pprof/blob/main/proto/profile.proto>

use std::collections::HashMap;
use std::io::{self, Write};

use prost::bytes::{Buf, BufMut};
use prost::encoding::{self, DecodeContext, WireType};
use prost::{DecodeError, Message};

use super::{resource, IDLE};
use crate::Profile;

/// Implements `prost::Message` for a hand-written struct from its field
/// list (`tag kind name`), as prost's derive would. (The derive itself is
/// not used: its proc-macro crate turns on features of a build dependency
/// of SpiderMonkey's bindings and would rebuild SpiderMonkey.) Kinds:
/// `int64`, `uint64` (proto3 scalars, left out when zero), `packed_uint64`,
/// `packed_int64` (repeated, packed), `strings` (repeated string),
/// `messages` (repeated message), `message` (optional message).
macro_rules! message {
    ($name:ident { $($tag:literal $kind:ident $field:ident),* $(,)? }) => {
        impl Message for $name {
            fn encode_raw(&self, buf: &mut impl BufMut) {
                $( field!(encode $kind $tag, self.$field, buf); )*
            }

            fn merge_field(
                &mut self,
                tag: u32,
                wire_type: WireType,
                buf: &mut impl Buf,
                ctx: DecodeContext,
            ) -> Result<(), DecodeError> {
                match tag {
                    $( $tag => field!(merge $kind, self.$field, wire_type, buf, ctx), )*
                    _ => encoding::skip_field(wire_type, tag, buf, ctx),
                }
            }

            fn encoded_len(&self) -> usize {
                0 $( + field!(len $kind $tag, self.$field) )*
            }

            fn clear(&mut self) {
                *self = Self::default();
            }
        }
    };
}

macro_rules! field {
    (encode int64 $tag:literal, $v:expr, $buf:ident) => {
        if $v != 0 {
            encoding::int64::encode($tag, &$v, $buf)
        }
    };
    (encode uint64 $tag:literal, $v:expr, $buf:ident) => {
        if $v != 0 {
            encoding::uint64::encode($tag, &$v, $buf)
        }
    };
    (encode packed_uint64 $tag:literal, $v:expr, $buf:ident) => {
        encoding::uint64::encode_packed($tag, &$v, $buf)
    };
    (encode packed_int64 $tag:literal, $v:expr, $buf:ident) => {
        encoding::int64::encode_packed($tag, &$v, $buf)
    };
    (encode strings $tag:literal, $v:expr, $buf:ident) => {
        encoding::string::encode_repeated($tag, &$v, $buf)
    };
    (encode messages $tag:literal, $v:expr, $buf:ident) => {
        encoding::message::encode_repeated($tag, &$v, $buf)
    };
    (encode message $tag:literal, $v:expr, $buf:ident) => {
        if let Some(m) = &$v {
            encoding::message::encode($tag, m, $buf)
        }
    };
    (merge int64, $v:expr, $w:ident, $buf:ident, $ctx:ident) => {
        encoding::int64::merge($w, &mut $v, $buf, $ctx)
    };
    (merge uint64, $v:expr, $w:ident, $buf:ident, $ctx:ident) => {
        encoding::uint64::merge($w, &mut $v, $buf, $ctx)
    };
    (merge packed_uint64, $v:expr, $w:ident, $buf:ident, $ctx:ident) => {
        encoding::uint64::merge_repeated($w, &mut $v, $buf, $ctx)
    };
    (merge packed_int64, $v:expr, $w:ident, $buf:ident, $ctx:ident) => {
        encoding::int64::merge_repeated($w, &mut $v, $buf, $ctx)
    };
    (merge strings, $v:expr, $w:ident, $buf:ident, $ctx:ident) => {
        encoding::string::merge_repeated($w, &mut $v, $buf, $ctx)
    };
    (merge messages, $v:expr, $w:ident, $buf:ident, $ctx:ident) => {
        encoding::message::merge_repeated($w, &mut $v, $buf, $ctx)
    };
    (merge message, $v:expr, $w:ident, $buf:ident, $ctx:ident) => {
        encoding::message::merge($w, $v.get_or_insert_with(Default::default), $buf, $ctx)
    };
    (len int64 $tag:literal, $v:expr) => {
        if $v != 0 {
            encoding::int64::encoded_len($tag, &$v)
        } else {
            0
        }
    };
    (len uint64 $tag:literal, $v:expr) => {
        if $v != 0 {
            encoding::uint64::encoded_len($tag, &$v)
        } else {
            0
        }
    };
    (len packed_uint64 $tag:literal, $v:expr) => {
        encoding::uint64::encoded_len_packed($tag, &$v)
    };
    (len packed_int64 $tag:literal, $v:expr) => {
        encoding::int64::encoded_len_packed($tag, &$v)
    };
    (len strings $tag:literal, $v:expr) => {
        encoding::string::encoded_len_repeated($tag, &$v)
    };
    (len messages $tag:literal, $v:expr) => {
        encoding::message::encoded_len_repeated($tag, &$v)
    };
    (len message $tag:literal, $v:expr) => {
        $v.as_ref()
            .map_or(0, |m| encoding::message::encoded_len($tag, m))
    };
}

/// `perftools.profiles.Profile` (the fields written).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PprofProfile {
    /// What each of a sample's values measures.
    pub sample_type: Vec<ValueType>,
    /// The samples.
    pub sample: Vec<Sample>,
    /// The locations samples point to (one per frame).
    pub location: Vec<Location>,
    /// The functions locations point to.
    pub function: Vec<Function>,
    /// The strings the other fields index; the first is `""`.
    pub string_table: Vec<String>,
    /// When the profile starts, in nanoseconds since the Unix epoch.
    pub time_nanos: i64,
    /// How long the profile is, in nanoseconds.
    pub duration_nanos: i64,
    /// What the period counts.
    pub period_type: Option<ValueType>,
    /// The time between two samples, in units of `period_type`.
    pub period: i64,
    /// The index in `string_table` of the sample type shown by default.
    pub default_sample_type: i64,
}

message!(PprofProfile {
    1 messages sample_type,
    2 messages sample,
    4 messages location,
    5 messages function,
    6 strings string_table,
    9 int64 time_nanos,
    10 int64 duration_nanos,
    11 message period_type,
    12 int64 period,
    14 int64 default_sample_type,
});

/// `perftools.profiles.ValueType`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ValueType {
    /// The index in `string_table` of what is measured (`samples`).
    pub r#type: i64,
    /// The index in `string_table` of its unit (`count`).
    pub unit: i64,
}

message!(ValueType { 1 int64 r#type, 2 int64 unit });

/// `perftools.profiles.Sample`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Sample {
    /// Leaf first.
    pub location_id: Vec<u64>,
    /// One value per `sample_type`.
    pub value: Vec<i64>,
}

message!(Sample { 1 packed_uint64 location_id, 2 packed_int64 value });

/// `perftools.profiles.Location`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Location {
    /// The ID samples use (nonzero).
    pub id: u64,
    /// The function and position of the location.
    pub line: Vec<Line>,
}

message!(Location { 1 uint64 id, 4 messages line });

/// `perftools.profiles.Line`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Line {
    /// The [`Function`]'s ID.
    pub function_id: u64,
    /// 1-based; 0 when unknown.
    pub line: i64,
    /// 1-based; 0 when unknown.
    pub column: i64,
}

message!(Line { 1 uint64 function_id, 2 int64 line, 3 int64 column });

/// `perftools.profiles.Function`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Function {
    /// The ID lines use (nonzero).
    pub id: u64,
    /// The index in `string_table` of the function's name.
    pub name: i64,
    /// The index in `string_table` of its system name (the name again).
    pub system_name: i64,
    /// The index in `string_table` of its script's URL.
    pub filename: i64,
    /// The line the function starts at (1-based; 0 when unknown).
    pub start_line: i64,
}

message!(Function {
    1 uint64 id,
    2 int64 name,
    3 int64 system_name,
    4 int64 filename,
    5 int64 start_line,
});

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
            start_line: to_i64(f.line.unwrap_or(0)),
        });
        locations.push(Location {
            id,
            line: vec![Line {
                function_id: id,
                line: to_i64(f.line.unwrap_or(0)),
                column: to_i64(f.column.unwrap_or(0)),
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
            value: vec![to_i64(weight), to_i64(weight).saturating_mul(interval_ns)],
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

/// `value` as an `int64` field, saturating (the format has no larger
/// integers; absurd inputs must not wrap).
fn to_i64(value: u64) -> i64 {
    i64::try_from(value).unwrap_or(i64::MAX)
}

/// Writes the profile as gzip-compressed `profile.proto` ([`encode_pprof`]),
/// the form `go tool pprof`, Pyroscope and Parca read.
pub fn write_pprof(profile: &Profile, out: &mut dyn Write) -> io::Result<()> {
    let bytes = encode_pprof(profile).encode_to_vec();
    let mut gz = flate2::write::GzEncoder::new(out, flate2::Compression::default());
    gz.write_all(&bytes)?;
    gz.finish()?.flush()
}

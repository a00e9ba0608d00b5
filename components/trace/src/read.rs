//! A strict, streaming reader for `ProfilerTrace` JSON.
//!
//! The JSON text is never held whole: it is read through [`std::io::Read`]
//! into the model (frames and stacks, at most a few dozen bytes each), and
//! samples can be handed to a callback one by one instead of being stored
//! ([`for_each_sample`]) when `samples` comes after the tables (the order
//! browsers and this crate write). Every error is one line naming the JSON
//! path of the offending value (`$.samples[3].stackId: ...`).

use std::cell::RefCell;
use std::fmt;
use std::io::Read;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use crate::model::{
    stack_depths, ProfilerFrame, ProfilerMarker, ProfilerSample, ProfilerStack, ProfilerTrace,
};

/// Why a trace was rejected: the JSON path of the offending value and what
/// is wrong with it, on one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// A JSONPath to the offending value, like `$.stacks[12].parentId`.
    pub path: String,
    /// What is wrong, with the input's line and column when the error was
    /// found while parsing.
    pub message: String,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

impl std::error::Error for Error {}

/// Reads and validates a trace from `reader` (buffer it: the reader is read
/// in small pieces).
pub fn from_reader<R: Read>(reader: R) -> Result<ProfilerTrace, Error> {
    let mut samples = Vec::new();
    let mut trace = for_each_sample(reader, |_, sample| samples.push(sample))?;
    trace.samples = samples;
    Ok(trace)
}

/// Reads and validates a trace from bytes.
pub fn from_slice(bytes: &[u8]) -> Result<ProfilerTrace, Error> {
    from_reader(bytes)
}

/// Reads and validates a trace from a string.
pub fn from_str(text: &str) -> Result<ProfilerTrace, Error> {
    from_slice(text.as_bytes())
}

/// Reads and validates a trace, handing each sample, in order and already
/// validated, to `on_sample` together with the trace's tables (resources,
/// frames and stacks; its `samples` is empty). Returns the tables.
///
/// When the input's `samples` member comes after the three tables, samples
/// are never stored, so memory does not grow with their number; otherwise
/// they are kept until the tables are known.
pub fn for_each_sample<R: Read, F: FnMut(&ProfilerTrace, ProfilerSample)>(
    reader: R,
    on_sample: F,
) -> Result<ProfilerTrace, Error> {
    let path = Path::default();
    let mut state = State {
        tables: ProfilerTrace::default(),
        seen: [false; 4],
        tables_checked: false,
        pending: Vec::new(),
        last_timestamp: f64::NEG_INFINITY,
        sample_index: 0,
        error: None,
        on_sample,
    };
    let mut de = serde_json::Deserializer::from_reader(reader);
    let result = TraceSeed {
        path: &path,
        state: &mut state,
    }
    .deserialize(&mut de)
    .and_then(|()| de.end());
    if let Some(error) = state.error.take() {
        return Err(error);
    }
    if let Err(error) = result {
        return Err(Error {
            path: path.render(),
            message: error.to_string(),
        });
    }
    for (member, seen) in MEMBERS.iter().zip(state.seen) {
        if !seen {
            return Err(Error {
                path: "$".into(),
                message: format!("the required member `{member}` is missing"),
            });
        }
    }
    state.check_tables()?;
    for sample in std::mem::take(&mut state.pending) {
        state.accept(sample)?;
    }
    Ok(state.tables)
}

const MEMBERS: [&str; 4] = ["resources", "frames", "stacks", "samples"];
const FRAME_MEMBERS: [&str; 4] = ["name", "resourceId", "line", "column"];
const STACK_MEMBERS: [&str; 2] = ["parentId", "frameId"];
const SAMPLE_MEMBERS: [&str; 3] = ["timestamp", "stackId", "marker"];

#[derive(Clone, Copy)]
enum Segment {
    Key(&'static str),
    Index(usize),
}

/// The path of the value being read; on an error it is left pointing at
/// the offending value.
#[derive(Default)]
struct Path(RefCell<Vec<Segment>>);

impl Path {
    fn push(&self, segment: Segment) {
        self.0.borrow_mut().push(segment);
    }

    fn pop(&self) {
        self.0.borrow_mut().pop();
    }

    fn render(&self) -> String {
        let mut out = String::from("$");
        for segment in self.0.borrow().iter() {
            match segment {
                Segment::Key(key) => {
                    out.push('.');
                    out.push_str(key);
                }
                Segment::Index(index) => out.push_str(&format!("[{index}]")),
            }
        }
        out
    }
}

fn at(path: impl Into<String>, message: impl Into<String>) -> Error {
    Error {
        path: path.into(),
        message: message.into(),
    }
}

struct State<F> {
    tables: ProfilerTrace,
    seen: [bool; 4],
    tables_checked: bool,
    pending: Vec<ProfilerSample>,
    last_timestamp: f64,
    sample_index: usize,
    /// A validation error found while streaming (reported instead of the
    /// parser's error it caused).
    error: Option<Error>,
    on_sample: F,
}

impl<F: FnMut(&ProfilerTrace, ProfilerSample)> State<F> {
    /// Checks every ID in the frames and stacks and that the stack trie has
    /// no cycle.
    fn check_tables(&mut self) -> Result<(), Error> {
        if self.tables_checked {
            return Ok(());
        }
        let t = &self.tables;
        for (i, frame) in t.frames.iter().enumerate() {
            if let Some(id) = frame.resource_id {
                if id >= t.resources.len() as u64 {
                    return Err(at(
                        format!("$.frames[{i}].resourceId"),
                        out_of_range(id, t.resources.len(), "resources"),
                    ));
                }
            }
        }
        for (i, stack) in t.stacks.iter().enumerate() {
            if stack.frame_id >= t.frames.len() as u64 {
                return Err(at(
                    format!("$.stacks[{i}].frameId"),
                    out_of_range(stack.frame_id, t.frames.len(), "frames"),
                ));
            }
            if let Some(parent) = stack.parent_id {
                if parent >= t.stacks.len() as u64 {
                    return Err(at(
                        format!("$.stacks[{i}].parentId"),
                        out_of_range(parent, t.stacks.len(), "stacks"),
                    ));
                }
            }
        }
        if let Err((index, _)) = stack_depths(&t.stacks) {
            return Err(at(
                format!("$.stacks[{index}].parentId"),
                "the parentId chain from this stack forms a cycle",
            ));
        }
        self.tables_checked = true;
        Ok(())
    }

    /// Validates one sample against the tables and the previous sample and
    /// hands it on.
    fn accept(&mut self, sample: ProfilerSample) -> Result<(), Error> {
        let index = self.sample_index;
        self.sample_index += 1;
        if !sample.timestamp.is_finite() {
            return Err(at(
                format!("$.samples[{index}].timestamp"),
                "not a finite number",
            ));
        }
        if sample.timestamp < self.last_timestamp {
            return Err(at(
                format!("$.samples[{index}].timestamp"),
                format!(
                    "{} is earlier than the previous sample's {} (samples must be in time order)",
                    sample.timestamp, self.last_timestamp
                ),
            ));
        }
        if let Some(id) = sample.stack_id {
            if id >= self.tables.stacks.len() as u64 {
                return Err(at(
                    format!("$.samples[{index}].stackId"),
                    out_of_range(id, self.tables.stacks.len(), "stacks"),
                ));
            }
        }
        self.last_timestamp = sample.timestamp;
        (self.on_sample)(&self.tables, sample);
        Ok(())
    }
}

fn out_of_range(id: u64, len: usize, what: &str) -> String {
    format!("{id} is out of range (the trace has {len} {what})")
}

/// Reads a member name as its index in `names` (`names.len()` if unknown)
/// without allocating.
struct KeySeed(&'static [&'static str]);

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = usize;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<usize, D::Error> {
        d.deserialize_str(self)
    }
}

impl Visitor<'_> for KeySeed {
    type Value = usize;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a member name")
    }
    fn visit_str<E: de::Error>(self, key: &str) -> Result<usize, E> {
        Ok(self
            .0
            .iter()
            .position(|k| *k == key)
            .unwrap_or(self.0.len()))
    }
}

/// Reads the next member value with its name on the path.
fn member<'de, A: MapAccess<'de>, T: de::Deserialize<'de>>(
    map: &mut A,
    path: &Path,
    key: &'static str,
) -> Result<T, A::Error> {
    path.push(Segment::Key(key));
    let value = map.next_value()?;
    path.pop();
    Ok(value)
}

/// Marks a member as seen, rejecting duplicates.
fn once<E: de::Error>(seen: &mut bool, path: &Path, key: &'static str) -> Result<(), E> {
    if *seen {
        path.push(Segment::Key(key));
        return Err(E::custom("duplicate member"));
    }
    *seen = true;
    Ok(())
}

struct TraceSeed<'p, 's, F> {
    path: &'p Path,
    state: &'s mut State<F>,
}

impl<'de, F: FnMut(&ProfilerTrace, ProfilerSample)> DeserializeSeed<'de> for TraceSeed<'_, '_, F> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de, F: FnMut(&ProfilerTrace, ProfilerSample)> Visitor<'de> for TraceSeed<'_, '_, F> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a ProfilerTrace object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let path = self.path;
        let state = self.state;
        while let Some(key) = map.next_key_seed(KeySeed(&MEMBERS))? {
            if key == MEMBERS.len() {
                map.next_value::<IgnoredAny>()?;
                continue;
            }
            once(&mut state.seen[key], path, MEMBERS[key])?;
            path.push(Segment::Key(MEMBERS[key]));
            match key {
                0 => state.tables.resources = map.next_value_seed(list(path, Item::String))?,
                1 => state.tables.frames = map.next_value_seed(list(path, Item::Frame))?,
                2 => state.tables.stacks = map.next_value_seed(list(path, Item::Stack))?,
                _ => {
                    // Stream the samples when the tables are complete.
                    if state.seen[..3].iter().all(|&s| s) {
                        if let Err(error) = state.check_tables() {
                            state.error = Some(error);
                            return Err(de::Error::custom("invalid trace"));
                        }
                    }
                    map.next_value_seed(SamplesSeed {
                        path,
                        state: &mut *state,
                    })?;
                }
            }
            path.pop();
        }
        Ok(())
    }
}

#[derive(Clone, Copy)]
enum Item {
    String,
    Frame,
    Stack,
}

/// Reads `resources`, `frames` or `stacks`.
struct ListSeed<'p, T>(&'p Path, Item, std::marker::PhantomData<T>);

fn list<T>(path: &Path, item: Item) -> ListSeed<'_, T> {
    ListSeed(path, item, std::marker::PhantomData)
}

/// One element of a list.
enum Element {
    String(String),
    Frame(ProfilerFrame),
    Stack(ProfilerStack),
}

trait FromElement: Sized {
    fn from_element(element: Element) -> Option<Self>;
}

impl FromElement for String {
    fn from_element(element: Element) -> Option<Self> {
        match element {
            Element::String(s) => Some(s),
            _ => None,
        }
    }
}

impl FromElement for ProfilerFrame {
    fn from_element(element: Element) -> Option<Self> {
        match element {
            Element::Frame(f) => Some(f),
            _ => None,
        }
    }
}

impl FromElement for ProfilerStack {
    fn from_element(element: Element) -> Option<Self> {
        match element {
            Element::Stack(s) => Some(s),
            _ => None,
        }
    }
}

impl<'de, T: FromElement> DeserializeSeed<'de> for ListSeed<'_, T> {
    type Value = Vec<T>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Vec<T>, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de, T: FromElement> Visitor<'de> for ListSeed<'_, T> {
    type Value = Vec<T>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
        let path = self.0;
        let mut out = Vec::new();
        loop {
            path.push(Segment::Index(out.len()));
            let element = match self.1 {
                Item::String => seq.next_element::<String>()?.map(Element::String),
                Item::Frame => seq.next_element_seed(FrameSeed(path))?.map(Element::Frame),
                Item::Stack => seq.next_element_seed(StackSeed(path))?.map(Element::Stack),
            };
            path.pop();
            match element.and_then(T::from_element) {
                Some(value) => out.push(value),
                None => return Ok(out),
            }
        }
    }
}

/// Reads one `ProfilerFrame`.
struct FrameSeed<'p>(&'p Path);

impl<'de> DeserializeSeed<'de> for FrameSeed<'_> {
    type Value = ProfilerFrame;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<ProfilerFrame, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for FrameSeed<'_> {
    type Value = ProfilerFrame;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a ProfilerFrame object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ProfilerFrame, A::Error> {
        let path = self.0;
        let mut seen = [false; 4];
        let mut name = None;
        let mut frame = ProfilerFrame {
            name: String::new(),
            resource_id: None,
            line: None,
            column: None,
        };
        while let Some(key) = map.next_key_seed(KeySeed(&FRAME_MEMBERS))? {
            if key == FRAME_MEMBERS.len() {
                map.next_value::<IgnoredAny>()?;
                continue;
            }
            let k = FRAME_MEMBERS[key];
            once(&mut seen[key], path, k)?;
            match key {
                0 => name = Some(member::<_, String>(&mut map, path, k)?),
                1 => frame.resource_id = Some(member(&mut map, path, k)?),
                2 => frame.line = Some(member(&mut map, path, k)?),
                _ => frame.column = Some(member(&mut map, path, k)?),
            }
        }
        frame.name =
            name.ok_or_else(|| de::Error::custom("the required member `name` is missing"))?;
        Ok(frame)
    }
}

/// Reads one `ProfilerStack`.
struct StackSeed<'p>(&'p Path);

impl<'de> DeserializeSeed<'de> for StackSeed<'_> {
    type Value = ProfilerStack;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<ProfilerStack, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for StackSeed<'_> {
    type Value = ProfilerStack;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a ProfilerStack object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ProfilerStack, A::Error> {
        let path = self.0;
        let mut seen = [false; 2];
        let mut parent_id = None;
        let mut frame_id = None;
        while let Some(key) = map.next_key_seed(KeySeed(&STACK_MEMBERS))? {
            if key == STACK_MEMBERS.len() {
                map.next_value::<IgnoredAny>()?;
                continue;
            }
            let k = STACK_MEMBERS[key];
            once(&mut seen[key], path, k)?;
            match key {
                0 => parent_id = Some(member(&mut map, path, k)?),
                _ => frame_id = Some(member(&mut map, path, k)?),
            }
        }
        Ok(ProfilerStack {
            parent_id,
            frame_id: frame_id
                .ok_or_else(|| de::Error::custom("the required member `frameId` is missing"))?,
        })
    }
}

/// Reads `samples`, streaming them to the state.
struct SamplesSeed<'p, 's, F> {
    path: &'p Path,
    state: &'s mut State<F>,
}

impl<'de, F: FnMut(&ProfilerTrace, ProfilerSample)> DeserializeSeed<'de>
    for SamplesSeed<'_, '_, F>
{
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de, F: FnMut(&ProfilerTrace, ProfilerSample)> Visitor<'de> for SamplesSeed<'_, '_, F> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let path = self.path;
        let state = self.state;
        let mut index = 0;
        loop {
            path.push(Segment::Index(index));
            let Some(sample) = seq.next_element_seed(SampleSeed(path))? else {
                path.pop();
                return Ok(());
            };
            path.pop();
            index += 1;
            if state.tables_checked {
                if let Err(error) = state.accept(sample) {
                    state.error = Some(error);
                    return Err(de::Error::custom("invalid trace"));
                }
            } else {
                state.pending.push(sample);
            }
        }
    }
}

/// Reads one `ProfilerSample`.
struct SampleSeed<'p>(&'p Path);

impl<'de> DeserializeSeed<'de> for SampleSeed<'_> {
    type Value = ProfilerSample;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<ProfilerSample, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for SampleSeed<'_> {
    type Value = ProfilerSample;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a ProfilerSample object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ProfilerSample, A::Error> {
        let path = self.0;
        let mut seen = [false; 3];
        let mut timestamp = None;
        let mut stack_id = None;
        let mut marker = None;
        while let Some(key) = map.next_key_seed(KeySeed(&SAMPLE_MEMBERS))? {
            if key == SAMPLE_MEMBERS.len() {
                map.next_value::<IgnoredAny>()?;
                continue;
            }
            let k = SAMPLE_MEMBERS[key];
            once(&mut seen[key], path, k)?;
            match key {
                0 => {
                    let value: f64 = member(&mut map, path, k)?;
                    if !value.is_finite() {
                        path.push(Segment::Key(k));
                        return Err(de::Error::custom("not a finite number"));
                    }
                    timestamp = Some(value);
                }
                1 => stack_id = Some(member(&mut map, path, k)?),
                _ => {
                    path.push(Segment::Key(k));
                    let name: String = map.next_value()?;
                    let Some(value) = ProfilerMarker::from_name(&name) else {
                        return Err(de::Error::custom(format!(
                            "unknown marker {name:?} (script, gc, style, layout, paint or other)"
                        )));
                    };
                    path.pop();
                    marker = Some(value);
                }
            }
        }
        Ok(ProfilerSample {
            timestamp: timestamp
                .ok_or_else(|| de::Error::custom("the required member `timestamp` is missing"))?,
            stack_id,
            marker,
        })
    }
}

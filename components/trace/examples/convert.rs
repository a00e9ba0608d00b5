//! Converts a `ProfilerTrace` JSON file to another format:
//!
//! ```sh
//! cargo run --release -p jsprof-trace --example convert -- trace.json speedscope > out.json
//! ```

use std::io::{BufReader, Write};

use jsprof_trace::convert::{self, Format};
use jsprof_trace::Profile;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [path, format] = args.as_slice() else {
        return Err("usage: convert TRACE.json FORMAT".into());
    };
    let format = Format::from_name(format).ok_or("unknown format")?;
    // The reader streams: the file is never held whole.
    let trace = jsprof_trace::from_reader(BufReader::new(std::fs::File::open(path)?))?;
    let profile = Profile::from_trace(&trace, None);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    convert::write(&profile, format, &mut out)?;
    out.flush()?;
    Ok(())
}

//! Aggregates every `*.json` trace of a directory into one pprof profile,
//! streaming (the library side of `jsprof merge`):
//!
//! ```sh
//! cargo run --release -p jsprof-trace --example merge -- DIR OUT.pb.gz
//! ```

use std::io::BufReader;

use jsprof_trace::convert::{self, Format};
use jsprof_trace::{Combiner, Mode};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [dir, out] = args.as_slice() else {
        return Err("usage: merge DIR OUT.pb.gz".into());
    };
    let mut paths: Vec<_> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    let mut combiner = Combiner::new(Mode::Aggregate, None);
    for path in &paths {
        let reader = BufReader::new(std::fs::File::open(path)?);
        if let Err(error) = combiner.add_reader(reader) {
            eprintln!("skipped {}: {error}", path.display());
        }
    }
    let profile = combiner.finish();
    let mut file = std::io::BufWriter::new(std::fs::File::create(out)?);
    convert::write(&profile, Format::Pprof, &mut file)?;
    eprintln!(
        "{} traces, {} samples, {} stacks",
        profile.traces,
        profile.total_weight(),
        profile.tables.stacks.len()
    );
    Ok(())
}

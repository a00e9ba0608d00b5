//! Writes N random valid traces (for `jsprof merge` measurements):
//!
//! ```sh
//! cargo run --release -p jsprof-trace --example generate -- DIR N [SAMPLES]
//! ```

use jsprof_trace::testing::{random_trace, Rng};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (dir, count) = match args.as_slice() {
        [dir, count, ..] => (dir, count.parse::<usize>()?),
        _ => return Err("usage: generate DIR N [SAMPLES]".into()),
    };
    let samples = args.get(2).map_or(Ok(1000), |s| s.parse())?;
    std::fs::create_dir_all(dir)?;
    let mut rng = Rng::new(2026);
    let mut bytes = 0;
    for i in 0..count {
        // 40 scripts and 400 functions across the site; each page view
        // runs a random part of them.
        let trace = random_trace(&mut rng, 40, 400, samples, 10.0);
        let json = serde_json::to_vec(&trace)?;
        bytes += json.len();
        std::fs::write(format!("{dir}/trace-{i:05}.json"), json)?;
    }
    eprintln!("wrote {count} traces, {} MB", bytes / 1_000_000);
    Ok(())
}

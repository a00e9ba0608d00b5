//! Benchmark: loading deeply nested documents (5,000 to 200,000 levels of
//! `<div>`) against flat documents with the same elements, interleaved in
//! the same run. Run with `./mach bench-parse`.
//!
//! For each size it prints the median, minimum and maximum load time of
//! the nested and of the flat document (fresh runtime each, parse and run
//! to idle), their ratio of medians, and the tree builder's element-name
//! lookups per element (the unit of its scope checks: constant when tree
//! building is linear in depth).

use std::rc::Rc;
use std::time::Instant;

use jsprof_script::loading::html_tree_builder::name_lookups;
use jsprof_script::JsRuntime;

const SIZES: [usize; 6] = [5_000, 10_000, 20_000, 50_000, 100_000, 200_000];
const ROUNDS: usize = 5;

fn nested(n: usize) -> String {
    "<!DOCTYPE html><body>".to_owned() + &"<div>".repeat(n) + &"</div>".repeat(n)
}

fn flat(n: usize) -> String {
    "<!DOCTYPE html><body>".to_owned() + &"<div></div>".repeat(n)
}

/// Seconds to load `file` and run it to idle, and the name lookups.
fn load(file: &std::path::Path) -> (f64, u64) {
    let url = url::Url::from_file_path(file).unwrap();
    let fetcher = jsprof_net::Fetcher::new(jsprof_net::NetConfig::default()).unwrap();
    let mut rt = JsRuntime::new().expect("runtime");
    let lookups = name_lookups();
    let start = Instant::now();
    rt.load_page(&url, Rc::new(fetcher)).expect("page loads");
    assert!(rt.run_until_idle(None));
    let seconds = start.elapsed().as_secs_f64();
    (seconds, name_lookups() - lookups)
}

fn summary(mut times: Vec<f64>) -> (f64, f64, f64) {
    times.sort_by(f64::total_cmp);
    (times[times.len() / 2], times[0], times[times.len() - 1])
}

fn main() {
    let dir = std::env::temp_dir().join(format!("jsprof-bench-parse-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    println!("depth     nested median [min-max] s    flat median [min-max] s    nested/flat  lookups/element");
    for n in SIZES {
        let nested_file = dir.join(format!("nested-{n}.html"));
        let flat_file = dir.join(format!("flat-{n}.html"));
        std::fs::write(&nested_file, nested(n)).unwrap();
        std::fs::write(&flat_file, flat(n)).unwrap();
        let (mut deep, mut wide) = (Vec::new(), Vec::new());
        let mut lookups = 0;
        for _ in 0..ROUNDS {
            let (t, l) = load(&nested_file);
            deep.push(t);
            lookups = l;
            wide.push(load(&flat_file).0);
        }
        let (dm, dlo, dhi) = summary(deep);
        let (fm, flo, fhi) = summary(wide);
        println!(
            "{n:>7}   {dm:>8.3} [{dlo:.3}-{dhi:.3}]        {fm:>8.3} [{flo:.3}-{fhi:.3}]        x{:<10.2} {:.1}",
            dm / fm,
            lookups as f64 / n as f64
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

//! Generators for tests, fuzzing and benchmarks (not part of the stable
//! API).

use crate::{ProfilerFrame, ProfilerTrace, TraceBuilder};

/// A small deterministic PRNG (xorshift64*), so that generated inputs are
/// reproducible from a seed.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed` (any value).
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number below `n` (`n` > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }
}

/// A valid random trace of a site: `functions` functions over `scripts`
/// scripts, where every function calls two fixed others (a call graph the
/// same for every trace made with the same counts) and each of `samples`
/// samples, `interval_ms` apart, is a random walk of depth up to 10 from
/// one of five entry points; a tenth are idle. Distinct stacks therefore
/// saturate across traces, as in a site's real traces.
pub fn random_trace(
    rng: &mut Rng,
    scripts: usize,
    functions: usize,
    samples: usize,
    interval_ms: f64,
) -> ProfilerTrace {
    let functions = functions.max(1);
    let mut b = TraceBuilder::default();
    // The site's code: the same for every trace (its own generator).
    let mut site = Rng::new((scripts * 1_000_003 + functions) as u64);
    let frames: Vec<ProfilerFrame> = (0..functions)
        .map(|i| {
            let script = site.below(scripts as u64 + 1);
            let resource = (script < scripts as u64)
                .then(|| format!("https://example.com/js/script{script}.js"));
            ProfilerFrame {
                name: if i % 7 == 6 {
                    String::new()
                } else {
                    format!("fn{i}")
                },
                resource_id: resource.map(|r| b.resource_id(&r)),
                line: (script < scripts as u64).then(|| 1 + site.below(500)),
                column: (script < scripts as u64).then(|| 1 + site.below(80)),
            }
        })
        .collect();
    let callees: Vec<[usize; 2]> = (0..functions)
        .map(|_| {
            [
                site.below(functions as u64) as usize,
                site.below(functions as u64) as usize,
            ]
        })
        .collect();
    let mut time = 1000.0 * rng.below(10) as f64;
    for _ in 0..samples {
        time += interval_ms;
        if rng.below(10) == 0 {
            b.push_sample(time, None);
            continue;
        }
        let depth = 1 + rng.below(10);
        let mut function = rng.below(5.min(functions as u64)) as usize;
        let mut stack = None;
        for _ in 0..depth {
            let frame = b.frame_id(frames[function].clone());
            stack = Some(b.stack_id(stack, frame));
            function = callees[function][rng.below(2) as usize];
        }
        b.push_sample(time, stack);
    }
    b.finish()
}

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

/// A valid random trace: `functions` functions over `scripts` scripts,
/// `samples` samples of random call paths (depth up to 12) a `interval`
/// apart, a tenth of them idle.
pub fn random_trace(
    rng: &mut Rng,
    scripts: usize,
    functions: usize,
    samples: usize,
    interval_ms: f64,
) -> ProfilerTrace {
    let mut b = TraceBuilder::default();
    let frames: Vec<ProfilerFrame> = (0..functions)
        .map(|i| {
            let script = rng.below(scripts as u64 + 1);
            let resource_id = (script < scripts as u64)
                .then(|| b.resource_id(&format!("https://example.com/js/script{script}.js")));
            ProfilerFrame {
                name: if i % 7 == 6 { String::new() } else { format!("fn{i}") },
                resource_id,
                line: resource_id.map(|_| 1 + rng.below(500)),
                column: resource_id.map(|_| 1 + rng.below(80)),
            }
        })
        .collect();
    let mut time = 1000.0 * rng.below(10) as f64;
    for _ in 0..samples {
        time += interval_ms;
        if rng.below(10) == 0 {
            b.push_sample(time, None);
            continue;
        }
        let depth = 1 + rng.below(12);
        let mut stack = None;
        for level in 0..depth {
            // Few roots, more variety deeper down.
            let choices = (2 + level * 3).min(functions as u64);
            let frame = b.frame_id(frames[rng.below(choices) as usize].clone());
            stack = Some(b.stack_id(stack, frame));
        }
        b.push_sample(time, stack);
    }
    b.finish()
}

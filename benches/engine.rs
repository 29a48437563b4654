//! Criterion benchmarks of the engine (native only).
//!
//! `chain-3x3-timeouts-pool-100k` (the headline): 100,000 Poisson requests (1,000/s for
//! 100 s) through 3 layers × 3 attempts, each with a 25 ms per-try timeout, into a leaf
//! with a pool of 20 workers, exponential work (mean 4 ms) and a 50 % error rate; abandoned
//! work keeps its worker. What users' scenarios look like: timeouts and a bounded pool, on
//! the general engine. Reported in leaf attempts per second.
//!
//! `chain-3x3-1m`: about 1,000,000 requests (Poisson, 1,000/s for 1,000 s) through
//! client → gateway → order → payment, 3 attempts per layer, a leaf that fails half its
//! calls and holds each 10 ms, no timeouts, no backoff, unlimited workers. Throughput is
//! reported in leaf attempts per second (`cargo bench --bench engine`). The scenario only
//! retries, so it runs on the retry-chain kernel; the same run on the general engine
//! (identical report) is measured alongside for comparison.

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use criterion::{Criterion, Throughput};
    use resilience_lab::model::chain::{DEFAULT_MAX_CALLS, Engine, run_on, run_with};
    use resilience_lab::scenario::{Scenario, presets};
    use std::hint::black_box;
    use std::time::Duration;

    /// The scenario file the README's memory figure is measured with, too.
    pub const BENCH_SCENARIO: &str = include_str!("chain-3x3-1m.json");
    /// The headline scenario (a copy of `../shared/bench/`'s).
    pub const TIMEOUTS_POOL: &str = include_str!("chain-3x3-timeouts-pool-100k.json");

    pub fn engine(c: &mut Criterion) {
        let headline = Scenario::from_json(TIMEOUTS_POOL).expect("the headline scenario parses");
        let leaf_attempts = run_with(&headline, headline.seed, DEFAULT_MAX_CALLS)
            .expect("the headline scenario runs")
            .summary
            .downstream_attempts;
        let mut h = c.benchmark_group("timeouts-pool");
        h.sample_size(10).measurement_time(Duration::from_secs(10)).warm_up_time(Duration::from_secs(2));
        h.throughput(Throughput::Elements(leaf_attempts));
        h.bench_function("chain-3x3-timeouts-pool-100k (elements = leaf attempts)", |b| {
            b.iter(|| run_with(black_box(&headline), headline.seed, DEFAULT_MAX_CALLS).unwrap())
        });
        h.finish();

        let scenario = Scenario::from_json(BENCH_SCENARIO).expect("the bench scenario parses");
        let leaf_attempts = run_with(&scenario, scenario.seed, DEFAULT_MAX_CALLS)
            .expect("the bench scenario runs")
            .summary
            .downstream_attempts;
        let mut g = c.benchmark_group("chain");
        g.sample_size(10).measurement_time(Duration::from_secs(20)).warm_up_time(Duration::from_secs(2));
        g.throughput(Throughput::Elements(leaf_attempts));
        g.bench_function("chain-3x3-1m (elements = leaf attempts)", |b| {
            b.iter(|| run_with(black_box(&scenario), scenario.seed, DEFAULT_MAX_CALLS).unwrap())
        });
        g.bench_function("chain-3x3-1m, general engine (elements = leaf attempts)", |b| {
            b.iter(|| {
                run_on(black_box(&scenario), scenario.seed, DEFAULT_MAX_CALLS, Engine::General).unwrap()
            })
        });
        g.finish();

        // Every preset, as the browser reruns them on each slider move.
        let mut p = c.benchmark_group("presets");
        p.sample_size(10).measurement_time(Duration::from_secs(3)).warm_up_time(Duration::from_millis(500));
        for preset in presets::all() {
            let s = (preset.build)();
            p.bench_function(preset.name, |b| {
                b.iter(|| run_with(black_box(&s), s.seed, DEFAULT_MAX_CALLS).unwrap())
            });
        }
        p.finish();
    }
}

#[cfg(not(target_arch = "wasm32"))]
criterion::criterion_group!(benches, native::engine);
#[cfg(not(target_arch = "wasm32"))]
criterion::criterion_main!(benches);

#[cfg(target_arch = "wasm32")]
fn main() {}

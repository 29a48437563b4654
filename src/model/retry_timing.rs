//! Retry timing: the distribution of the wait before each attempt, sampled from the
//! backoff function the engines call (`policy::retry::BackoffUs::delay`, through
//! `model::chain::rules::retry_delay`), never from a second formula. A sequence is one
//! request's retries at one caller: the wait before attempt n + 1 is `delay(n, previous
//! wait, u)` with a fresh uniform `u`, as the engine draws it. What is left out, and said
//! so on the page: a server's Retry-After (the longer of the two wins) and the deadline
//! and retry-budget checks, which may stop a retry before its wait.
//!
//! The samples are drawn here, not counted in a run: they show the policy's shape with
//! 10,000 sequences whatever the run's load.

use crate::policy::retry::{BackoffUs, Jitter};
use crate::scenario::validate::MAX_ATTEMPTS;
use crate::sim::rng;

/// Sequences sampled per policy.
pub const SEQUENCES: usize = 10_000;
/// Bins of each histogram.
pub const BINS: usize = 40;

/// The waits before one attempt number.
#[derive(Clone, Debug, PartialEq)]
pub struct AttemptWaits {
    /// The attempt they precede (2 = the first retry).
    pub attempt: u32,
    /// Samples per bin; bin `i` covers `[i, i + 1) · axis_us / bins` (the last includes
    /// its upper edge).
    pub bins: Vec<u32>,
    /// Shortest sampled wait (µs).
    pub min_us: u64,
    /// Longest sampled wait (µs).
    pub max_us: u64,
    /// Mean sampled wait (µs).
    pub mean_us: f64,
    /// The wait before jitter, `base · 2^(n−1)` capped (µs).
    pub nominal_us: u64,
}

/// The sampled waits of one policy, every attempt on one axis.
#[derive(Clone, Debug, PartialEq)]
pub struct Timing {
    /// Upper edge of the histograms' axis (µs); 0 when every wait is 0.
    pub axis_us: u64,
    /// Sequences sampled.
    pub sequences: usize,
    /// Attempts 2..=max, in order.
    pub attempts: Vec<AttemptWaits>,
}

/// The longest wait the policy can draw before retry `n` (n ≥ 1), µs: the capped
/// exponential value, or for decorrelated jitter `min(cap, base · 3ⁿ)` (each draw is at
/// most three times the previous, starting from the base).
pub fn upper_bound(b: &BackoffUs, n: u32) -> u64 {
    match b.jitter {
        Jitter::Decorrelated => {
            let grown = b.base.saturating_mul(3u64.saturating_pow(n.min(40)));
            grown.min(b.cap)
        }
        _ => b.nominal(n),
    }
}

/// The axis every attempt of `attempts` (clamped to the validated range) fits on, µs.
pub fn axis_for(b: &BackoffUs, attempts: u32) -> u64 {
    let attempts = attempts.min(MAX_ATTEMPTS);
    (1..attempts).map(|n| upper_bound(b, n)).max().unwrap_or(0)
}

/// Samples `sequences` retry sequences of a policy making `attempts` attempts (clamped to
/// the validated range; fewer than 2 means no retry and an empty result) with the
/// uniform draws of `seed`, binned on its own axis.
pub fn sample(b: &BackoffUs, attempts: u32, sequences: usize, seed: u64, bins: usize) -> Timing {
    sample_on(b, attempts, sequences, seed, bins, axis_for(b, attempts))
}

/// [`sample`] on a given axis (µs), so that several policies can share one. Waits past the
/// axis land in the last bin.
pub fn sample_on(
    b: &BackoffUs,
    attempts: u32,
    sequences: usize,
    seed: u64,
    bins: usize,
    axis_us: u64,
) -> Timing {
    let attempts = attempts.min(MAX_ATTEMPTS);
    let bins = bins.max(1);
    let retries = attempts.saturating_sub(1) as usize;
    let mut out: Vec<AttemptWaits> = (0..retries)
        .map(|i| AttemptWaits {
            attempt: i as u32 + 2,
            bins: vec![0; bins],
            min_us: u64::MAX,
            max_us: 0,
            mean_us: 0.0,
            nominal_us: b.nominal(i as u32 + 1),
        })
        .collect();
    let mut sums = vec![0u128; retries];
    let mut draws = rng::fork(seed, "retry-timing");
    for _ in 0..sequences {
        let mut prev = 0;
        for (i, a) in out.iter_mut().enumerate() {
            // The engine skips the draw without jitter; the wait does not use it then.
            let u = if b.jitter == Jitter::None { 0.0 } else { draws.uniform() };
            let wait = b.delay(i as u32 + 1, prev, u);
            prev = wait;
            a.min_us = a.min_us.min(wait);
            a.max_us = a.max_us.max(wait);
            sums[i] += u128::from(wait);
            a.bins[bin_of(wait, axis_us, bins)] += 1;
        }
    }
    for (a, s) in out.iter_mut().zip(sums) {
        if sequences == 0 {
            a.min_us = 0;
        } else {
            a.mean_us = s as f64 / sequences as f64;
        }
    }
    Timing { axis_us, sequences, attempts: out }
}

/// The bin of a wait on an axis of `axis_us` split in `bins`.
fn bin_of(wait: u64, axis_us: u64, bins: usize) -> usize {
    if axis_us == 0 {
        return 0;
    }
    let i = u128::from(wait) * bins as u128 / u128::from(axis_us);
    (i as usize).min(bins - 1)
}

/// The jitter modes on one policy's base, cap and growth, sampled on one shared axis, in
/// the order none, full, equal, decorrelated; decorrelated only with exponential backoff
/// (the scenario rule: it grows from the previous wait, which a fixed one does not).
pub fn compare_jitter(
    b: &BackoffUs,
    attempts: u32,
    sequences: usize,
    seed: u64,
    bins: usize,
) -> Vec<(Jitter, Timing)> {
    let all = [Jitter::None, Jitter::Full, Jitter::Equal, Jitter::Decorrelated];
    let modes: Vec<Jitter> =
        all.into_iter().filter(|&j| b.exponential || j != Jitter::Decorrelated).collect();
    let with = |j: Jitter| BackoffUs { jitter: j, ..*b };
    let axis = modes.iter().map(|&j| axis_for(&with(j), attempts)).max().unwrap_or(0);
    modes.iter().map(|&j| (j, sample_on(&with(j), attempts, sequences, seed, bins, axis))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::retry::Backoff;

    fn exp(jitter: Jitter) -> BackoffUs {
        BackoffUs::new(Backoff::Exponential { base_ms: 50.0, cap_ms: 300.0 }, jitter)
    }

    fn filled(a: &AttemptWaits) -> usize {
        a.bins.iter().filter(|&&c| c > 0).count()
    }

    #[test]
    fn no_jitter_is_one_spike_at_the_exponential_value() {
        let t = sample(&exp(Jitter::None), 5, SEQUENCES, 1, BINS);
        assert_eq!(t.axis_us, 300_000);
        let spikes: Vec<u64> = t.attempts.iter().map(|a| a.min_us).collect();
        assert_eq!(spikes, vec![50_000, 100_000, 200_000, 300_000], "50 → 100 → 200 → 300 (capped)");
        for a in &t.attempts {
            assert_eq!((a.min_us, a.max_us, a.nominal_us), (a.nominal_us, a.nominal_us, a.min_us));
            assert_eq!(filled(a), 1, "attempt {}: a single bin", a.attempt);
            assert_eq!(a.bins.iter().sum::<u32>() as usize, SEQUENCES);
        }
        assert_eq!(t.attempts[0].bins[BINS * 50 / 300], SEQUENCES as u32, "the spike sits at 50 ms");
    }

    #[test]
    fn full_jitter_spreads_over_zero_to_the_capped_value() {
        let t = sample(&exp(Jitter::Full), 5, SEQUENCES, 1, BINS);
        let last = &t.attempts[3]; // t = cap = the whole axis
        assert!(last.max_us <= 300_000 && last.min_us < 3_000, "{last:?}");
        assert_eq!(filled(last), BINS, "every bin of [0, cap] is used");
        assert!((last.mean_us - 150_000.0).abs() < 4_500.0, "uniform: mean ≈ cap / 2, got {}", last.mean_us);
        let first = &t.attempts[0]; // [0, 50 ms]: the first sixth of the axis
        assert!(first.max_us <= 50_000);
        assert!(first.bins[..BINS * 50 / 300 + 1].iter().sum::<u32>() as usize == SEQUENCES);
    }

    #[test]
    fn equal_jitter_stays_in_the_upper_half() {
        let t = sample(&exp(Jitter::Equal), 5, SEQUENCES, 2, BINS);
        for a in &t.attempts {
            let d = a.nominal_us;
            assert!(
                a.min_us >= d / 2 && a.max_us <= d,
                "attempt {}: [{}, {}] in [d/2, d]",
                a.attempt,
                a.min_us,
                a.max_us
            );
            assert!((a.mean_us - 0.75 * d as f64).abs() < 0.02 * d as f64, "mean ≈ 3d/4");
        }
    }

    #[test]
    fn decorrelated_jitter_stays_within_base_and_three_times_the_previous() {
        let b = exp(Jitter::Decorrelated);
        let t = sample(&b, 6, SEQUENCES, 3, BINS);
        assert_eq!(t.axis_us, 300_000, "min(cap, 50 · 3ⁿ) reaches the cap");
        let first = &t.attempts[0];
        assert!(first.min_us >= 50_000 && first.max_us <= 150_000, "random(base, 3 · base): {first:?}");
        for a in &t.attempts {
            let n = a.attempt - 1;
            assert!(a.min_us >= 50_000 && a.max_us <= upper_bound(&b, n), "{a:?}");
        }
        // It sticks at the cap once saturated (the team's `../shared/docs/semantics.md`, Polly #530).
        let last = t.attempts.last().unwrap();
        assert!(last.bins[BINS - 1] as usize > SEQUENCES / 5, "a pile at the cap: {:?}", last.bins);
    }

    #[test]
    fn the_samples_are_the_engines_backoff_draws_and_reproducible() {
        let b = exp(Jitter::Full);
        assert_eq!(sample(&b, 4, 500, 9, BINS), sample(&b, 4, 500, 9, BINS));
        assert_ne!(sample(&b, 4, 500, 9, BINS), sample(&b, 4, 500, 10, BINS));
        // One sequence by hand, with the same draws and the policy's own function.
        let mut draws = rng::fork(9, "retry-timing");
        let u = draws.uniform();
        let t = sample(&b, 2, 1, 9, BINS);
        assert_eq!(t.attempts[0].min_us, b.delay(1, 0, u));
    }

    #[test]
    fn bad_or_degenerate_input_never_panics() {
        assert!(sample(&exp(Jitter::Full), 1, SEQUENCES, 1, BINS).attempts.is_empty(), "no retry");
        assert!(sample(&exp(Jitter::Full), 0, SEQUENCES, 1, BINS).attempts.is_empty());
        assert_eq!(sample(&exp(Jitter::Full), u32::MAX, 10, 1, BINS).attempts.len() as u32, MAX_ATTEMPTS - 1);
        let none = BackoffUs::new(Backoff::None {}, Jitter::Full);
        let t = sample(&none, 3, 100, 1, 0);
        assert_eq!(t.axis_us, 0);
        assert!(t.attempts.iter().all(|a| a.max_us == 0 && a.bins == vec![100]), "retries at once");
        let empty = sample(&exp(Jitter::Equal), 3, 0, 1, BINS);
        assert!(empty.attempts.iter().all(|a| a.min_us == 0 && a.mean_us == 0.0));
        let huge = BackoffUs::new(Backoff::Exponential { base_ms: 1e9, cap_ms: 1e12 }, Jitter::Decorrelated);
        assert!(sample(&huge, 10, 10, 1, BINS).axis_us > 0);
    }

    #[test]
    fn the_jitter_modes_share_one_axis() {
        let c = compare_jitter(&exp(Jitter::None), 4, 2_000, 1, BINS);
        let modes: Vec<Jitter> = c.iter().map(|x| x.0).collect();
        assert_eq!(modes, vec![Jitter::None, Jitter::Full, Jitter::Equal, Jitter::Decorrelated]);
        assert!(c.iter().all(|(_, t)| t.axis_us == 300_000));
        // A fixed wait has no decorrelated jitter (the scenario rule refuses it): three modes.
        let fixed = BackoffUs::new(Backoff::Fixed { ms: 20.0 }, Jitter::None);
        let modes: Vec<Jitter> = compare_jitter(&fixed, 3, 500, 1, BINS).iter().map(|x| x.0).collect();
        assert_eq!(modes, vec![Jitter::None, Jitter::Full, Jitter::Equal]);
    }
}

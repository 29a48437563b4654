//! Closed-form retry amplification and in-flight arithmetic (sources 000, 001, 002).
//!
//! This is the back-of-the-envelope calculation the source documents walk through before
//! any simulation: average and peak rate, the worst case in which every request exhausts
//! every layer's attempts, and Little's law for the connections those attempts hold. It is
//! an upper bound, not a forecast: real failures are partial, and past saturation Little's
//! law stops describing the system (work queues, times out or is rejected instead).

use crate::error::{FieldError, check_int, check_range};
use serde::{Deserialize, Serialize};

/// Seconds in a day, to turn a daily count into an average rate.
pub const SECONDS_PER_DAY: f64 = 86_400.0;
/// Most layers the calculator accepts (the chain model's limit too).
pub const MAX_LAYERS: usize = 8;
/// Most attempts (first included) one layer may make.
pub const MAX_ATTEMPTS: u32 = 10;

/// What the learner sets on the calculator page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CalcInput {
    /// Requests the entry receives in a day (requests/day).
    pub requests_per_day: f64,
    /// Peak rate divided by the daily average (×, at least 1).
    pub peak_factor: f64,
    /// Attempts each retrying layer makes per call, first attempt included, entry first.
    /// Its length is the number of layers (1–8).
    pub attempts: Vec<u32>,
    /// How long one downstream call holds a connection when the downstream is healthy (ms).
    pub hold_normal_ms: f64,
    /// How long one downstream call holds a connection when the downstream is degraded (ms).
    pub hold_degraded_ms: f64,
    /// Connections (or workers) the downstream pool offers (count).
    pub pool_size: u32,
    /// Size of one response (KiB, 1 KiB = 1024 bytes).
    pub response_kib: f64,
}

impl Default for CalcInput {
    /// Source 000's example: a product page calling recommendations calling user profiles.
    fn default() -> Self {
        CalcInput {
            requests_per_day: 8_640_000.0,
            peak_factor: 5.0,
            attempts: vec![3, 3],
            hold_normal_ms: 100.0,
            hold_degraded_ms: 800.0,
            pool_size: 200,
            response_kib: 8.0,
        }
    }
}

/// Allowed ranges, shared by validation, the sliders and the URL parser.
pub mod limits {
    /// requests/day
    pub const REQUESTS_PER_DAY: (f64, f64) = (1.0, 1e12);
    /// average req/s (the same range as requests/day, divided by 86,400)
    pub const AVG_RPS: (f64, f64) = (1.0 / 86_400.0, 1e12 / 86_400.0);
    /// ×
    pub const PEAK_FACTOR: (f64, f64) = (1.0, 100.0);
    /// ms
    pub const HOLD_MS: (f64, f64) = (0.1, 600_000.0);
    /// connections
    pub const POOL: (u64, u64) = (1, 10_000_000);
    /// KiB
    pub const RESPONSE_KIB: (f64, f64) = (0.01, 1_048_576.0);
}

/// In-flight demand by Little's law (L = λ·W) for one rate and one hold time.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct InFlight {
    /// Arrival rate used (req/s or attempts/s).
    pub rate_per_s: f64,
    /// Hold time used (ms).
    pub hold_ms: f64,
    /// L = rate × hold (connections).
    pub in_flight: f64,
    /// L ÷ the pool (fraction).
    pub pool_share: f64,
    /// Whether L reaches the pool, where the formula stops describing the system: at 100 %
    /// there is no steady state either (ρ ≥ 1, as the queue lab's capacity table says).
    pub saturated: bool,
    /// Below the pool, but at or above source 002's ceiling
    /// ([`SOURCE_002_CEILING`](crate::model::capacity::SOURCE_002_CEILING)) of it, where
    /// waits for a connection grow steeply.
    pub above_ceiling: bool,
}

/// Everything the calculator shows, each figure with the formula that produced it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CalcOutput {
    /// Daily requests / 86,400 (req/s).
    pub avg_rps: f64,
    /// Average × peak factor (req/s).
    pub peak_rps: f64,
    /// Product of every layer's attempts (×).
    pub amplification: f64,
    /// Rate reaching each level in the worst case, entry first, downstream last
    /// (length = layers + 1; req/s then attempts/s).
    pub rate_per_level: Vec<f64>,
    /// Peak × product of attempts: every request exhausts every layer (attempts/s).
    pub worst_attempts_per_s: f64,
    /// Healthy hold time, without amplification.
    pub normal_before: InFlight,
    /// Healthy hold time, with amplification.
    pub normal_after: InFlight,
    /// Degraded hold time, without amplification.
    pub degraded_before: InFlight,
    /// Degraded hold time, with amplification.
    pub degraded_after: InFlight,
    /// Payload at peak, in MB/s of 10^6 bytes.
    pub payload_mb_per_s: f64,
    /// True when any in-flight figure reaches the pool.
    pub any_saturated: bool,
}

/// Checks every field and names the first that is out of range.
pub fn validate(input: &CalcInput) -> Result<(), FieldError> {
    let (lo, hi) = limits::REQUESTS_PER_DAY;
    check_range("requests_per_day", input.requests_per_day, lo, hi)?;
    let (lo, hi) = limits::PEAK_FACTOR;
    check_range("peak_factor", input.peak_factor, lo, hi)?;
    check_int("layers", input.attempts.len() as u64, 1, MAX_LAYERS as u64)?;
    for (i, &a) in input.attempts.iter().enumerate() {
        check_int(&crate::error::item_field("attempts", i), u64::from(a), 1, u64::from(MAX_ATTEMPTS))?;
    }
    let (lo, hi) = limits::HOLD_MS;
    check_range("hold_normal_ms", input.hold_normal_ms, lo, hi)?;
    check_range("hold_degraded_ms", input.hold_degraded_ms, lo, hi)?;
    let (lo, hi) = limits::POOL;
    check_int("pool_size", u64::from(input.pool_size), lo, hi)?;
    let (lo, hi) = limits::RESPONSE_KIB;
    check_range("response_kib", input.response_kib, lo, hi)?;
    Ok(())
}

/// Little's law, computed as rate × ms / 1000 so that whole-millisecond inputs stay exact.
fn littles_law(rate_per_s: f64, hold_ms: f64, pool: u32) -> InFlight {
    let in_flight = rate_per_s * hold_ms / 1000.0;
    let pool_share = in_flight / f64::from(pool);
    let saturated = pool_share >= 1.0;
    let above_ceiling = !saturated && pool_share >= crate::model::capacity::SOURCE_002_CEILING;
    InFlight { rate_per_s, hold_ms, in_flight, pool_share, saturated, above_ceiling }
}

/// Runs the calculation. Pure: the page only displays what this returns.
pub fn compute(input: &CalcInput) -> Result<CalcOutput, FieldError> {
    validate(input)?;
    let avg_rps = input.requests_per_day / SECONDS_PER_DAY;
    let peak_rps = avg_rps * input.peak_factor;
    let mut rate_per_level = Vec::with_capacity(input.attempts.len() + 1);
    let mut rate = peak_rps;
    rate_per_level.push(rate);
    for &a in &input.attempts {
        rate *= f64::from(a);
        rate_per_level.push(rate);
    }
    let amplification: f64 = input.attempts.iter().map(|&a| f64::from(a)).product();
    let worst = rate;
    let normal_before = littles_law(peak_rps, input.hold_normal_ms, input.pool_size);
    let normal_after = littles_law(worst, input.hold_normal_ms, input.pool_size);
    let degraded_before = littles_law(peak_rps, input.hold_degraded_ms, input.pool_size);
    let degraded_after = littles_law(worst, input.hold_degraded_ms, input.pool_size);
    let any_saturated =
        [&normal_before, &normal_after, &degraded_before, &degraded_after].iter().any(|f| f.saturated);
    Ok(CalcOutput {
        avg_rps,
        peak_rps,
        amplification,
        rate_per_level,
        worst_attempts_per_s: worst,
        normal_before,
        normal_after,
        degraded_before,
        degraded_after,
        payload_mb_per_s: peak_rps * input.response_kib * 1024.0 / 1e6,
        any_saturated,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_attempts(attempts: Vec<u32>) -> CalcInput {
        CalcInput { attempts, ..CalcInput::default() }
    }

    #[test]
    fn rejects_out_of_range_with_the_field_name() {
        let e = compute(&with_attempts(vec![])).unwrap_err();
        assert_eq!(e.field, "layers");
        let e = compute(&with_attempts(vec![3, 11])).unwrap_err();
        assert_eq!((e.field.as_str(), e.value.as_str()), ("attempts #2", "11"));
        let bad = CalcInput { peak_factor: 0.5, ..CalcInput::default() };
        assert_eq!(compute(&bad).unwrap_err().field, "peak_factor");
        let bad = CalcInput { hold_normal_ms: f64::INFINITY, ..CalcInput::default() };
        assert_eq!(compute(&bad).unwrap_err().field, "hold_normal_ms");
    }
}

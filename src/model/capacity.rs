//! Capacity arithmetic with a safety ceiling (source 002).
//!
//! A fixed workload: arrival rate λ, a mean service time per request that holds one worker,
//! c workers and an admission ceiling (a share of the ideal capacity the operator is willing
//! to use). Two different "margins" come out of it and the source insists they are not the
//! same thing: headroom (capacity left above the ceiling) and the distance from current
//! traffic to the ceiling.

use crate::error::{FieldError, check_int, check_range};
use serde::{Deserialize, Serialize};

/// The workload and the pool.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CapacityInput {
    /// Arrival rate λ (req/s).
    pub arrival_rps: f64,
    /// Mean time one request holds one worker (ms).
    pub service_ms: f64,
    /// Workers c (count).
    pub workers: u32,
    /// Share of ideal capacity the operator admits (fraction, 0–1; 0.75 = 75 %).
    pub ceiling: f64,
    /// End-to-end time in system, queueing included, for the second Little's-law figure (ms).
    pub time_in_system_ms: f64,
}

/// Source 002's utilisation ceiling: the share of ideal capacity an operator admits, above
/// which waits grow steeply (fraction).
pub const SOURCE_002_CEILING: f64 = 0.75;

impl Default for CapacityInput {
    /// Source 002's example.
    fn default() -> Self {
        CapacityInput {
            arrival_rps: 120.0,
            service_ms: 40.0,
            workers: 8,
            ceiling: SOURCE_002_CEILING,
            time_in_system_ms: 100.0,
        }
    }
}

/// What the capacity card shows.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CapacityOutput {
    /// μ = 1000 / service_ms: what one worker completes per second (req/s).
    pub per_worker_rps: f64,
    /// c·μ: the ideal upper bound (req/s).
    pub ideal_rps: f64,
    /// ρ = λ / (c·μ) (fraction).
    pub utilisation: f64,
    /// ceiling × c·μ: what may be admitted (req/s).
    pub admit_rps: f64,
    /// c·μ − admitted: capacity kept in reserve (req/s).
    pub headroom_rps: f64,
    /// admitted − λ: how far current traffic is from the ceiling (req/s; negative = over).
    pub margin_to_ceiling_rps: f64,
    /// ceil(λ / (μ · ceiling)): fewest workers that keep λ under the ceiling (count).
    pub min_workers: u64,
    /// λ·W with W = service time: mean busy workers (count); at or above capacity every
    /// worker is busy, c (λ·W would count more busy workers than there are).
    pub busy_workers: f64,
    /// λ·W with W = time in system: mean requests in the system, waiting ones included;
    /// `None` at or above capacity, where no steady state and so no long-run mean exists,
    /// and when W is shorter than the service time (see `short_w`).
    pub in_system: Option<f64>,
    /// Whether the assumed time in system is shorter than the service time: a request
    /// spends at least its service time in the system, so λW would count fewer in the
    /// system than are busy.
    pub short_w: bool,
    /// Whether λ reaches c·μ, in which case no steady state exists.
    pub unstable: bool,
}

/// Checks every field and names the first that is out of range.
pub fn validate(input: &CapacityInput) -> Result<(), FieldError> {
    check_range("arrival_rps", input.arrival_rps, 0.0, 1e9)?;
    check_range("service_ms", input.service_ms, 0.001, 3_600_000.0)?;
    check_int("workers", u64::from(input.workers), 1, 1_000_000)?;
    check_range("ceiling", input.ceiling, 0.01, 1.0)?;
    check_range("time_in_system_ms", input.time_in_system_ms, 0.0, 3_600_000.0)?;
    Ok(())
}

/// Runs the arithmetic. Products are formed before divisions by 1000 so that whole inputs
/// give exact results.
pub fn compute(input: &CapacityInput) -> Result<CapacityOutput, FieldError> {
    validate(input)?;
    let per_worker_rps = 1000.0 / input.service_ms;
    let ideal_rps = f64::from(input.workers) * 1000.0 / input.service_ms;
    let admit_rps = ideal_rps * input.ceiling;
    let needed = input.arrival_rps / (per_worker_rps * input.ceiling);
    // Guard against 6.000000000001 turning into 7 workers: round to 9 decimals first.
    let needed = (needed * 1e9).round() / 1e9;
    // ρ ≥ 1 computed as the queue lab's `Pool::rho` computes it, so that the two tables
    // never disagree at the edge (λ ≥ cμ can round the other way).
    let offered = input.arrival_rps * input.service_ms / 1000.0;
    let unstable = offered / f64::from(input.workers) >= 1.0;
    let short_w = input.time_in_system_ms < input.service_ms;
    Ok(CapacityOutput {
        per_worker_rps,
        ideal_rps,
        // As `unstable` and the queue lab's ρ compute it, so that the three never disagree.
        utilisation: offered / f64::from(input.workers),
        admit_rps,
        headroom_rps: ideal_rps - admit_rps,
        margin_to_ceiling_rps: admit_rps - input.arrival_rps,
        min_workers: needed.ceil() as u64,
        busy_workers: if unstable { f64::from(input.workers) } else { offered },
        in_system: (!unstable && !short_w).then(|| input.arrival_rps * input.time_in_system_ms / 1000.0),
        short_w,
        unstable,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_time_in_system_shorter_than_the_service_gives_no_count() {
        // W = 10 ms against 40 ms of service: λW = 1.2 "in system" below 4.8 busy workers.
        let o = compute(&CapacityInput { time_in_system_ms: 10.0, ..CapacityInput::default() }).unwrap();
        assert!(o.short_w && o.in_system.is_none() && o.busy_workers == 4.8, "{o:?}");
        let o = compute(&CapacityInput { time_in_system_ms: 40.0, ..CapacityInput::default() }).unwrap();
        assert_eq!((o.short_w, o.in_system), (false, Some(4.8)), "W = the service time: no wait");
    }

    #[test]
    fn at_or_above_capacity_every_worker_is_busy_and_no_mean_is_in_the_system() {
        // The queue lab's overload preset: 210/s at 40 ms on 8 workers (ρ = 105 %). λ × 40 ms
        // would be 8.4 busy workers of 8.
        let over = CapacityInput { arrival_rps: 210.0, ..CapacityInput::default() };
        let o = compute(&over).unwrap();
        assert!(o.unstable);
        assert_eq!((o.busy_workers, o.in_system), (8.0, None));
        // At exactly c × μ too: no steady state.
        let at = compute(&CapacityInput { arrival_rps: 200.0, ..CapacityInput::default() }).unwrap();
        assert_eq!((at.unstable, at.busy_workers, at.in_system), (true, 8.0, None));
        // Below it, source 002's figures.
        let ok = compute(&CapacityInput::default()).unwrap();
        assert_eq!((ok.unstable, ok.busy_workers, ok.in_system), (false, 4.8, Some(12.0)));
        // At the edge the capacity table and the queue lab's closed forms agree (λ ≥ cμ and
        // ρ ≥ 1 computed two ways once disagreed here by a rounding step).
        for (service_ms, workers) in [(183.293, 1), (30.0, 15), (110.0, 11), (15.0, 15)] {
            let lambda = f64::from(workers) * 1000.0 / service_ms;
            let pool = crate::model::queueing::Pool { lambda, service_ms, workers };
            let o = compute(&CapacityInput {
                arrival_rps: lambda,
                service_ms,
                workers,
                ..CapacityInput::default()
            })
            .unwrap();
            assert_eq!(
                (o.unstable, o.utilisation),
                (!pool.stable(), pool.rho()),
                "{service_ms} ms × {workers}"
            );
        }
    }
}

//! What a retry-storm scenario sends one breaker's dependency, as the breaker lab can play
//! it: the calls per second reaching the dependency and the dependency's own fault windows
//! as the lab's phases, so that a link from the storm page's diagram opens the lab on the
//! same timeline the storm page's breaker saw.
//!
//! The lab's dependency answers each call after a fixed latency, failed or not, and the lab
//! has no per-try timeout: a fault that slows the dependency makes its calls slow (which the
//! breaker counts only with a slow-call threshold), where on the storm page the caller's
//! timeout turns them into failures. Faults further down the chain are not the
//! dependency's own and are not replayed.

use crate::model::breaker_lab::{Arrivals, MAX_CALLS, MAX_PHASES, Phase, limits};
use crate::policy::retry::ms_to_us;
use crate::report::Report;
use crate::scenario::faults::{FaultState, FaultTimeline};
use crate::scenario::{Load, Scenario};

/// The load and the dependency's behaviour over the run, for the lab.
#[derive(Clone, Debug, PartialEq)]
pub struct StormTraffic {
    /// Calls per second (the storm page's, lowered where the lab's 20,000 calls would not
    /// cover the whole timeline at it).
    pub rate_per_s: f64,
    /// Evenly spaced for a constant load, Poisson for a Poisson one.
    pub arrivals: Arrivals,
    /// From t = 0 to the end of the load, at most [`MAX_PHASES`] of at least 100 ms each.
    pub phases: Vec<Phase>,
}

/// The traffic of client `ci` (report index) towards its dependency; `None` for a load
/// with no duration (a batch at t = 0) or a client the report does not have.
pub fn storm_traffic(s: &Scenario, r: &Report, ci: usize) -> Option<StormTraffic> {
    let callee = r.clients.get(ci)?.callee;
    let service = s.service(callee)?;
    let load_end_ms = s.load.duration_ms();
    if load_end_ms < limits::PHASE_MS.min {
        return None;
    }
    // The dependency's usual answer: a leaf's 5xx share (a layer fails only through its own
    // dependencies) and its mean work time.
    let n = s.layers.len();
    let base_error = match callee {
        h if h < n => 0.0,
        h if h == n => s.leaf.error_rate,
        h => s.layers.iter().flat_map(|l| &l.side_deps).nth(h - n - 1).map_or(0.0, |d| d.target.error_rate),
    };
    let base_latency = service.work.mean_ms();
    let phase_of = |duration_ms: f64, f: FaultState| Phase {
        duration_ms,
        failure_pct: if f.down { 100.0 } else { f.error_rate.unwrap_or(base_error) * 100.0 },
        latency_ms: if f.down {
            0.0
        } else {
            // To a tenth of a ms, as the lab's field shows it (a log-normal's mean has many
            // digits).
            ((base_latency * f.latency_factor * 10.0).round() / 10.0)
                .clamp(limits::LATENCY_MS.min, limits::LATENCY_MS.max)
        },
    };
    // The timeline cut at the fault windows' edges, up to the end of the load.
    let timeline = FaultTimeline::new(&s.faults, service.name);
    let end_us = ms_to_us(load_end_ms);
    let mut pieces: Vec<(u64, u64, FaultState)> = Vec::new();
    let mut at = 0;
    for (a, b, f) in timeline.segments().chain([(end_us, end_us, FaultState::NONE)]) {
        let (a, b) = (a.min(end_us), b.min(end_us));
        if a > at {
            pieces.push((at, a, FaultState::NONE));
        }
        if b > a.max(at) {
            pieces.push((a.max(at), b, f));
        }
        at = at.max(b);
    }
    // As the lab's phases: equal neighbours joined, a piece under the lab's 100 ms joined to
    // the phase before it (or after it, at the start), at most MAX_PHASES (the rest of the
    // run goes with the last).
    let mut phases: Vec<Phase> = Vec::new();
    for (a, b, f) in pieces {
        let p = phase_of((b - a) as f64 / 1000.0, f);
        let full = phases.len() == MAX_PHASES;
        match phases.last_mut() {
            Some(last)
                if (last.failure_pct == p.failure_pct && last.latency_ms == p.latency_ms)
                    || p.duration_ms < limits::PHASE_MS.min
                    || full =>
            {
                last.duration_ms += p.duration_ms
            }
            Some(last) if last.duration_ms < limits::PHASE_MS.min => {
                *last = Phase { duration_ms: last.duration_ms + p.duration_ms, ..p }
            }
            _ => phases.push(p),
        }
    }
    let total_s = phases.iter().map(|p| p.duration_ms).sum::<f64>() / 1000.0;
    let steady = crate::plot::storm::steady_arrival_rate(r, s, callee);
    // Within the lab's calls: a rate that would run past them is lowered to a hundredth.
    let fits = (MAX_CALLS / total_s * 100.0).floor() / 100.0;
    let rate_per_s = steady.min(fits).clamp(limits::RATE.min, limits::RATE.max);
    let arrivals = match s.load {
        Load::Poisson { .. } => Arrivals::Poisson,
        Load::Constant { .. } | Load::Batch { .. } => Arrivals::Even,
    };
    Some(StormTraffic { rate_per_s, arrivals, phases })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::chain::run;
    use crate::scenario::{Fault, FaultEffect, presets};

    #[test]
    fn the_breaker_demo_replays_its_dependencys_outage() {
        let s = presets::breaker_demo();
        let r = run(&s).unwrap();
        let t = storm_traffic(&s, &r, 0).expect("a timed load");
        let f = &s.faults[0];
        let total: f64 = t.phases.iter().map(|p| p.duration_ms).sum();
        assert_eq!(total, s.load.duration_ms(), "the load's whole run");
        // Before the fault, the fault, after it.
        assert_eq!(t.phases.len(), 3, "{:?}", t.phases);
        assert_eq!((t.phases[0].duration_ms, t.phases[1].duration_ms), (f.start_ms, f.end_ms - f.start_ms));
        assert_eq!(t.phases[0].failure_pct, s.leaf.error_rate * 100.0);
        assert!(t.phases[1].failure_pct > t.phases[0].failure_pct, "{:?}", t.phases);
        assert_eq!(t.phases[2].failure_pct, t.phases[0].failure_pct);
        assert_eq!(t.rate_per_s, crate::plot::storm::steady_arrival_rate(&r, &s, r.clients[0].callee));
    }

    #[test]
    fn phases_stay_within_the_labs_limits() {
        let mut s = presets::breaker_demo();
        let target = s.leaf.name.clone();
        let window = |start_ms, end_ms, effect| Fault { target: target.clone(), start_ms, end_ms, effect };
        // Twelve windows, two of them shorter than a phase may be, and a slow-down the lab's
        // latency cannot hold; a longer load at a rate the lab's calls cannot cover.
        s.load = Load::Constant { rate_per_s: 900.0, peak_factor: 1.0, duration_ms: 40_000.0 };
        s.leaf.work = crate::scenario::Dist::Constant { ms: 100.0 };
        s.faults = (0..12)
            .map(|k| window(500.0 + 1000.0 * k as f64, 900.0 + 1000.0 * k as f64, FaultEffect::Down {}))
            .chain([window(13_000.0, 13_050.0, FaultEffect::ErrorRate { rate: 0.3 })])
            .chain([window(14_000.0, 14_500.0, FaultEffect::Latency { factor: 1000.0 })])
            .collect();
        let r = run(&s).unwrap();
        let t = storm_traffic(&s, &r, 0).unwrap();
        assert!(t.phases.len() <= MAX_PHASES, "{}", t.phases.len());
        assert!(t.phases.iter().all(|p| p.duration_ms >= limits::PHASE_MS.min), "{:?}", t.phases);
        assert!(t.phases.iter().all(|p| limits::LATENCY_MS.accepts(p.latency_ms)), "{:?}", t.phases);
        let total: f64 = t.phases.iter().map(|p| p.duration_ms).sum();
        assert_eq!(total, s.load.duration_ms(), "no time lost or added");
        assert!(t.rate_per_s * total / 1000.0 <= MAX_CALLS, "{}", t.rate_per_s);
        assert_eq!(t.rate_per_s, 500.0, "20,000 calls over 40 s, not the storm's 900/s");
        // A batch has no timeline to replay.
        s.load = Load::Batch { requests: 10 };
        assert_eq!(storm_traffic(&s, &run(&s).unwrap(), 0), None);
    }
}

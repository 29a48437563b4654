//! What a retry-storm scenario sends one breaker's dependency, as the breaker lab can play
//! it: the calls per second reaching the dependency and the dependency's own fault windows
//! as the lab's phases, so that a link from the storm page's diagram opens the lab on the
//! same timeline the storm page's breaker saw.
//!
//! The lab's dependency answers each call after a fixed latency, failed or not, and the lab
//! has no per-try timeout: a fault that slows the dependency makes its calls slow, where on
//! the storm page the caller's timeout turns them into failures. So where the storm's
//! breaker sees the timeouts, the link sets the lab's slow-call threshold to the timeout,
//! judged at the failure threshold (`timeout_as_slow_ms`), unless the breaker has a
//! slow-call threshold of its own. Faults further down the chain are not the dependency's
//! own and are not replayed, nor are load surges.

use crate::model::breaker_lab::{Arrivals, MAX_PHASES, Phase, limits, max_rate};
use crate::policy::retry::ms_to_us;
use crate::policy::stack::Stage;
use crate::report::Report;
use crate::scenario::Scenario;
use crate::scenario::faults::{FaultState, FaultTimeline};
use crate::scenario::ranges as r;

/// The load and the dependency's behaviour over the run, for the lab.
#[derive(Clone, Debug, PartialEq)]
pub struct StormTraffic {
    /// Calls per second one breaker instance sees (the storm page's before its first fault,
    /// shared among the instances, lowered where the lab's 20,000 calls would not cover the
    /// whole timeline at it).
    pub rate_per_s: f64,
    /// Evenly spaced for a constant load, Poisson otherwise (`Load::evenly_spaced`).
    pub arrivals: Arrivals,
    /// From t = 0 to the end of the load, at most [`MAX_PHASES`] of at least 100 ms each.
    pub phases: Vec<Phase>,
    /// The caller's per-try timeout (ms) where its breaker sees the timeouts (the breaker
    /// outside the timeout in the stack): the lab, which has no timeout, judges calls this
    /// slow as slow calls in its stead.
    pub timeout_as_slow_ms: Option<f64>,
}

/// The traffic of client `ci` (report index) towards its dependency; `None` for a load
/// the lab's timeline cannot hold (a batch at t = 0, under 100 ms, over an hour) or a client
/// the report does not have.
pub fn storm_traffic(s: &Scenario, r: &Report, ci: usize) -> Option<StormTraffic> {
    let client = r.clients.get(ci)?;
    let service = s.service(client.callee)?;
    let load_end_ms = s.load.duration_ms();
    if !(limits::PHASE_MS.min..=limits::PHASE_MS.max).contains(&load_end_ms) {
        return None;
    }
    // The dependency's usual answer: its own 5xx share and its mean work time.
    let base_latency = service.work.mean_ms();
    let phase_of = |duration_ms: f64, f: FaultState| Phase {
        duration_ms,
        failure_pct: if f.down { 100.0 } else { f.error_rate.unwrap_or(service.error_rate) * 100.0 },
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
    let mut pieces: Vec<Phase> = Vec::new();
    let mut at = 0;
    for (a, b, f) in timeline.segments().chain([(end_us, end_us, FaultState::NONE)]) {
        let (a, b) = (a.min(end_us), b.min(end_us));
        if a > at {
            pieces.push(phase_of((a - at) as f64 / 1000.0, FaultState::NONE));
        }
        if b > a.max(at) {
            pieces.push(phase_of((b - a.max(at)) as f64 / 1000.0, f));
        }
        at = at.max(b);
    }
    let phases = fit_phases(pieces);
    let total_ms = phases.iter().map(|p| p.duration_ms).sum::<f64>();
    // Each request picks one of the breaker's instances: each sees its share of the calls.
    let instances =
        s.client_to(client.caller, client.callee).and_then(|c| c.breaker).map_or(1, |b| b.instances);
    let steady = crate::plot::storm::steady_arrival_rate(r, s, client.callee) / f64::from(instances.max(1));
    let rate_per_s = steady.min(max_rate(total_ms)).clamp(limits::RATE.min, limits::RATE.max);
    let arrivals = if s.load.evenly_spaced() { Arrivals::Even } else { Arrivals::Poisson };
    let outside = |a: Stage, b: Stage| {
        let at = |x| client.stack.iter().position(|&st| st == x);
        matches!((at(a), at(b)), (Some(i), Some(j)) if i < j)
    };
    let timeout_as_slow_ms = s
        .client_to(client.caller, client.callee)
        .and_then(|c| c.per_try_timeout_ms)
        .filter(|_| outside(Stage::Breaker, Stage::Timeout))
        .map(|t| t.clamp(r::SLOW_CALL_MS.min, r::SLOW_CALL_MS.max));
    Some(StormTraffic { rate_per_s, arrivals, phases, timeout_as_slow_ms })
}

/// The lab's phases from the timeline's pieces (in order, covering the run): equal
/// neighbours joined; a piece under the lab's 100 ms given to its neighbour (the one
/// before, or after at the start); then, while there are more than [`MAX_PHASES`], the
/// shortest given to its neighbour in the same way, so that what the lab plays differs
/// from the storm only over the shortest stretches, and the run still ends as it did.
/// Total time is kept.
fn fit_phases(pieces: Vec<Phase>) -> Vec<Phase> {
    let same = |a: &Phase, b: &Phase| a.failure_pct == b.failure_pct && a.latency_ms == b.latency_ms;
    let mut phases: Vec<Phase> = Vec::new();
    for p in pieces {
        match phases.last_mut() {
            Some(last) if same(last, &p) => last.duration_ms += p.duration_ms,
            _ => phases.push(p),
        }
    }
    loop {
        let short = phases.iter().position(|p| p.duration_ms < limits::PHASE_MS.min);
        let shortest =
            || (0..phases.len()).min_by(|&i, &j| phases[i].duration_ms.total_cmp(&phases[j].duration_ms));
        let Some(i) = short.or_else(|| (phases.len() > MAX_PHASES).then(shortest).flatten()) else { break };
        if phases.len() == 1 {
            break;
        }
        // Into the neighbour before it (after it, for the first), joining that neighbour
        // with the one beyond if they now meet with the same state.
        let gone = phases.remove(i);
        let into = i.saturating_sub(1).min(phases.len() - 1);
        phases[into].duration_ms += gone.duration_ms;
        if into + 1 < phases.len() && same(&phases[into], &phases[into + 1]) {
            let next = phases.remove(into + 1);
            phases[into].duration_ms += next.duration_ms;
        }
    }
    phases
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::breaker_lab::MAX_CALLS;
    use crate::model::chain::run;
    use crate::scenario::{Dist, Fault, FaultEffect, Load, presets};

    fn traffic(s: &Scenario) -> StormTraffic {
        storm_traffic(s, &run(s).unwrap(), 0).expect("a timeline")
    }

    /// Breaker-demo with its leaf's faults replaced by `faults` (start, end, effect).
    fn demo_with(faults: &[(f64, f64, FaultEffect)]) -> Scenario {
        let mut s = presets::breaker_demo();
        let target = s.leaf.name.clone();
        s.faults = faults
            .iter()
            .map(|&(start_ms, end_ms, effect)| Fault { target: target.clone(), start_ms, end_ms, effect })
            .collect();
        s
    }

    fn total(t: &StormTraffic) -> f64 {
        t.phases.iter().map(|p| p.duration_ms).sum()
    }

    #[test]
    fn the_breaker_demo_replays_its_dependencys_outage() {
        let s = presets::breaker_demo();
        let r = run(&s).unwrap();
        let t = storm_traffic(&s, &r, 0).expect("a timed load");
        let f = &s.faults[0];
        assert_eq!(total(&t), s.load.duration_ms(), "the load's whole run");
        // Before the fault, the fault, after it.
        assert_eq!(t.phases.len(), 3, "{:?}", t.phases);
        assert_eq!((t.phases[0].duration_ms, t.phases[1].duration_ms), (f.start_ms, f.end_ms - f.start_ms));
        assert_eq!(t.phases[0].failure_pct, s.leaf.error_rate * 100.0);
        assert!(t.phases[1].failure_pct > t.phases[0].failure_pct, "{:?}", t.phases);
        assert_eq!(t.phases[2].failure_pct, t.phases[0].failure_pct);
        let instances = s.layers[0].client.breaker.unwrap().instances;
        let steady = crate::plot::storm::steady_arrival_rate(&r, &s, r.clients[0].callee);
        assert_eq!(t.rate_per_s, steady / f64::from(instances), "one instance's share");
    }

    #[test]
    fn each_instance_sees_its_share_of_the_calls() {
        let mut s = presets::breaker_demo();
        let one = traffic(&s).rate_per_s;
        s.layers[0].client.breaker.as_mut().unwrap().instances = 4;
        let four = traffic(&s).rate_per_s;
        assert!((four - one / 4.0).abs() < 1e-9, "{one} {four}");
    }

    #[test]
    fn a_window_shorter_than_a_phase_goes_to_the_phase_before() {
        let t = traffic(&demo_with(&[(5_000.0, 5_050.0, FaultEffect::ErrorRate { rate: 0.3 })]));
        assert_eq!(t.phases.len(), 1, "50 ms of 30 % joined to the calm around it: {:?}", t.phases);
        // At the start, it goes to the phase after.
        let t = traffic(&demo_with(&[(0.0, 50.0, FaultEffect::Down {})]));
        assert_eq!(t.phases.len(), 1, "{:?}", t.phases);
        assert!(t.phases[0].failure_pct < 100.0, "{:?}", t.phases);
    }

    #[test]
    fn a_slow_down_past_the_labs_latency_is_held_at_its_limit() {
        let mut s = demo_with(&[(1_000.0, 2_000.0, FaultEffect::Latency { factor: 1000.0 })]);
        s.leaf.work = Dist::Constant { ms: 100.0 };
        let t = traffic(&s);
        assert_eq!(t.phases.len(), 3, "{:?}", t.phases);
        assert_eq!((t.phases[0].latency_ms, t.phases[1].latency_ms), (100.0, limits::LATENCY_MS.max));
    }

    #[test]
    fn more_windows_than_phases_give_up_the_shortest_and_end_as_the_storm_does() {
        // Twelve outages of 400 ms, 600 ms apart, then a long calm: 25 pieces.
        let outages: Vec<_> = (0..12)
            .map(|k| (500.0 + 1000.0 * k as f64, 900.0 + 1000.0 * k as f64, FaultEffect::Down {}))
            .collect();
        let s = demo_with(&outages);
        let t = traffic(&s);
        assert!(t.phases.len() <= MAX_PHASES, "{:?}", t.phases);
        assert!(t.phases.iter().all(|p| p.duration_ms >= limits::PHASE_MS.min), "{:?}", t.phases);
        assert_eq!(total(&t), s.load.duration_ms(), "no time lost or added");
        let last = t.phases.last().unwrap();
        assert!(
            last.failure_pct < 100.0 && last.duration_ms >= 3_000.0,
            "the run ends calm, as the storm's: {last:?}"
        );
        assert!(t.phases.iter().any(|p| p.failure_pct == 100.0), "outages are still there: {:?}", t.phases);
    }

    #[test]
    fn a_rate_past_the_labs_calls_is_lowered_and_a_timeline_it_cannot_hold_is_none() {
        let mut s = presets::breaker_demo();
        s.layers[0].client.breaker.as_mut().unwrap().instances = 1;
        s.load = Load::Constant { rate_per_s: 900.0, peak_factor: 1.0, duration_ms: 40_000.0 };
        let t = traffic(&s);
        assert_eq!(t.rate_per_s, 500.0, "20,000 calls over 40 s, not the storm's 900/s");
        assert!(t.rate_per_s * total(&t) / 1000.0 <= MAX_CALLS);
        // A batch has no timeline; a load over an hour does not fit a phase.
        s.load = Load::Batch { requests: 10 };
        assert_eq!(storm_traffic(&s, &run(&s).unwrap(), 0), None);
        s.load = Load::Constant { rate_per_s: 0.1, peak_factor: 1.0, duration_ms: 3_700_000.0 };
        assert_eq!(storm_traffic(&s, &run(&s).unwrap(), 0), None);
    }
}

//! Fault windows indexed by time: what is in effect at a service at any instant.
//!
//! Windows may overlap. The timeline cuts time at every window edge into segments in which
//! the same windows are active, and keeps, per segment, their combined effect: latency
//! factors multiplied (in the order the windows are listed, so the product is the same
//! number whatever the index), `down` if any window says so, and the error rate of the last
//! listed window that sets one. Looking up an instant is a binary search over the edges, so
//! a call pays for the windows active at its time, never for the rest.

use super::{Fault, FaultEffect};
use crate::policy::retry::ms_to_us;
use std::collections::BTreeSet;

/// The combined effect of the windows active at one instant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FaultState {
    /// Work takes this many times longer (1 = no latency fault).
    pub latency_factor: f64,
    /// Calls fail at once.
    pub down: bool,
    /// Replaces the service's error rate.
    pub error_rate: Option<f64>,
}

impl FaultState {
    /// No fault.
    pub const NONE: FaultState = FaultState { latency_factor: 1.0, down: false, error_rate: None };
}

/// A scenario's traffic surges as (start, end, factor), times in ms as the file gives them.
pub fn surges(faults: &[Fault]) -> Vec<(f64, f64, f64)> {
    faults
        .iter()
        .filter_map(|f| match f.effect {
            FaultEffect::Surge { factor } => Some((f.start_ms, f.end_ms, factor)),
            _ => None,
        })
        .collect()
}

/// The factor on the arrival rate at time `t` (the windows' unit): surges in force multiply,
/// so two overlapping ×2 surges make ×4. The arrivals and the closed-form bound both use it.
#[inline]
pub fn surge_factor(surges: &[(f64, f64, f64)], t: f64) -> f64 {
    surges.iter().filter(|(a, b, _)| t >= *a && t < *b).map(|(_, _, f)| *f).product()
}

/// The highest factor on the arrival rate at any time (1 without surges): the factor is
/// constant between window edges, so the largest is at some window's start.
pub fn peak_surge(faults: &[Fault]) -> f64 {
    let s = surges(faults);
    s.iter().map(|&(start, _, _)| surge_factor(&s, start)).fold(1.0, f64::max)
}

/// Most (window, segment) pairs a scenario's fault timelines may hold, so that building them
/// stays quick and small whatever the file says.
pub const MAX_FAULT_INCIDENCE: u64 = 2_000_000;

/// One service's fault windows, cut into segments (times in µs).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FaultTimeline {
    /// Segment `i` covers `[edges[i], edges[i + 1])`; before the first edge and after the
    /// last, nothing is active.
    edges: Vec<u64>,
    /// The state of each segment (one fewer than `edges`).
    states: Vec<FaultState>,
    /// Whether some window changes the work time (latency or down).
    pub varies_work: bool,
}

/// A window in µs with its effect; surges are not a service's faults.
fn windows<'a>(faults: &'a [Fault], target: &'a str) -> impl Iterator<Item = (u64, u64, FaultEffect)> + 'a {
    faults
        .iter()
        .filter(move |f| f.target == target && !matches!(f.effect, FaultEffect::Surge { .. }))
        .map(|f| (ms_to_us(f.start_ms), ms_to_us(f.end_ms), f.effect))
}

/// Sweeps the windows' edges, calling `each(edge, active windows in listed order)` for every
/// segment. Returns the (window, segment) pairs visited, stopping early past `limit`.
fn sweep(list: &[(u64, u64, FaultEffect)], limit: u64, mut each: impl FnMut(u64, &BTreeSet<usize>)) -> u64 {
    let edges: Vec<u64> = list.iter().flat_map(|w| [w.0, w.1]).collect();
    let edges = crate::order::sorted_unique(&edges);
    let starts = crate::order::order_by(list.len(), |i| list[i].0);
    // By end, equal ends in start order (a stable sort of `starts`).
    let ends: Vec<usize> =
        crate::order::order_by(starts.len(), |p| list[starts[p]].1).into_iter().map(|p| starts[p]).collect();
    let (mut si, mut ei) = (0, 0);
    let mut active = BTreeSet::new();
    let mut incidence = 0u64;
    for &e in &edges {
        while ei < ends.len() && list[ends[ei]].1 <= e {
            active.remove(&ends[ei]);
            ei += 1;
        }
        while si < starts.len() && list[starts[si]].0 <= e {
            let i = starts[si];
            if list[i].1 > e {
                active.insert(i);
            }
            si += 1;
        }
        incidence += active.len() as u64;
        if incidence > limit {
            return incidence;
        }
        each(e, &active);
    }
    incidence
}

impl FaultTimeline {
    /// The timeline of the service called `target`.
    pub fn new(faults: &[Fault], target: &str) -> Self {
        let list: Vec<_> = windows(faults, target).collect();
        let varies_work =
            list.iter().any(|w| matches!(w.2, FaultEffect::Latency { .. } | FaultEffect::Down {}));
        let mut edges = Vec::new();
        let mut states = Vec::new();
        sweep(&list, u64::MAX, |e, active| {
            let mut s = FaultState::NONE;
            for &i in active {
                match list[i].2 {
                    FaultEffect::Latency { factor } => s.latency_factor *= factor,
                    FaultEffect::Down {} => s.down = true,
                    FaultEffect::ErrorRate { rate } => s.error_rate = Some(rate),
                    FaultEffect::Surge { .. } => {}
                }
            }
            edges.push(e);
            states.push(s);
        });
        // The last edge opens no segment.
        states.pop();
        FaultTimeline { edges, states, varies_work }
    }

    /// Whether the service has no fault windows at all.
    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }

    /// The segments in time order: (start, end, state) in µs, end exclusive; outside them
    /// nothing is active.
    pub fn segments(&self) -> impl Iterator<Item = (u64, u64, FaultState)> + '_ {
        self.states.iter().enumerate().map(|(i, s)| (self.edges[i], self.edges[i + 1], *s))
    }

    /// What is in effect at `t` (µs).
    #[inline]
    pub fn at(&self, t: u64) -> FaultState {
        if self.states.is_empty() || t < self.edges[0] {
            return FaultState::NONE;
        }
        // The last edge at or before t.
        let i = self.edges.partition_point(|&e| e <= t) - 1;
        self.states.get(i).copied().unwrap_or(FaultState::NONE)
    }
}

/// The (window, segment) pairs the timelines of `target` would hold, counted up to just past
/// `limit` (validation refuses files above [`MAX_FAULT_INCIDENCE`]).
pub fn incidence(faults: &[Fault], target: &str, limit: u64) -> u64 {
    let list: Vec<_> = windows(faults, target).collect();
    sweep(&list, limit, |_, _| {})
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(start_ms: f64, end_ms: f64, effect: FaultEffect) -> Fault {
        Fault { target: "s".into(), start_ms, end_ms, effect }
    }

    /// The definition: every listed window active at t, in order.
    fn naive(faults: &[Fault], t: u64) -> FaultState {
        let mut s = FaultState::NONE;
        for (a, b, e) in windows(faults, "s") {
            if t >= a && t < b {
                match e {
                    FaultEffect::Latency { factor } => s.latency_factor *= factor,
                    FaultEffect::Down {} => s.down = true,
                    FaultEffect::ErrorRate { rate } => s.error_rate = Some(rate),
                    FaultEffect::Surge { .. } => {}
                }
            }
        }
        s
    }

    #[test]
    fn overlapping_windows_combine_as_listed() {
        let faults = vec![
            w(10.0, 30.0, FaultEffect::Latency { factor: 3.0 }),
            w(20.0, 40.0, FaultEffect::ErrorRate { rate: 0.5 }),
            w(25.0, 26.0, FaultEffect::Down {}),
            w(15.0, 35.0, FaultEffect::Latency { factor: 1.7 }),
            w(22.0, 50.0, FaultEffect::ErrorRate { rate: 0.9 }),
            w(5.0, 5.0, FaultEffect::Down {}),
            Fault { target: "other".into(), ..w(0.0, 100.0, FaultEffect::Down {}) },
        ];
        let tl = FaultTimeline::new(&faults, "s");
        assert!(tl.varies_work);
        for t in (0..60_000).step_by(250).chain([4_999, 5_000, 9_999, 10_000, 25_999, 26_000, 49_999, 50_000])
        {
            assert_eq!(tl.at(t), naive(&faults, t), "at {t} µs");
        }
        assert_eq!(tl.at(5_000), FaultState::NONE, "an empty window is never active");
    }

    #[test]
    fn many_windows_cost_a_search_and_count_their_incidence() {
        let faults: Vec<Fault> = (0..10_000)
            .map(|i| w(1000.0 + f64::from(i), 1001.0 + f64::from(i), FaultEffect::Latency { factor: 2.0 }))
            .collect();
        let tl = FaultTimeline::new(&faults, "s");
        assert_eq!(tl.at(999_999).latency_factor, 1.0);
        assert_eq!(tl.at(1_000_000).latency_factor, 2.0);
        assert_eq!(tl.at(11_000_000).latency_factor, 1.0);
        assert_eq!(incidence(&faults, "s", u64::MAX), 10_000);
        let stacked: Vec<Fault> = (0..100).map(|i| w(f64::from(i), 1000.0, FaultEffect::Down {})).collect();
        assert_eq!(incidence(&stacked, "s", u64::MAX), (1..=100).sum::<u64>());
        assert!(incidence(&stacked, "s", 10) > 10, "stops counting past the limit");
        assert!(FaultTimeline::new(&[], "s").is_empty());
        assert_eq!(FaultTimeline::new(&[], "s").at(5), FaultState::NONE);
    }
}

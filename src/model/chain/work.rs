//! A hop's workers and its own work: taking and giving back a worker (with the gauges the
//! diagram draws), starting a call's work, and what a leaf answers when it is done.
//!
//! The free functions here take a hop's records (`HopCounters`, `HopRt`, `HopSpec`)
//! borrowed once by their caller, rather than re-indexing `stats.hops[hop]`,
//! `hop_rt[hop]` and `plan.hops[hop]` at every step: they run for every call, and each
//! re-index costs a bounds check and two loads (borrowck forbids holding the references
//! across `&mut self` methods, so the handlers borrow fields, not `self`).

use super::calls::{Call, CallRef, Calls, Phase};
use super::engine::{Answer, Ev, GeneralEngine, HopRt};
use super::plan::{HopKind, HopSpec};
use super::rules;
use super::stats::HopCounters;
use crate::policy::Outcome;
use crate::policy::deadline::NO_DEADLINE;
use crate::scenario::Dist;
use crate::sim::rng::{self, Key, Purpose};
use crate::sim::{Class, Micros};

/// A call waiting in a hop's worker queue, as the pool keeps it.
pub(super) fn token(c: CallRef) -> u64 {
    (u64::from(c.slot) << 32) | u64::from(c.generation)
}

fn untoken(t: u64) -> CallRef {
    CallRef { slot: (t >> 32) as u32, generation: t as u32 }
}

/// The hop's busy workers, and their peak (the series in the bucket of the event being
/// handled: see `Stats::enter`).
#[inline(always)]
pub(super) fn gauge_workers(h: &mut HopCounters, rt: &HopRt) {
    let v = i64::from(rt.pool.active());
    h.peak_in_flight = h.peak_in_flight.max(v);
    h.in_flight.set(v);
}

/// The hop's worker queue, and its peak.
#[inline(always)]
pub(super) fn gauge_queue(h: &mut HopCounters, rt: &HopRt) {
    let v = rt.pool.queued() as i64;
    h.peak_queue = h.peak_queue.max(v);
    h.queue.set(v);
}

/// A call that held a worker since `work_start` (none: taken this instant, not started)
/// gives it back; the next queued call, if any, takes it and is returned (its `StartWork`
/// is the caller's to schedule).
#[inline(always)]
pub(super) fn free_worker(
    h: &mut HopCounters,
    rt: &mut HopRt,
    calls: &mut Calls,
    now: Micros,
    work_start: Option<Micros>,
) -> Option<CallRef> {
    h.busy_us += work_start.map_or(0, |w| now.saturating_sub(w));
    let next = rt.pool.release(now, |t| {
        let r = untoken(t);
        calls.at_slot(r.slot).is_some_and(|x| {
            x.live && x.generation == r.generation && x.phase == Phase::Queued && !x.holds_worker
        })
    });
    let next = next.map(untoken);
    if let Some(r) = next {
        calls.get_mut(r).holds_worker = true;
        gauge_queue(h, rt);
    }
    gauge_workers(h, rt);
    next
}

/// What a call does once a worker took it.
pub(super) enum Work {
    /// Too little of its deadline is left to start.
    Exhausted,
    /// Its hop is down (a fault): it fails at once.
    Down,
    /// A layer with no work of its own: it calls its dependencies now.
    Deps,
    /// It works this long (µs).
    For(Micros),
}

/// A worker took `call` at the hop `spec` describes: counts it and decides what comes next.
#[inline(always)]
pub(super) fn begin_work(h: &mut HopCounters, spec: &HopSpec, call: &mut Call, now: Micros) -> Work {
    call.phase = Phase::Working;
    call.work_start = now;
    h.served += 1;
    if now > call.arrived {
        h.waited += 1;
        h.wait_us += now - call.arrived;
    }
    if call.deadline != NO_DEADLINE && call.deadline.saturating_sub(now) < spec.min_budget.max(1) {
        return Work::Exhausted;
    }
    let is_layer = matches!(spec.kind, HopKind::Layer { .. });
    let work = match spec.fixed_work {
        Some(w) => w,
        None => {
            let faults = spec.faults.at(now);
            if faults.down {
                return Work::Down;
            }
            sample(&spec.work, call.key, faults.latency_factor)
        }
    };
    if work == 0 && is_layer { Work::Deps } else { Work::For(work) }
}

impl GeneralEngine {
    /// Gives a worker back (see [`free_worker`]) and starts the queued call that takes it.
    pub(super) fn release_worker(&mut self, now: Micros, hop: usize, work_start: Option<Micros>) {
        let (h, rt) = (&mut self.stats.hops[hop], &mut self.hop_rt[hop]);
        if let Some(r) = free_worker(h, rt, &mut self.calls, now, work_start) {
            self.sched(now, 0, Class::Completion, Ev::StartWork(r));
        }
    }

    pub fn gauge_queue(&mut self, hop: usize) {
        gauge_queue(&mut self.stats.hops[hop], &self.hop_rt[hop]);
    }

    /// A queued call (at `hop`) got its worker.
    pub(super) fn start_work(&mut self, now: Micros, c: CallRef, hop: usize) {
        let work = begin_work(&mut self.stats.hops[hop], &self.plan.hops[hop], self.calls.get_mut(c), now);
        self.do_work(now, c, hop, work);
    }

    /// Call `c` (at `hop`) goes on as [`begin_work`] decided.
    // Inlined, with `start_deps`, into `arrive_as`: the recursion arrive → work → deps →
    // walk_out → arrive is then two calls per hop instead of four, and each call's register
    // spills cost more than these bodies.
    #[inline(always)]
    pub(super) fn do_work(&mut self, now: Micros, c: CallRef, hop: usize, work: Work) {
        match work {
            Work::Exhausted => {
                self.stats.totals.deadline_exhausted += 1;
                self.respond(now, c, Outcome::DeadlineExceeded, Answer::default());
            }
            Work::Down => self.respond(now, c, Outcome::Error, Answer::default()),
            Work::Deps => self.start_deps(now, c, hop),
            Work::For(w) => self.sched(now, w, Class::Completion, Ev::WorkDone(c)),
        }
    }

    pub(super) fn on_work_done(&mut self, now: Micros, c: CallRef) {
        let call = self.calls.get(c);
        let hop = call.hop as usize;
        let spec = &self.plan.hops[hop];
        match &spec.kind {
            HopKind::Leaf(behaviour) => {
                let start = call.worked_from().unwrap_or(now);
                let error_rate = spec.faults.at(start).error_rate.unwrap_or(behaviour.error_rate);
                let (outcome, empty) = rules::leaf_answer(call.key, behaviour, error_rate);
                self.respond(now, c, outcome, Answer { degraded: None, empty });
            }
            HopKind::Layer { .. } => self.start_deps(now, c, hop),
        }
    }
}

/// Longest work one call may take (µs): 10 days. Longer draws (the far tail of a wide
/// log-normal, latency faults multiplied together) are clamped to it; a run stops at most an
/// hour after its last arrival, long before.
pub(super) const MAX_WORK_US: Micros = 864_000_000_000;

/// A work time drawn from its distribution, stretched by `factor` (µs), at most
/// [`MAX_WORK_US`].
#[inline(always)]
fn sample(d: &Dist, key: Key, factor: f64) -> Micros {
    let ms = match *d {
        Dist::Constant { ms } => ms,
        Dist::Exponential { mean_ms } => rng::exponential(mean_ms, key.uniform(Purpose::Service)),
        Dist::LogNormal { median_ms, p99_ms } => {
            rng::lognormal(median_ms, p99_ms, key.uniform(Purpose::Service))
        }
    };
    let ms = ms * factor;
    if ms.is_nan() || ms >= MAX_WORK_US as f64 / 1000.0 {
        // NaN only from an infinite draw times a factor of 0: treat it as the longest.
        return MAX_WORK_US;
    }
    crate::policy::retry::ms_to_us(ms)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn work_draws_are_clamped_never_wrapped() {
        let wide = Dist::LogNormal { median_ms: 0.001, p99_ms: 86_400_000.0 };
        for k in 0..2_000 {
            let w = sample(&wide, Key(k), 1e15);
            assert!(w <= MAX_WORK_US, "{w}");
        }
        assert_eq!(sample(&Dist::Constant { ms: 86_400_000.0 }, Key(1), 1e15), MAX_WORK_US);
        assert_eq!(sample(&Dist::Constant { ms: 2.5 }, Key(1), 2.0), 5_000);
        assert_eq!(sample(&Dist::Constant { ms: 0.0 }, Key(1), 1000.0), 0);
    }
}

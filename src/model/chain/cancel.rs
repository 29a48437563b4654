//! Cancelling and orphaning: what happens to a call and everything it started when its
//! caller stops waiting (cancel on timeout, or orphan the subtree as wasted work).

use super::calls::{CallRef, DepState, Phase};
use super::engine::GeneralEngine;
use crate::report::CallResult;
use crate::sim::Micros;

impl GeneralEngine {
    /// The caller stopped waiting but cannot cancel: `c` and everything it started go on
    /// as wasted work.
    pub fn orphan_subtree(&mut self, c: CallRef) {
        self.calls.get_mut(c).orphan = true;
        for d in 0..self.calls.get(c).n_deps as usize {
            let dep = *self.calls.dep(c, d);
            if dep.state == DepState::InFlight && self.calls.valid(dep.child) {
                self.orphan_subtree(dep.child);
            }
        }
    }

    /// The caller stopped waiting and cancels `c` and everything it started.
    pub fn cancel_subtree(&mut self, now: Micros, c: CallRef) {
        let (hop, phase, holds_worker, holds_admission, worked) = {
            let call = self.calls.get_mut(c);
            (
                call.hop as usize,
                call.phase,
                std::mem::take(&mut call.holds_worker),
                std::mem::take(&mut call.holds_admission),
                call.worked_from(),
            )
        };
        if phase == Phase::Queued && !holds_worker {
            self.hop_rt[hop].pool.abandon(now);
            self.gauge_queue(hop);
        }
        if holds_worker {
            self.release_worker(now, hop, worked);
        }
        if holds_admission && let Some(a) = self.hop_rt[hop].admission.as_mut() {
            a.release();
        }
        for d in 0..self.calls.get(c).n_deps as usize {
            self.cancel_dep(now, c, d);
        }
        self.stats.hops[hop].cancelled += 1;
        self.stats.hops[hop].results.cancelled += 1;
        self.trace_span(c, now, CallResult::Cancelled, true);
        self.calls.release(c);
    }
}

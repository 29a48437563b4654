//! The caller side's slots: a client's own bulkhead, or its layer's shared pool. An
//! attempt that must wait for a slot waits in the pool's queue and resumes its walk out
//! through the stages (`client.rs`) when it gets one.

use super::calls::{CallRef, DepState, SlotKind};
use super::engine::{Ev, GeneralEngine};
use super::plan::Isolation;
use crate::policy::Outcome;
use crate::policy::bulkhead::Entry;
use crate::report::MarkKind;
use crate::sim::{Class, Micros};

impl GeneralEngine {
    /// The bulkhead stage on the way out: the attempt takes a slot (whether to go on), or
    /// waits for one in the queue, or is refused.
    // Out of line: most clients have no bulkhead (see `breaker_sees`).
    #[inline(never)]
    pub(super) fn bulkhead_lets_attempt(
        &mut self,
        now: Micros,
        c: CallRef,
        d: usize,
        cl: usize,
        pos: usize,
    ) -> bool {
        let (kind, caller) = (self.slot_kind(cl), self.plan.clients[cl].caller);
        let token = slot_token(c, d);
        let entry = match kind {
            SlotKind::Own => self.client_rt[cl].bulkhead.as_mut().map(|p| p.enter(token, now)),
            _ => self.hop_rt[caller].shared.as_mut().map(|p| p.enter(token, now)),
        };
        match entry {
            Some(Entry::Admitted) => {
                self.calls.dep_mut(c, d).slot = kind;
                self.gauge_slots(cl);
                true
            }
            Some(Entry::Queued) => {
                self.gauge_pool(cl);
                let dep = self.calls.dep_mut(c, d);
                dep.state = DepState::WaitingSlot;
                dep.stage = pos as u8;
                let a = dep.attempt;
                if let Some(Isolation::Bulkhead(b)) = self.plan.clients[cl].isolation
                    && let Some(qt) = b.queue_timeout
                {
                    self.sched(now, qt, Class::Timer, Ev::SlotTimeout(c, d as u8, a));
                }
                false
            }
            _ => {
                self.stats.clients[cl].bulkhead_rejected += 1;
                self.stats.totals.bulkhead_rejected += 1;
                self.mark(c, d, MarkKind::BulkheadRejected, now, now);
                self.refuse(now, c, d, pos, Outcome::BulkheadFull);
                false
            }
        }
    }

    /// A waiting attempt got its slot: the walk goes on from the stage after the bulkhead.
    pub(super) fn slot_granted(&mut self, now: Micros, c: CallRef, d: usize) {
        let dep = self.calls.dep(c, d);
        let (cl, from, a) = (dep.client as usize, dep.stage as usize + 1, dep.attempt);
        self.walk_out(now, c, d, cl, from, a);
    }

    /// A waiting attempt's bulkhead queue timeout: the bulkhead refuses it.
    pub(super) fn slot_timed_out(&mut self, now: Micros, c: CallRef, d: usize) {
        let (cl, pos) = {
            let dep = self.calls.dep(c, d);
            (dep.client as usize, dep.stage as usize)
        };
        self.abandon_slot_wait(now, cl);
        self.refuse(now, c, d, pos, Outcome::BulkheadFull);
    }

    pub(super) fn slot_kind(&self, cl: usize) -> SlotKind {
        match self.plan.clients[cl].isolation {
            Some(Isolation::Bulkhead(_)) => SlotKind::Own,
            Some(Isolation::SharedPool) => SlotKind::Shared,
            None => SlotKind::None,
        }
    }

    pub(super) fn gauge_slots(&mut self, cl: usize) {
        let v = match self.slot_kind(cl) {
            SlotKind::Own => self.client_rt[cl].bulkhead.as_ref().map_or(0, |p| p.active()),
            SlotKind::Shared => {
                self.hop_rt[self.plan.clients[cl].caller].shared.as_ref().map_or(0, |p| p.active())
            }
            SlotKind::None => return,
        };
        self.stats.stage_gauges[cl].slots.set(i64::from(v));
        self.gauge_pool(cl);
    }

    /// The pool gauges the diagram draws: a bulkhead's queue, or a shared pool's busy
    /// threads and queue (per hop, so every client drawing from it sees one figure).
    pub(super) fn gauge_pool(&mut self, cl: usize) {
        match self.slot_kind(cl) {
            SlotKind::Own => {
                let q = self.client_rt[cl].bulkhead.as_ref().map_or(0, |p| p.queued());
                self.stats.stage_gauges[cl].bulkhead_queue.set(q as i64);
            }
            SlotKind::Shared => {
                let caller = self.plan.clients[cl].caller;
                let (busy, q) =
                    self.hop_rt[caller].shared.as_ref().map_or((0, 0), |p| (p.active(), p.queued()));
                let p = &mut self.stats.pool_gauges[caller];
                p.busy.set(i64::from(busy));
                p.queue.set(q as i64);
            }
            SlotKind::None => {}
        }
    }

    pub(super) fn abandon_slot_wait(&mut self, now: Micros, cl: usize) {
        match self.slot_kind(cl) {
            SlotKind::Own => {
                if let Some(p) = self.client_rt[cl].bulkhead.as_mut() {
                    p.abandon(now);
                }
            }
            SlotKind::Shared => {
                let caller = self.plan.clients[cl].caller;
                if let Some(p) = self.hop_rt[caller].shared.as_mut() {
                    p.abandon(now);
                }
            }
            SlotKind::None => {}
        }
        self.gauge_slots(cl);
    }

    /// Frees a bulkhead or shared-pool slot; the oldest waiter gets it.
    pub(super) fn release_slot(&mut self, now: Micros, cl: usize, kind: SlotKind) {
        let calls = &self.calls;
        let still_waiting = |t: u64| {
            let (r, d) = untoken_slot(t);
            calls.at_slot(r.slot).is_some_and(|x| {
                x.live && (x.generation & GEN_MASK) == r.generation && d < x.n_deps as usize && {
                    let dep = calls.dep(CallRef { slot: r.slot, generation: x.generation }, d);
                    dep.state == DepState::WaitingSlot && dep.slot == SlotKind::None
                }
            })
        };
        let next = match kind {
            SlotKind::Own => self.client_rt[cl].bulkhead.as_mut().and_then(|p| p.release(now, still_waiting)),
            SlotKind::Shared => {
                let caller = self.plan.clients[cl].caller;
                self.hop_rt[caller].shared.as_mut().and_then(|p| p.release(now, still_waiting))
            }
            SlotKind::None => None,
        };
        if let Some(t) = next {
            let (r, d) = untoken_slot(t);
            let full = CallRef {
                slot: r.slot,
                generation: self.calls.get(CallRef { slot: r.slot, generation: 0 }).generation,
            };
            let (attempt, owner) = {
                let dep = self.calls.dep_mut(full, d);
                dep.slot = kind;
                (dep.attempt, dep.client as usize)
            };
            self.sched(now, 0, Class::Completion, Ev::SlotGrant(full, d as u8, attempt));
            self.gauge_slots(owner);
        }
        self.gauge_slots(cl);
    }

    /// The attempt's bulkhead stage gives back what it holds: its place in the queue or
    /// its slot.
    pub(super) fn give_back_slot(&mut self, now: Micros, c: CallRef, d: usize) {
        let dep = self.calls.dep_mut(c, d);
        let (cl, state) = (dep.client as usize, dep.state);
        let slot = std::mem::replace(&mut dep.slot, SlotKind::None);
        if slot != SlotKind::None {
            self.release_slot(now, cl, slot);
        } else if state == DepState::WaitingSlot {
            self.abandon_slot_wait(now, cl);
        }
    }
}

const GEN_MASK: u32 = 0x3FFF_FFFF;

/// A bulkhead waiter: the call's slot, 30 bits of its generation, and the dependency.
pub(super) fn slot_token(c: CallRef, d: usize) -> u64 {
    (u64::from(c.slot) << 32) | (u64::from(c.generation & GEN_MASK) << 2) | (d as u64 & 3)
}

fn untoken_slot(t: u64) -> (CallRef, usize) {
    (CallRef { slot: (t >> 32) as u32, generation: ((t as u32) >> 2) & GEN_MASK }, (t & 3) as usize)
}

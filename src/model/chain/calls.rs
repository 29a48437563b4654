//! Calls in flight: a slab of call records reused through a free list, addressed by
//! (slot, generation) so that a handle to a call that has ended is recognised as stale.
//! A layer's call also holds one record per dependency: the first (the next hop, which
//! every layer has) in the call's own slot, beside the call, and any side dependencies' in
//! a second slab of fixed-size blocks. Most calls have one dependency or none, so most
//! dependency lookups are one index of the slab, the one that finds the call.

use super::stats::Degrade;
use crate::policy::Failure;
use crate::policy::breaker::Permit;
use crate::report::Refusal;
use crate::scenario::validate::MAX_SIDE_DEPS;
use crate::sim::Micros;
use crate::sim::rng::Key;

/// A handle to a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CallRef {
    pub slot: u32,
    pub generation: u32,
}

/// The caller waiting for a call: its call, which dependency, which attempt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Parent {
    pub call: CallRef,
    pub dep: u8,
    pub attempt: u32,
}

/// Where a call is at its hop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Waiting for a worker.
    Queued,
    /// Holding a worker, doing its own work.
    Working,
    /// Waiting for its dependencies.
    Calling,
}

/// Where one dependency of a layer's call is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DepState {
    /// Not started.
    Idle,
    /// An attempt waits for a bulkhead or shared-pool slot.
    WaitingSlot,
    /// An attempt was sent and is awaited.
    InFlight,
    /// Sleeping before a retry.
    Sleeping,
    /// Answered for good.
    Done,
}

/// Which slot an attempt holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlotKind {
    None,
    /// The client's own bulkhead.
    Own,
    /// The layer's shared pool.
    Shared,
}

/// One dependency of a layer's call.
#[derive(Clone, Copy, Debug)]
pub struct DepRt {
    /// The client (caller → dependency) index.
    pub client: u16,
    pub state: DepState,
    /// The current attempt (1 = first); 0 before the first.
    pub attempt: u32,
    /// The call sent for the current attempt.
    pub child: CallRef,
    /// When the current attempt started (before any wait for a slot).
    pub started: Micros,
    /// When its call was sent.
    pub sent_at: Micros,
    /// The last backoff slept (µs).
    pub prev_sleep: Micros,
    /// The breaker permit the attempt holds: (instance, permit).
    pub permit: Option<(u16, Permit)>,
    /// The slot the attempt holds.
    pub slot: SlotKind,
    /// How far the attempt got through the client's stages (the stage it waits at).
    pub stage: u8,
}

impl DepRt {
    fn idle(client: u16, now: Micros) -> Self {
        DepRt {
            client,
            state: DepState::Idle,
            attempt: 0,
            child: CallRef { slot: u32::MAX, generation: 0 },
            started: now,
            sent_at: now,
            prev_sleep: 0,
            permit: None,
            slot: SlotKind::None,
            stage: 0,
        }
    }
}

/// One call at one hop.
#[derive(Clone, Debug)]
pub struct Call {
    pub generation: u32,
    pub live: bool,
    pub hop: u16,
    /// Who waits for it; `None` for an original request's entry call.
    pub parent: Option<Parent>,
    pub key: Key,
    /// Absolute deadline (µs), or `NO_DEADLINE`.
    pub deadline: Micros,
    pub arrived: Micros,
    /// When a worker took it, or [`NOT_STARTED`].
    pub work_start: Micros,
    pub trace: u32,
    /// Traced calls: its span id and its caller's (`NO_SPAN` for the entry call).
    pub span: u32,
    pub parent_span: u32,
    /// Entry calls: the original request's number (0 = first to arrive).
    pub request: u32,
    /// Why its hop's admission or queue turned it away, if it did (for its span).
    pub refusal: Option<Refusal>,
    pub phase: Phase,
    pub holds_worker: bool,
    pub holds_admission: bool,
    /// Some caller up the chain stopped waiting: whatever this call does is wasted.
    pub orphan: bool,
    /// Dependencies not yet done.
    pub pending: u8,
    pub core_failure: Option<Failure>,
    pub degraded: Option<Degrade>,
    /// The block of its side dependencies' records (dependencies 1.. ), or `NO_DEPS`.
    pub deps: u32,
    pub n_deps: u8,
}

/// The span id of no call: a call not traced, or the parent of an entry call.
pub const NO_SPAN: u32 = u32::MAX;

/// `work_start` of a call no worker has taken yet.
pub const NOT_STARTED: Micros = Micros::MAX;

/// What a fresh call starts with (see [`Calls::alloc`]).
#[derive(Clone, Copy, Debug)]
pub struct NewCall {
    pub hop: usize,
    pub parent: Option<Parent>,
    pub key: Key,
    pub deadline: Micros,
    pub arrived: Micros,
    pub trace: u32,
    /// Entry calls: the original request's number; 0 for the others.
    pub request: u32,
    /// Its caller is an orphan: so is it.
    pub orphan: bool,
}

impl Call {
    /// When a worker took it, if one did.
    #[inline]
    pub fn worked_from(&self) -> Option<Micros> {
        (self.work_start != NOT_STARTED).then_some(self.work_start)
    }
}

const NO_DEPS: u32 = u32::MAX;
/// Most dependency records a call has: the next hop and the side dependencies.
const MOST_DEPS: usize = MAX_SIDE_DEPS + 1;
/// Marks a [`DepIndex`] in the side-dependency slab (else: the first-dependency table).
const SIDE: usize = 1 << (usize::BITS - 1);

/// Where a dependency record is kept (see [`Calls::dep_index`]).
pub type DepIndex = usize;

/// A call and its first dependency's record (meaningless for a call without
/// dependencies): the two are nearly always looked at together.
struct Slot {
    call: Call,
    first: DepRt,
}

/// The slab of calls and their dependency records.
#[derive(Default)]
pub struct Calls {
    calls: Vec<Slot>,
    free: Vec<u32>,
    /// Side dependencies' records; a call's are contiguous, from `Call::deps`.
    deps: Vec<DepRt>,
    /// Free runs of side-dependency records by length (index 0 = one record), by first
    /// index.
    free_runs: [Vec<u32>; MAX_SIDE_DEPS],
    live: usize,
}

impl Calls {
    /// A fresh call.
    pub fn alloc(&mut self, new: NewCall) -> CallRef {
        self.live += 1;
        let fresh = |generation| Call {
            generation,
            live: true,
            hop: new.hop as u16,
            parent: new.parent,
            key: new.key,
            deadline: new.deadline,
            arrived: new.arrived,
            work_start: NOT_STARTED,
            trace: new.trace,
            span: NO_SPAN,
            parent_span: NO_SPAN,
            request: new.request,
            refusal: None,
            phase: Phase::Queued,
            holds_worker: false,
            holds_admission: false,
            orphan: new.orphan,
            pending: 0,
            core_failure: None,
            degraded: None,
            // A released call keeps no dependency block (see `release`).
            deps: NO_DEPS,
            n_deps: 0,
        };
        match self.free.pop() {
            Some(slot) => {
                let c = &mut self.calls[slot as usize].call;
                *c = fresh(c.generation);
                CallRef { slot, generation: c.generation }
            }
            None => {
                self.calls.push(Slot { call: fresh(0), first: DepRt::idle(0, 0) });
                CallRef { slot: (self.calls.len() - 1) as u32, generation: 0 }
            }
        }
    }

    /// Ends a call: its handle goes stale and its slot (and dependency block) are reused.
    #[inline]
    pub fn release(&mut self, c: CallRef) {
        let call = &mut self.calls[c.slot as usize].call;
        call.live = false;
        call.generation = call.generation.wrapping_add(1);
        if call.deps != NO_DEPS {
            self.free_runs[call.n_deps as usize - 2].push(call.deps);
            call.deps = NO_DEPS;
            call.n_deps = 0;
        }
        self.free.push(c.slot);
        self.live -= 1;
    }

    /// Gives call `c` `n` idle dependency records for clients `first..first + n`.
    #[inline(always)]
    pub fn start_deps(&mut self, c: CallRef, first: usize, n: usize, now: Micros) {
        debug_assert!((1..=MOST_DEPS).contains(&n) && self.calls[c.slot as usize].call.deps == NO_DEPS);
        let side = n - 1;
        let base = if side == 0 {
            NO_DEPS
        } else {
            let base = match self.free_runs[side - 1].pop() {
                Some(b) => b as usize,
                None => {
                    self.deps.extend((0..side).map(|_| DepRt::idle(0, now)));
                    self.deps.len() - side
                }
            };
            for j in 0..side {
                self.deps[base + j] = DepRt::idle((first + 1 + j) as u16, now);
            }
            base as u32
        };
        let s = &mut self.calls[c.slot as usize];
        s.first = DepRt::idle(first as u16, now);
        let call = &mut s.call;
        call.deps = base;
        call.n_deps = n as u8;
        call.pending = n as u8;
        call.phase = Phase::Calling;
    }

    /// Whether `c` is a live call (not ended since the handle was made).
    #[inline(always)]
    pub fn valid(&self, c: CallRef) -> bool {
        self.calls.get(c.slot as usize).is_some_and(|x| x.call.live && x.call.generation == c.generation)
    }

    #[inline(always)]
    pub fn get(&self, c: CallRef) -> &Call {
        &self.calls[c.slot as usize].call
    }

    #[inline(always)]
    pub fn get_mut(&mut self, c: CallRef) -> &mut Call {
        &mut self.calls[c.slot as usize].call
    }

    /// Where dependency `d` of call `c` is kept, for [`dep_at`](Self::dep_at): a handler
    /// that touches one dependency several times looks its call up once.
    #[inline(always)]
    pub fn dep_index(&self, c: CallRef, d: usize) -> DepIndex {
        if d == 0 { c.slot as usize } else { SIDE | (self.calls[c.slot as usize].call.deps as usize + d - 1) }
    }

    /// The dependency kept at `i` (from [`dep_index`](Self::dep_index) while its call lives).
    #[inline(always)]
    pub fn dep_at(&self, i: DepIndex) -> &DepRt {
        if i & SIDE == 0 { &self.calls[i].first } else { &self.deps[i ^ SIDE] }
    }

    #[inline(always)]
    pub fn dep_at_mut(&mut self, i: DepIndex) -> &mut DepRt {
        if i & SIDE == 0 { &mut self.calls[i].first } else { &mut self.deps[i ^ SIDE] }
    }

    /// Dependency `d` of call `c`.
    #[inline(always)]
    pub fn dep(&self, c: CallRef, d: usize) -> &DepRt {
        self.dep_at(self.dep_index(c, d))
    }

    #[inline(always)]
    pub fn dep_mut(&mut self, c: CallRef, d: usize) -> &mut DepRt {
        self.dep_at_mut(self.dep_index(c, d))
    }

    /// Call `c` and its dependency `d`, from one lookup of the call.
    #[inline(always)]
    pub fn call_and_dep_mut(&mut self, c: CallRef, d: usize) -> (&Call, &mut DepRt) {
        let Slot { call, first } = &mut self.calls[c.slot as usize];
        let dep = if d == 0 { first } else { &mut self.deps[call.deps as usize + d - 1] };
        (call, dep)
    }

    /// Call `c` and its dependency kept at `i` (see [`dep_index`](Self::dep_index)), from
    /// one lookup of the call.
    #[inline(always)]
    pub fn call_and_dep_at_mut(&mut self, c: CallRef, i: DepIndex) -> (&mut Call, &mut DepRt) {
        if i & SIDE == 0 {
            debug_assert_eq!(i, c.slot as usize, "a first dependency is kept in its call's slot");
            let Slot { call, first } = &mut self.calls[i];
            (call, first)
        } else {
            (&mut self.calls[c.slot as usize].call, &mut self.deps[i ^ SIDE])
        }
    }

    /// Whether `c` is live and its dependency `d` is at attempt `attempt` in `state`.
    #[inline]
    pub fn dep_is(&self, c: CallRef, d: u8, attempt: u32, state: DepState) -> bool {
        self.dep_state(c, d, attempt) == Some(state)
    }

    /// The state of dependency `d` of `c` if `c` is live and the dependency is at attempt
    /// `attempt`.
    #[inline]
    pub fn dep_state(&self, c: CallRef, d: u8, attempt: u32) -> Option<DepState> {
        self.dep_state_at(c, d, attempt).map(|(_, state)| state)
    }

    /// [`dep_state`](Self::dep_state), with where the dependency is kept (see
    /// [`dep_index`](Self::dep_index)).
    #[inline]
    pub fn dep_state_at(&self, c: CallRef, d: u8, attempt: u32) -> Option<(DepIndex, DepState)> {
        let Slot { call, first } = self.calls.get(c.slot as usize)?;
        if !(call.live && call.generation == c.generation && (d as usize) < call.n_deps as usize) {
            return None;
        }
        let (i, dep) = if d == 0 {
            (c.slot as usize, first)
        } else {
            let j = call.deps as usize + d as usize - 1;
            (SIDE | j, &self.deps[j])
        };
        (dep.attempt == attempt).then_some((i, dep.state))
    }

    /// A call by slot, whatever its generation (for queue tokens).
    #[inline]
    pub fn at_slot(&self, slot: u32) -> Option<&Call> {
        self.calls.get(slot as usize).map(|s| &s.call)
    }

    /// Calls alive now.
    pub fn live(&self) -> usize {
        self.live
    }

    /// The hop of every call alive now (for the calls a run leaves unfinished).
    pub fn live_hops(&self) -> impl Iterator<Item = usize> + '_ {
        self.calls.iter().filter(|s| s.call.live).map(|s| s.call.hop as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::chain::stats::NO_TRACE;

    fn new_call(hop: usize, key: u64) -> NewCall {
        NewCall {
            hop,
            parent: None,
            key: Key(key),
            deadline: 0,
            arrived: 0,
            trace: NO_TRACE,
            request: 0,
            orphan: false,
        }
    }

    #[test]
    fn handles_go_stale_when_a_slot_is_reused() {
        let mut calls = Calls::default();
        let a = calls.alloc(new_call(0, 1));
        assert!(calls.valid(a));
        calls.start_deps(a, 3, 2, 5);
        assert_eq!(calls.dep(a, 1).client, 4);
        assert_eq!(calls.get(a).pending, 2);
        calls.release(a);
        assert!(!calls.valid(a));
        let b = calls.alloc(new_call(1, 2));
        assert_eq!(b.slot, a.slot, "the slot is reused");
        assert!(calls.valid(b) && !calls.valid(a), "the old handle stays stale");
        assert_eq!(calls.get(b).n_deps, 0, "a reused slot starts without dependencies");
        calls.start_deps(b, 0, 1, 9);
        assert_eq!(calls.dep(b, 0).started, 9);
        assert!(calls.dep_is(b, 0, 0, DepState::Idle));
        assert!(!calls.dep_is(b, 1, 0, DepState::Idle), "no such dependency");
        assert_eq!(calls.live(), 1);
    }
}

//! The event queue: a priority queue on (time, class, insertion sequence) with
//! cancellation.
//!
//! Simultaneous events are ordered first by [`Class`] (completions before timers before
//! arrivals, the rule source 002 states for admission: work that ends at or before `now`
//! frees its capacity before new work is looked at), then by insertion order. Cancellation
//! is by tombstone: a cancelled event's payload is dropped at once and its heap entry is
//! skipped when it reaches the top, so cancelling is O(1) and memory stays proportional to
//! what is pending.
//!
//! Most events are scheduled in time order within their class (work of a constant length,
//! timeouts of one length): each class has a FIFO lane that takes an event when it is not
//! earlier than the lane's last one, in O(1); only out-of-order events go to the binary
//! heap. The earliest event is the least of the lanes' fronts and the heap's top, so the
//! order is exactly the one a single heap would give.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};
use std::fmt;

/// Virtual time in integer microseconds since the start of the run.
pub type Micros = u64;

/// What kind of event, for ordering events at the same instant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u8)]
pub enum Class {
    /// Work finishing; frees capacity.
    Completion = 0,
    /// Timeouts, backoff wake-ups, breaker transitions.
    Timer = 1,
    /// New work entering the system.
    Arrival = 2,
}

/// A handle to a scheduled event, for [`EventQueue::cancel`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EventId {
    slot: u32,
    seq: u64,
}

/// Scheduling an event before the current time: the one place this is detected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PastEvent {
    /// When the event was asked for.
    pub at: Micros,
    /// The queue's current time.
    pub now: Micros,
}

impl fmt::Display for PastEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "event scheduled at {} µs, before the current time {} µs", self.at, self.now)
    }
}

impl std::error::Error for PastEvent {}

struct Slot<E> {
    seq: u64,
    payload: Option<E>,
}

/// A heap entry: time and sequence packed in one integer, so ordering is one comparison.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Entry {
    /// `time << 64 | seq`.
    key: u128,
    slot: u32,
}

impl Entry {
    fn at(&self) -> Micros {
        (self.key >> 64) as Micros
    }
    fn seq(&self) -> u64 {
        self.key as u64
    }
}

impl Ord for Entry {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.key.cmp(&other.key)
    }
}

impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// A deterministic discrete-event queue.
pub struct EventQueue<E> {
    heap: BinaryHeap<Reverse<Entry>>,
    /// One FIFO lane per class, each sorted by key.
    lanes: [VecDeque<Entry>; 3],
    slots: Vec<Slot<E>>,
    free: Vec<u32>,
    next_seq: u64,
    now: Micros,
    live: usize,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        Self::new()
    }
}

const CLASS_SHIFT: u32 = 62;

impl<E> EventQueue<E> {
    pub fn new() -> Self {
        EventQueue {
            heap: BinaryHeap::new(),
            lanes: [VecDeque::new(), VecDeque::new(), VecDeque::new()],
            slots: Vec::new(),
            free: Vec::new(),
            next_seq: 0,
            now: 0,
            live: 0,
        }
    }

    /// The time of the last event popped (0 before the first).
    pub fn now(&self) -> Micros {
        self.now
    }

    /// Events scheduled and not yet popped or cancelled.
    pub fn len(&self) -> usize {
        self.live
    }

    /// Whether nothing is pending.
    pub fn is_empty(&self) -> bool {
        self.live == 0
    }

    /// Schedules `payload` at `at`; an error if `at` is before now.
    pub fn schedule(&mut self, at: Micros, class: Class, payload: E) -> Result<EventId, PastEvent> {
        if at < self.now {
            return Err(PastEvent { at, now: self.now });
        }
        // The class sits in the top bits of the sequence so that one (time, seq) key
        // orders by time, then class, then insertion.
        let seq = ((class as u64) << CLASS_SHIFT) | self.next_seq;
        self.next_seq += 1;
        let slot = match self.free.pop() {
            Some(s) => {
                self.slots[s as usize] = Slot { seq, payload: Some(payload) };
                s
            }
            None => {
                self.slots.push(Slot { seq, payload: Some(payload) });
                (self.slots.len() - 1) as u32
            }
        };
        let e = Entry { key: (u128::from(at) << 64) | u128::from(seq), slot };
        let lane = &mut self.lanes[class as usize];
        if lane.back().is_none_or(|b| b.key < e.key) {
            lane.push_back(e);
        } else {
            self.heap.push(Reverse(e));
        }
        self.live += 1;
        Ok(EventId { slot, seq })
    }

    /// Cancels a pending event; returns whether it was still pending.
    pub fn cancel(&mut self, id: EventId) -> bool {
        match self.slots.get_mut(id.slot as usize) {
            Some(s) if s.seq == id.seq && s.payload.is_some() => {
                s.payload = None;
                self.free.push(id.slot);
                self.live -= 1;
                true
            }
            _ => false,
        }
    }

    /// Removes and returns the earliest pending event, advancing the clock to it.
    pub fn pop(&mut self) -> Option<(Micros, E)> {
        self.pop_until(Micros::MAX)
    }

    /// Removes and returns the earliest pending event if it is due at or before `limit`,
    /// advancing the clock to it.
    #[inline]
    pub fn pop_until(&mut self, limit: Micros) -> Option<(Micros, E)> {
        loop {
            // The least key among the lanes' fronts and the heap's top (3 = the heap).
            let mut best = Entry { key: u128::MAX, slot: 0 };
            let mut from = usize::MAX;
            for (i, lane) in self.lanes.iter().enumerate() {
                if let Some(e) = lane.front()
                    && e.key < best.key
                {
                    best = *e;
                    from = i;
                }
            }
            if let Some(Reverse(e)) = self.heap.peek()
                && e.key < best.key
            {
                best = *e;
                from = 3;
            }
            if from == usize::MAX {
                return None;
            }
            let s = &mut self.slots[best.slot as usize];
            let live = s.seq == best.seq() && s.payload.is_some();
            if live && best.at() > limit {
                return None;
            }
            if from == 3 {
                self.heap.pop();
            } else {
                self.lanes[from].pop_front();
            }
            if !live {
                continue; // cancelled (and perhaps the slot reused since)
            }
            let payload = s.payload.take();
            self.free.push(best.slot);
            self.live -= 1;
            self.now = best.at();
            return payload.map(|p| (best.at(), p));
        }
    }

    /// Moves the clock to `t` for something that happens outside the queue (an arrival
    /// the caller keeps itself); an error if `t` is before now or after a pending event.
    pub fn advance(&mut self, t: Micros) -> Result<(), PastEvent> {
        if t < self.now {
            return Err(PastEvent { at: t, now: self.now });
        }
        debug_assert!(self.peek_time().is_none_or(|p| p >= t), "advance past a pending event");
        self.now = t;
        Ok(())
    }

    /// The time of the earliest pending event, without removing it.
    pub fn peek_time(&mut self) -> Option<Micros> {
        let live = |slots: &[Slot<E>], e: &Entry| {
            let s = &slots[e.slot as usize];
            s.seq == e.seq() && s.payload.is_some()
        };
        let mut best: Option<Micros> = None;
        for lane in &mut self.lanes {
            while let Some(e) = lane.front() {
                if live(&self.slots, e) {
                    best = Some(best.map_or(e.at(), |b| b.min(e.at())));
                    break;
                }
                lane.pop_front();
            }
        }
        while let Some(Reverse(e)) = self.heap.peek() {
            if live(&self.slots, e) {
                best = Some(best.map_or(e.at(), |b| b.min(e.at())));
                break;
            }
            self.heap.pop();
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_by_time_then_class_then_insertion() {
        let mut q = EventQueue::new();
        q.schedule(10, Class::Arrival, "arrival@10").unwrap();
        q.schedule(10, Class::Timer, "timer@10").unwrap();
        q.schedule(5, Class::Arrival, "arrival@5").unwrap();
        q.schedule(10, Class::Completion, "done@10 first").unwrap();
        q.schedule(10, Class::Completion, "done@10 second").unwrap();
        let order: Vec<_> = std::iter::from_fn(|| q.pop().map(|(_, e)| e)).collect();
        assert_eq!(order, ["arrival@5", "done@10 first", "done@10 second", "timer@10", "arrival@10"]);
    }

    #[test]
    fn cancelled_events_never_fire_and_slots_are_reused() {
        let mut q = EventQueue::new();
        let a = q.schedule(1, Class::Timer, 'a').unwrap();
        let b = q.schedule(2, Class::Timer, 'b').unwrap();
        assert!(q.cancel(a));
        assert!(!q.cancel(a), "cancelling twice is a no-op");
        assert_eq!(q.len(), 1);
        let c = q.schedule(3, Class::Timer, 'c').unwrap();
        assert_ne!(a, c);
        assert!(!q.cancel(a), "a stale id does not cancel the slot's new event");
        assert_eq!(q.pop(), Some((2, 'b')));
        assert!(!q.cancel(b), "a popped event cannot be cancelled");
        assert_eq!(q.peek_time(), Some(3));
        assert_eq!(q.pop(), Some((3, 'c')));
        assert_eq!(q.pop(), None);
        assert!(q.is_empty());
    }

    /// proptest is a native dev-dependency.
    #[cfg(not(target_arch = "wasm32"))]
    mod props {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            /// Against a plain sorted list: random schedules (in and out of order per class),
            /// cancellations and pops, with and without a limit, give the same events in the
            /// same order.
            #[test]
            fn pops_in_time_class_insertion_order(ops in proptest::collection::vec((0u8..4, 0u64..50, 0u8..3), 1..300)) {
                let mut q = EventQueue::new();
                let mut model: Vec<(Micros, u8, u64, usize)> = Vec::new(); // (at, class, seq, id)
                let mut ids = Vec::new();
                let mut seq = 0;
                for (op, x, c) in ops {
                    let now = q.now();
                    match op {
                        0 | 1 => {
                            let class = [Class::Completion, Class::Timer, Class::Arrival][c as usize];
                            let at = now + x;
                            let id = q.schedule(at, class, ids.len()).unwrap();
                            model.push((at, c, seq, ids.len()));
                            ids.push(id);
                            seq += 1;
                        }
                        2 if !ids.is_empty() => {
                            let i = (x as usize) % ids.len();
                            let pending = model.iter().position(|m| m.3 == i);
                            prop_assert_eq!(q.cancel(ids[i]), pending.is_some());
                            if let Some(p) = pending {
                                model.remove(p);
                            }
                        }
                        _ => {
                            let limit = if c == 0 { Micros::MAX } else { now + x };
                            model.sort();
                            let expected = model.first().filter(|m| m.0 <= limit).copied();
                            let got = q.pop_until(limit);
                            prop_assert_eq!(got, expected.map(|m| (m.0, m.3)));
                            if expected.is_some() {
                                model.remove(0);
                            }
                        }
                    }
                    prop_assert_eq!(q.len(), model.len());
                }
            }
        }
    }

    #[test]
    fn scheduling_into_the_past_is_an_error() {
        let mut q = EventQueue::new();
        q.schedule(100, Class::Timer, ()).unwrap();
        q.pop();
        assert_eq!(q.schedule(99, Class::Timer, ()), Err(PastEvent { at: 99, now: 100 }));
        assert!(q.schedule(100, Class::Timer, ()).is_ok(), "now itself is allowed");
    }
}

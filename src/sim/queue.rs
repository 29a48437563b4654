//! The event queue: a priority queue on (time, class, insertion sequence).
//!
//! Simultaneous events are ordered first by [`Class`] (completions before timers before
//! arrivals, the rule source 002 states for admission: work that ends at or before `now`
//! frees its capacity before new work is looked at), then by insertion order.
//!
//! There is no cancellation: an event that is no longer wanted (a per-try timer whose call
//! answered, a backoff whose request ended) stays in the queue and is recognised as stale
//! when it comes out, by the state it names (a call's generation, a dependency's attempt
//! number). Payloads live inline in the queue, so scheduling and popping touch one place
//! and memory stays proportional to what is pending.
//!
//! Most events are scheduled in time order within their class (work of a constant length,
//! timeouts of one length): each class has a FIFO lane that takes an event when it is not
//! earlier than the lane's last one, in O(1); only out-of-order events go to the binary
//! heap. The earliest event is the least of the lanes' fronts and the heap's top, so the
//! order is exactly the one a single heap would give.

use super::out_of_order::OutOfOrder;
use std::collections::VecDeque;
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

/// A queued event: time and class packed in one integer (`time << 2 | class`), so most
/// comparisons are one `u64` compare; the insertion sequence breaks ties between events of
/// one class at one instant.
#[derive(Clone, Copy)]
struct Entry<E> {
    tc: u64,
    seq: u64,
    payload: E,
}

impl<E> Entry<E> {
    #[inline]
    fn at(&self) -> Micros {
        self.tc >> 2
    }

    /// Its place in the order as one number: comparing two is one 128-bit compare,
    /// without branches.
    #[inline(always)]
    fn key(&self) -> u128 {
        (u128::from(self.tc) << 64) | u128::from(self.seq)
    }
}

impl<E> PartialEq for Entry<E> {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}
impl<E> Eq for Entry<E> {}
impl<E> Ord for Entry<E> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.key().cmp(&other.key())
    }
}
/// The comparisons the heap uses, each one compare of the keys.
impl<E> PartialOrd for Entry<E> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
    #[inline(always)]
    fn lt(&self, other: &Self) -> bool {
        self.key() < other.key()
    }
    #[inline(always)]
    fn le(&self, other: &Self) -> bool {
        self.key() <= other.key()
    }
    #[inline(always)]
    fn gt(&self, other: &Self) -> bool {
        self.key() > other.key()
    }
    #[inline(always)]
    fn ge(&self, other: &Self) -> bool {
        self.key() >= other.key()
    }
}

/// Times must leave two bits for the class.
const MAX_TIME: Micros = Micros::MAX >> 2;
const EMPTY: u64 = u64::MAX;

/// A deterministic discrete-event queue.
pub struct EventQueue<E> {
    heap: OutOfOrder<Entry<E>>,
    /// One FIFO lane per class, each sorted by (time, sequence).
    lanes: [VecDeque<Entry<E>>; 3],
    /// The `time << 2 | class` at the front of each lane and at the top of the heap
    /// (`EMPTY` when empty), so finding the earliest event reads four numbers in one place.
    fronts: [u64; 4],
    next_seq: u64,
    now: Micros,
}

impl<E: Copy> Default for EventQueue<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E: Copy> EventQueue<E> {
    pub fn new() -> Self {
        EventQueue {
            heap: OutOfOrder::default(),
            lanes: [VecDeque::new(), VecDeque::new(), VecDeque::new()],
            fronts: [EMPTY; 4],
            next_seq: 0,
            now: 0,
        }
    }

    /// The time of the last event popped (0 before the first).
    pub fn now(&self) -> Micros {
        self.now
    }

    /// Events scheduled and not yet popped (stale ones included).
    pub fn len(&self) -> usize {
        self.heap.len() + self.lanes.iter().map(VecDeque::len).sum::<usize>()
    }

    /// Whether nothing is pending.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Schedules `payload` at `at`; an error if `at` is before now (or beyond the last
    /// time the queue can hold, 2⁶² µs).
    #[inline]
    pub fn schedule(&mut self, at: Micros, class: Class, payload: E) -> Result<(), PastEvent> {
        let seq = self.reserve();
        self.schedule_as(at, class, seq, payload)
    }

    /// Takes the next insertion sequence for an event kept outside the queue for now
    /// (see [`schedule_as`](Self::schedule_as)).
    #[inline]
    pub fn reserve(&mut self) -> u64 {
        self.next_seq += 1;
        self.next_seq - 1
    }

    /// Schedules `payload` with a sequence taken earlier by [`reserve`](Self::reserve): it
    /// is ordered as if it had been scheduled then. Lets a caller keep a run of events of
    /// one kind in a list of its own and hand the queue only the earliest.
    #[inline(always)]
    pub fn schedule_as(&mut self, at: Micros, class: Class, seq: u64, payload: E) -> Result<(), PastEvent> {
        if at < self.now || at > MAX_TIME {
            return Err(PastEvent { at, now: self.now });
        }
        let c = class as usize;
        let e = Entry { tc: (at << 2) | c as u64, seq, payload };
        let lane = &mut self.lanes[c];
        match lane.back() {
            None => {
                self.fronts[c] = e.tc;
                lane.push_back(e);
            }
            Some(b) if b.key() < e.key() => lane.push_back(e),
            Some(_) => {
                if self.heap.peek().is_none_or(|t| e.key() < t.key()) {
                    self.fronts[3] = e.tc;
                }
                self.heap.push(e);
            }
        }
        Ok(())
    }

    /// Removes and returns the earliest pending event, advancing the clock to it.
    pub fn pop(&mut self) -> Option<(Micros, E)> {
        self.pop_until(Micros::MAX)
    }

    /// Removes and returns the earliest pending event if it is due at or before `limit`,
    /// advancing the clock to it.
    #[inline(always)]
    pub fn pop_until(&mut self, limit: Micros) -> Option<(Micros, E)> {
        // The least key among the lanes' fronts and the heap's top (3 = the heap). Lanes
        // hold different classes, so only a lane and the heap can tie: then the sequence
        // decides.
        let f = self.fronts;
        let mut from = if f[1] < f[0] { 1 } else { 0 };
        if f[2] < f[from] {
            from = 2;
        }
        let best = f[from];
        if f[3] < best
            || (f[3] == best
                && best != EMPTY
                && self.heap.peek().zip(self.lanes[from].front()).is_some_and(|(h, l)| h.seq < l.seq))
        {
            from = 3;
        }
        let best = f[from];
        if best == EMPTY || (best >> 2) > limit {
            return None;
        }
        let e = if from == 3 {
            let e = self.heap.pop()?;
            self.fronts[3] = self.heap.peek().map_or(EMPTY, |n| n.tc);
            e
        } else {
            let lane = &mut self.lanes[from];
            let e = lane.pop_front()?;
            self.fronts[from] = lane.front().map_or(EMPTY, |n| n.tc);
            e
        };
        self.now = e.at();
        Some((e.at(), e.payload))
    }

    /// Drops every pending event for which `keep` says no (events known to be stale), so
    /// that memory follows what is still wanted. The order of the rest is unchanged.
    pub fn retain(&mut self, mut keep: impl FnMut(&E) -> bool) {
        for (i, lane) in self.lanes.iter_mut().enumerate() {
            lane.retain(|e| keep(&e.payload));
            self.fronts[i] = lane.front().map_or(EMPTY, |n| n.tc);
        }
        self.heap.retain(|e| keep(&e.payload));
        self.fronts[3] = self.heap.peek().map_or(EMPTY, |n| n.tc);
    }

    /// Moves the clock to `t` for something that happens outside the queue (an arrival
    /// the caller keeps itself); an error if `t` is before now.
    pub fn advance(&mut self, t: Micros) -> Result<(), PastEvent> {
        if t < self.now {
            return Err(PastEvent { at: t, now: self.now });
        }
        self.now = t;
        Ok(())
    }

    /// The time of the earliest pending event, without removing it.
    pub fn peek_time(&self) -> Option<Micros> {
        self.fronts.iter().copied().filter(|&f| f != EMPTY).min().map(|f| f >> 2)
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
        assert_eq!(q.peek_time(), Some(5));
        let order: Vec<_> = std::iter::from_fn(|| q.pop().map(|(_, e)| e)).collect();
        assert_eq!(order, ["arrival@5", "done@10 first", "done@10 second", "timer@10", "arrival@10"]);
        assert!(q.is_empty());
    }

    #[test]
    fn retain_drops_only_what_it_is_told() {
        let mut q = EventQueue::new();
        for i in 0..10u64 {
            q.schedule(i % 4, [Class::Completion, Class::Timer][(i % 2) as usize], i).unwrap();
        }
        q.retain(|&i| i % 3 != 0);
        let order: Vec<_> = std::iter::from_fn(|| q.pop().map(|(_, e)| e)).collect();
        assert_eq!(order, [4, 8, 1, 5, 2, 7]);
    }

    #[test]
    fn pop_until_leaves_later_events() {
        let mut q = EventQueue::new();
        q.schedule(7, Class::Timer, 'a').unwrap();
        assert_eq!(q.pop_until(6), None);
        assert_eq!(q.len(), 1);
        assert_eq!(q.pop_until(7), Some((7, 'a')));
        assert_eq!(q.now(), 7);
        assert_eq!(q.advance(6), Err(PastEvent { at: 6, now: 7 }));
        assert_eq!(q.advance(9), Ok(()));
    }

    /// proptest is a native dev-dependency.
    #[cfg(not(target_arch = "wasm32"))]
    mod props {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            /// Against a plain sorted list: random schedules (in and out of order per class)
            /// and pops, with and without a limit, give the same events in the same order.
            #[test]
            fn pops_in_time_class_insertion_order(ops in proptest::collection::vec((0u8..3, 0u64..50, 0u8..3), 1..300)) {
                let mut q = EventQueue::new();
                let mut model: Vec<(Micros, u8, u64, usize)> = Vec::new(); // (at, class, seq, id)
                let mut seq = 0;
                let mut id = 0;
                for (op, x, c) in ops {
                    let now = q.now();
                    if op < 2 {
                        let class = [Class::Completion, Class::Timer, Class::Arrival][c as usize];
                        let at = now + x;
                        q.schedule(at, class, id).unwrap();
                        model.push((at, c, seq, id));
                        id += 1;
                        seq += 1;
                    } else {
                        let limit = if c == 0 { Micros::MAX } else { now + x };
                        model.sort();
                        let expected = model.first().filter(|m| m.0 <= limit).copied();
                        let got = q.pop_until(limit);
                        prop_assert_eq!(got, expected.map(|m| (m.0, m.3)));
                        if expected.is_some() {
                            model.remove(0);
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

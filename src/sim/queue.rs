//! The event queue: a min-heap on (time, class, insertion sequence) with cancellation.
//!
//! Simultaneous events are ordered first by [`Class`] (completions before timers before
//! arrivals, the rule source 002 states for admission: work that ends at or before `now`
//! frees its capacity before new work is looked at), then by insertion order. Cancellation
//! is by tombstone: a cancelled event's payload is dropped at once and its heap entry is
//! skipped when it reaches the top, so cancelling is O(1) and memory stays proportional to
//! what is pending.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
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

/// A deterministic discrete-event queue.
pub struct EventQueue<E> {
    heap: BinaryHeap<Reverse<(Micros, u64, u32)>>,
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
        self.heap.push(Reverse((at, seq, slot)));
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
        while let Some(Reverse((at, seq, slot))) = self.heap.pop() {
            let s = &mut self.slots[slot as usize];
            if s.seq != seq {
                continue; // cancelled, and the slot reused since
            }
            let Some(payload) = s.payload.take() else { continue };
            self.free.push(slot);
            self.live -= 1;
            self.now = at;
            return Some((at, payload));
        }
        None
    }

    /// The time of the earliest pending event, without removing it.
    pub fn peek_time(&mut self) -> Option<Micros> {
        while let Some(&Reverse((at, seq, slot))) = self.heap.peek() {
            let s = &self.slots[slot as usize];
            if s.seq == seq && s.payload.is_some() {
                return Some(at);
            }
            self.heap.pop();
        }
        None
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

    #[test]
    fn scheduling_into_the_past_is_an_error() {
        let mut q = EventQueue::new();
        q.schedule(100, Class::Timer, ()).unwrap();
        q.pop();
        assert_eq!(q.schedule(99, Class::Timer, ()), Err(PastEvent { at: 99, now: 100 }));
        assert!(q.schedule(100, Class::Timer, ()).is_ok(), "now itself is allowed");
    }
}

//! The retry-chain kernel: a faster path for scenarios whose layers only retry.
//!
//! When no layer has a worker limit, admission, deadline, own work, side dependency,
//! timeout, retry budget, breaker, bulkhead or fallback, and the leaf has no worker limit,
//! admission or fault and works a fixed, non-zero time, nothing a call does can be
//! refused, queued, timed out or cancelled, and no request can affect another: a request is
//! a stack of retry loops, one per layer, over the leaf's answers, all decided by its own
//! random key. The kernel therefore walks each request's whole life when it arrives —
//! every attempt, backoff, span and mark, in the order the general engine would produce
//! them — instead of scheduling an event per leaf call.
//!
//! Only what is shared between requests needs time order: the in-flight levels (gauges)
//! and the request endings. The walk leaves those as *records* (a request's end, and the
//! workers given back and taken again around a backoff sleep) in a small heap, replayed
//! in (time, class) order between arrivals. That order reproduces the general engine's
//! gauges exactly. At one instant the engine handles the completions that were pending
//! (which only give workers back — a worker released and retaken within one instant
//! changes no peak, so the walk leaves it held), then the timers (which only take
//! workers), then arrivals; because leaf work takes time, nothing a timer sets off happens
//! within its own instant. So every in-between value lies between the instant's first and
//! last, and a bucket's peak is the same whatever the order inside one class. (With
//! zero-time work a wake-up's own completion would interleave with the other timers, which
//! is why the kernel leaves such leaves to the general engine.) Counters and histograms
//! are sums, so they are recorded when the walk meets them.
//!
//! The levels' series are batched per chart bucket: within one bucket a counter only needs
//! its sum and a gauge its highest value and its last, so the kernel keeps those and hands
//! them to the recorder when time moves past the bucket (or a call falls beyond it).
//!
//! It is the same model, not an approximation: the report is byte-identical to the general
//! engine's (`tests/kernel.rs` checks random retry-only chains against
//! [`Engine::General`](super::Engine::General)), including runs cut at the drain horizon.
//! Anything outside these conditions runs on the general engine.

use super::{ChainSim, ClientSpec, Ended, HopKind, HopSpec, NO_TRACE, Outcome, SimError, outcome_name};
use crate::policy::retry::Jitter;
use crate::report::{Mark, Span, ms};
use crate::scenario::validate::MAX_ATTEMPTS;
use crate::sim::recorder::{CounterId, GaugeId, Recorder};
use crate::sim::rng::{self, Key, Purpose};
use crate::sim::{Class, Micros};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Most levels (8 layers + the leaf).
const MAX_DEPTH: usize = 9;

/// What the kernel keeps per level — the hop's counters and, for layers, the client's —
/// and hands to the shared statistics in [`ChainSim::k_flush`].
struct Tier {
    /// Calls holding a worker at the hop (unlimited workers).
    active: i64,
    peak: i64,
    calls: u64,
    attempts_c: CounterId,
    in_flight_g: GaugeId,
    first_successes: u64,
    /// Calls at the hop in the current batch bucket, not yet recorded.
    batch_calls: u64,
    /// The highest in-flight level in the current batch bucket; `NONE` if it did not
    /// change there.
    batch_peak: i64,
}

const NONE: i64 = i64::MIN;

impl Tier {
    /// A call arrives at the hop at `now`; `in_batch`: `now` is in the batched bucket.
    #[inline(always)]
    fn count_call(&mut self, in_batch: bool, rec: &mut Recorder, now: Micros) {
        self.calls += 1;
        if in_batch {
            self.batch_calls += 1;
        } else {
            // Beyond the batched bucket (the request outlives it): record it directly.
            rec.add(self.attempts_c, now, 1);
        }
    }
}

/// Something that must happen in time order with other requests.
#[derive(Clone, Copy, Debug)]
enum Change {
    /// Levels `lo..=hi` give their workers back (a backoff sleep starts).
    Release { lo: u8, hi: u8 },
    /// Levels `lo..=hi` take workers again (the sleep is over).
    Take { lo: u8, hi: u8 },
    /// The request ends: every level gives its worker back, and the ending is counted.
    /// Outcomes as [`code`]s, to keep records small.
    End { arrived: Micros, trace: u32, outcome: u8, core_failure: u8 },
}

/// The outcomes a kernel request can end with, as one byte (`NO_FAILURE` for none).
fn code(o: Option<Outcome>) -> u8 {
    match o {
        None => NO_FAILURE,
        Some(Outcome::Ok) => 0,
        Some(Outcome::ClientError) => 1,
        Some(Outcome::DeadlineExceeded) => 2,
        Some(o) => {
            debug_assert_eq!(o, Outcome::Error, "no timeouts, budgets or limits in the kernel");
            3
        }
    }
}

const NO_FAILURE: u8 = u8::MAX;

fn decode(c: u8) -> Option<Outcome> {
    match c {
        0 => Some(Outcome::Ok),
        1 => Some(Outcome::ClientError),
        2 => Some(Outcome::DeadlineExceeded),
        3 => Some(Outcome::Error),
        _ => None,
    }
}

/// Records wait in a heap of keys `time << 64 | class << 62 | slot`, their changes in a
/// slab at `slot`: small keys keep the heap fast. Records at one time and class are all
/// decreases or all increases, so their order among themselves (here, by slot) changes no
/// result.
fn record_key(at: Micros, class: Class, slot: u32) -> u128 {
    (u128::from(at) << 64) | (u128::from(class as u8) << 62) | u128::from(slot)
}

/// The kernel's state.
pub(super) struct Kernel {
    /// Levels: layers + the leaf.
    depth: usize,
    tiers: Vec<Tier>,
    records: BinaryHeap<Reverse<u128>>,
    /// `rng::child_salt(0, a)` for every attempt number `a` a layer can make.
    salts: Vec<u64>,
    /// The walk buffer, between requests.
    walk: Option<Box<Walk>>,
    /// The changes of pending records, by slot, and the free slots.
    changes: Vec<Change>,
    free: Vec<u32>,
    /// The recorder bucket being batched: `[start, end)`.
    batch: (Micros, Micros),
    /// Requests offered, then ended by kind, in the batched bucket.
    batch_requests: [u64; 5],
    /// The highest number of requests in flight in the batched bucket (`NONE`: no change).
    batch_live_peak: i64,
}

impl Kernel {
    /// A request arrived (`what` 0) or ended (1 + its end kind) in the batched bucket,
    /// leaving `live` requests in flight.
    #[inline(always)]
    pub(super) fn batch_request(&mut self, what: usize, live: i64) {
        self.batch_requests[what] += 1;
        self.batch_live_peak = self.batch_live_peak.max(live);
    }
}

/// Whether a compiled scenario fits the kernel's conditions (see the module docs).
pub(super) fn fits(hops: &[HopSpec], clients: &[ClientSpec]) -> bool {
    let n_layers = clients.len();
    if n_layers == 0 || hops.len() != n_layers + 1 || hops.len() > MAX_DEPTH {
        return false; // side dependencies add hops and clients
    }
    let layers_fit = hops[..n_layers].iter().enumerate().all(|(i, h)| {
        matches!(&h.kind, HopKind::Layer { deadline: None, deps, shared: None } if deps == &[i])
            && h.workers.is_none()
            && h.admission.is_none()
            && h.fixed_work == Some(0)
            && h.faults.is_empty()
    });
    let clients_fit = clients.iter().enumerate().all(|(i, c)| {
        c.caller == i
            && c.callee == i + 1
            && c.per_try.is_none()
            && c.budget.is_none()
            && c.breaker.is_none()
            && c.bulkhead.is_none()
            && !c.shared
            && c.fallback.is_none()
            && c.needed_by >= 1.0
    });
    let leaf = &hops[n_layers];
    // Leaf calls must take time (at least 1 µs, always the same): then nothing a wake-up
    // sets off happens within its own instant, which the record order relies on.
    let leaf_fits = matches!(leaf.kind, HopKind::Leaf { .. })
        && leaf.workers.is_none()
        && leaf.admission.is_none()
        && leaf.faults.is_empty()
        && leaf.fixed_work.is_some_and(|w| w > 0);
    layers_fit && clients_fit && leaf_fits
}

/// One request's calls in flight, per level (0 = the entry layer, `depth - 1` = the leaf).
struct Walk {
    key: [Key; MAX_DEPTH],
    /// When the level's call arrived (its work starts at once).
    arrived: [Micros; MAX_DEPTH],
    /// Layers: the attempt number of the call to the next level.
    attempt: [u32; MAX_DEPTH],
    /// Layers: the last backoff slept (µs).
    prev_sleep: [Micros; MAX_DEPTH],
    trace: u32,
}

impl ChainSim {
    /// Sets up the kernel's state (after `fits`).
    pub(super) fn k_init(&mut self) {
        let tiers = self
            .hop_rt
            .iter()
            .map(|h| Tier {
                active: 0,
                peak: h.peak_in_flight,
                calls: 0,
                attempts_c: h.attempts_c,
                in_flight_g: h.in_flight_g,
                first_successes: 0,
                batch_calls: 0,
                batch_peak: NONE,
            })
            .collect();
        let batch = self.rec.bucket_span(0);
        self.kernel = Some(Kernel {
            depth: self.hops.len(),
            tiers,
            records: BinaryHeap::new(),
            salts: (0..=MAX_ATTEMPTS + 1).map(|a| rng::child_salt(0, a)).collect(),
            walk: None,
            changes: Vec::new(),
            free: Vec::new(),
            batch,
            batch_requests: [0; 5],
            batch_live_peak: NONE,
        });
    }

    /// Adds the kernel's counters to the shared statistics (once, before the report).
    pub(super) fn k_flush(&mut self) {
        self.k_flush_batch();
        let Some(k) = self.kernel.as_mut() else { return };
        // Every call at a layer makes its first attempt at once, and every attempt is a
        // call at the next level: layer i's attempts are level i + 1's calls, and its
        // retries the difference.
        let calls: Vec<u64> = k.tiers.iter_mut().map(|t| std::mem::take(&mut t.calls)).collect();
        for (i, t) in k.tiers.iter_mut().enumerate() {
            let h = &mut self.hop_rt[i];
            h.calls += calls[i];
            h.peak_in_flight = h.peak_in_flight.max(t.peak);
            if let Some(c) = self.client_rt.get_mut(i) {
                let attempts = calls[i + 1];
                c.attempts += attempts;
                c.retries += attempts - calls[i];
                self.totals.retries += attempts - calls[i];
                c.first_successes += std::mem::take(&mut t.first_successes);
            }
        }
    }

    /// Hands the batched bucket's counts and peaks to the recorder.
    fn k_flush_batch(&mut self) {
        let Some(k) = self.kernel.as_mut() else { return };
        let at = k.batch.0;
        let series = [self.offered_c, self.end_c[0], self.end_c[1], self.end_c[2], self.end_c[3]];
        for (c, n) in series.into_iter().zip(&mut k.batch_requests) {
            if *n > 0 {
                self.rec.add(c, at, std::mem::take(n));
            }
        }
        let peak = std::mem::replace(&mut k.batch_live_peak, NONE);
        if peak != NONE {
            self.rec.set(self.requests_g, at, peak);
            self.rec.set(self.requests_g, at, self.live_requests as i64);
        }
        for t in &mut k.tiers {
            if t.batch_calls > 0 {
                self.rec.add(t.attempts_c, at, std::mem::take(&mut t.batch_calls));
            }
            let peak = std::mem::replace(&mut t.batch_peak, NONE);
            if peak != NONE {
                self.rec.set(t.in_flight_g, at, peak);
                self.rec.set(t.in_flight_g, at, t.active);
            }
        }
    }

    /// Time has reached `now` (in order): start batching its bucket if it is a new one.
    #[inline(always)]
    fn k_advance(&mut self, now: Micros) {
        if now >= self.kernel().batch.1 {
            self.k_flush_batch();
            let span = self.rec.bucket_span(now);
            self.kernel().batch = span;
        }
    }

    fn kernel(&mut self) -> &mut Kernel {
        self.kernel.as_mut().expect("kernel mode")
    }

    /// The kernel's event loop: arrivals (each walks its request) and, before each, the
    /// records due by then. Counts events as the general engine would: arrivals here,
    /// leaf completions and backoff wake-ups in the walk.
    pub(super) fn k_step(&mut self, max_events: u64) -> Result<bool, SimError> {
        let mut n = 0;
        while n < max_events {
            let due = self.kernel().records.peek().map(|r| (r.0 >> 64) as Micros);
            match (due, self.next_arrival) {
                // Records are completions or timers: at equal times they go first.
                (Some(r), a) if a.is_none_or(|a| r <= a) => {
                    let k = self.kernel();
                    let Reverse(key) = k.records.pop().expect("peeked");
                    let slot = key as u32;
                    k.free.push(slot);
                    let change = k.changes[slot as usize];
                    self.k_apply((key >> 64) as Micros, change);
                }
                (_, Some(a)) => {
                    self.k_advance(a);
                    self.next_arrival = None;
                    self.last_t = self.last_t.max(a);
                    self.totals.events += 1;
                    n += 1;
                    self.on_arrival(a);
                }
                _ => {
                    self.done = true;
                    break;
                }
            }
        }
        Ok(self.done)
    }

    fn k_record(&mut self, at: Micros, class: Class, change: Change) {
        let k = self.kernel();
        let slot = match k.free.pop() {
            Some(slot) => {
                k.changes[slot as usize] = change;
                slot
            }
            None => {
                k.changes.push(change);
                (k.changes.len() - 1) as u32
            }
        };
        k.records.push(Reverse(record_key(at, class, slot)));
    }

    fn k_apply(&mut self, now: Micros, change: Change) {
        self.k_advance(now);
        match change {
            Change::Release { lo, hi } => self.k_shift(now, lo as usize, hi as usize, -1),
            Change::Take { lo, hi } => self.k_shift(now, lo as usize, hi as usize, 1),
            Change::End { arrived, trace, outcome, core_failure } => {
                let leaf = self.kernel().depth - 1;
                self.k_shift(now, 0, leaf, -1);
                let (outcome, core_failure) =
                    (decode(outcome).unwrap_or(Outcome::Error), decode(core_failure));
                let ended =
                    Ended { arrived, trace, outcome, core_failure, turned_away: false, degraded: None };
                self.end_request(now, ended);
            }
        }
    }

    /// Levels `lo..=hi` take (`delta` = 1) or give back (-1) a worker at `now`.
    #[inline(always)]
    fn k_shift(&mut self, now: Micros, lo: usize, hi: usize, delta: i64) {
        let k = self.kernel.as_mut().expect("kernel mode");
        debug_assert!(now >= k.batch.0 && now < k.batch.1, "gauges move in time order");
        for t in &mut k.tiers[lo..=hi] {
            t.active += delta;
            t.peak = t.peak.max(t.active);
            t.batch_peak = t.batch_peak.max(t.active);
        }
    }

    /// A new original request arrives at `now`: walk its whole life.
    pub(super) fn k_request(&mut self, now: Micros, key: Key, trace: u32) {
        // One walk buffer serves every request: each level's entries are written as the
        // walk reaches the level.
        let mut w = self.kernel().walk.take().unwrap_or_else(|| {
            Box::new(Walk {
                key: [Key(0); MAX_DEPTH],
                arrived: [0; MAX_DEPTH],
                attempt: [0; MAX_DEPTH],
                prev_sleep: [0; MAX_DEPTH],
                trace,
            })
        });
        w.key[0] = key;
        w.arrived[0] = now;
        w.attempt[0] = 0;
        w.prev_sleep[0] = 0;
        w.trace = trace;
        self.k_walk(&mut w, now);
        self.kernel().walk = Some(w);
    }

    /// Walks the request that arrived at `now` from its entry call (set up in `w`).
    fn k_walk(&mut self, w: &mut Walk, now: Micros) {
        let depth = self.kernel().depth;
        let leaf = depth - 1;
        let horizon = self.horizon;
        let trace = w.trace;
        self.k_enter(now, 0);
        // The descent from the entry: every level takes a worker now (arrivals are
        // handled in time order, so this is applied at once).
        self.k_descend(w, 0, now);
        self.k_shift(now, 0, leaf, 1);
        let HopKind::Leaf { error_rate, client_error_rate, .. } = self.hops[leaf].kind else {
            unreachable!("the kernel's last level is the leaf")
        };
        let work = self.hops[leaf].fixed_work.expect("the kernel's leaf work is fixed");
        let mut t = now;
        loop {
            // The leaf call that started at `t` answers.
            t += work;
            if t > horizon {
                return; // the run ends first: the request stays unfinished, its calls held
            }
            self.totals.events += 1;
            self.last_t = self.last_t.max(t);
            let lk = w.key[leaf];
            let mut out = if lk.uniform(Purpose::Failure) < error_rate {
                Outcome::Error
            } else if client_error_rate > 0.0 && lk.uniform(Purpose::ClientError) < client_error_rate {
                Outcome::ClientError
            } else {
                Outcome::Ok
            };
            // An empty result only counts behind a fallback, and kernel layers have none.
            // The answer travels up until a layer retries or the entry answers.
            let mut lvl = leaf;
            let mut raw = None; // the failure the answering call's dependency reported
            let retry_from = loop {
                if w.trace != NO_TRACE {
                    self.k_span(w, lvl, t, out);
                }
                if lvl == 0 {
                    let change = Change::End {
                        arrived: now,
                        trace,
                        outcome: code(Some(out)),
                        core_failure: code(raw),
                    };
                    self.k_record(t, Class::Completion, change);
                    return;
                }
                lvl -= 1;
                let attempt = w.attempt[lvl];
                if out.is_ok() {
                    if attempt == 1 {
                        self.kernel().tiers[lvl].first_successes += 1;
                    }
                    raw = None;
                    continue;
                }
                let spec = &self.clients[lvl];
                if spec.retry_on.allows(out) && attempt < spec.max_attempts {
                    // Jitter::None ignores the draw (a pure function of the key: skipping
                    // it changes nothing).
                    let u = if spec.backoff.jitter == Jitter::None {
                        0.0
                    } else {
                        w.key[lvl].uniform_n(Purpose::Jitter, attempt * 8)
                    };
                    let delay = spec.backoff.delay(attempt, w.prev_sleep[lvl], u);
                    w.prev_sleep[lvl] = delay;
                    break (lvl, delay);
                }
                // The layer's only dependency failed for good: it answers with the failure.
                raw = Some(out);
                out = match out {
                    Outcome::ClientError => Outcome::ClientError,
                    Outcome::DeadlineExceeded => Outcome::DeadlineExceeded,
                    _ => Outcome::Error,
                };
            };
            let (lvl, delay) = retry_from;
            if delay > 0 {
                // The levels below give their workers back and sleep.
                let (lo, hi) = ((lvl + 1) as u8, leaf as u8);
                self.k_record(t, Class::Completion, Change::Release { lo, hi });
                if w.trace != NO_TRACE {
                    let mark = Mark {
                        hop: lvl,
                        kind: "backoff".to_string(),
                        start_ms: ms(t),
                        end_ms: ms(t + delay),
                    };
                    self.traces[w.trace as usize].marks.push(mark);
                }
                t += delay;
                if t > horizon {
                    return;
                }
                self.totals.events += 1;
                self.last_t = self.last_t.max(t);
                self.k_record(t, Class::Timer, Change::Take { lo, hi });
            }
            // Retried at once, the levels below keep their workers: they answered and are
            // called again within this instant.
            self.k_descend(w, lvl, t);
        }
    }

    /// A call arrives at level `lvl` at `now` (counters; workers are `k_shift`'s).
    #[inline(always)]
    fn k_enter(&mut self, now: Micros, lvl: usize) {
        let k = self.kernel.as_mut().expect("kernel mode");
        k.tiers[lvl].count_call(now < k.batch.1, &mut self.rec, now);
    }

    /// Layer `lvl` sends its next attempt at `now`; each layer below sends its first, down
    /// to the leaf.
    fn k_descend(&mut self, w: &mut Walk, mut lvl: usize, now: Micros) {
        let k = self.kernel.as_mut().expect("kernel mode");
        let leaf = k.depth - 1;
        let in_batch = now < k.batch.1;
        while lvl < leaf {
            w.attempt[lvl] += 1;
            let a = w.attempt[lvl];
            // The salt of attempt `a` (tabulated; the same key as `Key::child(0, a)`).
            let child = w.key[lvl].child_salted(k.salts[a as usize]);
            // The attempt is counted as the next level's call (see `k_flush`).
            lvl += 1;
            w.key[lvl] = child;
            w.arrived[lvl] = now;
            w.attempt[lvl] = 0;
            w.prev_sleep[lvl] = 0;
            // The call arrives at the next level (its worker is `k_shift`'s business).
            k.tiers[lvl].count_call(in_batch, &mut self.rec, now);
        }
    }

    #[cold]
    fn k_span(&mut self, w: &Walk, lvl: usize, now: Micros, out: Outcome) {
        let arrived = w.arrived[lvl];
        let attempt = if lvl == 0 { 1 } else { w.attempt[lvl - 1] };
        self.traces[w.trace as usize].spans.push(Span {
            hop: lvl,
            attempt,
            start_ms: ms(arrived),
            work_ms: Some(ms(arrived)),
            end_ms: ms(now),
            result: outcome_name(out).to_string(),
            abandoned: false,
        });
    }
}

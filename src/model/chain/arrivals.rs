//! Arrivals: when original requests enter the chain, and the random key each carries.
//!
//! Batch (all at t = 0), constant (evenly spaced) or Poisson, at a rate multiplied by any
//! traffic surge in force. Each arrival draws its request's 64-bit key from the arrivals
//! stream: every later draw that request needs is a function of that key (common random
//! numbers), so two runs on one seed see the same traffic.

use crate::scenario::{Load, Scenario, faults};
use crate::sim::Micros;
use crate::sim::rng::{self, Key, Stream};

pub(super) struct Arrivals {
    poisson: bool,
    batch: Option<u64>,
    /// Arrivals per second outside surges (after the peak factor).
    per_s: f64,
    /// Arrivals per µs outside surges.
    rate: f64,
    /// 1 / `rate`: the mean gap between arrivals outside surges (µs).
    gap: f64,
    end: f64,
    next_t: f64,
    produced: u64,
    surges: Vec<(f64, f64, f64)>,
    stream: Stream,
    /// Constant arrivals: the rate in force since `seg_start` (µs, a surge edge or 0), and
    /// how many arrivals that stretch has produced. The next is at
    /// `seg_start + seg_k · 10⁶ / rate` µs: computed from the count, so no error builds up.
    seg_start: f64,
    seg_k: u64,
    /// Arrivals drawn ahead (see [`Arrivals::next`]) and how many of them were handed out.
    ahead: Vec<(Micros, Key)>,
    ahead_used: usize,
    /// The draw ahead met the end of the arrivals.
    ahead_ended: bool,
}

/// Arrivals drawn at a time on the fast path.
const AHEAD: usize = 32;

impl Arrivals {
    pub(super) fn new(s: &Scenario, seed: u64) -> Self {
        let surges: Vec<(f64, f64, f64)> =
            faults::surges(&s.faults).into_iter().map(|(a, b, f)| (a * 1000.0, b * 1000.0, f)).collect();
        // (batch size, arrivals per µs, end in µs, Poisson?)
        let (batch, rate, end, poisson) = match s.load {
            Load::Batch { requests } => (Some(requests), 0.0, 0.0, false),
            Load::Constant { rate_per_s, peak_factor, duration_ms } => {
                (None, rate_per_s * peak_factor / 1e6, duration_ms * 1000.0, false)
            }
            Load::Poisson { rate_per_s, peak_factor, duration_ms } => {
                (None, rate_per_s * peak_factor / 1e6, duration_ms * 1000.0, true)
            }
        };
        Arrivals {
            poisson,
            batch,
            per_s: s.entry_rate_per_s().unwrap_or(0.0),
            rate,
            gap: if rate > 0.0 { 1.0 / rate } else { 0.0 },
            end,
            next_t: 0.0,
            produced: 0,
            surges,
            seg_start: 0.0,
            seg_k: 0,
            stream: rng::fork(seed, "arrivals"),
            ahead: Vec::new(),
            ahead_used: 0,
            ahead_ended: false,
        }
    }

    fn factor_at(&self, t: f64) -> f64 {
        faults::surge_factor(&self.surges, t)
    }

    fn next_boundary(&self, t: f64) -> f64 {
        self.surges.iter().flat_map(|(a, b, _)| [*a, *b]).filter(|x| *x > t).fold(f64::INFINITY, f64::min)
    }

    /// The next arrival time (µs) and the request's key, or `None` when arrivals are over.
    ///
    /// Poisson arrivals at one rate are drawn [`AHEAD`] at a time: the same draws from the
    /// stream in the same order and the same arithmetic as one at a time, but the
    /// logarithms, which do not depend on each other, run back to back where the processor
    /// can overlap them.
    #[inline(always)]
    pub(super) fn next(&mut self) -> Option<(Micros, Key)> {
        if let Some(&a) = self.ahead.get(self.ahead_used) {
            self.ahead_used += 1;
            return Some(a);
        }
        self.next_drawn()
    }

    /// [`next`](Self::next) once the arrivals drawn ahead are used up.
    #[inline(never)]
    fn next_drawn(&mut self) -> Option<(Micros, Key)> {
        if self.ahead_ended {
            return None;
        }
        if self.batch.is_none()
            && self.poisson
            && self.produced > 0
            && self.surges.is_empty()
            && self.rate > 0.0
        {
            self.draw_ahead();
            return self.next();
        }
        self.draw()
    }

    fn draw_ahead(&mut self) {
        let mut u = [0.0; AHEAD];
        let mut keys = [0u64; AHEAD];
        for (u, k) in u.iter_mut().zip(&mut keys) {
            *u = self.stream.uniform();
            *k = self.stream.next_u64();
        }
        let gaps = u.map(|u| rng::exponential(self.gap, u));
        self.ahead.clear();
        self.ahead_used = 0;
        for (gap, key) in gaps.into_iter().zip(keys) {
            let t = self.next_t + gap;
            if t >= self.end {
                // Past the end: the key drawn for it is never used, and nothing else draws
                // from this stream.
                self.ahead_ended = true;
                return;
            }
            self.next_t = t;
            self.produced += 1;
            self.ahead.push((crate::sim::round_us(t), Key(key)));
        }
    }

    /// The next arrival, drawn on its own.
    fn draw(&mut self) -> Option<(Micros, Key)> {
        if let Some(total) = self.batch {
            if self.produced >= total {
                return None;
            }
            self.produced += 1;
            return Some((0, Key(self.stream.next_u64())));
        }
        let t = if !self.poisson {
            self.next_constant()?
        } else if self.produced == 0 {
            0.0
        } else if self.surges.is_empty() && self.rate > 0.0 {
            // One rate throughout (the loop below with no boundaries, minus its bookkeeping;
            // 1/rate is the same number either way).
            let gap = self.gap;
            self.next_t + if self.poisson { rng::exponential(gap, self.stream.uniform()) } else { gap }
        } else {
            let mut t = self.next_t;
            loop {
                let rate = self.rate * self.factor_at(t);
                let boundary = self.next_boundary(t);
                if rate <= 0.0 {
                    if boundary.is_finite() {
                        t = boundary;
                        continue;
                    }
                    return None;
                }
                let gap = rng::exponential(1.0 / rate, self.stream.uniform());
                if t + gap <= boundary {
                    t += gap;
                    break;
                }
                t = boundary; // memoryless: redraw from the boundary at the new rate
            }
            t
        };
        if t >= self.end {
            return None;
        }
        self.next_t = t;
        self.produced += 1;
        Some((crate::sim::round_us(t), Key(self.stream.next_u64())))
    }

    /// The next evenly spaced arrival (µs): the first at 0, then one gap apart; where a
    /// surge begins or ends, the spacing restarts from that edge at the new rate.
    ///
    /// Each time is compared with the edges and the end as the whole microsecond it
    /// becomes: the rate times a peak factor is seldom exact in binary (0.1 × 3 is
    /// 0.30000000000000004/s), and the 3rd gap would then end 0.00001 µs before a 10 s
    /// run's end and count a 4th request where 0.3/s for 10 s makes 3.
    fn next_constant(&mut self) -> Option<f64> {
        loop {
            // Requests per second in force from the segment's start.
            let per_s = self.per_s * self.factor_at(self.seg_start);
            let boundary = self.next_boundary(self.seg_start);
            if per_s > 0.0 {
                let t = crate::sim::round_us(self.seg_start + (self.seg_k as f64 * 1e6) / per_s) as f64;
                if t <= boundary {
                    self.seg_k += 1;
                    return Some(t);
                }
            } else if !boundary.is_finite() {
                return None;
            }
            self.seg_start = boundary;
            self.seg_k = 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::presets;

    fn times(load: Load, faults: Vec<crate::scenario::Fault>) -> Vec<Micros> {
        let mut s = presets::chain_3x3();
        s.load = load;
        s.faults = faults;
        let mut a = Arrivals::new(&s, 1);
        std::iter::from_fn(|| a.next().map(|(t, _)| t)).collect()
    }

    #[test]
    fn constant_arrivals_count_exactly() {
        let c = |rate_per_s, duration_ms| Load::Constant { rate_per_s, peak_factor: 1.0, duration_ms };
        let ten = times(c(10.0, 5_000.0), vec![]);
        assert_eq!(ten.len(), 50, "10/s for 5 s: 50, the last at 4.9 s");
        assert_eq!((ten[1], ten[49]), (100_000, 4_900_000));
        assert_eq!(times(c(20.0, 1_000.0), vec![]).len(), 20);
        assert_eq!(times(c(3.0, 1_000.0), vec![]), vec![0, 333_333, 666_667]);
        assert_eq!(times(c(1000.0, 1_000.0), vec![]).len(), 1000);
        // 0.1/s at a peak factor of 3 is 0.30000000000000004/s in binary: still 3 requests
        // in 10 s, at 0, 3.33 and 6.67 s.
        let peak = Load::Constant { rate_per_s: 0.1, peak_factor: 3.0, duration_ms: 10_000.0 };
        assert_eq!(times(peak, vec![]), vec![0, 3_333_333, 6_666_667]);
    }

    #[test]
    fn surges_restart_the_spacing_at_their_edges() {
        let surge = crate::scenario::Fault {
            target: String::new(),
            start_ms: 250.0,
            end_ms: 500.0,
            effect: crate::scenario::FaultEffect::Surge { factor: 2.0 },
        };
        let t =
            times(Load::Constant { rate_per_s: 10.0, peak_factor: 1.0, duration_ms: 1_000.0 }, vec![surge]);
        assert_eq!(
            t,
            vec![
                0, 100_000, 200_000, 300_000, 350_000, 400_000, 450_000, 500_000, 600_000, 700_000, 800_000,
                900_000
            ]
        );
        let batch = times(Load::Batch { requests: 4 }, vec![]);
        assert_eq!(batch, vec![0; 4]);
    }
}

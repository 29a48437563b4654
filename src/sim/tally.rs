//! A latency histogram with a small cache of repeated values in front of it.
//!
//! Simulated latencies repeat a lot (work of a fixed length, retried a whole number of
//! times), and recording a value in an `hdrhistogram` costs several times what counting
//! it in a small direct-mapped table does. Counts are added to the histogram when a slot
//! is reused and when the histogram is read, with `record_n`, so the histogram ends up
//! exactly as if every value had been recorded one by one.

use hdrhistogram::Histogram;

const SLOTS: usize = 64;

/// Values waiting to be added to a histogram, by slot.
pub struct Tally {
    hist: Histogram<u64>,
    values: [u64; SLOTS],
    counts: [u64; SLOTS],
}

impl Tally {
    /// A tally in front of `hist`.
    pub fn new(hist: Histogram<u64>) -> Self {
        Tally { hist, values: [0; SLOTS], counts: [0; SLOTS] }
    }

    /// Records one `value` (clamped to the histogram's range by the caller).
    #[inline]
    pub fn record(&mut self, value: u64) {
        let slot = ((value ^ (value >> 6) ^ (value >> 12)) as usize) % SLOTS;
        if self.values[slot] == value {
            self.counts[slot] += 1;
        } else {
            self.spill(slot);
            self.values[slot] = value;
            self.counts[slot] = 1;
        }
    }

    fn spill(&mut self, slot: usize) {
        let n = std::mem::take(&mut self.counts[slot]);
        if n > 0 {
            // Values are clamped to the histogram's bounds, so this cannot fail.
            let _ = self.hist.record_n(self.values[slot], n);
        }
    }

    /// The histogram with every value recorded.
    pub fn into_histogram(mut self) -> Histogram<u64> {
        for slot in 0..SLOTS {
            self.spill(slot);
        }
        self.hist
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_histogram_as_recording_one_by_one() {
        let mut direct = Histogram::<u64>::new_with_bounds(1, 1_000_000, 3).unwrap();
        let mut tally = Tally::new(direct.clone());
        let mut x = 12345u64;
        for i in 0..10_000u64 {
            // A mix of repeated values and a spread of others, colliding in slots.
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let v = if i % 3 == 0 { 10_000 * (1 + (x >> 60)) } else { 1 + (x >> 44) % 999_999 };
            direct.record(v).unwrap();
            tally.record(v);
        }
        let h = &tally.into_histogram();
        assert_eq!(h.len(), direct.len());
        assert_eq!((h.min(), h.max()), (direct.min(), direct.max()));
        for q in [0.0, 0.1, 0.5, 0.9, 0.99, 0.999, 1.0] {
            assert_eq!(h.value_at_quantile(q), direct.value_at_quantile(q), "quantile {q}");
        }
        assert!(h.iter_recorded().eq(direct.iter_recorded()));
    }
}

//! The first request seen at each latency, coarsely: so that a click on a latency bar can
//! name a request from that bar without tracing every request.
//!
//! Latencies are grouped in buckets of 1/16 of an octave (≈ 4.4 %); each bucket keeps the
//! first request that ended in it and its exact latency. Memory is fixed (64 octaves × 16),
//! whatever the number of requests. A bar of the report's latency chart is far wider than
//! a bucket, so at most one bar edge cuts a bucket; the bar's example is the earliest
//! request whose kept latency falls in the bar (a bar whose only values share a cut bucket
//! with an earlier request of the neighbouring bar has none).

/// Sub-buckets per octave (a power of two).
const SUB: u64 = 16;
const SUB_BITS: u32 = SUB.trailing_zeros();
/// Buckets: values below `SUB` get one each, then `SUB` per octave.
const BUCKETS: usize = (64 * SUB) as usize;

/// The first request and its latency per coarse latency bucket.
#[derive(Clone)]
pub struct FirstSeen {
    slots: Vec<Option<(u64, u64)>>,
}

impl Default for FirstSeen {
    fn default() -> Self {
        FirstSeen { slots: vec![None; BUCKETS] }
    }
}

/// The bucket of `v` (µs).
#[inline]
fn bucket(v: u64) -> usize {
    if v < SUB {
        return v as usize;
    }
    let octave = 63 - v.leading_zeros(); // ≥ SUB_BITS
    let sub = (v >> (octave - SUB_BITS)) & (SUB - 1);
    ((u64::from(octave - SUB_BITS + 1)) * SUB + sub) as usize
}

impl FirstSeen {
    /// Request `request` ended after `latency` µs.
    #[inline]
    pub fn record(&mut self, latency: u64, request: u64) {
        let slot = &mut self.slots[bucket(latency).min(BUCKETS - 1)];
        if slot.is_none() {
            *slot = Some((request, latency));
        }
    }

    /// For each bar given by `bar_of` (a latency's bar index, or none), the earliest kept
    /// request whose latency falls in it.
    pub fn per_bar(&self, bars: usize, bar_of: impl Fn(u64) -> usize) -> Vec<Option<u64>> {
        let mut out = vec![None::<u64>; bars];
        for &(request, latency) in self.slots.iter().flatten() {
            let b = bar_of(latency);
            if let Some(slot) = out.get_mut(b) {
                *slot = Some(slot.map_or(request, |r| r.min(request)));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_grow_by_a_sixteenth_of_an_octave_and_never_overflow() {
        assert_eq!((0..16).map(bucket).collect::<Vec<_>>(), (0..16).collect::<Vec<_>>());
        assert_eq!((bucket(16), bucket(17), bucket(31), bucket(32), bucket(34)), (16, 17, 31, 32, 33));
        let mut last = 0;
        for v in (0..40).map(|e| 1u64 << e).flat_map(|p| [p, p + p / 3, p + p / 2]) {
            let b = bucket(v);
            assert!(b >= last && b < BUCKETS, "{v}: {b}");
            last = b;
        }
        assert!(bucket(u64::MAX) < BUCKETS);
    }

    #[test]
    fn each_bar_names_its_earliest_request() {
        let mut f = FirstSeen::default();
        for (req, lat) in [(0, 1_000), (1, 1_010), (2, 5_000), (3, 200), (4, 5_000), (5, 90_000)] {
            f.record(lat, req);
        }
        // Bars: ≤ 500, ≤ 2,000, ≤ 10,000, above.
        let edges = [500, 2_000, 10_000, u64::MAX];
        let got = f.per_bar(4, |v| edges.partition_point(|&e| e < v));
        assert_eq!(got, vec![Some(3), Some(0), Some(2), Some(5)]);
        let none = FirstSeen::default().per_bar(2, |_| 0);
        assert_eq!(none, vec![None, None]);
    }
}

//! Time series in fixed buckets, with memory bounded by the number of buckets.
//!
//! Counters add up what happened in a bucket (attempts, arrivals, outcomes). Gauges keep
//! the highest value a level reached during the bucket (in-flight, queue length, tokens),
//! carried forward through buckets in which it did not change. When a run outlives the
//! bucket budget, buckets are merged in pairs and the width doubles, so a series never
//! holds more than `max_buckets` values whatever the run's length.

use super::Micros;

/// Identifies a counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CounterId(u32);
/// Identifies a gauge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GaugeId(u32);

struct Gauge {
    value: i64,
    /// Bucket of the last change; buckets after it hold `value` until the next change.
    last: usize,
    /// The peak in bucket `last`, kept here rather than in `maxes[last]`: nearly every
    /// change falls in the last bucket, and then it touches only this record.
    last_max: i64,
    /// Peaks of the buckets up to `last` (`maxes[last]` is stale: see `last_max`).
    maxes: Vec<i64>,
}

impl Gauge {
    /// The peaks with `last_max` written back.
    fn flush(&mut self) {
        self.maxes[self.last] = self.last_max;
    }

    /// A change in a bucket other than the last one (out of line: rare).
    #[cold]
    #[inline(never)]
    fn set_elsewhere(&mut self, b: usize, value: i64) {
        if b > self.last {
            self.flush();
            self.maxes.resize(b + 1, self.value);
            self.last = b;
            self.last_max = self.value.max(value);
        } else if value > self.maxes[b] {
            self.maxes[b] = value;
        }
        self.value = value;
    }
}

/// Records bucketed series during a run.
pub struct Recorder {
    width: Micros,
    max_buckets: usize,
    /// The bucket of the last lookup and its time span, so that the common case (time
    /// moves forward within a bucket) needs no division.
    cur: usize,
    cur_start: Micros,
    /// The span's length: the width, or 0 when there is no bucket to remember.
    cur_len: Micros,
    counters: Vec<Vec<u64>>,
    gauges: Vec<Gauge>,
}

impl Recorder {
    /// Buckets of `width` µs (at least 1), at most `max_buckets` (at least 2) of them.
    pub fn new(width: Micros, max_buckets: usize) -> Self {
        let width = width.max(1);
        Recorder {
            width,
            max_buckets: max_buckets.max(2),
            cur: 0,
            cur_start: 0,
            cur_len: width,
            counters: Vec::new(),
            gauges: Vec::new(),
        }
    }

    /// Current bucket width (µs).
    pub fn width(&self) -> Micros {
        self.width
    }

    /// Adds a counter series.
    pub fn counter(&mut self) -> CounterId {
        self.counters.push(Vec::new());
        CounterId((self.counters.len() - 1) as u32)
    }

    /// Adds a gauge series starting at `initial`.
    pub fn gauge(&mut self, initial: i64) -> GaugeId {
        self.gauges.push(Gauge { value: initial, last: 0, last_max: initial, maxes: vec![initial] });
        GaugeId((self.gauges.len() - 1) as u32)
    }

    #[inline(always)]
    fn bucket(&mut self, t: Micros) -> usize {
        // One compare: a `t` before the span wraps around to a huge offset.
        if t.wrapping_sub(self.cur_start) < self.cur_len {
            return self.cur;
        }
        self.bucket_slow(t)
    }

    #[cold]
    #[inline(never)]
    fn bucket_slow(&mut self, t: Micros) -> usize {
        let mut b = (t / self.width) as usize;
        while b >= self.max_buckets {
            self.coarsen();
            b = (t / self.width) as usize;
        }
        self.cur = b;
        self.cur_start = b as Micros * self.width;
        self.cur_len = self.width;
        b
    }

    /// The span `[start, end)` of the bucket holding `t` at the current width. Buckets
    /// only ever merge in aligned pairs, so whatever falls in this span now stays in one
    /// bucket.
    pub fn bucket_span(&self, t: Micros) -> (Micros, Micros) {
        let start = t / self.width * self.width;
        (start, start.saturating_add(self.width))
    }

    /// Adds `n` to a counter at time `t`.
    #[inline(always)]
    pub fn add(&mut self, id: CounterId, t: Micros, n: u64) {
        let b = self.bucket(t);
        let series = &mut self.counters[id.0 as usize];
        match series.get_mut(b) {
            Some(v) => *v += n,
            None => {
                series.resize(b, 0);
                series.push(n);
            }
        }
    }

    /// Sets a gauge to `value` at time `t`.
    #[inline(always)]
    pub fn set(&mut self, id: GaugeId, t: Micros, value: i64) {
        let b = self.bucket(t);
        let g = &mut self.gauges[id.0 as usize];
        if b == g.last {
            g.value = value;
            g.last_max = g.last_max.max(value);
        } else {
            g.set_elsewhere(b, value);
        }
    }

    /// Changes a gauge by `delta` at time `t`.
    #[inline]
    pub fn shift(&mut self, id: GaugeId, t: Micros, delta: i64) {
        let v = self.gauges[id.0 as usize].value + delta;
        self.set(id, t, v);
    }

    /// A gauge's current value.
    pub fn value(&self, id: GaugeId) -> i64 {
        self.gauges[id.0 as usize].value
    }

    fn coarsen(&mut self) {
        self.width *= 2;
        self.cur_len = 0;
        for s in &mut self.counters {
            let merged: Vec<u64> = s.chunks(2).map(|c| c.iter().sum()).collect();
            *s = merged;
        }
        for g in &mut self.gauges {
            g.flush();
            g.maxes = g.maxes.chunks(2).map(|c| c.iter().copied().max().unwrap_or(0)).collect();
            g.last /= 2;
            g.last_max = g.maxes[g.last];
        }
    }

    /// Number of buckets needed to cover up to time `end`.
    pub fn buckets_until(&mut self, end: Micros) -> usize {
        self.bucket(end) + 1
    }

    /// A counter's values over `n` buckets.
    pub fn counter_values(&self, id: CounterId, n: usize) -> Vec<u64> {
        let s = &self.counters[id.0 as usize];
        (0..n).map(|i| s.get(i).copied().unwrap_or(0)).collect()
    }

    /// A gauge's per-bucket maxima over `n` buckets.
    pub fn gauge_values(&self, id: GaugeId, n: usize) -> Vec<i64> {
        let g = &self.gauges[id.0 as usize];
        (0..n)
            .map(|i| match i {
                _ if i == g.last => g.last_max,
                _ if i < g.maxes.len() => g.maxes[i],
                _ => g.value,
            })
            .collect()
    }
}

/// A counter's count in the bucket being recorded, kept in a record its writer already
/// holds (a hop's counters), and handed to the [`Recorder`] when time leaves the bucket
/// ([`flush`](Self::flush)): adding one here is one instruction, against a bucket lookup
/// and two indexed loads for [`Recorder::add`]. The series comes out the same: a bucket's
/// count is a sum, whenever its parts are added.
#[derive(Clone, Copy, Debug, Default)]
pub struct BucketCount(u64);

impl BucketCount {
    #[inline(always)]
    pub fn add(&mut self, n: u64) {
        self.0 += n;
    }

    /// Hands the count to `id` at `t`, a time in the bucket it was counted in.
    #[inline]
    pub fn flush(&mut self, rec: &mut Recorder, id: CounterId, t: Micros) {
        if self.0 > 0 {
            rec.add(id, t, std::mem::take(&mut self.0));
        }
    }
}

/// A gauge's changes in the bucket being recorded, kept like [`BucketCount`]: its level
/// now and the highest level it was set to in the bucket. Flushed, the recorder sees the
/// peak and then the level, which leaves it where the changes one by one would have (the
/// bucket's peak is the highest of the level carried into it and the levels set in it).
#[derive(Clone, Copy, Debug)]
pub struct BucketGauge {
    value: i64,
    /// `i64::MIN` while the gauge was not set in this bucket.
    peak: i64,
}

impl Default for BucketGauge {
    fn default() -> Self {
        BucketGauge { value: 0, peak: i64::MIN }
    }
}

impl BucketGauge {
    #[inline(always)]
    pub fn set(&mut self, value: i64) {
        self.value = value;
        self.peak = self.peak.max(value);
    }

    /// Hands the bucket's changes to `id` at `t`, a time in the bucket they were made in.
    #[inline]
    pub fn flush(&mut self, rec: &mut Recorder, id: GaugeId, t: Micros) {
        if self.peak != i64::MIN {
            rec.set(id, t, self.peak);
            rec.set(id, t, self.value);
            self.peak = i64::MIN;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_sum_per_bucket() {
        let mut r = Recorder::new(10, 100);
        let c = r.counter();
        r.add(c, 0, 1);
        r.add(c, 9, 2);
        r.add(c, 10, 5);
        r.add(c, 35, 1);
        assert_eq!(r.counter_values(c, 5), vec![3, 5, 0, 1, 0]);
    }

    #[test]
    fn gauges_keep_the_peak_and_carry_forward() {
        let mut r = Recorder::new(10, 100);
        let g = r.gauge(0);
        r.shift(g, 1, 1);
        r.shift(g, 2, 1);
        r.shift(g, 3, -2);
        r.set(g, 25, 4);
        assert_eq!(r.gauge_values(g, 4), vec![2, 0, 4, 4]);
        assert_eq!(r.value(g), 4);
    }

    #[test]
    fn a_change_in_an_earlier_bucket_raises_that_bucket_only() {
        let mut r = Recorder::new(10, 100);
        let g = r.gauge(0);
        r.set(g, 25, 3);
        r.set(g, 5, 7);
        r.set(g, 26, 1);
        assert_eq!(r.gauge_values(g, 4), vec![7, 0, 3, 1]);
    }

    #[test]
    fn long_runs_merge_buckets_instead_of_growing() {
        let mut r = Recorder::new(10, 4);
        let c = r.counter();
        let g = r.gauge(0);
        for t in 0..8 {
            r.add(c, t * 10, 1);
            r.set(g, t * 10, t as i64);
        }
        assert_eq!(r.width(), 20);
        assert_eq!(r.counter_values(c, 4), vec![2, 2, 2, 2]);
        assert_eq!(r.gauge_values(g, 4), vec![1, 3, 5, 7]);
        r.add(c, 100, 1);
        assert_eq!(r.width(), 40);
        assert_eq!(r.counter_values(c, 3), vec![4, 4, 1]);
    }

    #[test]
    fn bucket_cells_give_the_series_the_changes_one_by_one_give() {
        // The same changes, made directly and through cells flushed when time leaves a
        // bucket, on buckets that merge on the way.
        // Times only move forward, one or two changes a bucket, some buckets skipped.
        let changes: Vec<(Micros, i64)> =
            (0..200u64).map(|i| (i * 7 - i % 3 + (i / 50) * 40, ((i * 37) % 11) as i64 - 3)).collect();
        let (mut a, mut b) = (Recorder::new(10, 8), Recorder::new(10, 8));
        let (ca, ga) = (a.counter(), a.gauge(2));
        let (cb, gb) = (b.counter(), b.gauge(2));
        let (mut count, mut gauge) = (BucketCount::default(), BucketGauge::default());
        let mut span = b.bucket_span(0);
        for &(t, v) in &changes {
            a.add(ca, t, 1);
            a.set(ga, t, v);
            if t >= span.1 {
                count.flush(&mut b, cb, span.0);
                gauge.flush(&mut b, gb, span.0);
                span = b.bucket_span(t);
            }
            count.add(1);
            gauge.set(v);
        }
        count.flush(&mut b, cb, span.0);
        gauge.flush(&mut b, gb, span.0);
        let end = changes.last().unwrap().0;
        let n = a.buckets_until(end);
        assert_eq!(b.buckets_until(end), n);
        assert!(a.width() > 10, "buckets merged: {}", a.width());
        assert_eq!(b.counter_values(cb, n), a.counter_values(ca, n));
        assert_eq!(b.gauge_values(gb, n), a.gauge_values(ga, n));
        assert_eq!(b.value(gb), a.value(ga));
    }
}

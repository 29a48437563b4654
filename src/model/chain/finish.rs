//! The report at the end of a run, built from the plan and the statistics.

use super::Stopped;
use super::plan::{HopRole, Plan};
use super::stats::{End, HIST_MAX, Latencies, Stats, new_hist};
use crate::report::*;
use crate::sim::Micros;
use crate::sim::recorder::GaugeId;
use hdrhistogram::Histogram;

/// Builds the report. Requests still unanswered (the run hit its horizon or stopped) count
/// as failed and as `unfinished`.
pub(super) fn report(plan: &Plan, stats: Stats, seed: u64, stopped: Option<Stopped>) -> Report {
    let (lat, mut stats) = stats.into_latencies();
    stats.flush_pending();
    let (hist, max_us) = (&lat.hist, &lat.max_us);
    // Admitted requests are the ones that were not rejected: the sum of the other three
    // histograms (adding counts is exact, so the percentiles are too).
    let mut admitted_hist = new_hist();
    let mut admitted_max = 0;
    for end in [End::Succeeded, End::Degraded, End::Failed] {
        let _ = admitted_hist.add(&hist[end as usize]);
        admitted_max = admitted_max.max(max_us[end as usize]);
    }
    let end: Micros = stats.last_t;
    let unfinished = stats.live_requests;
    let n = stats.rec.buckets_until(end);
    let width = stats.rec.width();
    let t = &stats.totals;
    let leaf = plan.leaf();
    let attempts_per_hop: Vec<u64> = stats.hops.iter().map(|h| h.calls).collect();
    let downstream = attempts_per_hop.get(leaf).copied().unwrap_or(0);
    let admitted = t.original - t.rejected;
    let rate = |x: u64| if admitted == 0 { 0.0 } else { x as f64 / admitted as f64 };
    let summary = Summary {
        original_requests: t.original,
        downstream_attempts: downstream,
        attempts_per_hop: attempts_per_hop.clone(),
        amplification: if t.original == 0 { 0.0 } else { downstream as f64 / t.original as f64 },
        succeeded: t.succeeded,
        degraded: t.degraded,
        failed: t.failed + unfinished,
        admission_rejected: t.rejected,
        retry_budget_denied: t.retry_budget_denied,
        budget_exhausted: t.deadline_exhausted,
        breaker_rejected: t.breaker_rejected,
        bulkhead_rejected: t.bulkhead_rejected,
        retries: t.retries,
        timeouts: t.timeouts,
        core_success_rate: rate(t.succeeded + t.degraded),
        degraded_rate: rate(t.degraded),
        latency_ms: percentiles(&admitted_hist, admitted_max),
        degraded_by_cause: t.degraded_by.clone(),
        degraded_unavailable: t.degraded_unavailable,
        degraded_stale: t.degraded_stale,
        computed_empty: t.computed_empty,
        failed_by_cause: t.failed_by.clone(),
        unfinished,
        end_ms: ms(end),
        stopped,
    };
    let hops: Vec<HopStats> = plan
        .hops
        .iter()
        .zip(&stats.hops)
        .map(|(s, r)| HopStats {
            name: s.name.clone(),
            kind: match s.role {
                HopRole::Layer => HopKind::Layer,
                HopRole::Leaf => HopKind::Leaf,
                HopRole::Side => HopKind::Side,
            },
            workers: s.pool.workers,
            calls: r.calls,
            rejected: r.rejected,
            abandoned_work: r.abandoned,
            cancelled: r.cancelled,
            peak_in_flight: r.peak_in_flight,
            peak_queue: r.peak_queue,
            shared_pool: match s.kind {
                super::plan::HopKind::Layer { shared_pool: Some(p), .. } => {
                    Some(PoolSize { size: p.size, queue: p.queue })
                }
                _ => None,
            },
            // Only a limited pool has a queue; the retry-chain kernel never runs one, so
            // both engines leave this empty for the hops it takes.
            queueing: s.pool.workers.map(|_| Queueing {
                served: r.served,
                waited: r.waited,
                wait_ms: ms(r.wait_us),
                busy_ms: ms(r.busy_us),
                mean_in_pool: r.mean_in_pool,
            }),
            results: r.results,
            refused: r.refused,
        })
        .collect();
    let clients: Vec<ClientStats> = plan
        .clients
        .iter()
        .zip(&stats.clients)
        .map(|(s, r)| ClientStats {
            // The English label is the report's name: one rule for how a client is named.
            name: crate::i18n::Lang::En.client(&plan.hops[s.caller].name, &plan.hops[s.callee].name),
            caller: s.caller,
            callee: s.callee,
            optional: s.fallback.is_some(),
            attempts: r.attempts,
            retries: r.retries,
            first_attempt_successes: r.first_successes,
            retry_budget_denied: r.retry_budget_denied,
            breaker_rejected: r.breaker_rejected,
            bulkhead_rejected: r.bulkhead_rejected,
            budget_exhausted: r.deadline_exhausted,
            timeouts: r.timeouts,
            breaker_instances: s.breaker.map_or(0, |b| b.instances),
            budget_max_tokens: s
                .retry_budget
                .map(|b| crate::policy::retry_budget::RetryBudget::new(b).max_milli_tokens() as f64 / 1000.0),
            stack: s.stack(),
            bulkhead: match s.isolation {
                Some(super::plan::Isolation::Bulkhead(b)) => {
                    Some(PoolSize { size: b.max_concurrent, queue: Some(b.max_queue) })
                }
                _ => None,
            },
        })
        .collect();
    let rec = &mut stats.rec;
    let gauge_or_empty = |rec: &crate::sim::recorder::Recorder, g: Option<GaugeId>| {
        g.map_or_else(Vec::new, |g| rec.gauge_values(g, n))
    };
    let series = Series {
        bucket_ms: ms(width),
        buckets: n,
        offered: rec.counter_values(stats.offered_c, n),
        attempts: stats.hops.iter().map(|h| rec.counter_values(h.attempts_c, n)).collect(),
        in_flight: stats.hops.iter().map(|h| rec.gauge_values(h.in_flight_g, n)).collect(),
        queue: stats.hops.iter().map(|h| rec.gauge_values(h.queue_g, n)).collect(),
        succeeded: rec.counter_values(stats.end_c[0], n),
        degraded: rec.counter_values(stats.end_c[1], n),
        failed: rec.counter_values(stats.end_c[2], n),
        rejected: rec.counter_values(stats.end_c[3], n),
        requests_in_flight: rec.gauge_values(stats.requests_g, n),
        budget_tokens: stats
            .clients
            .iter()
            .map(|c| gauge_or_empty(rec, c.budget_g).into_iter().map(|v| v as f64 / 1000.0).collect())
            .collect(),
        breaker_open: stats.clients.iter().map(|c| gauge_or_empty(rec, c.open_g)).collect(),
        breaker_half_open: stats.clients.iter().map(|c| gauge_or_empty(rec, c.half_g)).collect(),
        breaker_window_calls: stats
            .clients
            .iter()
            .map(|c| gauge_or_empty(rec, c.window_g).into_iter().map(|v| v >> 32).collect())
            .collect(),
        breaker_window_failed: stats
            .clients
            .iter()
            .map(|c| gauge_or_empty(rec, c.window_g).into_iter().map(|v| v & 0xFFFF_FFFF).collect())
            .collect(),
        bulkhead_in_use: stats.clients.iter().map(|c| gauge_or_empty(rec, c.slots_g)).collect(),
        bulkhead_queue: stats.clients.iter().map(|c| gauge_or_empty(rec, c.bulkhead_queue_g)).collect(),
        shared_pool_busy: stats.hops.iter().map(|h| gauge_or_empty(rec, h.pool_g.map(|g| g.0))).collect(),
        shared_pool_queue: stats.hops.iter().map(|h| gauge_or_empty(rec, h.pool_g.map(|g| g.1))).collect(),
    };
    let latency = latency_dists(&lat);
    Report {
        generator: crate::report::generator(),
        scenario: plan.name.clone(),
        seed,
        summary,
        hops,
        clients,
        series,
        breaker_transitions: stats.transitions,
        latency,
        traces: stats.traces.list,
        examples: stats.examples,
    }
}

fn percentiles(h: &Histogram<u64>, max: u64) -> Percentiles {
    if h.is_empty() {
        return Percentiles::default();
    }
    // hdrhistogram reports a bucket's highest equivalent value; never above the true max.
    let q = |x: f64| ms(h.value_at_quantile(x).min(max));
    Percentiles { p50: q(0.5), p99: q(0.99), max: ms(max) }
}

fn latency_dists(lat: &Latencies) -> Vec<LatencyDist> {
    let edges = bin_edges(&lat.min_us, &lat.max_us);
    (0..4)
        .map(|i| {
            let h = &lat.hist[i];
            // A latency's bar, by the rule `bin_counts` counts it with.
            let bar_of = |v: u64| edges.partition_point(|&e| e < h.lowest_equivalent(v.min(HIST_MAX)));
            LatencyDist {
                outcome: RequestOutcome::ENDED[i],
                count: h.len(),
                percentiles: percentiles(h, lat.max_us[i]),
                bins: edges.iter().map(|&e| ms(e)).zip(bin_counts(h, &edges)).collect(),
                examples: lat.first_seen[i].per_bar(edges.len(), |v| bar_of(v).min(edges.len() - 1)),
            }
        })
        .collect()
}

/// Log-spaced upper bin edges (µs) over every outcome's range (exact minima and maxima:
/// from a histogram's lowest value, requests that all took 270 ms were counted in a bar
/// up to 269.83 ms), 30 of them.
fn bin_edges(mins: &[u64; 4], maxes: &[u64; 4]) -> Vec<u64> {
    const BINS: usize = 30;
    let lo = mins.iter().filter(|&&m| m != u64::MAX).map(|&m| m.max(100)).min().unwrap_or(100) as f64;
    let hi = maxes.iter().copied().max().unwrap_or(0).max(lo as u64 + 1) as f64;
    (1..=BINS).map(|i| libm::round(lo * libm::pow(hi / lo, i as f64 / BINS as f64)) as u64).collect()
}

/// How many recorded values fall in each bin: every histogram bucket goes, whole, to the
/// first bin whose upper edge is at or above the bucket's lowest value (the last bin takes
/// anything above), so the bins partition the requests: their counts add up to the total.
fn bin_counts(h: &Histogram<u64>, edges: &[u64]) -> Vec<u64> {
    let mut counts = vec![0u64; edges.len()];
    if edges.is_empty() {
        return counts;
    }
    for v in h.iter_recorded() {
        let value = h.lowest_equivalent(v.value_iterated_to());
        let bin = edges.partition_point(|&e| e < value).min(edges.len() - 1);
        counts[bin] += v.count_at_value();
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_histogram_grown_to_its_values_reads_as_one_of_the_whole_range() {
        // `new_hist` starts small and grows; the report must read it exactly as the
        // full-range histogram it replaced.
        let mut full = Histogram::<u64>::new_with_bounds(1, HIST_MAX, 3).unwrap();
        let (mut grown, mut other) = (new_hist(), new_hist());
        let values = [1, 7, 999, 1_000, 1_001, 20_480, 65_000, 3_000_000, 86_400_000_000, HIST_MAX];
        for (i, &v) in values.iter().enumerate() {
            full.record_n(v, i as u64 + 1).unwrap();
            let h = if i % 2 == 0 { &mut grown } else { &mut other };
            h.record_n(v, i as u64 + 1).unwrap();
        }
        grown.add(&other).unwrap();
        assert_eq!(grown.len(), full.len());
        for q in [0.0, 0.1, 0.5, 0.9, 0.99, 0.999, 1.0] {
            assert_eq!(grown.value_at_quantile(q), full.value_at_quantile(q), "quantile {q}");
        }
        let edges = bin_edges(&[1, u64::MAX, u64::MAX, u64::MAX], &[HIST_MAX, 0, 0, 0]);
        assert_eq!(bin_counts(&grown, &edges), bin_counts(&full, &edges));
        for &v in &values {
            assert_eq!(grown.lowest_equivalent(v), full.lowest_equivalent(v), "{v}");
        }
        let small = new_hist();
        assert!(small.buckets() <= 2, "an end that never happens costs nothing to clear");
    }

    #[test]
    fn bins_partition_the_values_even_on_their_edges() {
        let mut h = new_hist();
        let edges = [100, 1_000, 10_000, 100_000];
        for v in [1, 99, 100, 101, 999, 1_000, 1_001, 10_000, 99_999, 100_000, 5_000_000] {
            h.record(v).unwrap();
        }
        let counts = bin_counts(&h, &edges);
        assert_eq!(counts.iter().sum::<u64>(), h.len(), "every value in exactly one bin");
        assert_eq!(counts, vec![3, 3, 2, 3]);
    }
}

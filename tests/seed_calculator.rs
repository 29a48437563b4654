//! The source documents' closed-form numbers, asserted exactly (`../shared/seeds/README.md`).

use resilience_lab::i18n::format_fixed;
use resilience_lab::model::amplification::{CalcInput, compute};
use resilience_lab::model::capacity::{CapacityInput, compute as capacity};

fn with_attempts(attempts: Vec<u32>) -> CalcInput {
    CalcInput { attempts, ..CalcInput::default() }
}

#[test]
fn source_000_rates_and_worst_case() {
    let out = compute(&CalcInput::default()).unwrap();
    assert_eq!(out.avg_rps, 100.0, "8,640,000 req/day = 100 req/s");
    assert_eq!(out.peak_rps, 500.0, "×5 peak = 500 req/s");
    assert_eq!(out.worst_attempts_per_s, 4500.0, "500 × 3 × 3 = 4,500 attempts/s");
    assert_eq!(out.amplification, 9.0);
    assert_eq!(out.rate_per_level, vec![500.0, 1500.0, 4500.0]);
}

#[test]
fn source_000_in_flight_against_the_pool() {
    let out = compute(&CalcInput::default()).unwrap();
    assert_eq!(out.normal_before.in_flight, 50.0, "500 × 0.1 s");
    assert_eq!(out.normal_after.in_flight, 450.0, "4,500 × 0.1 s");
    assert_eq!(out.degraded_after.in_flight, 3600.0, "4,500 × 0.8 s");
    assert!(!out.normal_before.saturated);
    assert!(out.normal_after.saturated, "450 > 200");
    assert!(out.degraded_after.saturated, "3,600 > 200");
    assert!(out.any_saturated);
    assert_eq!(out.normal_before.pool_share, 0.25, "50 of 200");
}

#[test]
fn a_pool_exactly_full_has_no_steady_state_and_three_quarters_is_the_ceiling() {
    // 3,600 connections against a pool of 3,600: saturated, not "fits".
    let full = compute(&CalcInput { pool_size: 3600, ..CalcInput::default() }).unwrap();
    assert!(full.degraded_after.saturated && full.degraded_after.pool_share == 1.0);
    // 450 of 600 is source 002's 75 % ceiling: it fits, above the ceiling.
    let tight = compute(&CalcInput { pool_size: 600, ..CalcInput::default() }).unwrap();
    assert!(!tight.normal_after.saturated && tight.normal_after.above_ceiling, "{:?}", tight.normal_after);
    assert!(!tight.normal_before.above_ceiling, "50 of 600");
}

#[test]
fn source_000_one_layer_one_extra_attempt() {
    let out = compute(&with_attempts(vec![2])).unwrap();
    assert_eq!(out.worst_attempts_per_s, 1000.0);
}

#[test]
fn source_000_payload() {
    let out = compute(&CalcInput::default()).unwrap();
    assert_eq!(out.payload_mb_per_s, 4.096, "500 × 8 KiB × 1024 B / 10^6");
    assert_eq!(format_fixed(out.payload_mb_per_s, 2), "4.10");
}

#[test]
fn sources_001_002_003_powers() {
    let out = compute(&with_attempts(vec![3, 3, 3])).unwrap();
    assert_eq!(out.amplification, 27.0);
    // 1,000 QPS at the entry: 86,400,000 requests/day with no peak.
    let qps = CalcInput { requests_per_day: 86_400_000.0, peak_factor: 1.0, ..with_attempts(vec![3, 3, 3]) };
    assert_eq!(compute(&qps).unwrap().worst_attempts_per_s, 27_000.0);
    assert_eq!(compute(&with_attempts(vec![4, 4, 4])).unwrap().amplification, 64.0);
    assert_eq!(compute(&with_attempts(vec![3, 3])).unwrap().amplification, 9.0);
}

#[test]
fn source_002_capacity() {
    let out = capacity(&CapacityInput::default()).unwrap();
    assert_eq!(out.per_worker_rps, 25.0);
    assert_eq!(out.ideal_rps, 200.0);
    assert_eq!(out.utilisation, 0.6);
    assert_eq!(out.admit_rps, 150.0);
    assert_eq!(out.headroom_rps, 50.0);
    assert_eq!(out.margin_to_ceiling_rps, 30.0);
    assert_eq!(out.min_workers, 7, "ceil(120 / (25 × 0.75))");
    assert_eq!(out.busy_workers, 4.8);
    assert_eq!(out.in_system, Some(12.0));
    assert!(!out.unstable);
}

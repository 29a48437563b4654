//! The admission and breaker labs' runs as files: a row per step (admission) or per call
//! (breaker), numbered from 1 as the pages number them. The CSV and the JSON are written
//! from the same rows, so the two files cannot say different things.

use super::{Provenance, csv_field, lab_json};
use crate::model::admission::{Arrival, Event, Run as AdmissionRun};
use crate::model::breaker_lab::{Cause, Fate, LabRun};
use crate::policy::breaker::{State, Tally};
use crate::policy::token_bucket::{NEVER, Rejection};
use serde::Serialize;
use std::fmt::Write as _;

/// One step of the admission lab.
#[derive(Serialize)]
struct AdmissionRow {
    /// When (ms).
    t_ms: u64,
    /// `arrival`, `completion` or `refill` (the bucket full again between two events).
    event: &'static str,
    /// The arrival's number, from 1 (none for a refill).
    arrival: Option<usize>,
    /// `admitted` or `rejected`, for an arrival.
    decision: Option<&'static str>,
    /// Why it was rejected (`concurrency_limit`, `rate_limit`, `cost_exceeds_capacity`).
    reason: Option<&'static str>,
    /// The Retry-After a rate-limited arrival was told (ms); none when the bucket will
    /// never hold its cost.
    retry_after_ms: Option<u64>,
    /// Credits in the bucket before and after the step (1 token = `per_token` credits).
    credits_before: u64,
    credits_after: u64,
    /// The same in tokens.
    tokens_before: f64,
    tokens_after: f64,
    /// Requests in flight after the step.
    in_flight: u32,
}

fn admission_rows(run: &AdmissionRun) -> Vec<AdmissionRow> {
    let per = run.per_token.max(1) as f64;
    run.steps
        .iter()
        .map(|s| {
            let (event, n, decision, reason, retry) = match s.event {
                // Numbered from 1, as the page's table and its #1, #2… (the model's index + 1).
                Event::Arrival(n, Ok(())) => ("arrival", Some(n + 1), Some("admitted"), None, None),
                Event::Arrival(n, Err(r)) => {
                    // Ticks are 1 ms; a bucket that will never hold the cost has no Retry-After.
                    let retry = match r {
                        Rejection::RateLimit { retry_after } if retry_after != NEVER => Some(retry_after),
                        _ => None,
                    };
                    ("arrival", Some(n + 1), Some("rejected"), Some(r.reason()), retry)
                }
                Event::Completion(n) => ("completion", Some(n + 1), None, None, None),
                Event::Refill => ("refill", None, None, None, None),
            };
            AdmissionRow {
                t_ms: s.t_ms,
                event,
                arrival: n,
                decision,
                reason,
                retry_after_ms: retry,
                credits_before: s.before,
                credits_after: s.after,
                tokens_before: s.before as f64 / per,
                tokens_after: s.after as f64 / per,
                in_flight: s.in_flight,
            }
        })
        .collect()
}

/// An empty field for a missing value.
fn opt<T: ToString>(v: Option<T>) -> String {
    v.map_or_else(String::new, |v| v.to_string())
}

/// The admission lab's step table: a row per step, tokens as whole credits and as tokens.
pub fn admission_csv(run: &AdmissionRun) -> String {
    let mut csv = String::from(
        "t_ms,event,arrival,decision,reason,retry_after_ms,credits_before,credits_after,tokens_before,tokens_after,in_flight\n",
    );
    for r in admission_rows(run) {
        let _ = writeln!(
            csv,
            "{},{},{},{},{},{},{},{},{},{},{}",
            r.t_ms,
            r.event,
            opt(r.arrival),
            r.decision.unwrap_or_default(),
            r.reason.unwrap_or_default(),
            opt(r.retry_after_ms),
            r.credits_before,
            r.credits_after,
            r.tokens_before,
            r.tokens_after,
            r.in_flight
        );
    }
    csv
}

/// An arrival as the JSON lists it: numbered from 1.
#[derive(Serialize)]
struct NumberedArrival {
    arrival: usize,
    /// When it arrives (ms), what it costs (tokens) and how long it holds its slot (ms).
    at_ms: u64,
    cost: u32,
    hold_ms: u64,
}

/// Rejections by reason, named.
#[derive(Serialize)]
struct Rejected {
    concurrency_limit: usize,
    rate_limit: usize,
    cost_exceeds_capacity: usize,
}

/// What the admission lab's JSON holds besides its provenance.
#[derive(Serialize)]
struct AdmissionExport {
    /// 1 token = this many credits.
    per_token: u64,
    /// The bucket's capacity (credits) and its refill per 1 ms tick (credits).
    capacity_credits: u64,
    refill_credits_per_ms: u64,
    arrivals: Vec<NumberedArrival>,
    steps: Vec<AdmissionRow>,
    admitted: usize,
    rejected: Rejected,
}

/// The admission lab's arrivals and run as JSON, with the provenance.
pub fn admission_json(p: &Provenance, arrivals: &[Arrival], run: &AdmissionRun) -> String {
    let [concurrency_limit, rate_limit, cost_exceeds_capacity] = run.rejected;
    lab_json(
        p,
        &AdmissionExport {
            per_token: run.per_token,
            capacity_credits: run.capacity,
            refill_credits_per_ms: run.rate_per_ms,
            arrivals: arrivals
                .iter()
                .enumerate()
                .map(|(i, a)| NumberedArrival {
                    arrival: i + 1,
                    at_ms: a.at_ms,
                    cost: a.cost,
                    hold_ms: a.hold_ms,
                })
                .collect(),
            steps: admission_rows(run),
            admitted: run.admitted,
            rejected: Rejected { concurrency_limit, rate_limit, cost_exceeds_capacity },
        },
    )
}

/// One call of the breaker lab, with the breaker as the call found it.
#[derive(Serialize)]
struct BreakerRow {
    /// Numbered from 1, as the page's "call 131 of 300".
    call: usize,
    at_ms: f64,
    /// When its answer arrived (ms; its own time for a rejected call).
    done_ms: f64,
    /// `passed`, `rejected` or `probe`.
    fate: &'static str,
    failed: bool,
    slow: bool,
    /// Its answer was recorded (false: rejected, or it answered after the state changed).
    recorded: bool,
    /// The breaker's state once it decided on the call, and its counts so far.
    state: State,
    passed: u32,
    rejected: u32,
    probes: u32,
}

fn breaker_rows(run: &LabRun) -> Vec<BreakerRow> {
    run.calls
        .iter()
        .enumerate()
        .map(|(k, c)| {
            let f = run.frame(k);
            BreakerRow {
                call: k + 1,
                at_ms: c.at_us as f64 / 1000.0,
                done_ms: c.done_us as f64 / 1000.0,
                fate: match c.fate {
                    Fate::Rejected => "rejected",
                    Fate::Passed => "passed",
                    Fate::Probe => "probe",
                },
                failed: c.failed,
                slow: c.slow,
                recorded: c.recorded,
                state: f.state,
                passed: f.passed,
                rejected: f.rejected,
                probes: f.probes,
            }
        })
        .collect()
}

/// The breaker lab's calls: a row per call with the breaker's state as it was decided.
pub fn breaker_csv(run: &LabRun) -> String {
    let mut csv = String::from("call,at_ms,done_ms,fate,failed,slow,recorded,state,passed,rejected,probes\n");
    for r in breaker_rows(run) {
        let state = serde_json::to_value(r.state).ok().and_then(|v| v.as_str().map(String::from));
        let _ = writeln!(
            csv,
            "{},{},{},{},{},{},{},{},{},{},{}",
            r.call,
            r.at_ms,
            r.done_ms,
            r.fate,
            r.failed,
            r.slow,
            r.recorded,
            csv_field(&state.unwrap_or_default()),
            r.passed,
            r.rejected,
            r.probes
        );
    }
    csv
}

/// A transition as the JSON says it: when, from, to, and why.
#[derive(Serialize)]
struct ChangeRow {
    at_ms: f64,
    from: State,
    to: State,
    /// `rates` (the window's or the probes' rates reached a threshold) or `waited` (the
    /// open time was over).
    cause: &'static str,
    /// For `rates`: what the rates were judged on, and which reached its threshold.
    #[serde(skip_serializing_if = "Option::is_none")]
    tally: Option<Tally>,
    #[serde(skip_serializing_if = "Option::is_none")]
    failure_rate_reached: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    slow_rate_reached: Option<bool>,
    /// For `waited`: on the breaker's timer (true) or at the next call (false).
    #[serde(skip_serializing_if = "Option::is_none")]
    timed: Option<bool>,
}

/// What the breaker lab's JSON holds besides its provenance.
#[derive(Serialize)]
struct BreakerExport {
    calls: Vec<BreakerRow>,
    /// The calls whose answers were recorded, by number, in the order recorded: the
    /// window is the last few of them.
    recorded_order: Vec<u32>,
    changes: Vec<ChangeRow>,
    /// The run's end (ms).
    end_ms: f64,
}

/// The breaker lab's run as JSON, with the provenance.
pub fn breaker_json(p: &Provenance, run: &LabRun) -> String {
    let changes = run
        .changes
        .iter()
        .map(|c| {
            let mut row = ChangeRow {
                at_ms: c.at_us as f64 / 1000.0,
                from: c.from,
                to: c.to,
                cause: "waited",
                tally: None,
                failure_rate_reached: None,
                slow_rate_reached: None,
                timed: None,
            };
            match c.cause {
                Cause::Rates { tally, failure, slow } => {
                    row.cause = "rates";
                    (row.tally, row.failure_rate_reached, row.slow_rate_reached) =
                        (Some(tally), Some(failure), Some(slow));
                }
                Cause::Waited { timed } => row.timed = Some(timed),
            }
            row
        })
        .collect();
    lab_json(
        p,
        &BreakerExport {
            calls: breaker_rows(run),
            recorded_order: run.records.iter().map(|&k| k + 1).collect(),
            changes,
            end_ms: run.end_us as f64 / 1000.0,
        },
    )
}

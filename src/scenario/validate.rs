//! Validation: every range a scenario field accepts, and the work a scenario implies.
//!
//! Errors name the field by its path in the JSON (`layers[1].client.retry.max_attempts`),
//! the value and the allowed range, so the CLI can print them and the UI can put them by
//! the control.

use super::faults::{MAX_FAULT_INCIDENCE, incidence};
use super::ranges::{self as r, FieldRange};
use super::*;
use crate::error::{Allowed, FieldError, Rule, fmt_num};
use crate::policy::breaker::WindowKind;
use crate::policy::retry::{Backoff, Jitter};
use crate::policy::stack::{OrderError, check_order};

/// A service's name: 1 to 40 characters, not only spaces (`Rule::NameLength`). Links that
/// name a service (a lab's `from=`) hold it to the same rule.
pub fn is_service_name(name: &str) -> bool {
    !name.trim().is_empty() && name.chars().count() <= 40
}

/// Most layers in a chain.
pub const MAX_LAYERS: usize = 8;
/// Most attempts per call, first included.
pub const MAX_ATTEMPTS: u32 = r::MAX_ATTEMPTS.max as u32;
/// Most side dependencies per layer.
pub const MAX_SIDE_DEPS: usize = 3;
/// Longest time any setting may name (ms): one day.
pub const MAX_MS: f64 = r::MAX_MS;
/// Most workers, queue slots, tokens and the like.
pub const MAX_COUNT: u32 = r::MAX_COUNT as u32;
/// Most fault windows in a scenario.
pub const MAX_FAULTS: usize = 10_000;

struct Check {
    errors: Vec<FieldError>,
}

impl Check {
    fn num(&mut self, field: &str, v: f64, range: FieldRange) {
        if !range.accepts(v) {
            self.errors.push(range.error(field, fmt_num(v)));
        }
    }
    fn int(&mut self, field: &str, v: impl Into<u64>, range: FieldRange) {
        self.num(field, v.into() as f64, range);
    }
    fn opt(&mut self, field: &str, v: Option<f64>, range: FieldRange) {
        if let Some(v) = v {
            self.num(field, v, range);
        }
    }
    fn rule(&mut self, field: &str, value: impl std::fmt::Display, rule: Rule) {
        self.errors.push(FieldError::new(field, value, Allowed::rule(rule)));
    }
    fn dist(&mut self, field: &str, d: &Dist) {
        match *d {
            Dist::Constant { ms } => self.num(&format!("{field}.ms"), ms, r::WORK_MS),
            Dist::Exponential { mean_ms } => self.num(&format!("{field}.mean_ms"), mean_ms, r::WORK_MS),
            Dist::LogNormal { median_ms, p99_ms } => {
                self.num(&format!("{field}.median_ms"), median_ms, r::LOG_NORMAL_MS);
                self.num(&format!("{field}.p99_ms"), p99_ms, r::LOG_NORMAL_MS.from(median_ms.max(0.001)));
            }
        }
    }
    fn server(&mut self, field: &str, s: &Server) {
        if let Some(w) = s.workers {
            self.int(&format!("{field}.workers"), w, r::WORKERS);
        }
        if let Some(q) = s.queue {
            self.int(&format!("{field}.queue"), q, r::QUEUE);
        }
        self.opt(&format!("{field}.queue_timeout_ms"), s.queue_timeout_ms, r::QUEUE_TIMEOUT_MS);
        self.num(&format!("{field}.min_budget_ms"), s.min_budget_ms, r::MIN_BUDGET_MS);
        if let Some(a) = &s.admission {
            let f = format!("{field}.admission");
            if let Some(tb) = &a.token_bucket {
                self.int(&format!("{f}.token_bucket.capacity"), tb.capacity, r::BUCKET_CAPACITY);
                // At most 3 decimals (integer credits; see `Resolution::Thousandths`).
                self.num(&format!("{f}.token_bucket.rate_per_s"), tb.rate_per_s, r::BUCKET_RATE);
                self.int(&format!("{f}.token_bucket.cost"), tb.cost, r::BUCKET_COST);
            }
            if let Some(c) = a.concurrency_limit {
                self.int(&format!("{f}.concurrency_limit"), c, r::CONCURRENCY_LIMIT);
            }
            self.num(&format!("{f}.retry_after_ms"), a.retry_after_ms, r::RETRY_AFTER_MS);
        }
    }
    fn leaf(&mut self, field: &str, l: &Leaf) {
        self.name(&format!("{field}.name"), &l.name);
        self.server(&format!("{field}.server"), &l.server);
        self.dist(&format!("{field}.work"), &l.work);
        self.num(&format!("{field}.error_rate"), l.error_rate, r::PROBABILITY);
        self.num(&format!("{field}.client_error_rate"), l.client_error_rate, r::PROBABILITY);
        self.num(&format!("{field}.empty_rate"), l.empty_rate, r::PROBABILITY);
        if l.error_rate + l.client_error_rate > 1.0 + 1e-12 {
            self.rule(
                &format!("{field}.client_error_rate"),
                fmt_num(l.client_error_rate),
                Rule::ErrorRatesSum,
            );
        }
    }
    fn name(&mut self, field: &str, name: &str) {
        if !is_service_name(name) {
            self.rule(field, format!("{name:?}"), Rule::NameLength);
        }
    }
    fn client(&mut self, field: &str, c: &Client, has_shared_pool: bool) {
        let rt = &c.retry;
        self.int(&format!("{field}.retry.max_attempts"), rt.max_attempts, r::MAX_ATTEMPTS);
        match rt.backoff {
            Backoff::None {} => {}
            Backoff::Fixed { ms } => self.num(&format!("{field}.retry.backoff.ms"), ms, r::BACKOFF_MS),
            Backoff::Exponential { base_ms, cap_ms } => {
                self.num(&format!("{field}.retry.backoff.base_ms"), base_ms, r::BACKOFF_BASE_MS);
                self.num(
                    &format!("{field}.retry.backoff.cap_ms"),
                    cap_ms,
                    r::BACKOFF_BASE_MS.from(base_ms.max(0.001)),
                );
            }
        }
        if rt.jitter == Jitter::Decorrelated && !matches!(rt.backoff, Backoff::Exponential { .. }) {
            self.rule(&format!("{field}.retry.jitter"), "decorrelated", Rule::DecorrelatedNeedsExponential);
        }
        self.opt(&format!("{field}.per_try_timeout_ms"), c.per_try_timeout_ms, r::PER_TRY_TIMEOUT_MS);
        self.num(&format!("{field}.min_useful_ms"), c.min_useful_ms, r::MIN_USEFUL_MS);
        match c.retry_budget {
            None => {}
            Some(RetryBudgetConfig::Ratio { max_tokens, retry_ratio }) => {
                self.num(&format!("{field}.retry_budget.max_tokens"), max_tokens, r::RATIO_MAX_TOKENS);
                self.num(&format!("{field}.retry_budget.retry_ratio"), retry_ratio, r::RETRY_RATIO);
            }
            Some(RetryBudgetConfig::Grpc { max_tokens, token_ratio }) => {
                self.num(&format!("{field}.retry_budget.max_tokens"), max_tokens, r::GRPC_MAX_TOKENS);
                self.num(&format!("{field}.retry_budget.token_ratio"), token_ratio, r::GRPC_TOKEN_RATIO);
            }
        }
        if let Some(b) = &c.breaker {
            let f = format!("{field}.breaker");
            self.int(&format!("{f}.window"), b.window, r::BREAKER_WINDOW);
            // A count-based window can never hold more than `window` calls; a time-based
            // one can (its window is in seconds).
            let min_calls = match b.window_kind {
                WindowKind::Count => r::BREAKER_MIN_CALLS.to(f64::from(b.window.max(1))),
                WindowKind::Time => r::BREAKER_MIN_CALLS,
            };
            self.int(&format!("{f}.min_calls"), b.min_calls, min_calls);
            self.num(&format!("{f}.failure_rate_pct"), b.failure_rate_pct, r::PERCENT);
            self.opt(&format!("{f}.slow_call_ms"), b.slow_call_ms, r::SLOW_CALL_MS);
            self.num(&format!("{f}.slow_rate_pct"), b.slow_rate_pct, r::PERCENT);
            self.num(&format!("{f}.open_ms"), b.open_ms, r::OPEN_MS);
            self.int(&format!("{f}.half_open_calls"), b.half_open_calls, r::HALF_OPEN_CALLS);
            self.int(&format!("{f}.instances"), b.instances, r::BREAKER_INSTANCES);
        }
        if let Some(b) = &c.bulkhead {
            let f = format!("{field}.bulkhead");
            self.int(&format!("{f}.max_concurrent"), b.max_concurrent, r::BULKHEAD_MAX_CONCURRENT);
            self.int(&format!("{f}.max_queue"), b.max_queue, r::BULKHEAD_MAX_QUEUE);
            self.opt(&format!("{f}.queue_timeout_ms"), b.queue_timeout_ms, r::QUEUE_TIMEOUT_MS);
        }
        if c.use_shared_pool && !has_shared_pool {
            self.rule(&format!("{field}.use_shared_pool"), "true", Rule::SharedPoolNeeded);
        }
        if c.use_shared_pool && c.bulkhead.is_some() {
            self.rule(&format!("{field}.bulkhead"), "set", Rule::BulkheadOrSharedPool);
        }
        if let Some(Fallback::Stale { age_ms }) = c.fallback {
            self.num(&format!("{field}.fallback.age_ms"), age_ms, r::AGE_MS);
        }
        if let Some(order) = &c.stack
            && let Err(e) = check_order(order)
        {
            let list: Vec<&str> = order.iter().map(|s| s.name()).collect();
            let (rule, detail) = match e {
                OrderError::RetryNotFirst => (Rule::StackRetryFirst, String::new()),
                OrderError::Repeated(s) => (Rule::StackRepeated, s.name().to_string()),
                OrderError::Missing(s) => (Rule::StackMissing, s.name().to_string()),
            };
            self.errors.push(FieldError::new(
                format!("{field}.stack"),
                format!("[{}]", list.join(", ")),
                Allowed::Rule { rule, detail },
            ));
        }
    }
}

fn check_all(s: &Scenario) -> Vec<FieldError> {
    let mut c = Check { errors: Vec::new() };
    match &s.load {
        Load::Batch { requests } => c.int("load.requests", *requests, r::REQUESTS),
        Load::Constant { rate_per_s, peak_factor, duration_ms }
        | Load::Poisson { rate_per_s, peak_factor, duration_ms } => {
            c.num("load.rate_per_s", *rate_per_s, r::RATE_PER_S);
            c.num("load.peak_factor", *peak_factor, r::PEAK_FACTOR);
            c.num("load.duration_ms", *duration_ms, r::DURATION_MS);
        }
    }
    if s.layers.is_empty() || s.layers.len() > MAX_LAYERS {
        c.errors.push(FieldError::new(
            "layers",
            s.layers.len(),
            Allowed::Length { min_len: 1, max_len: MAX_LAYERS },
        ));
    }
    for (i, l) in s.layers.iter().enumerate() {
        let f = format!("layers[{i}]");
        c.name(&format!("{f}.name"), &l.name);
        c.server(&format!("{f}.server"), &l.server);
        c.dist(&format!("{f}.work"), &l.work);
        c.opt(&format!("{f}.deadline_ms"), l.deadline_ms, r::DEADLINE_MS);
        let shared = l.shared_pool.is_some();
        c.client(&format!("{f}.client"), &l.client, shared);
        if let Some(p) = &l.shared_pool {
            c.int(&format!("{f}.shared_pool.size"), p.size, r::SHARED_POOL_SIZE);
            if let Some(q) = p.queue {
                c.int(&format!("{f}.shared_pool.queue"), q, r::QUEUE);
            }
        }
        if l.side_deps.len() > MAX_SIDE_DEPS {
            c.errors.push(FieldError::new(
                format!("{f}.side_deps"),
                l.side_deps.len(),
                Allowed::Length { min_len: 0, max_len: MAX_SIDE_DEPS },
            ));
        }
        for (j, d) in l.side_deps.iter().enumerate() {
            let g = format!("{f}.side_deps[{j}]");
            c.leaf(&format!("{g}.target"), &d.target);
            c.client(&format!("{g}.client"), &d.client, shared);
            c.num(&format!("{g}.needed_by"), d.needed_by, r::PROBABILITY);
        }
    }
    c.leaf("leaf", &s.leaf);
    let names = s.hop_names();
    for (i, n) in names.iter().enumerate() {
        if names[..i].contains(n) {
            c.rule("names", format!("{n:?}"), Rule::UniqueNames);
        }
    }
    if s.faults.len() > MAX_FAULTS {
        c.errors.push(FieldError::new(
            "faults",
            s.faults.len(),
            Allowed::Length { min_len: 0, max_len: MAX_FAULTS },
        ));
        return c.errors;
    }
    for (i, fault) in s.faults.iter().enumerate() {
        let f = format!("faults[{i}]");
        c.num(&format!("{f}.start_ms"), fault.start_ms, r::FAULT_TIME_MS);
        c.num(&format!("{f}.end_ms"), fault.end_ms, r::fault_end_ms(fault.start_ms));
        match fault.effect {
            FaultEffect::Surge { factor } => c.num(&format!("{f}.effect.factor"), factor, r::SURGE_FACTOR),
            FaultEffect::Latency { factor } => {
                c.num(&format!("{f}.effect.factor"), factor, r::LATENCY_FACTOR)
            }
            FaultEffect::ErrorRate { rate } => c.num(&format!("{f}.effect.rate"), rate, r::PROBABILITY),
            FaultEffect::Down {} => {}
        }
        let is_surge = matches!(fault.effect, FaultEffect::Surge { .. });
        if !is_surge && !names.contains(&fault.target) {
            c.errors.push(FieldError::new(
                format!("{f}.target"),
                format!("{:?}", fault.target),
                Allowed::OneOf { choices: names.clone() },
            ));
        }
        if !is_surge && s.layers.iter().any(|l| l.name == fault.target) {
            c.rule(&format!("{f}.target"), format!("{:?}", fault.target), Rule::FaultOnLayer);
        }
    }
    // Overlapping windows are indexed per service; keep that index small.
    for n in &names {
        if incidence(&s.faults, n, MAX_FAULT_INCIDENCE) > MAX_FAULT_INCIDENCE {
            c.rule("faults", format!("{n:?}"), Rule::FaultOverlap);
        }
    }
    if let Some(b) = s.report.bucket_ms {
        c.num("report.bucket_ms", b, r::REPORT_BUCKET_MS);
    }
    c.int("report.trace_sample", s.report.trace_sample, r::TRACE_SAMPLE);
    c.int("report.trace_requests.len", s.report.trace_requests.len() as u64, r::TRACE_REQUESTS);
    for (i, &n) in s.report.trace_requests.iter().enumerate() {
        c.int(&format!("report.trace_requests[{i}]"), n, r::TRACE_REQUEST);
    }
    c.num("slo.success_percent", s.slo.success_percent, r::SLO_PERCENT);
    c.errors
}

/// Every problem with a scenario, in field order.
pub fn validate_all(s: &Scenario) -> Vec<FieldError> {
    check_all(s)
}

/// The first problem with a scenario, if any.
pub fn validate(s: &Scenario) -> Result<(), FieldError> {
    match check_all(s).into_iter().next() {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// The work a scenario implies, estimated before running it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Work {
    /// Expected original requests (surges included).
    pub requests: f64,
    /// Calls at every hop if every attempt is used (an upper bound).
    pub calls_upper_bound: f64,
}

/// Expected requests and the worst-case number of calls.
pub fn estimate_work(s: &Scenario) -> Work {
    let requests = match s.load {
        Load::Batch { requests } => requests as f64,
        Load::Constant { rate_per_s, peak_factor, duration_ms }
        | Load::Poisson { rate_per_s, peak_factor, duration_ms } => {
            // Overlapping surges multiply (as the arrivals do): integrate the rate times the
            // product of the surges in force over each stretch between surge edges.
            let surges: Vec<(f64, f64, f64)> = s
                .faults
                .iter()
                .filter_map(|f| match f.effect {
                    FaultEffect::Surge { factor } => Some((f.start_ms, f.end_ms, factor)),
                    _ => None,
                })
                .collect();
            // A sweep over the edges, keeping the product of the surges in force.
            let mut events: Vec<(f64, f64)> = surges
                .iter()
                .filter(|&&(a, b, f)| b > a && f > 0.0)
                .flat_map(|&(a, b, f)| [(a.max(0.0), f), (b, 1.0 / f)])
                .collect();
            crate::order::sort_by_key(&mut events, |x| crate::order::f64_key(x.0));
            let (mut t, mut factor, mut expected) = (0.0_f64, 1.0_f64, 0.0_f64);
            for (at, change) in events {
                let until = at.min(duration_ms);
                if until > t {
                    expected += rate_per_s * peak_factor * factor * (until - t) / 1000.0;
                    t = until;
                }
                factor *= change;
            }
            if duration_ms > t {
                expected += rate_per_s * peak_factor * factor * (duration_ms - t) / 1000.0;
            }
            // Evenly spaced arrivals start at 0: one more than the rate times the time.
            (expected + 1.0).max(0.0)
        }
    };
    let mut calls = requests; // the entry
    let mut reach = requests;
    for l in &s.layers {
        for d in &l.side_deps {
            calls += reach * f64::from(d.client.retry.max_attempts);
        }
        reach *= f64::from(l.client.retry.max_attempts);
        calls += reach;
    }
    Work { requests, calls_upper_bound: calls }
}

//! Validation: every range a scenario field accepts, and the work a scenario implies.
//!
//! Errors name the field by its path in the JSON (`layers[1].client.retry.max_attempts`),
//! the value and the allowed range, so the CLI can print them and the UI can put them by
//! the control.

use super::*;
use crate::error::{Allowed, FieldError, fmt_num};
use crate::policy::retry::{Backoff, Jitter};

/// Most layers in a chain.
pub const MAX_LAYERS: usize = 8;
/// Most attempts per call, first included.
pub const MAX_ATTEMPTS: u32 = 10;
/// Most side dependencies per layer.
pub const MAX_SIDE_DEPS: usize = 3;
/// Longest time any setting may name (ms): one day.
pub const MAX_MS: f64 = 86_400_000.0;
/// Most workers, queue slots, tokens and the like.
pub const MAX_COUNT: u32 = 1_000_000;

struct Check {
    errors: Vec<FieldError>,
}

impl Check {
    fn range(&mut self, field: &str, v: f64, min: f64, max: f64) {
        if !(v.is_finite() && v >= min && v <= max) {
            self.errors.push(FieldError::new(field, fmt_num(v), Allowed::range(min, max)));
        }
    }
    fn int(&mut self, field: &str, v: u64, min: u64, max: u64) {
        if !(min..=max).contains(&v) {
            self.errors.push(FieldError::new(field, v, Allowed::integer(min, max)));
        }
    }
    fn rule(&mut self, field: &str, value: impl std::fmt::Display, rule: &str) {
        self.errors.push(FieldError::new(field, value, Allowed::Rule { rule: rule.to_string() }));
    }
    fn ms(&mut self, field: &str, v: f64) {
        self.range(field, v, 0.0, MAX_MS);
    }
    fn opt_ms(&mut self, field: &str, v: Option<f64>, min: f64) {
        if let Some(v) = v {
            self.range(field, v, min, MAX_MS);
        }
    }
    fn dist(&mut self, field: &str, d: &Dist) {
        match *d {
            Dist::Constant { ms } => self.ms(&format!("{field}.ms"), ms),
            Dist::Exponential { mean_ms } => self.ms(&format!("{field}.mean_ms"), mean_ms),
            Dist::LogNormal { median_ms, p99_ms } => {
                self.range(&format!("{field}.median_ms"), median_ms, 0.001, MAX_MS);
                self.range(&format!("{field}.p99_ms"), p99_ms, median_ms.max(0.001), MAX_MS);
            }
        }
    }
    fn server(&mut self, field: &str, s: &Server) {
        if let Some(w) = s.workers {
            self.int(&format!("{field}.workers"), u64::from(w), 1, u64::from(MAX_COUNT));
        }
        if let Some(q) = s.queue {
            self.int(&format!("{field}.queue"), u64::from(q), 0, u64::from(MAX_COUNT));
        }
        self.opt_ms(&format!("{field}.queue_timeout_ms"), s.queue_timeout_ms, 0.001);
        self.ms(&format!("{field}.min_budget_ms"), s.min_budget_ms);
        if let Some(a) = &s.admission {
            let f = format!("{field}.admission");
            if let Some(tb) = &a.token_bucket {
                self.int(
                    &format!("{f}.token_bucket.capacity"),
                    u64::from(tb.capacity),
                    1,
                    u64::from(MAX_COUNT),
                );
                self.range(&format!("{f}.token_bucket.rate_per_s"), tb.rate_per_s, 0.0, 1e9);
                let milli = tb.rate_per_s * 1000.0;
                if milli.is_finite() && (milli - milli.round()).abs() > 1e-6 {
                    self.rule(
                        &format!("{f}.token_bucket.rate_per_s"),
                        fmt_num(tb.rate_per_s),
                        "at most 3 decimals",
                    );
                }
                self.int(&format!("{f}.token_bucket.cost"), u64::from(tb.cost), 1, u64::from(MAX_COUNT));
            }
            if let Some(c) = a.concurrency_limit {
                self.int(&format!("{f}.concurrency_limit"), u64::from(c), 1, u64::from(MAX_COUNT));
            }
            self.ms(&format!("{f}.retry_after_ms"), a.retry_after_ms);
        }
    }
    fn leaf(&mut self, field: &str, l: &Leaf) {
        self.name(&format!("{field}.name"), &l.name);
        self.server(&format!("{field}.server"), &l.server);
        self.dist(&format!("{field}.work"), &l.work);
        self.range(&format!("{field}.error_rate"), l.error_rate, 0.0, 1.0);
        self.range(&format!("{field}.client_error_rate"), l.client_error_rate, 0.0, 1.0);
        self.range(&format!("{field}.empty_rate"), l.empty_rate, 0.0, 1.0);
        if l.error_rate + l.client_error_rate > 1.0 + 1e-12 {
            self.rule(
                &format!("{field}.client_error_rate"),
                fmt_num(l.client_error_rate),
                "error_rate + client_error_rate must not exceed 1",
            );
        }
    }
    fn name(&mut self, field: &str, name: &str) {
        if name.trim().is_empty() || name.chars().count() > 40 {
            self.rule(field, format!("{name:?}"), "a name of 1 to 40 characters");
        }
    }
    fn client(&mut self, field: &str, c: &Client, has_shared_pool: bool) {
        let r = &c.retry;
        self.int(
            &format!("{field}.retry.max_attempts"),
            u64::from(r.max_attempts),
            1,
            u64::from(MAX_ATTEMPTS),
        );
        match r.backoff {
            Backoff::None => {}
            Backoff::Fixed { ms } => self.ms(&format!("{field}.retry.backoff.ms"), ms),
            Backoff::Exponential { base_ms, cap_ms } => {
                self.range(&format!("{field}.retry.backoff.base_ms"), base_ms, 0.001, MAX_MS);
                self.range(&format!("{field}.retry.backoff.cap_ms"), cap_ms, base_ms.max(0.001), MAX_MS);
            }
        }
        if r.jitter == Jitter::Decorrelated && !matches!(r.backoff, Backoff::Exponential { .. }) {
            self.rule(
                &format!("{field}.retry.jitter"),
                "decorrelated",
                "decorrelated jitter needs exponential backoff (for its base and cap)",
            );
        }
        self.opt_ms(&format!("{field}.per_try_timeout_ms"), c.per_try_timeout_ms, 0.001);
        self.ms(&format!("{field}.min_useful_ms"), c.min_useful_ms);
        match c.retry_budget {
            None => {}
            Some(RetryBudgetConfig::Ratio { max_tokens, retry_ratio }) => {
                self.range(&format!("{field}.retry_budget.max_tokens"), max_tokens, 0.0, 1e6);
                self.range(&format!("{field}.retry_budget.retry_ratio"), retry_ratio, 0.0, 1.0);
            }
            Some(RetryBudgetConfig::Grpc { max_tokens, token_ratio }) => {
                self.range(&format!("{field}.retry_budget.max_tokens"), max_tokens, 1.0, 1000.0);
                self.range(&format!("{field}.retry_budget.token_ratio"), token_ratio, 0.001, 1.0);
            }
        }
        if let Some(b) = &c.breaker {
            let f = format!("{field}.breaker");
            self.int(&format!("{f}.window"), u64::from(b.window), 1, 10_000);
            self.int(&format!("{f}.min_calls"), u64::from(b.min_calls), 1, u64::from(b.window.max(1)));
            self.range(&format!("{f}.failure_rate_pct"), b.failure_rate_pct, 0.01, 100.0);
            self.opt_ms(&format!("{f}.slow_call_ms"), b.slow_call_ms, 0.001);
            self.range(&format!("{f}.slow_rate_pct"), b.slow_rate_pct, 0.01, 100.0);
            self.range(&format!("{f}.open_ms"), b.open_ms, 0.001, MAX_MS);
            self.int(&format!("{f}.half_open_calls"), u64::from(b.half_open_calls), 1, 1000);
            self.int(&format!("{f}.instances"), u64::from(b.instances), 1, 256);
        }
        if let Some(b) = &c.bulkhead {
            let f = format!("{field}.bulkhead");
            self.int(&format!("{f}.max_concurrent"), u64::from(b.max_concurrent), 1, u64::from(MAX_COUNT));
            self.int(&format!("{f}.max_queue"), u64::from(b.max_queue), 0, u64::from(MAX_COUNT));
            self.opt_ms(&format!("{f}.queue_timeout_ms"), b.queue_timeout_ms, 0.001);
        }
        if c.use_shared_pool && !has_shared_pool {
            self.rule(&format!("{field}.use_shared_pool"), "true", "needs a shared_pool on the layer");
        }
        if c.use_shared_pool && c.bulkhead.is_some() {
            self.rule(
                &format!("{field}.bulkhead"),
                "set",
                "a dependency uses either its own bulkhead or the shared pool",
            );
        }
        if let Some(Fallback::Stale { age_ms }) = c.fallback {
            self.ms(&format!("{field}.fallback.age_ms"), age_ms);
        }
    }
}

fn check_all(s: &Scenario) -> Vec<FieldError> {
    let mut c = Check { errors: Vec::new() };
    match &s.load {
        Load::Batch { requests } => c.int("load.requests", *requests, 1, 10_000_000),
        Load::Constant { rate_per_s, peak_factor, duration_ms }
        | Load::Poisson { rate_per_s, peak_factor, duration_ms } => {
            c.range("load.rate_per_s", *rate_per_s, 0.001, 1e7);
            c.range("load.peak_factor", *peak_factor, 0.01, 100.0);
            c.range("load.duration_ms", *duration_ms, 1.0, 1e9);
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
        c.opt_ms(&format!("{f}.deadline_ms"), l.deadline_ms, 0.001);
        let shared = l.shared_pool.is_some();
        c.client(&format!("{f}.client"), &l.client, shared);
        if let Some(p) = &l.shared_pool {
            c.int(&format!("{f}.shared_pool.size"), u64::from(p.size), 1, u64::from(MAX_COUNT));
            if let Some(q) = p.queue {
                c.int(&format!("{f}.shared_pool.queue"), u64::from(q), 0, u64::from(MAX_COUNT));
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
            c.range(&format!("{g}.needed_by"), d.needed_by, 0.0, 1.0);
        }
    }
    c.leaf("leaf", &s.leaf);
    let names = s.hop_names();
    for (i, n) in names.iter().enumerate() {
        if names[..i].contains(n) {
            c.rule("names", format!("{n:?}"), "every service needs its own name");
        }
    }
    for (i, fault) in s.faults.iter().enumerate() {
        let f = format!("faults[{i}]");
        c.range(&format!("{f}.start_ms"), fault.start_ms, 0.0, 1e9);
        c.range(&format!("{f}.end_ms"), fault.end_ms, fault.start_ms, 1e9);
        match fault.effect {
            FaultEffect::Surge { factor } => c.range(&format!("{f}.effect.factor"), factor, 0.01, 100.0),
            FaultEffect::Latency { factor } => c.range(&format!("{f}.effect.factor"), factor, 0.01, 1000.0),
            FaultEffect::ErrorRate { rate } => c.range(&format!("{f}.effect.rate"), rate, 0.0, 1.0),
            FaultEffect::Down => {}
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
            c.rule(
                &format!("{f}.target"),
                format!("{:?}", fault.target),
                "faults act on the leaf or a side dependency",
            );
        }
    }
    if let Some(b) = s.report.bucket_ms {
        c.range("report.bucket_ms", b, 0.1, 1e8);
    }
    c.int("report.trace_sample", u64::from(s.report.trace_sample), 0, 200);
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
            let base = rate_per_s * peak_factor * duration_ms / 1000.0;
            let extra: f64 = s
                .faults
                .iter()
                .filter_map(|f| match f.effect {
                    FaultEffect::Surge { factor } => {
                        let overlap = (f.end_ms.min(duration_ms) - f.start_ms.max(0.0)).max(0.0);
                        Some(rate_per_s * peak_factor * (factor - 1.0) * overlap / 1000.0)
                    }
                    _ => None,
                })
                .sum();
            (base + extra).max(0.0)
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

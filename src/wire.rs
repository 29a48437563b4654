//! A compact binary encoding for what travels between a page and its Web Worker: run
//! requests one way, reports the other.
//!
//! The page and the worker run the same wasm module, so whatever decodes a report ships to
//! every visitor. A general-purpose deserializer (serde_json's) costs about 36 KB of the
//! gzipped download for the report's types; this encoding costs a few: fields are written
//! in declaration order (little-endian numbers, length-prefixed lists and strings, one byte
//! for an enum's variant), with no names and no schema evolution, because both ends are
//! the same build. Each type lists its fields once in a [`wire_struct!`] line, which
//! builds the struct whole, so a field added to a type and not to its line is a compile
//! error. JSON stays the format of files and of the CLI.

use crate::error::{Allowed, FieldError, Rule};
use crate::policy::breaker::{State as BreakerState, Tally as BreakerTally};
use crate::policy::stack::Stage;
use crate::report::*;

/// Writes values.
#[derive(Default)]
pub struct Writer {
    pub bytes: Vec<u8>,
}

/// Reads values back; every read fails softly (`None`) on short or bad input.
pub struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        Reader { bytes, at: 0 }
    }
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let s = self.bytes.get(self.at..self.at.checked_add(n)?)?;
        self.at += n;
        Some(s)
    }
    /// Whether everything was read.
    pub fn done(&self) -> bool {
        self.at == self.bytes.len()
    }
}

/// A value that can travel.
pub trait Wire: Sized {
    fn put(&self, w: &mut Writer);
    fn get(r: &mut Reader) -> Option<Self>;
}

/// Encodes a value.
pub fn encode<T: Wire>(v: &T) -> Vec<u8> {
    let mut w = Writer::default();
    v.put(&mut w);
    w.bytes
}

/// Decodes a value that must use every byte.
pub fn decode<T: Wire>(bytes: &[u8]) -> Option<T> {
    let mut r = Reader::new(bytes);
    let v = T::get(&mut r)?;
    r.done().then_some(v)
}

macro_rules! wire_num {
    ($($t:ty),*) => {$(
        impl Wire for $t {
            fn put(&self, w: &mut Writer) {
                w.bytes.extend_from_slice(&self.to_le_bytes());
            }
            fn get(r: &mut Reader) -> Option<Self> {
                Some(<$t>::from_le_bytes(r.take(std::mem::size_of::<$t>())?.try_into().ok()?))
            }
        }
    )*};
}
wire_num!(u8, u32, u64, i64, f64);

impl Wire for usize {
    fn put(&self, w: &mut Writer) {
        (*self as u64).put(w);
    }
    fn get(r: &mut Reader) -> Option<Self> {
        usize::try_from(u64::get(r)?).ok()
    }
}

impl Wire for bool {
    fn put(&self, w: &mut Writer) {
        u8::from(*self).put(w);
    }
    fn get(r: &mut Reader) -> Option<Self> {
        match u8::get(r)? {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        }
    }
}

impl Wire for String {
    fn put(&self, w: &mut Writer) {
        self.len().put(w);
        w.bytes.extend_from_slice(self.as_bytes());
    }
    fn get(r: &mut Reader) -> Option<Self> {
        let n = usize::get(r)?;
        String::from_utf8(r.take(n)?.to_vec()).ok()
    }
}

impl<T: Wire> Wire for Vec<T> {
    fn put(&self, w: &mut Writer) {
        self.len().put(w);
        self.iter().for_each(|x| x.put(w));
    }
    fn get(r: &mut Reader) -> Option<Self> {
        let n = usize::get(r)?;
        // Each item takes at least a byte: a bad length cannot reserve much.
        let mut v = Vec::with_capacity(n.min(r.bytes.len().saturating_sub(r.at)));
        for _ in 0..n {
            v.push(T::get(r)?);
        }
        Some(v)
    }
}

impl<T: Wire> Wire for Option<T> {
    fn put(&self, w: &mut Writer) {
        match self {
            None => 0u8.put(w),
            Some(x) => {
                1u8.put(w);
                x.put(w);
            }
        }
    }
    fn get(r: &mut Reader) -> Option<Self> {
        match u8::get(r)? {
            0 => Some(None),
            1 => Some(Some(T::get(r)?)),
            _ => None,
        }
    }
}

impl<A: Wire, B: Wire> Wire for (A, B) {
    fn put(&self, w: &mut Writer) {
        self.0.put(w);
        self.1.put(w);
    }
    fn get(r: &mut Reader) -> Option<Self> {
        Some((A::get(r)?, B::get(r)?))
    }
}

impl<T: Wire, E: Wire> Wire for Result<T, E> {
    fn put(&self, w: &mut Writer) {
        match self {
            Ok(v) => {
                0u8.put(w);
                v.put(w);
            }
            Err(e) => {
                1u8.put(w);
                e.put(w);
            }
        }
    }
    fn get(r: &mut Reader) -> Option<Self> {
        match u8::get(r)? {
            0 => Some(Ok(T::get(r)?)),
            1 => Some(Err(E::get(r)?)),
            _ => None,
        }
    }
}

impl<T: Wire> Wire for Box<T> {
    fn put(&self, w: &mut Writer) {
        (**self).put(w);
    }
    fn get(r: &mut Reader) -> Option<Self> {
        T::get(r).map(Box::new)
    }
}

/// A struct: its fields in order. The struct is built whole, so the list must name every
/// field.
macro_rules! wire_struct {
    ($t:ident { $($f:ident),* $(,)? }) => {
        impl Wire for $t {
            fn put(&self, w: &mut Writer) {
                $(self.$f.put(w);)*
            }
            fn get(r: &mut Reader) -> Option<Self> {
                Some($t { $($f: Wire::get(r)?),* })
            }
        }
    };
}
pub(crate) use wire_struct;

/// An enum of unit variants, one byte each: its index in the listed variants
/// (`Type { A, B }`) or in the type's own `ALL` list (`Type`). A list that leaves a variant
/// out does not compile (the variant would travel as the first one).
macro_rules! wire_unit_enum {
    ($t:ident { $($v:ident),* $(,)? }) => {
        const _: () = {
            #[allow(dead_code)]
            fn every_variant_is_listed(x: $t) {
                match x {
                    $($t::$v => {}),*
                }
            }
        };
        impl Wire for $t {
            fn put(&self, w: &mut Writer) {
                let all = [$(<$t>::$v),*];
                (all.iter().position(|x| x == self).unwrap_or(0) as u8).put(w);
            }
            fn get(r: &mut Reader) -> Option<Self> {
                let all = [$(<$t>::$v),*];
                all.get(u8::get(r)? as usize).copied()
            }
        }
    };
    ($t:ty) => {
        impl Wire for $t {
            fn put(&self, w: &mut Writer) {
                (<$t>::ALL.iter().position(|x| x == self).unwrap_or(0) as u8).put(w);
            }
            fn get(r: &mut Reader) -> Option<Self> {
                <$t>::ALL.get(u8::get(r)? as usize).copied()
            }
        }
    };
}
pub(crate) use wire_unit_enum;

wire_unit_enum!(HopKind);
wire_unit_enum!(RequestOutcome);
wire_unit_enum!(CallResult);
wire_unit_enum!(MarkKind);
wire_unit_enum!(Refusal);
wire_unit_enum!(BreakerState { Closed, Open, HalfOpen });
wire_unit_enum!(Stage { Retry, Deadline, RetryBudget, Breaker, Timeout, Bulkhead });

wire_struct!(Percentiles { p50, p99, max });
wire_struct!(Causes {
    timeout,
    error,
    overload,
    client_error,
    budget_exhausted,
    retry_budget_denied,
    breaker_rejected,
    bulkhead_rejected
});
wire_struct!(Summary {
    original_requests,
    downstream_attempts,
    attempts_per_hop,
    amplification,
    succeeded,
    degraded,
    failed,
    admission_rejected,
    retry_budget_denied,
    budget_exhausted,
    breaker_rejected,
    bulkhead_rejected,
    retries,
    timeouts,
    core_success_rate,
    degraded_rate,
    latency_ms,
    degraded_by_cause,
    degraded_unavailable,
    degraded_stale,
    computed_empty,
    failed_by_cause,
    unfinished,
    end_ms,
    stopped
});
wire_struct!(HopStats {
    name,
    kind,
    workers,
    calls,
    rejected,
    abandoned_work,
    cancelled,
    peak_in_flight,
    peak_queue,
    shared_pool,
    queueing,
    results,
    refused
});
wire_struct!(CallResults { ok, error, overload, client_error, budget_exhausted, cancelled, unfinished });
wire_struct!(Refusals { rate_limit, concurrency_limit, cost_exceeds_capacity, queue_full, queue_timeout });
wire_struct!(PoolSize { size, queue });
wire_struct!(Queueing { served, waited, wait_ms, busy_ms, mean_in_pool });
wire_struct!(ClientStats {
    name,
    caller,
    callee,
    optional,
    attempts,
    retries,
    first_attempt_successes,
    retry_budget_denied,
    breaker_rejected,
    bulkhead_rejected,
    budget_exhausted,
    timeouts,
    breaker_instances,
    budget_max_tokens,
    stack,
    bulkhead
});
wire_struct!(Series {
    bucket_ms,
    buckets,
    offered,
    attempts,
    in_flight,
    queue,
    succeeded,
    degraded,
    failed,
    rejected,
    requests_in_flight,
    budget_tokens,
    breaker_open,
    breaker_half_open,
    breaker_window_calls,
    breaker_window_failed,
    bulkhead_in_use,
    bulkhead_queue,
    shared_pool_busy,
    shared_pool_queue
});
wire_struct!(BreakerTally { calls, failures, slows });
wire_struct!(BreakerTransition { t_ms, client, instance, from, to, decided });
wire_struct!(LatencyDist { outcome, count, percentiles, bins, examples });
wire_struct!(Span { id, parent, hop, attempt, start_ms, work_ms, end_ms, result, abandoned, refusal });
wire_struct!(Mark { hop, call, callee, kind, start_ms, end_ms });
wire_struct!(Trace { request, arrival_ms, deadline_ms, end_ms, outcome, spans, marks, dropped });
wire_struct!(CauseExamples {
    timeout,
    error,
    overload,
    client_error,
    budget_exhausted,
    retry_budget_denied,
    breaker_rejected,
    bulkhead_rejected
});
wire_struct!(Examples { succeeded, degraded, failed, rejected, slowest, by_cause });
wire_struct!(Report {
    generator,
    scenario,
    seed,
    summary,
    hops,
    clients,
    series,
    breaker_transitions,
    latency,
    traces,
    examples
});

impl Wire for Stopped {
    fn put(&self, w: &mut Writer) {
        let (tag, at_ms, limit) = match *self {
            Stopped::CallsAlive { at_ms, limit } => (0u8, at_ms, limit),
            Stopped::Work { at_ms, limit } => (1, at_ms, limit),
        };
        tag.put(w);
        at_ms.put(w);
        limit.put(w);
    }
    fn get(r: &mut Reader) -> Option<Self> {
        let (tag, at_ms, limit) = (u8::get(r)?, f64::get(r)?, u64::get(r)?);
        match tag {
            0 => Some(Stopped::CallsAlive { at_ms, limit }),
            1 => Some(Stopped::Work { at_ms, limit }),
            _ => None,
        }
    }
}

impl Wire for Allowed {
    fn put(&self, w: &mut Writer) {
        match self {
            Allowed::Range { min, max } => (0u8, (min.clone(), max.clone())).put(w),
            Allowed::Integer { min, max } => (1u8, (min.clone(), max.clone())).put(w),
            Allowed::OneOf { choices } => (2u8, choices.clone()).put(w),
            Allowed::Length { min_len, max_len } => (3u8, (*min_len, *max_len)).put(w),
            Allowed::OffOrRange { min, max, integer } => (4u8, ((min.clone(), max.clone()), *integer)).put(w),
            Allowed::Rule { rule, detail } => (5u8, (*rule as u8, detail.clone())).put(w),
            Allowed::Decimals { min, max, decimals } => (6u8, ((min.clone(), max.clone()), *decimals)).put(w),
        }
    }
    fn get(r: &mut Reader) -> Option<Self> {
        Some(match u8::get(r)? {
            0 => {
                let (min, max) = Wire::get(r)?;
                Allowed::Range { min, max }
            }
            1 => {
                let (min, max) = Wire::get(r)?;
                Allowed::Integer { min, max }
            }
            2 => Allowed::OneOf { choices: Wire::get(r)? },
            3 => {
                let (min_len, max_len) = Wire::get(r)?;
                Allowed::Length { min_len, max_len }
            }
            4 => {
                let ((min, max), integer) = Wire::get(r)?;
                Allowed::OffOrRange { min, max, integer }
            }
            5 => {
                let (rule, detail): (u8, String) = Wire::get(r)?;
                Allowed::Rule { rule: *Rule::ALL.get(usize::from(rule))?, detail }
            }
            6 => {
                let ((min, max), decimals) = Wire::get(r)?;
                Allowed::Decimals { min, max, decimals }
            }
            _ => return None,
        })
    }
}

wire_struct!(FieldError { field, value, allowed, unit });

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::chain::{DEFAULT_MAX_CALLS, run_with};
    use crate::scenario::presets;

    #[test]
    fn every_preset_report_travels_unchanged() {
        for p in presets::all() {
            let s = (p.build)();
            let r = run_with(&s, 7, DEFAULT_MAX_CALLS).unwrap();
            let bytes = encode(&r);
            let back: Report = decode(&bytes).expect("decodes");
            assert_eq!(back, r, "{}", p.name);
            assert_eq!(back.to_json(), r.to_json(), "{}: the same bytes as JSON too", p.name);
        }
    }

    #[test]
    fn bad_input_decodes_to_nothing_without_panicking() {
        let r = run_with(&presets::breaker_demo(), 1, DEFAULT_MAX_CALLS).unwrap();
        let bytes = encode(&r);
        for cut in [0, 1, 7, bytes.len() / 2, bytes.len() - 1] {
            assert!(decode::<Report>(&bytes[..cut]).is_none(), "cut at {cut}");
        }
        let mut extra = bytes.clone();
        extra.push(0);
        assert!(decode::<Report>(&extra).is_none(), "trailing bytes");
        assert!(decode::<Vec<u64>>(&[255; 16]).is_none(), "a huge length");
        let e =
            FieldError::new("x", 3, Allowed::OffOrRange { min: "1".into(), max: "9".into(), integer: true })
                .with_unit("ms");
        assert_eq!(decode::<FieldError>(&encode(&e)), Some(e));
        let e = FieldError::new(
            "r",
            0.0005,
            Allowed::Decimals { min: "0".into(), max: "20".into(), decimals: 3 },
        );
        assert_eq!(decode::<FieldError>(&encode(&e)), Some(e));
    }
}

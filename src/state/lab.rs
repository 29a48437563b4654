//! What the mechanism labs' states share: reading knobs and choices from a link (a bad value
//! is kept with its error and that field alone keeps its preset value), writing back only
//! what differs from the preset, and naming the keys a link has that the page does not read.

use super::{FieldKey, FormErrors};
use crate::error::{Allowed, FieldError};
use crate::knob::{Choice, Knob};
use crate::query::Query;

/// Reads every knob of `knobs` the link sets into `input`; a value that is not accepted
/// is recorded in `errors` and leaves the field as it was.
pub fn read_knobs<S>(q: &Query, knobs: &[&Knob<S>], input: &mut S, errors: &mut FormErrors) {
    for k in knobs {
        if let Some(raw) = q.get(k.key) {
            match k.parse(raw, k.key) {
                Ok(v) => (k.set)(input, 0, v),
                Err(e) => errors.set(FieldKey::plain(k.key), raw.to_string(), e),
            }
        }
    }
}

/// Reads a choice the link sets, as [`read_knobs`] does.
pub fn read_choice<S>(q: &Query, c: &Choice<S>, input: &mut S, errors: &mut FormErrors) {
    if let Some(raw) = q.get(c.key) {
        match c.check(raw, c.key) {
            Ok(v) => (c.set)(input, 0, v),
            Err(e) => errors.set(FieldKey::plain(c.key), raw.to_string(), e),
        }
    }
}

/// The link key of a lab's paused playhead: how many of the run's steps (the breaker lab's
/// calls, the admission lab's arrivals) were shown when the learner paused, so that a
/// reload or a shared link opens there. Absent: the page's own start. A view of the run,
/// not a setting (`departs_from_preset` ignores it).
pub const AT: &str = "at";

/// Reads `at=` (a whole number from 0 to `most`), naming it where it is refused.
pub fn read_at(q: &Query, most: usize, errors: &mut FormErrors) -> Option<usize> {
    let raw = q.get(AT)?;
    match raw.trim().parse::<usize>() {
        Ok(k) if k <= most => Some(k),
        _ => {
            let e = FieldError::new(AT, crate::error::clip(raw.trim()), Allowed::integer(0, most as u64));
            errors.set(FieldKey::plain(AT), raw.to_string(), e);
            None
        }
    }
}

/// Writes `at=` (see [`AT`]).
pub fn write_at(q: &mut Query, at: Option<usize>) {
    match at {
        Some(k) => q.set(AT, k.to_string()),
        None => q.remove(AT),
    }
}

/// Writes the knobs whose value differs from `base`'s.
pub fn write_knobs<S>(q: &mut Query, knobs: &[&Knob<S>], input: &S, base: &S) {
    for k in knobs {
        match ((k.get)(input, 0), (k.get)(base, 0)) {
            (Some(v), Some(b)) if v == b => q.remove(k.key),
            // The shortest text that reads back as the same number.
            (Some(v), _) => q.set(k.key, format!("{v}")),
            (None, _) => q.remove(k.key),
        }
    }
}

/// The link's keys that `known` does not accept, in link order, each once.
pub fn unknown_keys(q: &Query, known: impl Fn(&str) -> bool) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (k, _) in q.pairs() {
        if !known(k) && !out.contains(k) {
            out.push(k.clone());
        }
    }
    out
}

/// The error for a `preset=` value that names no preset of the page.
pub fn preset_error(raw: &str, names: &[&str]) -> FieldError {
    FieldError::new("preset", raw, Allowed::OneOf { choices: names.iter().map(|n| n.to_string()).collect() })
}

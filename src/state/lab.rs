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

/// The keys of a link that name nothing on its page, in link order, each once.
///
/// Shared, not copied: a page's state is cloned and compared on every render, and a
/// hostile link names a thousand keys (a thousand strings copied each time had made a
/// 100 KB link's first render ≈ 10 ms longer). Equal lists from one read compare by
/// pointer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UnknownKeys(std::rc::Rc<Vec<String>>);

impl UnknownKeys {
    /// `keys` in the order given, each once.
    // Not generic and not inlined: one copy for every page's reader.
    #[inline(never)]
    pub fn of(keys: &[&str]) -> UnknownKeys {
        let first = crate::order::first_places(keys);
        let once = keys.iter().zip(first).enumerate().filter(|&(i, (_, f))| f == i);
        UnknownKeys(std::rc::Rc::new(once.map(|(_, (k, _))| k.to_string()).collect()))
    }

    /// These keys but those starting with `prefix`.
    pub fn without_prefix(&self, prefix: &str) -> UnknownKeys {
        UnknownKeys(std::rc::Rc::new(self.iter().filter(|k| !k.starts_with(prefix)).cloned().collect()))
    }
}

impl std::ops::Deref for UnknownKeys {
    type Target = [String];
    fn deref(&self) -> &[String] {
        &self.0
    }
}

/// The link's keys that `known` does not accept, in link order, each once.
pub fn unknown_keys(q: &Query, known: impl Fn(&str) -> bool) -> UnknownKeys {
    // A loop, not `filter`: an adapter's copy for each page's `known` costs the bundle more.
    let mut keys = Vec::new();
    for k in q.keys() {
        if !known(k) {
            keys.push(k);
        }
    }
    UnknownKeys::of(&keys)
}

/// The error for a `preset=` value that names no preset of the page.
pub fn preset_error(raw: &str, names: &[&str]) -> FieldError {
    FieldError::new("preset", raw, Allowed::OneOf { choices: names.iter().map(|n| n.to_string()).collect() })
}

/// The link key naming where a lab's settings came from (see [`Origin`]).
pub const FROM: &str = "from";

/// Separates a call's caller and callee in `from=` (`client→server`).
const CALL_ARROW: char = '→';

/// Where a lab's settings came from: the retry-storm page's hop (a pool, an admission
/// control) or call (a breaker) whose settings a link under its diagram opened the lab
/// with. The page says so in place of the preset's story, which describes another
/// system. Not a setting (`departs_from_preset` ignores it); a changed setting, a preset
/// picked or Reset removes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// A hop, by its service's name.
    Hop(String),
    /// A call, by its caller's and its callee's names.
    Call(String, String),
}

impl Origin {
    /// Its `from=` value; `None` when a name holds the arrow that separates a call's two
    /// names (the link would read back as another origin).
    pub fn to_link(&self) -> Option<String> {
        match self {
            Origin::Hop(h) if !h.contains(CALL_ARROW) => Some(h.clone()),
            Origin::Call(a, b) if !a.contains(CALL_ARROW) && !b.contains(CALL_ARROW) => {
                Some(format!("{a}{CALL_ARROW}{b}"))
            }
            _ => None,
        }
    }
}

/// Reads `from=` (see [`Origin`]): one service name, or two joined by `→`, each of 1 to
/// 40 characters as a scenario's names are; a refused value is named in `errors`.
pub fn read_from(q: &Query, errors: &mut FormErrors) -> Option<Origin> {
    let raw = q.get(FROM)?;
    let names: Vec<&str> = raw.split(CALL_ARROW).map(str::trim).collect();
    let named = |n: &&str| crate::scenario::validate::is_service_name(n);
    let error = match names.as_slice() {
        [h] if named(h) => return Some(Origin::Hop(h.to_string())),
        [a, b] if named(a) && named(b) => return Some(Origin::Call(a.to_string(), b.to_string())),
        [_] | [_, _] => Allowed::Rule { rule: crate::error::Rule::NameLength, detail: String::new() },
        _ => Allowed::Length { min_len: 1, max_len: 2 },
    };
    errors.set(FieldKey::plain(FROM), raw.to_string(), FieldError::new(FROM, crate::error::clip(raw), error));
    None
}

/// Writes `from=` (see [`Origin`]).
pub fn write_from(q: &mut Query, from: Option<&Origin>) {
    match from.and_then(Origin::to_link) {
        Some(v) => q.set(FROM, v),
        None => q.remove(FROM),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_keys_are_listed_once_each_in_link_order() {
        let q = Query::parse("?z=1&preset=x&a=2&z=3&m=4&a=5&b=6");
        assert_eq!(unknown_keys(&q, |k| k == "preset")[..], ["z", "a", "m", "b"]);
        assert!(unknown_keys(&q, |_| true).is_empty());
        // A fuzzer's link: a thousand keys, each twice, still in the order given.
        let keys: Vec<String> = (0..1000).rev().map(|i| format!("junk{i}")).collect();
        let twice: Vec<&str> = keys.iter().chain(&keys).map(String::as_str).collect();
        assert_eq!(UnknownKeys::of(&twice)[..], keys[..]);
        let pinned = UnknownKeys::of(&["pin.zz", "zz", "pin.a"]);
        assert_eq!(pinned.without_prefix("pin.")[..], ["zz"]);
    }
}

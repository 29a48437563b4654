//! Errors a user can cause: a slider out of range, a hand-edited URL, a bad scenario file.
//!
//! Every error names the field, the value it got and what is allowed, so the UI can show it
//! next to the control and the CLI can print it and exit 2. Nothing here panics.

use serde::{Deserialize, Serialize};
use std::fmt;

/// What a field accepts, used to tell the user how to fix a bad value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Allowed {
    /// A number between `min` and `max`, both included.
    Range { min: String, max: String },
    /// A whole number between `min` and `max`, both included.
    Integer { min: String, max: String },
    /// One of the listed words.
    OneOf { choices: Vec<String> },
    /// A list of between `min_len` and `max_len` items.
    Length { min_len: usize, max_len: usize },
    /// 0 to switch the setting off, or a number from `min` to `max`.
    OffOrRange { min: String, max: String, integer: bool },
    /// A number between `min` and `max` with at most `decimals` decimals.
    Decimals { min: String, max: String, decimals: u8 },
    /// A rule that is not a range, named so that each language says it from its own table
    /// (`i18n::Lang::rule`); `detail` is what the rule's words quote (a stage, known keys).
    Rule {
        rule: Rule,
        #[serde(default, skip_serializing_if = "String::is_empty")]
        detail: String,
    },
}

/// A rule a scenario must meet that is not a range of one field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    /// A leaf's 5xx and 4xx rates add up to at most 1.
    ErrorRatesSum,
    /// A service's name has 1 to 40 characters.
    NameLength,
    /// Every service has its own name.
    UniqueNames,
    /// Decorrelated jitter needs exponential backoff (for its base and cap).
    DecorrelatedNeedsExponential,
    /// `use_shared_pool` needs a shared pool on the layer.
    SharedPoolNeeded,
    /// A dependency uses its own bulkhead or the layer's shared pool, not both.
    BulkheadOrSharedPool,
    /// A stack's order begins with retry.
    StackRetryFirst,
    /// A stage is listed once (detail: the stage).
    StackRepeated,
    /// All six stages are listed (detail: the missing one).
    StackMissing,
    /// Faults act on the leaf or a side dependency, not on a layer.
    FaultOnLayer,
    /// At most a few fault windows overlap on one service.
    FaultOverlap,
    /// A scenario file's key is one the place knows (detail: the known keys).
    KnownKey,
    /// A required field is present.
    Required,
    /// A scenario file is JSON (detail: the parser's words and place).
    ValidJson,
    /// A field holds the type it takes (detail: that type in words).
    Expected,
    /// A stability map's axis names a storm page knob (detail: the usual ones).
    SweepAxisKey,
    /// The calculator's link gives its rate once: `rps` or `rpd`, not both.
    OneRate,
    /// A stability map cell leaves time to judge before and after its trigger (detail: the
    /// bounds, in ms).
    JudgedWindows,
    /// The breaker lab's number of phases is the length of its `phase_ms` list (detail: that
    /// length).
    PhasesFromList,
    /// A number is wanted (a stability axis' from or to).
    Number,
    /// A stability map's two axes sweep two different knobs (detail: the other axis' knob).
    AxesDiffer,
    /// A scenario file gives each key of an object once (JSON parsers disagree on which of
    /// two wins).
    KeyOnce,
}

impl Rule {
    /// Every rule, in declaration order (`ALL[r as usize] == r`; the wire sends the index).
    pub const ALL: [Rule; 22] = [
        Rule::ErrorRatesSum,
        Rule::NameLength,
        Rule::UniqueNames,
        Rule::DecorrelatedNeedsExponential,
        Rule::SharedPoolNeeded,
        Rule::BulkheadOrSharedPool,
        Rule::StackRetryFirst,
        Rule::StackRepeated,
        Rule::StackMissing,
        Rule::FaultOnLayer,
        Rule::FaultOverlap,
        Rule::KnownKey,
        Rule::Required,
        Rule::ValidJson,
        Rule::Expected,
        Rule::SweepAxisKey,
        Rule::OneRate,
        Rule::JudgedWindows,
        Rule::PhasesFromList,
        Rule::Number,
        Rule::AxesDiffer,
        Rule::KeyOnce,
    ];
}

impl Allowed {
    /// A rule that quotes nothing.
    pub fn rule(rule: Rule) -> Self {
        Allowed::Rule { rule, detail: String::new() }
    }
}

impl Allowed {
    /// A closed range of numbers, formatted without trailing zeros.
    pub fn range(min: f64, max: f64) -> Self {
        Allowed::Range { min: fmt_num(min), max: fmt_num(max) }
    }
    /// A closed range of whole numbers.
    pub fn integer(min: u64, max: u64) -> Self {
        Allowed::Integer { min: min.to_string(), max: max.to_string() }
    }
}

impl fmt::Display for Allowed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Allowed::Range { min, max } => write!(f, "a number from {min} to {max}"),
            Allowed::Integer { min, max } => write!(f, "a whole number from {min} to {max}"),
            Allowed::OneOf { choices } => write!(f, "one of {}", choices.join(", ")),
            Allowed::Length { min_len, max_len } if min_len == max_len => {
                write!(f, "a list of exactly {max_len} items")
            }
            Allowed::Length { min_len, max_len } => {
                write!(f, "a list of {min_len} to {max_len} items")
            }
            Allowed::OffOrRange { min, max, integer } => {
                let kind = if *integer { "a whole number" } else { "a number" };
                write!(f, "0 (off) or {kind} from {min} to {max}")
            }
            Allowed::Decimals { min, max, decimals } => {
                write!(f, "a number from {min} to {max} with at most {decimals} decimals")
            }
            Allowed::Rule { rule, detail } => f.write_str(&crate::i18n::Lang::En.rule(*rule, detail)),
        }
    }
}

/// A value a user supplied that the model cannot accept.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FieldError {
    /// Dotted path of the field, e.g. `layers[1].client.max_attempts`.
    pub field: String,
    /// The value as the user wrote it.
    pub value: String,
    /// What the field accepts (boxed: errors travel in `Result`s, which stay small).
    pub allowed: Box<Allowed>,
    /// The unit of the range (`ms`, `req/s`, …), empty when the field names what it counts.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub unit: String,
}

/// How many characters of a user's value a message repeats.
pub const SHOWN_CHARS: usize = 40;

/// The name of item `index` (from 0) of a list field in a page's messages, counted from 1 as
/// the page's tables and legends count rows: `item_field("arrivals", 1)` is `arrivals #2`. Scenario
/// files keep JSON paths (`layers[0]`), which count from 0 like the file's arrays.
pub fn item_field(key: &str, index: usize) -> String {
    format!("{key} #{}", index + 1)
}

/// A user's value as a message shows it: at most [`SHOWN_CHARS`] characters, then `…`, so
/// a 10,000-character link value cannot flood the page.
pub fn clip(value: &str) -> String {
    match value.char_indices().nth(SHOWN_CHARS) {
        Some((i, _)) => format!("{}…", &value[..i]),
        None => value.to_string(),
    }
}

/// A field's path as a message shows it: whole unless a user's key makes it very long, and
/// then its end, which names the field (`…token_bucket.rate_per_s`).
pub fn clip_field(path: &str) -> String {
    const MOST: usize = 100;
    let n = path.chars().count();
    match path.char_indices().nth(n.saturating_sub(MOST)) {
        Some((i, _)) if n > MOST => format!("…{}", &path[i..]),
        _ => path.to_string(),
    }
}

/// A list of a user's values as a message shows it: the first `most`, each clipped, then
/// how many more.
pub fn clip_list(values: &[String], most: usize) -> String {
    clip_list_sep(values, most, ", ")
}

/// [`clip_list`] with the separator a language writes lists with (`Lang::list`).
pub fn clip_list_sep(values: &[String], most: usize, sep: &str) -> String {
    let mut out = values.iter().take(most).map(|v| clip(v)).collect::<Vec<_>>().join(sep);
    if values.len() > most {
        out.push_str(&format!(" … (+{})", values.len() - most));
    }
    out
}

impl FieldError {
    pub fn new(field: impl Into<String>, value: impl fmt::Display, allowed: Allowed) -> Self {
        FieldError {
            field: clip_field(&field.into()),
            value: clip(&value.to_string()),
            allowed: Box::new(allowed),
            unit: String::new(),
        }
    }

    /// The same error, naming the range's unit.
    pub fn with_unit(mut self, unit: &str) -> Self {
        self.unit = unit.to_string();
        self
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: got {}, allowed {}", self.field, self.value, self.allowed)?;
        if !self.unit.is_empty() {
            write!(f, " ({})", self.unit)?;
        }
        Ok(())
    }
}

impl std::error::Error for FieldError {}

/// Formats a number the way a person would write it: no trailing zeros, no exponent for
/// the magnitudes our fields use.
pub fn fmt_num(x: f64) -> String {
    if x.is_finite() && x.abs() >= 1e15 {
        format!("{x:e}")
    } else if x.is_finite() && x == x.trunc() {
        format!("{}", x as i64)
    } else {
        let s = format!("{x:.6}");
        let s = s.trim_end_matches('0').trim_end_matches('.');
        s.to_string()
    }
}

/// Checks that `value` is finite and within `[min, max]`.
pub fn check_range(field: &str, value: f64, min: f64, max: f64) -> Result<f64, FieldError> {
    if value.is_finite() && value >= min && value <= max {
        Ok(value)
    } else {
        Err(FieldError::new(field, fmt_num(value), Allowed::range(min, max)))
    }
}

/// Checks that `value` is within `[min, max]`.
pub fn check_int(field: &str, value: u64, min: u64, max: u64) -> Result<u64, FieldError> {
    if (min..=max).contains(&value) {
        Ok(value)
    } else {
        Err(FieldError::new(field, value, Allowed::integer(min, max)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_values_are_clipped_by_characters() {
        assert_eq!(clip("short"), "short");
        let long = "中".repeat(10_000);
        assert_eq!(clip(&long), format!("{}…", "中".repeat(SHOWN_CHARS)));
        let e = FieldError::new("rate", &long, Allowed::range(0.1, 1.0));
        assert!(e.value.chars().count() == SHOWN_CHARS + 1, "{}", e.value);
        let keys: Vec<String> = (0..12).map(|i| format!("k{i}")).collect();
        assert_eq!(clip_list(&keys[..2], 8), "k0, k1");
        assert_eq!(clip_list(&keys, 3), "k0, k1, k2 … (+9)");
    }

    #[test]
    fn a_long_field_path_keeps_its_end_which_names_the_field() {
        let path = "layers[0].server.admission.token_bucket.rate_per_s";
        assert_eq!(FieldError::new(path, 0.0001, Allowed::range(0.0, 1.0)).field, path, "whole when it fits");
        let long = format!("{}.rate_per_s", "x".repeat(500));
        let f = FieldError::new(long, 1, Allowed::range(0.0, 1.0)).field;
        assert!(f.starts_with('…') && f.ends_with(".rate_per_s") && f.chars().count() == 101, "{f}");
    }

    #[test]
    fn message_names_field_value_and_range() {
        let e = check_int("layers", 9, 1, 8).unwrap_err();
        assert_eq!(e.to_string(), "layers: got 9, allowed a whole number from 1 to 8");
        let e = check_range("peak_factor", f64::NAN, 1.0, 100.0).unwrap_err();
        assert_eq!(e.to_string(), "peak_factor: got NaN, allowed a number from 1 to 100");
    }

    #[test]
    fn rules_are_listed_in_their_wire_order_and_said_in_both_languages() {
        use crate::i18n::Lang;
        for (i, r) in Rule::ALL.into_iter().enumerate() {
            assert_eq!(r as usize, i, "{r:?}");
            for lang in Lang::ALL {
                let text = lang.rule(r, "X");
                assert!(!text.is_empty() && !text.contains('{'), "{lang:?} {r:?}: {text}");
            }
        }
        let e = FieldError::new("leaf.client_error_rate", "0.6", Allowed::rule(Rule::ErrorRatesSum));
        assert_eq!(
            e.to_string(),
            "leaf.client_error_rate: got 0.6, allowed error_rate + client_error_rate must not exceed 1"
        );
    }

    #[test]
    fn numbers_print_without_trailing_zeros() {
        assert_eq!(fmt_num(0.25), "0.25");
        assert_eq!(fmt_num(200.0), "200");
        assert_eq!(fmt_num(1.5e-3), "0.0015");
        assert_eq!(fmt_num(1e155), "1e155");
    }
}

//! The calculator page's state and reducer, free of any browser code.
//!
//! The page holds the last valid input and its output; a field whose text is not accepted
//! keeps that text and an error next to it while the figures keep showing the last valid
//! result.

use super::{FieldKey, FormErrors};
use crate::error::FieldError;
use crate::i18n::T;
use crate::knob::{Knob, Slider};
use crate::model::amplification::{
    CalcInput, CalcOutput, MAX_ATTEMPTS, MAX_LAYERS, SECONDS_PER_DAY, compute, limits,
};
use crate::query::Query;
use crate::scenario::ranges::{FieldRange, Resolution};

/// Requests per day (URL `rpd`).
pub static REQUESTS_PER_DAY: Knob<CalcInput> = Knob {
    key: "rpd",
    label: T::FieldRequestsPerDay,
    help: T::FieldRequestsPerDayHelp,
    unit: T::UnitPerDay,
    range: FieldRange {
        min: limits::REQUESTS_PER_DAY.0,
        max: limits::REQUESTS_PER_DAY.1,
        resolution: Resolution::Any,
        unit: "",
    },
    slider: Slider::log(limits::REQUESTS_PER_DAY.0, limits::REQUESTS_PER_DAY.1),
    step: 1.0,
    off: false,
    get: |s, _| Some(s.requests_per_day),
    set: |s, _, v| s.requests_per_day = v,
};

/// Average req/s (URL `rps`), another view of requests per day.
pub static AVG_RPS: Knob<CalcInput> = Knob {
    key: "rps",
    label: T::FieldAvgRps,
    help: T::FieldAvgRpsHelp,
    unit: T::UnitRps,
    range: FieldRange {
        min: limits::AVG_RPS.0,
        max: limits::AVG_RPS.1,
        resolution: Resolution::Any,
        unit: "",
    },
    slider: Slider::log(limits::AVG_RPS.0, limits::AVG_RPS.1),
    step: 0.001,
    off: false,
    get: |s, _| Some(s.requests_per_day / SECONDS_PER_DAY),
    set: |s, _, v| s.requests_per_day = v * SECONDS_PER_DAY,
};

/// Peak factor (URL `peak`).
pub static PEAK_FACTOR: Knob<CalcInput> = Knob {
    key: "peak",
    label: T::FieldPeakFactor,
    help: T::FieldPeakFactorHelp,
    unit: T::UnitTimes,
    range: FieldRange {
        min: limits::PEAK_FACTOR.0,
        max: limits::PEAK_FACTOR.1,
        resolution: Resolution::Any,
        unit: "",
    },
    slider: Slider::log(limits::PEAK_FACTOR.0, limits::PEAK_FACTOR.1),
    step: 0.1,
    off: false,
    get: |s, _| Some(s.peak_factor),
    set: |s, _, v| s.peak_factor = v,
};

/// Number of retrying layers (URL `layers`).
pub static LAYERS: Knob<CalcInput> = Knob {
    key: "layers",
    label: T::FieldLayers,
    help: T::FieldLayersHelp,
    unit: T::UnitLayers,
    range: FieldRange { min: 1.0, max: MAX_LAYERS as f64, resolution: Resolution::Whole, unit: "" },
    slider: Slider::linear(1.0, MAX_LAYERS as f64),
    step: 1.0,
    off: false,
    get: |s, _| Some(s.attempts.len() as f64),
    set: |s, _, v| {
        let n = v as usize;
        let fill = s.attempts.last().copied().unwrap_or(3);
        s.attempts.resize(n, fill);
    },
};

/// Attempts at one layer, first included (URL `attempts`, a comma list, entry first).
pub static ATTEMPTS: Knob<CalcInput> = Knob {
    key: "attempts",
    label: T::FieldAttempts,
    help: T::FieldAttemptsHelp,
    unit: T::UnitAttempts,
    range: FieldRange { min: 1.0, max: MAX_ATTEMPTS as f64, resolution: Resolution::Whole, unit: "" },
    slider: Slider::linear(1.0, MAX_ATTEMPTS as f64),
    step: 1.0,
    off: false,
    get: |s, i| s.attempts.get(i).map(|&a| f64::from(a)),
    set: |s, i, v| {
        if let Some(a) = s.attempts.get_mut(i) {
            *a = v as u32;
        }
    },
};

/// Healthy hold time (URL `hold`).
pub static HOLD_NORMAL: Knob<CalcInput> = Knob {
    key: "hold",
    label: T::FieldHoldNormal,
    help: T::FieldHoldNormalHelp,
    unit: T::UnitMs,
    range: FieldRange {
        min: limits::HOLD_MS.0,
        max: limits::HOLD_MS.1,
        resolution: Resolution::Any,
        unit: "",
    },
    slider: Slider::log(limits::HOLD_MS.0, limits::HOLD_MS.1),
    step: 0.1,
    off: false,
    get: |s, _| Some(s.hold_normal_ms),
    set: |s, _, v| s.hold_normal_ms = v,
};

/// Degraded hold time (URL `hold_degraded`).
pub static HOLD_DEGRADED: Knob<CalcInput> = Knob {
    key: "hold_degraded",
    label: T::FieldHoldDegraded,
    help: T::FieldHoldDegradedHelp,
    unit: T::UnitMs,
    range: FieldRange {
        min: limits::HOLD_MS.0,
        max: limits::HOLD_MS.1,
        resolution: Resolution::Any,
        unit: "",
    },
    slider: Slider::log(limits::HOLD_MS.0, limits::HOLD_MS.1),
    step: 0.1,
    off: false,
    get: |s, _| Some(s.hold_degraded_ms),
    set: |s, _, v| s.hold_degraded_ms = v,
};

/// Pool size (URL `pool`).
pub static POOL: Knob<CalcInput> = Knob {
    key: "pool",
    label: T::FieldPool,
    help: T::FieldPoolHelp,
    unit: T::UnitConnections,
    range: FieldRange {
        min: limits::POOL.0 as f64,
        max: limits::POOL.1 as f64,
        resolution: Resolution::Whole,
        unit: "",
    },
    slider: Slider::log(limits::POOL.0 as f64, limits::POOL.1 as f64),
    step: 1.0,
    off: false,
    get: |s, _| Some(f64::from(s.pool_size)),
    set: |s, _, v| s.pool_size = v as u32,
};

/// Response size (URL `kib`).
pub static RESPONSE_KIB: Knob<CalcInput> = Knob {
    key: "kib",
    label: T::FieldResponseKib,
    help: T::FieldResponseKibHelp,
    unit: T::UnitKib,
    range: FieldRange {
        min: limits::RESPONSE_KIB.0,
        max: limits::RESPONSE_KIB.1,
        resolution: Resolution::Any,
        unit: "",
    },
    slider: Slider::log(limits::RESPONSE_KIB.0, limits::RESPONSE_KIB.1),
    step: 0.01,
    off: false,
    get: |s, _| Some(s.response_kib),
    set: |s, _, v| s.response_kib = v,
};

/// The knobs written to the URL, in order (`rps` is read but never written: `rpd` says
/// the same).
pub static URL_KNOBS: [&Knob<CalcInput>; 7] =
    [&REQUESTS_PER_DAY, &PEAK_FACTOR, &LAYERS, &HOLD_NORMAL, &HOLD_DEGRADED, &POOL, &RESPONSE_KIB];

/// Every knob, for lookups by key.
pub static ALL_KNOBS: [&Knob<CalcInput>; 9] = [
    &REQUESTS_PER_DAY,
    &AVG_RPS,
    &PEAK_FACTOR,
    &LAYERS,
    &ATTEMPTS,
    &HOLD_NORMAL,
    &HOLD_DEGRADED,
    &POOL,
    &RESPONSE_KIB,
];

/// Finds a knob by its key.
pub fn knob(key: &str) -> Option<&'static Knob<CalcInput>> {
    ALL_KNOBS.iter().copied().find(|k| k.key == key)
}

/// What the calculator page holds.
#[derive(Clone, Debug, PartialEq)]
pub struct CalcState {
    /// The last valid input.
    pub input: CalcInput,
    /// Its result.
    pub output: CalcOutput,
    /// Fields whose current text is not accepted, with that text and the error.
    pub errors: FormErrors,
    /// Link parameters this page does not read.
    pub unknown: crate::state::lab::UnknownKeys,
}

/// Something the learner did on the calculator page.
#[derive(Clone, Debug, PartialEq)]
pub enum CalcAction {
    /// Typed text into the number field of a knob.
    Type(FieldKey, String),
    /// Moved a slider to one of its stops (an index into `Knob::stops`).
    Slide(FieldKey, usize),
    /// Back to source 000's example.
    Reset,
}

impl Default for CalcState {
    fn default() -> Self {
        CalcState::from_input(CalcInput::default())
    }
}

/// The calculator's figures by the DOM id that shows each, with how a text writes them:
/// what the page's `data-value`s hold and what lessons quote.
pub fn figures(o: &CalcOutput) -> Vec<(&'static str, f64, crate::lesson::figures::Unit)> {
    use crate::lesson::figures::Unit;
    vec![
        ("out-avg", o.avg_rps, Unit::Count),
        ("out-peak", o.peak_rps, Unit::Count),
        ("out-amplification", o.amplification, Unit::Times),
        ("out-worst", o.worst_attempts_per_s, Unit::Count),
        ("out-payload", o.payload_mb_per_s, Unit::Count),
        ("inflight-normal-before", o.normal_before.in_flight, Unit::Count),
        ("inflight-normal-after", o.normal_after.in_flight, Unit::Count),
        ("inflight-degraded-before", o.degraded_before.in_flight, Unit::Count),
        ("inflight-degraded-after", o.degraded_after.in_flight, Unit::Count),
    ]
}

impl CalcState {
    /// Its settings, for lessons to quote (see [`super::Setting`]); the attempts of layer
    /// `n` as `attempts.n`.
    pub fn lesson_settings(&self) -> Vec<super::Setting> {
        let plain: Vec<&Knob<CalcInput>> =
            ALL_KNOBS.iter().copied().filter(|k| k.key != ATTEMPTS.key).collect();
        let mut out = super::knob_settings(&plain, &self.input);
        for i in 0..self.input.attempts.len() {
            if let Some(value) = (ATTEMPTS.get)(&self.input, i) {
                out.push(super::Setting {
                    key: format!("attempts.{}", i + 1),
                    value,
                    label: ATTEMPTS.label,
                    unit: ATTEMPTS.unit,
                    owner: super::Owner::Row(i + 1),
                });
            }
        }
        out
    }

    /// A state showing `input`, which must be valid (defaults and reducer results are).
    fn from_input(input: CalcInput) -> Self {
        let output = compute(&input)
            .unwrap_or_else(|_| compute(&CalcInput::default()).expect("the default input is valid"));
        CalcState { input, output, errors: FormErrors::default(), unknown: Default::default() }
    }

    /// Applies a learner's action; returns the new state.
    pub fn reduce(&self, action: CalcAction) -> CalcState {
        match action {
            CalcAction::Reset => CalcState::default(),
            CalcAction::Type(key, raw) => {
                let Some(k) = knob(key.key) else { return self.clone() };
                match k.parse(&raw, &key.field()) {
                    Ok(v) => self.apply(k, key, v),
                    Err(e) => self.with_error(key, raw, e),
                }
            }
            CalcAction::Slide(key, stop) => {
                let Some(k) = knob(key.key) else { return self.clone() };
                match k.value_at_stop(&self.input, key.index.unwrap_or(0), stop) {
                    Some(v) => self.apply(k, key, v),
                    None => self.clone(),
                }
            }
        }
    }

    fn apply(&self, k: &Knob<CalcInput>, key: FieldKey, v: f64) -> CalcState {
        let mut input = self.input.clone();
        (k.set)(&mut input, key.index.unwrap_or(0), v);
        match compute(&input) {
            Ok(output) => {
                let mut errors = self.errors.clone();
                errors.clear(&key);
                // A valid rate in one box settles the other box that shows the same value.
                if key.key == "rps" {
                    errors.clear(&FieldKey::plain("rpd"));
                } else if key.key == "rpd" {
                    errors.clear(&FieldKey::plain("rps"));
                }
                if key.key == "layers" {
                    errors.retain(|f| f.key != "attempts" || f.index.unwrap_or(0) < input.attempts.len());
                }
                CalcState { input, output, errors, unknown: self.unknown.clone() }
            }
            Err(e) => self.with_error(key, crate::error::fmt_num(v), e),
        }
    }

    fn with_error(&self, key: FieldKey, raw: String, err: FieldError) -> CalcState {
        let mut next = self.clone();
        next.errors.set(key, raw, err);
        next
    }

    /// Reads the page's inputs from a URL query. A bad value keeps the default for that
    /// field only and is reported with its text, so the page can show it by the field.
    pub fn from_query(q: &Query) -> CalcState {
        let mut state = CalcState::default();
        let apply_one = |state: &mut CalcState, key: FieldKey, raw: &str| {
            if let Some(k) = knob(key.key) {
                match k.parse(raw, &key.field()) {
                    Ok(v) => {
                        let mut input = state.input.clone();
                        (k.set)(&mut input, key.index.unwrap_or(0), v);
                        if compute(&input).is_ok() {
                            *state = CalcState { input, ..state.clone() }.recomputed();
                        }
                    }
                    Err(e) => state.errors.set(key, raw.to_string(), e),
                }
            }
        };
        if let Some(raw) = q.get("rps") {
            apply_one(&mut state, FieldKey::plain("rps"), raw);
            // Both: rpd (read below) sets the rate, and the link is told rps is not used.
            if q.get("rpd").is_some() && state.errors.get(&FieldKey::plain("rps")).is_none() {
                let e = FieldError::new(
                    "rps",
                    crate::error::clip(raw),
                    crate::error::Allowed::rule(crate::error::Rule::OneRate),
                );
                state.errors.set(FieldKey::plain("rps"), raw.to_string(), e);
            }
        }
        for k in URL_KNOBS {
            if let Some(raw) = q.get(k.key) {
                apply_one(&mut state, FieldKey::plain(k.key), raw);
            }
        }
        if let Some(list) = q.get("attempts") {
            let items: Vec<&str> = list.split(',').collect();
            // A list without `layers` sets the number of layers, within limits.
            if q.get("layers").is_none() && (1..=MAX_LAYERS).contains(&items.len()) {
                (LAYERS.set)(&mut state.input, 0, items.len() as f64);
            }
            // One item per layer: a list of another length than `layers` says so (a shorter
            // one leaves the last layers at their defaults, a longer one's extra items unused).
            let layers_given = q.get("layers").is_some();
            if items.len() > state.input.attempts.len()
                || (layers_given && items.len() != state.input.attempts.len())
            {
                let n = state.input.attempts.len();
                let (min, max) = if layers_given { (n, n) } else { (1, MAX_LAYERS) };
                state.errors.set(
                    FieldKey::plain("attempts"),
                    list.to_string(),
                    FieldError::new(
                        "attempts",
                        crate::error::clip(list),
                        crate::error::Allowed::Length { min_len: min, max_len: max },
                    ),
                );
            }
            for (i, raw) in items.iter().enumerate().take(state.input.attempts.len()) {
                apply_one(&mut state, FieldKey::at("attempts", i), raw);
            }
        }
        let known = ["rps", "attempts"];
        state.unknown = crate::state::lab::unknown_keys(q, |k| {
            known.contains(&k) || crate::state::app::is_shell_key(k) || knob(k).is_some()
        });
        state.recomputed()
    }

    fn recomputed(self) -> CalcState {
        let (errors, unknown) = (self.errors, self.unknown);
        CalcState { errors, unknown, ..CalcState::from_input(self.input) }
    }

    /// Writes the page's inputs into `q` (other parameters are left alone).
    pub fn write_query(&self, q: &mut Query) {
        for k in URL_KNOBS {
            if let Some(v) = (k.get)(&self.input, 0) {
                q.set(k.key, crate::state::storm::url_num(v)); // exact: a link reads back the same number
            }
        }
        q.remove("rps");
        let list: Vec<String> = self.input.attempts.iter().map(|a| a.to_string()).collect();
        q.set("attempts", list.join(","));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_with_both_rates_is_told_which_one_is_used() {
        let s = CalcState::from_query(&Query::parse("?page=calculator&rps=100&rpd=864000"));
        assert_eq!(s.input.requests_per_day, 864_000.0, "rpd sets the rate");
        let (_, e) = s.errors.get(&FieldKey::plain("rps")).expect("rps named");
        assert!(crate::i18n::Lang::En.field_error(e).contains("rpd is used"), "{e:?}");
        assert!(
            CalcState::from_query(&Query::parse("?rpd=864000")).errors.get(&FieldKey::plain("rps")).is_none()
        );
    }

    #[test]
    fn typing_a_bad_value_keeps_the_last_valid_result() {
        let s = CalcState::default();
        let s = s.reduce(CalcAction::Type(FieldKey::at("attempts", 1), "4".into()));
        assert_eq!(s.output.worst_attempts_per_s, 6000.0);
        let bad = s.reduce(CalcAction::Type(FieldKey::at("attempts", 1), "40".into()));
        assert_eq!(bad.output.worst_attempts_per_s, 6000.0);
        let (raw, err) = bad.errors.get(&FieldKey::at("attempts", 1)).unwrap();
        assert_eq!((raw.as_str(), err.field.as_str()), ("40", "attempts #2"));
        let fixed = bad.reduce(CalcAction::Type(FieldKey::at("attempts", 1), "3".into()));
        assert!(fixed.errors.is_empty());
        assert_eq!(fixed.output.worst_attempts_per_s, 4500.0);
    }

    #[test]
    fn layers_resize_the_attempts_list() {
        let s = CalcState::default().reduce(CalcAction::Type(FieldKey::plain("layers"), "3".into()));
        assert_eq!(s.input.attempts, vec![3, 3, 3]);
        assert_eq!(s.output.amplification, 27.0);
        let s = s.reduce(CalcAction::Slide(FieldKey::plain("layers"), 0));
        assert_eq!(s.input.attempts, vec![3]);
    }

    #[test]
    fn url_round_trips_and_bad_fields_fall_back_alone() {
        let mut s = CalcState::default();
        s = s.reduce(CalcAction::Type(FieldKey::plain("peak"), "2".into()));
        s = s.reduce(CalcAction::Type(FieldKey::plain("layers"), "3".into()));
        let mut q = Query::parse("?page=calculator&lang=zh");
        s.write_query(&mut q);
        assert_eq!(
            q.to_query_string(),
            "?page=calculator&lang=zh&rpd=8640000&peak=2&layers=3&hold=100&hold_degraded=800&pool=200&kib=8&attempts=3,3,3"
        );
        let back = CalcState::from_query(&q);
        assert_eq!(back.input, s.input);

        let q = Query::parse("?layers=2&attempts=3,99&pool=-5&peak=4");
        let s = CalcState::from_query(&q);
        assert_eq!(s.input.attempts, vec![3, 3], "the bad item keeps its default");
        assert_eq!(s.input.peak_factor, 4.0, "good fields still apply");
        assert_eq!(s.input.pool_size, 200);
        assert!(s.errors.get(&FieldKey::at("attempts", 1)).is_some());
        assert_eq!(s.errors.get(&FieldKey::plain("pool")).unwrap().0, "-5");
    }

    #[test]
    fn unused_parameters_are_named() {
        let s =
            CalcState::from_query(&Query::parse("?page=calculator&attempts=3,3,3,3,3,3,3,3,3&zzz=1&lang=zh"));
        let (raw, e) = s.errors.get(&FieldKey::plain("attempts")).expect("nine attempts: more than 8 layers");
        assert_eq!(raw, "3,3,3,3,3,3,3,3,3");
        assert_eq!(e.to_string(), "attempts: got 3,3,3,3,3,3,3,3,3, allowed a list of 1 to 8 items");
        assert_eq!(s.unknown[..], vec!["zzz".to_string()]);
        let s = CalcState::from_query(&Query::parse("?layers=2&attempts=3,3,3"));
        assert!(s.errors.get(&FieldKey::plain("attempts")).is_some(), "more attempts than layers=2 allows");
    }

    #[test]
    fn average_rate_sets_requests_per_day() {
        let s = CalcState::from_query(&Query::parse("?rps=50"));
        assert_eq!(s.input.requests_per_day, 4_320_000.0);
        assert_eq!(s.output.peak_rps, 250.0);
    }
}

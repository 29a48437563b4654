//! A knob: one numeric setting a learner can move, described once and used everywhere.
//!
//! The same description drives the slider and the number field (range, step, scale), the
//! URL parameter, the help text and validation. Reading a typed value never panics; it
//! returns a [`FieldError`] naming the knob, the text and the allowed range.

use crate::error::{Allowed, FieldError, fmt_num};
use crate::i18n::T;

/// How the slider maps its travel onto the range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scale {
    /// Equal slider travel, equal change.
    Linear,
    /// Equal slider travel, equal ratio (for ranges spanning decades). Needs `min > 0`.
    Log,
}

/// Slider positions run from 0 to this many steps.
pub const SLIDER_STEPS: f64 = 1000.0;

/// The description of one numeric setting of a state `S`.
pub struct Knob<S> {
    /// URL parameter, DOM id suffix and field name in error messages.
    pub key: &'static str,
    /// Label shown beside the control.
    pub label: T,
    /// Help text (tooltip and description): what it means and which real setting it maps to.
    pub help: T,
    /// Unit shown after the number field.
    pub unit: T,
    /// Smallest accepted value.
    pub min: f64,
    /// Largest accepted value.
    pub max: f64,
    /// Granularity of the slider and of the number field.
    pub step: f64,
    /// Whether only whole numbers are accepted.
    pub integer: bool,
    /// Slider travel.
    pub scale: Scale,
    /// Whether 0 is accepted and means "off" (unlimited, none); the slider's first stop.
    pub off: bool,
    /// Reads the value; `None` when the knob does not apply to this state (e.g. a layer
    /// index past the end).
    pub get: fn(&S, usize) -> Option<f64>,
    /// Writes an already validated value.
    pub set: fn(&mut S, usize, f64),
}

impl<S> Knob<S> {
    /// What this knob accepts.
    pub fn allowed(&self) -> Allowed {
        if self.off {
            Allowed::OffOrRange { min: fmt_num(self.min), max: fmt_num(self.max), integer: self.integer }
        } else if self.integer {
            Allowed::Integer { min: fmt_num(self.min), max: fmt_num(self.max) }
        } else {
            Allowed::range(self.min, self.max)
        }
    }

    /// The field name for messages: the key, with the index when it is a per-item knob.
    pub fn field_name(&self, index: Option<usize>) -> String {
        match index {
            Some(i) => format!("{}[{}]", self.key, i),
            None => self.key.to_string(),
        }
    }

    /// Reads a number a person typed: surrounding spaces, thousands separators (`,`, `_`,
    /// and the full-width comma) and a full-width minus are tolerated.
    pub fn parse(&self, raw: &str, index: Option<usize>) -> Result<f64, FieldError> {
        let cleaned: String = raw
            .trim()
            .chars()
            .filter(|c| !matches!(c, ',' | '_' | '，' | ' '))
            .map(|c| if c == '−' { '-' } else { c })
            .collect();
        let field = self.field_name(index);
        let value: f64 = cleaned
            .parse()
            .ok()
            .filter(|v: &f64| v.is_finite())
            .ok_or_else(|| FieldError::new(&field, raw.trim(), self.allowed()))?;
        self.check(value, index)
    }

    /// Checks a number against the range and, for integer knobs, wholeness.
    pub fn check(&self, value: f64, index: Option<usize>) -> Result<f64, FieldError> {
        let whole_ok = !self.integer || value == value.trunc();
        if self.off && value == 0.0 {
            return Ok(0.0);
        }
        if value.is_finite() && value >= self.min && value <= self.max && whole_ok {
            Ok(value)
        } else {
            Err(FieldError::new(self.field_name(index), fmt_num(value), self.allowed()))
        }
    }

    /// Slider position (0..=1000) of a value. With `off`, position 0 is "off" and the
    /// range uses positions 1..=1000.
    pub fn to_slider(&self, value: f64) -> f64 {
        if self.off {
            if value <= 0.0 {
                return 0.0;
            }
            let inner = self.position_on_slider(value);
            return 1.0 + (inner * (SLIDER_STEPS - 1.0) / SLIDER_STEPS).round();
        }
        self.position_on_slider(value)
    }

    fn position_on_slider(&self, value: f64) -> f64 {
        let v = value.clamp(self.min, self.max);
        let frac = match self.scale {
            Scale::Log if self.min > 0.0 => (v / self.min).ln() / (self.max / self.min).ln(),
            _ if self.max > self.min => (v - self.min) / (self.max - self.min),
            _ => 0.0,
        };
        (frac * SLIDER_STEPS).round()
    }

    /// The value at a slider position, snapped to the step (and to 1–2–5 steps on a log
    /// scale, so a log slider lands on round numbers).
    pub fn from_slider(&self, pos: f64) -> f64 {
        if self.off {
            if pos < 0.5 {
                return 0.0;
            }
            return self.value_on_slider((pos - 1.0).max(0.0) * SLIDER_STEPS / (SLIDER_STEPS - 1.0));
        }
        self.value_on_slider(pos)
    }

    fn value_on_slider(&self, pos: f64) -> f64 {
        let frac = (pos / SLIDER_STEPS).clamp(0.0, 1.0);
        let raw = match self.scale {
            Scale::Log if self.min > 0.0 => self.min * (self.max / self.min).powf(frac),
            _ => self.min + frac * (self.max - self.min),
        };
        let snapped = match self.scale {
            Scale::Log => snap_log(raw),
            Scale::Linear => raw,
        };
        let stepped = (snapped / self.step).round() * self.step;
        // Remove float noise such as 0.30000000000000004.
        let cleaned = (stepped * 1e9).round() / 1e9;
        cleaned.clamp(self.min, self.max)
    }
}

/// A setting chosen from a few named options (a select control).
pub struct Choice<S> {
    /// URL parameter, DOM id suffix and field name in error messages.
    pub key: &'static str,
    /// Label shown beside the control.
    pub label: T,
    /// Help text: what the options mean and which real setting they map to.
    pub help: T,
    /// (value in URLs, label) for each option.
    pub options: &'static [(&'static str, T)],
    /// The current option; `None` when the choice does not apply to this state.
    pub get: fn(&S, usize) -> Option<&'static str>,
    /// Applies an option (one of `options`).
    pub set: fn(&mut S, usize, &str),
}

impl<S> Choice<S> {
    /// Checks a value against the options.
    pub fn check(&self, value: &str, index: Option<usize>) -> Result<&'static str, FieldError> {
        self.options.iter().map(|(v, _)| *v).find(|v| *v == value.trim()).ok_or_else(|| {
            let field = match index {
                Some(i) => format!("{}[{}]", self.key, i),
                None => self.key.to_string(),
            };
            FieldError::new(
                field,
                value.trim(),
                Allowed::OneOf { choices: self.options.iter().map(|(v, _)| v.to_string()).collect() },
            )
        })
    }
}

/// Rounds to two significant digits, so log sliders stop at 1.2, 150, 3,600 rather than
/// 1.2345.
fn snap_log(x: f64) -> f64 {
    if x <= 0.0 || !x.is_finite() {
        return x;
    }
    let magnitude = 10f64.powf(x.log10().floor() - 1.0);
    (x / magnitude).round() * magnitude
}

#[cfg(test)]
mod tests {
    use super::*;

    struct S {
        v: f64,
    }

    fn knob(scale: Scale, integer: bool) -> Knob<S> {
        Knob {
            key: "v",
            label: T::FieldPool,
            help: T::FieldPoolHelp,
            unit: T::UnitConnections,
            min: 1.0,
            max: 10_000.0,
            step: 1.0,
            integer,
            scale,
            off: false,
            get: |s, _| Some(s.v),
            set: |s, _, v| s.v = v,
        }
    }

    #[test]
    fn parse_tolerates_separators_and_rejects_garbage() {
        let k = knob(Scale::Linear, true);
        assert_eq!(k.parse(" 1,000 ", None), Ok(1000.0));
        assert_eq!(k.parse("2_000", None), Ok(2000.0));
        let e = k.parse("abc", None).unwrap_err();
        assert_eq!((e.field.as_str(), e.value.as_str()), ("v", "abc"));
        let e = k.parse("0", Some(2)).unwrap_err();
        assert_eq!(e.field, "v[2]");
        assert!(k.parse("1.5", None).is_err(), "integers only");
        assert!(k.parse("inf", None).is_err());
        assert!(k.parse("NaN", None).is_err());
        assert!(k.parse("−5", None).is_err());
    }

    #[test]
    fn slider_round_trips_on_both_scales() {
        for scale in [Scale::Linear, Scale::Log] {
            let k = knob(scale, true);
            assert_eq!(k.from_slider(0.0), 1.0);
            assert_eq!(k.from_slider(SLIDER_STEPS), 10_000.0);
            for v in [1.0, 10.0, 200.0, 5000.0] {
                let back = k.from_slider(k.to_slider(v));
                // A linear slider resolves 1/1000 of the range; a log one 5 % of the value.
                let tolerance = match scale {
                    Scale::Linear => (k.max - k.min) / SLIDER_STEPS,
                    Scale::Log => v * 0.05,
                };
                assert!((back - v).abs() <= tolerance, "{scale:?} {v} -> {back}");
            }
        }
        let k = knob(Scale::Log, true);
        assert_eq!(k.to_slider(100.0), 500.0, "log scale puts 100 mid-way between 1 and 10,000");
    }

    #[test]
    fn off_is_the_first_stop_and_zero_is_accepted() {
        let k = Knob { off: true, ..knob(Scale::Log, false) };
        assert_eq!(k.from_slider(0.0), 0.0);
        assert_eq!(k.to_slider(0.0), 0.0);
        assert_eq!(k.from_slider(1.0), 1.0, "the next stop is the minimum");
        assert_eq!(k.from_slider(SLIDER_STEPS), 10_000.0);
        assert_eq!(k.parse("0", None), Ok(0.0));
        assert!(k.parse("0.5", None).is_err(), "below the minimum and not off");
        assert_eq!(k.from_slider(k.to_slider(200.0)), 200.0);
        assert_eq!(k.allowed().to_string(), "0 (off) or a number from 1 to 10000");
    }

    #[test]
    fn log_snap_gives_round_numbers() {
        assert_eq!(snap_log(1234.0), 1200.0);
        assert_eq!(snap_log(0.01234), 0.012);
    }
}

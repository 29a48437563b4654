//! A knob: one numeric setting a learner can move, described once and used everywhere.
//!
//! The same description drives the slider and the number field, the URL parameter, the
//! help text and validation. What a knob accepts is a [`FieldRange`], for scenario knobs
//! the very range validation uses (`scenario::ranges`); the slider travels over a span of
//! it in *stops* — round values, one arrow key apart — and anything else in range can be
//! typed. Reading a typed value never panics; it returns a [`FieldError`] naming the
//! knob, the text and the allowed range.

use crate::error::{Allowed, FieldError, fmt_num};
use crate::i18n::T;
use crate::scenario::ranges::FieldRange;

/// How the slider maps its travel onto its span.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scale {
    /// Equal steps.
    Linear,
    /// Round values per decade (1, 1.5, 2, 3, 5, 7, 10, …): for spans of several decades.
    Log,
    /// Round values per decade at most 12.5 % apart (1, 1.1, 1.2, … 8, 9): for a span
    /// of several decades in which a learner walks a ratio step by step (the queue lab's
    /// arrival rate, whose utilisation 60–95 % is the lesson).
    FineLog,
    /// Percentages in "nines" (90, 95, 99, 99.5, 99.9, …): log steps of what is missing
    /// from 100 %, for objectives.
    Nines,
}

/// Where the slider travels. Values outside it but in range are typed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Slider {
    pub min: f64,
    pub max: f64,
    pub scale: Scale,
}

impl Slider {
    /// Equal steps from `min` to `max`.
    pub const fn linear(min: f64, max: f64) -> Slider {
        Slider { min, max, scale: Scale::Linear }
    }
    /// Round values per decade from `min` to `max` (both above 0).
    pub const fn log(min: f64, max: f64) -> Slider {
        Slider { min, max, scale: Scale::Log }
    }
    /// Round values at most 12.5 % apart from `min` to `max` (both above 0).
    pub const fn fine_log(min: f64, max: f64) -> Slider {
        Slider { min, max, scale: Scale::FineLog }
    }
    /// Percentages from `min` to `max` (below 100) in nines.
    pub const fn nines(min: f64, max: f64) -> Slider {
        Slider { min, max, scale: Scale::Nines }
    }
}

/// Most stops a linear slider gets; a longer span steps in round multiples of the step.
const MOST_LINEAR_STOPS: f64 = 200.0;
/// The stops of a decade on a log slider.
const DECADE: [f64; 6] = [1.0, 1.5, 2.0, 3.0, 5.0, 7.0];
/// The stops of a decade on a fine log slider: round values, no two more than 12.5 % apart.
const FINE_DECADE: [f64; 26] = [
    1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.8, 2.0, 2.2, 2.4, 2.6, 2.8, 3.0, 3.3, 3.6, 4.0, 4.5, 5.0, 5.5, 6.0,
    6.5, 7.0, 7.5, 8.0, 9.0,
];

/// The description of one numeric setting of a state `S`, at an item `I` of it (a layer, a
/// target), or `()`-like `usize` for settings with one value.
pub struct Knob<S, I = usize> {
    /// URL parameter, DOM id suffix and field name in error messages.
    pub key: &'static str,
    /// Label shown beside the control.
    pub label: T,
    /// Help text (tooltip and description): what it means and which real setting it maps to.
    pub help: T,
    /// Unit shown after the number field and read out with the slider's value.
    pub unit: T,
    /// What is accepted.
    pub range: FieldRange,
    /// Where the slider travels.
    pub slider: Slider,
    /// Granularity of the number shown and of a linear slider.
    pub step: f64,
    /// Whether 0 is also accepted and means "off" (unlimited, none): the slider's first stop.
    pub off: bool,
    /// Reads the value; `None` when the knob does not apply to this state (e.g. a layer
    /// past the end).
    pub get: fn(&S, I) -> Option<f64>,
    /// Writes an already validated value.
    pub set: fn(&mut S, I, f64),
}

/// A knob's value as its field and label show it: rounded to a tenth of the knob's step, so
/// 99.99999 shows as 100; but a value the step is too coarse for (0.001 ms on a knob that
/// steps by 0.1 ms, which the range allows) keeps three significant digits, not "0".
pub fn round_for_display(v: f64, step: f64) -> f64 {
    let decimals = if step >= 1.0 { 3 } else { (-step.log10()).ceil().max(0.0) as i32 + 1 };
    let f = 10f64.powi(decimals);
    let rounded = (v * f).round() / f;
    if v == 0.0 || !v.is_finite() || (rounded - v).abs() <= 0.005 * v.abs() {
        return rounded;
    }
    let g = 10f64.powi(2 - v.abs().log10().floor() as i32);
    (v * g).round() / g
}

impl<S, I> Knob<S, I> {
    /// What this knob accepts.
    pub fn allowed(&self) -> Allowed {
        if self.off {
            let (min, max) = (fmt_num(self.range.min), fmt_num(self.range.max));
            Allowed::OffOrRange { min, max, integer: self.range.is_whole() }
        } else {
            self.range.allowed()
        }
    }

    /// Reads a number a person typed: surrounding spaces, thousands separators (`,`, `_`,
    /// the full-width comma and spaces, grouping the whole part by threes) and a full-width
    /// minus are tolerated. `field` names the control in the error.
    pub fn parse(&self, raw: &str, field: &str) -> Result<f64, FieldError> {
        if !grouped_by_threes(raw.trim()) {
            return Err(FieldError::new(field, raw.trim(), self.allowed()));
        }
        let cleaned: String = raw
            .trim()
            .chars()
            .filter(|c| !matches!(c, ',' | '_' | '，' | ' '))
            .map(|c| if c == '−' { '-' } else { c })
            .collect();
        let value: f64 = crate::float::parse_f64(&cleaned)
            .filter(|v: &f64| v.is_finite())
            .ok_or_else(|| FieldError::new(field, raw.trim(), self.allowed()))?;
        // Named as typed: `1e-9` is not "0", nor `1e12` "1000000000000".
        self.check(value, field)
            .map_err(|e| FieldError::new(e.field, raw.trim(), *e.allowed).with_unit(&e.unit))
    }

    /// Checks a number against the range (or 0 for "off").
    pub fn check(&self, value: f64, field: &str) -> Result<f64, FieldError> {
        if (self.off && value == 0.0) || self.range.accepts(value) {
            Ok(value)
        } else {
            Err(FieldError::new(field, fmt_num(value), self.allowed()))
        }
    }

    /// The slider's stops, smallest first: round values over the slider's span (and 0 first
    /// when the knob can be off).
    pub fn stops(&self) -> Vec<f64> {
        let Slider { min, max, scale } = self.slider;
        let mut v: Vec<f64> = match scale {
            Scale::Linear => {
                let mut step = self.step.max(f64::MIN_POSITIVE);
                while (max - min) / step > MOST_LINEAR_STOPS {
                    step = next_round_step(step);
                }
                let n = ((max - min) / step).floor() as usize;
                (0..=n).map(|k| clean(min + k as f64 * step)).chain([max]).collect()
            }
            Scale::Log | Scale::FineLog => {
                let marks: &[f64] = if scale == Scale::Log { &DECADE } else { &FINE_DECADE };
                let mut out = vec![min];
                let mut decade = 10f64.powf(min.log10().floor());
                while decade <= max {
                    out.extend(marks.iter().map(|m| clean(m * decade)).filter(|x| *x > min && *x < max));
                    decade *= 10.0;
                }
                out.push(max);
                out
            }
            Scale::Nines => {
                let (least, most) = (100.0 - max, 100.0 - min);
                let mut out = vec![min];
                let mut decade = 10f64.powf(least.log10().floor());
                while decade <= most {
                    out.extend(
                        [5.0, 2.0, 1.0]
                            .iter()
                            .map(|m| m * decade)
                            .filter(|m| *m > least && *m < most)
                            .map(|m| clean(100.0 - m)),
                    );
                    decade *= 10.0;
                }
                out.push(max);
                crate::order::sort_by_key(&mut out, |&x| crate::order::f64_key(x));
                out
            }
        };
        if self.range.is_whole() {
            v.iter_mut().for_each(|x| *x = x.round());
        }
        v.retain(|x| self.range.accepts(*x));
        v.dedup();
        if self.off {
            v.insert(0, 0.0);
        }
        v
    }

    /// The slider's stops for a knob now at `value`: [`stops`](Self::stops), and the value
    /// itself past the end of the span it was typed beyond (workers 150 on a slider to 100):
    /// the thumb then sits on the value, where the span's end would read as 100, and one
    /// step back goes to the span's end.
    pub fn stops_at(&self, value: f64) -> Vec<f64> {
        let mut stops = self.stops();
        if (self.off && value == 0.0) || !self.range.accepts(value) {
            return stops;
        }
        if stops.last().is_some_and(|&last| value > last) {
            stops.push(value);
        } else {
            // Below the span: after "off", which stays the first stop.
            let first = usize::from(self.off);
            if stops.get(first).is_some_and(|&least| value < least) {
                stops.insert(first, value);
            }
        }
        stops
    }

    /// The value of slider stop `stop` for `state`'s item `index` (the stops of
    /// [`stops_at`](Self::stops_at) its value now).
    pub fn value_at_stop(&self, state: &S, index: I, stop: usize) -> Option<f64> {
        let now = (self.get)(state, index).unwrap_or(self.range.min);
        self.stops_at(now).get(stop).copied()
    }

    /// The value one step (`knob.step`) up (`up`) or down from `value`, as the arrow keys
    /// move the number field: onto the step's grid, inside the range; from "off" (0) up to
    /// the range's least, and from the least down to "off".
    pub fn nudge(&self, value: f64, up: bool) -> f64 {
        let (min, max) = (self.range.min, self.range.max);
        if self.off && value == 0.0 {
            return if up { min } else { 0.0 };
        }
        if self.off && !up && value <= min {
            return 0.0;
        }
        let step = self.step.max(f64::MIN_POSITIVE);
        // A value a rounding error off a grid line is on it: 2.3 / 0.1 is 22.999999999999996
        // (relative, so that a billion in steps of 0.001 still moves).
        let k = value / step;
        let k = if (k - k.round()).abs() <= 1e-9 * k.abs().max(1.0) { k.round() } else { k };
        // Off the grid, the first press goes to the grid line on its side.
        let k = if up { k.floor() + 1.0 } else { k.ceil() - 1.0 };
        let v = clean(k * step).clamp(min, max);
        if self.range.is_whole() { v.round() } else { v }
    }

    /// The stop nearest to `value` (on a log slider, nearest by ratio).
    pub fn nearest_stop(&self, stops: &[f64], value: f64) -> usize {
        let distance = |s: f64| match self.slider.scale {
            Scale::Log | Scale::FineLog if s > 0.0 && value > 0.0 => (s / value).ln().abs(),
            Scale::Nines if s < 100.0 && value < 100.0 => ((100.0 - s) / (100.0 - value)).ln().abs(),
            _ => (s - value).abs() / (self.slider.max - self.slider.min).abs().max(f64::MIN_POSITIVE),
        };
        if self.off && value == 0.0 {
            return 0;
        }
        let first = usize::from(self.off && stops.len() > 1);
        (first..stops.len()).min_by(|&a, &b| distance(stops[a]).total_cmp(&distance(stops[b]))).unwrap_or(0)
    }
}

/// 1 → 2 → 5 → 10 …: the next round step size.
fn next_round_step(step: f64) -> f64 {
    let magnitude = 10f64.powf(step.log10().floor());
    let m = step / magnitude;
    clean(
        if m < 1.5 {
            2.0
        } else if m < 3.5 {
            5.0
        } else {
            10.0
        } * magnitude,
    )
}

/// Removes float noise such as 0.30000000000000004.
fn clean(x: f64) -> f64 {
    (x * 1e9).round() / 1e9
}

/// A setting chosen from a few named options (a select control), at an item `I`.
pub struct Choice<S, I = usize> {
    /// URL parameter, DOM id suffix and field name in error messages.
    pub key: &'static str,
    /// Label shown beside the control.
    pub label: T,
    /// Help text: what the options mean and which real setting they map to.
    pub help: T,
    /// (value in URLs, label) for each option.
    pub options: &'static [(&'static str, T)],
    /// The current option; `None` when the choice does not apply to this state.
    pub get: fn(&S, I) -> Option<&'static str>,
    /// Applies an option (one of `options`).
    pub set: fn(&mut S, I, &str),
}

impl<S, I> Choice<S, I> {
    /// Checks a value against the options; `field` names the control in the error.
    pub fn check(&self, value: &str, field: &str) -> Result<&'static str, FieldError> {
        self.options.iter().map(|(v, _)| *v).find(|v| *v == value.trim()).ok_or_else(|| {
            FieldError::new(
                field,
                value.trim(),
                Allowed::OneOf { choices: self.options.iter().map(|(v, _)| v.to_string()).collect() },
            )
        })
    }
}

/// Whether the separators `,`, `，` and ` ` in a typed number group its whole part by
/// threes (`1,000,000`, `12 345.5`): `1,2` is refused rather than read as 12, which is
/// neither what a decimal comma (1.2) nor a list means. `_` may stand anywhere, as in code.
fn grouped_by_threes(s: &str) -> bool {
    let is_sep = |c: char| matches!(c, ',' | '，' | ' ');
    let end = s.find(['.', 'e', 'E']).unwrap_or(s.len());
    let (whole, rest) = s.split_at(end);
    if rest.contains(is_sep) {
        return false;
    }
    let whole = whole.trim_start_matches(['-', '−', '+']);
    let mut groups = whole.split(is_sep).map(|g| g.chars().filter(|c| *c != '_').count());
    let first = groups.next().unwrap_or(0);
    let mut rest = groups.peekable();
    rest.peek().is_none() || ((1..=3).contains(&first) && rest.all(|n| n == 3))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::ranges::Resolution;

    #[test]
    fn a_value_finer_than_its_step_keeps_its_digits() {
        use super::round_for_display as r;
        assert_eq!(r(99.99999, 0.1), 100.0);
        assert_eq!(r(40.0, 0.1), 40.0);
        assert_eq!(r(0.001, 0.1), 0.001, "the queue lab's shortest service time, not 0");
        assert_eq!(r(0.0123456, 0.1), 0.0123);
        assert_eq!(r(1234.5678, 1.0), 1234.568);
        assert_eq!(r(0.0004, 1.0), 0.0004);
        assert_eq!(r(0.0, 0.1), 0.0);
    }

    struct S {
        v: f64,
    }

    fn knob(slider: Slider, integer: bool) -> Knob<S> {
        Knob {
            key: "v",
            label: T::FieldPool,
            help: T::FieldPoolHelp,
            unit: T::UnitConnections,
            range: FieldRange {
                min: 1.0,
                max: 10_000.0,
                resolution: if integer { Resolution::Whole } else { Resolution::Any },
                unit: "",
            },
            slider,
            step: 1.0,
            off: false,
            get: |s, _| Some(s.v),
            set: |s, _, v| s.v = v,
        }
    }

    #[test]
    fn parse_tolerates_separators_and_rejects_garbage() {
        let k = knob(Slider::linear(1.0, 100.0), true);
        assert_eq!(k.parse(" 1,000 ", "v"), Ok(1000.0));
        assert_eq!(k.parse("2_000", "v"), Ok(2000.0));
        let e = k.parse("abc", "v").unwrap_err();
        assert_eq!((e.field.as_str(), e.value.as_str()), ("v", "abc"));
        assert_eq!(k.parse("0", "l2.v").unwrap_err().field, "l2.v");
        assert!(k.parse("1.5", "v").is_err(), "integers only");
        assert!(k.parse("inf", "v").is_err());
        assert!(k.parse("NaN", "v").is_err());
        assert!(k.parse("−5", "v").is_err());
        assert_eq!(k.parse("9999", "v"), Ok(9999.0), "beyond the slider but in range: typed");
        assert_eq!(k.parse("1 000", "v"), Ok(1000.0));
        assert_eq!(k.parse("2，500", "v"), Ok(2500.0));
        assert_eq!(k.parse("10,000", "v"), Ok(1e4));
        // Separators that do not group by threes are refused, not read as another number.
        for bad in ["1,2", "12,34", "1,0000", ",100", "1,000.5,0", "1 2"] {
            let e = k.parse(bad, "v").unwrap_err();
            assert_eq!((e.field.as_str(), e.value.as_str()), ("v", bad), "{bad}");
        }
        let decimals = knob(Slider::linear(0.0, 100.0), false);
        assert_eq!(decimals.parse("1,234.5", "v"), Ok(1234.5));
        assert!(decimals.parse("1,5", "v").is_err(), "a decimal comma is refused, not read as 15");
    }

    #[test]
    fn arrow_keys_nudge_by_the_step_onto_its_grid_inside_the_range() {
        let mut k = knob(Slider::linear(1.0, 100.0), false);
        k.step = 100.0;
        assert_eq!(k.nudge(4200.0, true), 4300.0, "one step up");
        assert_eq!(k.nudge(4200.0, false), 4100.0);
        assert_eq!(k.nudge(4250.0, true), 4300.0, "off the grid: to the next line up");
        assert_eq!(k.nudge(4250.0, false), 4200.0);
        assert_eq!(k.nudge(9950.0, true), 10_000.0, "never past the range");
        assert_eq!(k.nudge(50.0, false), 1.0, "nor under it");
        k.step = 0.1;
        assert_eq!(k.nudge(1.3, true), 1.4, "not 1.4000000000000001");
        assert_eq!(k.nudge(2.3, false), 2.2, "on the grid although 2.3 / 0.1 is 22.999999999999996");
        let mut off = knob(Slider::linear(1.0, 100.0), true);
        off.off = true;
        assert_eq!(off.nudge(0.0, true), 1.0, "from off to the least");
        assert_eq!(off.nudge(1.0, false), 0.0, "and back to off");
        assert_eq!(off.nudge(0.0, false), 0.0);
        let mut fine = knob(Slider::linear(1.0, 100.0), false);
        (fine.step, fine.range.max) = (0.001, 1e9);
        let up = fine.nudge(999_999_999.0, true);
        assert!((up - 999_999_999.001).abs() < 1e-6, "large values in fine steps still move: {up}");
    }

    #[test]
    fn fine_log_stops_walk_a_ratio_in_small_steps() {
        let stops = crate::state::queue::RATE.stops();
        let from = stops.iter().position(|&x| x == 100.0).unwrap();
        assert_eq!(&stops[from..from + 9], &[100.0, 110.0, 120.0, 130.0, 140.0, 150.0, 160.0, 180.0, 200.0]);
        for w in stops.windows(2) {
            assert!(w[1] > w[0] && w[1] / w[0] <= 1.125 + 1e-9, "{} → {}", w[0], w[1]);
        }
        assert_eq!((stops[0], *stops.last().unwrap()), (1.0, 10_000.0));
        assert_eq!(stops[crate::state::queue::RATE.nearest_stop(&stops, 171.0)], 180.0, "nearest by ratio");
    }

    #[test]
    fn nines_step_through_what_is_missing_from_100() {
        let mut k = knob(Slider::nines(90.0, 99.999), false);
        k.range = FieldRange { min: 50.0, max: 99.999, resolution: Resolution::Any, unit: "%" };
        let stops = k.stops();
        assert_eq!(
            stops,
            vec![90.0, 95.0, 98.0, 99.0, 99.5, 99.8, 99.9, 99.95, 99.98, 99.99, 99.995, 99.998, 99.999]
        );
        assert_eq!(stops[k.nearest_stop(&stops, 99.94)], 99.95, "nearest by ratio of what is missing");
    }

    #[test]
    fn a_value_typed_past_the_sliders_span_is_its_end_stop() {
        let k = knob(Slider::linear(1.0, 10.0), true);
        let stops = k.stops_at(150.0);
        assert_eq!(stops.last(), Some(&150.0), "the thumb sits on the value");
        assert_eq!(stops[stops.len() - 2], 10.0, "one step back: the span's end");
        assert_eq!(stops[k.nearest_stop(&stops, 150.0)], 150.0);
        assert_eq!(
            k.value_at_stop(&S { v: 150.0 }, 0, stops.len() - 1),
            Some(150.0),
            "sliding to it keeps it"
        );
        assert_eq!(k.value_at_stop(&S { v: 150.0 }, 0, stops.len() - 2), Some(10.0));
        assert_eq!(k.stops_at(5.0), k.stops(), "inside the span: the span's stops");
        assert_eq!(k.stops_at(20_000.0), k.stops(), "refused values add nothing");
        let mut low = Knob { off: true, ..knob(Slider::log(10.0, 100.0), false) };
        low.range.min = 0.5;
        let stops = low.stops_at(2.0);
        assert_eq!(&stops[..3], &[0.0, 2.0, 10.0], "below the span, after off");
        assert_eq!(low.stops_at(0.0), low.stops(), "off is its own stop");
    }

    #[test]
    fn stops_are_round_and_one_arrow_key_apart() {
        let k = knob(Slider::linear(1.0, 10.0), true);
        assert_eq!(k.stops(), (1..=10).map(f64::from).collect::<Vec<_>>(), "attempts: every whole number");
        let k = knob(Slider::log(1.0, 1000.0), true);
        assert_eq!(
            k.stops(),
            vec![
                1.0, 2.0, 3.0, 5.0, 7.0, 10.0, 15.0, 20.0, 30.0, 50.0, 70.0, 100.0, 150.0, 200.0, 300.0,
                500.0, 700.0, 1000.0
            ]
        );
        let wide = knob(Slider::linear(0.0, 600_000.0), false);
        let stops = Knob { step: 100.0, range: FieldRange { min: 0.0, ..wide.range }, ..wide }.stops();
        assert!(stops.len() <= 202 && stops[1] == 5_000.0, "{:?}", &stops[..3]);
        let off = Knob { off: true, ..knob(Slider::log(1.0, 100.0), false) };
        let stops = off.stops();
        assert_eq!(stops[0], 0.0, "off is the first stop");
        assert_eq!(off.nearest_stop(&stops, 0.0), 0);
        assert_eq!(stops[off.nearest_stop(&stops, 29.0)], 30.0);
        assert_eq!(stops[off.nearest_stop(&stops, 0.5)], 1.0, "a value near 0 is not off");
        assert_eq!(off.allowed().to_string(), "0 (off) or a number from 1 to 10000");
    }
}

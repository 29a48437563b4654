//! The breaker lab's state: its knobs, reducer and URL, free of browser code.
//!
//! The page holds a preset (the base of its link) and the learner's input; the run is the
//! model's (`model::breaker_lab::run`), computed by the view from the input. A field whose
//! text is not accepted keeps that text and its error while the rest keeps the last valid
//! input. The URL names the preset and every field that differs from it.

use super::{FieldKey, FormErrors};
use crate::error::{Allowed, FieldError, Rule, clip, fmt_num};
use crate::i18n::T;
use crate::knob::{Choice, Knob, Slider};
use crate::model::breaker_lab::{self as lab, Arrivals, LabInput, MAX_PHASES, Phase, limits};
use crate::policy::breaker::{BreakerConfig, WindowKind};
use crate::query::Query;
use crate::scenario::ranges::{self as r, FieldRange, Resolution};
use crate::state::storm::url_num;

type K = Knob<LabInput>;
type C = Choice<LabInput>;

fn set_window(s: &mut LabInput, _: usize, v: f64) {
    s.breaker.window = v as u32;
    if s.breaker.window_kind == WindowKind::Count {
        s.breaker.min_calls = s.breaker.min_calls.min(s.breaker.window);
    }
}

/// The window as a number of calls (URL `window`, count-based).
pub static WINDOW_CALLS: K = Knob {
    key: "window",
    label: T::KWindow,
    help: T::BlWindowHelp,
    unit: T::UnitCalls,
    range: r::BREAKER_WINDOW,
    slider: Slider::log(1.0, 10_000.0),
    step: 1.0,
    off: false,
    get: |s, _| Some(f64::from(s.breaker.window)),
    set: set_window,
};

/// The window in seconds (URL `window`, time-based).
pub static WINDOW_SECONDS: K = Knob {
    key: "window",
    label: T::KWindow,
    help: T::BlWindowHelp,
    unit: T::BlUnitS,
    range: r::BREAKER_WINDOW,
    slider: Slider::log(1.0, 3600.0),
    step: 1.0,
    off: false,
    get: |s, _| Some(f64::from(s.breaker.window)),
    set: set_window,
};

/// Minimum calls (URL `min_calls`).
pub static MIN_CALLS: K = Knob {
    key: "min_calls",
    label: T::KMinCalls,
    help: T::KMinCallsHelp,
    unit: T::UnitCalls,
    range: r::BREAKER_MIN_CALLS,
    slider: Slider::log(1.0, 10_000.0),
    step: 1.0,
    off: false,
    get: |s, _| Some(f64::from(s.breaker.min_calls)),
    set: |s, _, v| s.breaker.min_calls = v as u32,
};

/// Failure-rate threshold (URL `failure_pct`).
pub static FAILURE_PCT: K = Knob {
    key: "failure_pct",
    label: T::KFailurePct,
    help: T::KFailurePctHelp,
    unit: T::UnitPercent,
    range: r::PERCENT,
    slider: Slider::linear(1.0, 100.0),
    step: 1.0,
    off: false,
    get: |s, _| Some(s.breaker.failure_rate_pct),
    set: |s, _, v| s.breaker.failure_rate_pct = v,
};

/// Slow-call threshold, 0 = off (URL `slow_ms`).
pub static SLOW_MS: K = Knob {
    key: "slow_ms",
    label: T::BlSlowMs,
    help: T::BlSlowMsHelp,
    unit: T::UnitMs,
    range: r::SLOW_CALL_MS,
    slider: Slider::log(1.0, 60_000.0),
    step: 1.0,
    off: true,
    get: |s, _| Some(s.breaker.slow_call_ms.unwrap_or(0.0)),
    set: |s, _, v| s.breaker.slow_call_ms = (v > 0.0).then_some(v),
};

/// Slow-call rate threshold (URL `slow_pct`).
pub static SLOW_PCT: K = Knob {
    key: "slow_pct",
    label: T::BlSlowPct,
    help: T::BlSlowPctHelp,
    unit: T::UnitPercent,
    range: r::PERCENT,
    slider: Slider::linear(1.0, 100.0),
    step: 1.0,
    off: false,
    get: |s, _| Some(s.breaker.slow_rate_pct),
    set: |s, _, v| s.breaker.slow_rate_pct = v,
};

/// Open duration (URL `open_ms`).
pub static OPEN_MS: K = Knob {
    key: "open_ms",
    label: T::KOpenMs,
    help: T::KOpenMsHelp,
    unit: T::UnitMs,
    range: r::OPEN_MS,
    slider: Slider::log(10.0, 600_000.0),
    step: 1.0,
    off: false,
    get: |s, _| Some(s.breaker.open_ms),
    set: |s, _, v| s.breaker.open_ms = v,
};

/// Half-open probes (URL `probes`).
pub static PROBES: K = Knob {
    key: "probes",
    label: T::KHalfOpen,
    help: T::KHalfOpenHelp,
    unit: T::UnitCalls,
    range: r::HALF_OPEN_CALLS,
    slider: Slider::log(1.0, 1000.0),
    step: 1.0,
    off: false,
    get: |s, _| Some(f64::from(s.breaker.half_open_calls)),
    set: |s, _, v| s.breaker.half_open_calls = v as u32,
};

/// Call rate (URL `rate`).
pub static RATE: K = Knob {
    key: "rate",
    label: T::KRate,
    help: T::BlRateHelp,
    unit: T::BlUnitCallsPerS,
    range: limits::RATE,
    slider: Slider::log(0.1, 1000.0),
    step: 0.01,
    off: false,
    get: |s, _| Some(s.rate_per_s),
    set: |s, _, v| s.rate_per_s = v,
};

/// Seed of a Poisson run (URL `seed`).
pub static SEED: K = Knob {
    key: "seed",
    label: T::Seed,
    help: T::BlSeedHelp,
    unit: T::BlSeedUnit,
    range: r::SEED,
    slider: Slider::linear(0.0, 100.0),
    step: 1.0,
    off: false,
    get: |s, _| Some(s.seed as f64),
    set: |s, _, v| s.seed = v as u64,
};

/// Number of phases (URL: the length of `phase_ms`).
pub static PHASES: K = Knob {
    key: "phases",
    label: T::BlPhases,
    help: T::BlPhasesHelp,
    unit: T::BlPhasesUnit,
    range: FieldRange { min: 1.0, max: MAX_PHASES as f64, resolution: Resolution::Whole, unit: "" },
    slider: Slider::linear(1.0, MAX_PHASES as f64),
    step: 1.0,
    off: false,
    get: |s, _| Some(s.phases.len() as f64),
    set: |s, _, v| {
        let last = s.phases.last().copied().unwrap_or(Phase {
            duration_ms: 5000.0,
            failure_pct: 0.0,
            latency_ms: 50.0,
        });
        s.phases.resize(v as usize, last);
    },
};

/// A phase's length (URL `phase_ms`, a list).
pub static PHASE_MS: K = Knob {
    key: "phase_ms",
    label: T::BlPhaseMs,
    help: T::BlPhaseMsHelp,
    unit: T::UnitMs,
    range: limits::PHASE_MS,
    slider: Slider::log(100.0, 600_000.0),
    step: 1.0,
    off: false,
    get: |s, i| s.phases.get(i).map(|p| p.duration_ms),
    set: |s, i, v| {
        if let Some(p) = s.phases.get_mut(i) {
            p.duration_ms = v
        }
    },
};

/// A phase's failure share (URL `phase_fail`, a list).
pub static PHASE_FAIL: K = Knob {
    key: "phase_fail",
    label: T::BlPhaseFail,
    help: T::BlPhaseFailHelp,
    unit: T::UnitPercent,
    range: limits::FAILURE_PCT,
    slider: Slider::linear(0.0, 100.0),
    step: 1.0,
    off: false,
    get: |s, i| s.phases.get(i).map(|p| p.failure_pct),
    set: |s, i, v| {
        if let Some(p) = s.phases.get_mut(i) {
            p.failure_pct = v
        }
    },
};

/// A phase's latency (URL `phase_latency`, a list).
pub static PHASE_LATENCY: K = Knob {
    key: "phase_latency",
    label: T::BlPhaseLatency,
    help: T::BlPhaseLatencyHelp,
    unit: T::UnitMs,
    range: limits::LATENCY_MS,
    slider: Slider::log(1.0, 60_000.0),
    step: 1.0,
    off: false,
    get: |s, i| s.phases.get(i).map(|p| p.latency_ms),
    set: |s, i, v| {
        if let Some(p) = s.phases.get_mut(i) {
            p.latency_ms = v
        }
    },
};

/// Count- or time-based window (URL `window_kind`).
pub static WINDOW_KIND: C = Choice {
    key: "window_kind",
    label: T::BlWindowKind,
    help: T::BlWindowKindHelp,
    options: &[("count", T::BlOptCount), ("time", T::BlOptTime)],
    get: |s, _| Some(if s.breaker.window_kind == WindowKind::Time { "time" } else { "count" }),
    set: |s, _, v| {
        s.breaker.window_kind = if v == "time" { WindowKind::Time } else { WindowKind::Count };
        set_window(s, 0, f64::from(s.breaker.window));
    },
};

/// Lazy or timed half-open (URL `half_open`).
pub static HALF_OPEN: C = Choice {
    key: "half_open",
    label: T::BlHalfOpen,
    help: T::BlHalfOpenHelp,
    options: &[("lazy", T::OptLazy), ("timed", T::OptTimed)],
    get: |s, _| Some(if s.breaker.timed_half_open { "timed" } else { "lazy" }),
    set: |s, _, v| s.breaker.timed_half_open = v == "timed",
};

/// Evenly spaced or Poisson calls (URL `arrivals`).
pub static ARRIVALS: C = Choice {
    key: "arrivals",
    label: T::KPattern,
    help: T::BlArrivalsHelp,
    options: &[("even", T::OptConstant), ("poisson", T::OptPoisson)],
    get: |s, _| Some(if s.arrivals == Arrivals::Poisson { "poisson" } else { "even" }),
    set: |s, _, v| s.arrivals = if v == "poisson" { Arrivals::Poisson } else { Arrivals::Even },
};

/// The presets with their titles and stories, in the picker's order.
pub static PRESETS: [(&str, T, T); 5] = [
    ("source-003", T::BlP003, T::BlP003Story),
    ("source-001", T::BlP001, T::BlP001Story),
    ("source-002", T::BlP002, T::BlP002Story),
    ("flapping", T::BlPFlap, T::BlPFlapStory),
    ("slow", T::BlPSlow, T::BlPSlowStory),
];

/// The knobs with one value, in the order the URL lists them (the window's knob depends on
/// its kind, so it comes from [`window_knob`]).
static SCALARS: [&K; 8] = [&MIN_CALLS, &FAILURE_PCT, &SLOW_MS, &SLOW_PCT, &OPEN_MS, &PROBES, &RATE, &SEED];
/// The per-phase knobs, each a comma list in the URL.
pub static PHASE_KNOBS: [&K; 3] = [&PHASE_MS, &PHASE_FAIL, &PHASE_LATENCY];
static CHOICES: [&C; 3] = [&WINDOW_KIND, &HALF_OPEN, &ARRIVALS];

/// The window's knob for a kind of window.
pub fn window_knob(kind: WindowKind) -> &'static K {
    if kind == WindowKind::Time { &WINDOW_SECONDS } else { &WINDOW_CALLS }
}

/// What the breaker lab holds.
#[derive(Clone, Debug, PartialEq)]
pub struct BreakerState {
    /// The preset the link starts from.
    pub preset: &'static str,
    /// The last valid input.
    pub input: LabInput,
    /// Fields whose text is not accepted, with that text and the error.
    pub errors: FormErrors,
    /// Link parameters this page does not read.
    pub unknown: crate::state::lab::UnknownKeys,
    /// Calls shown where the learner paused (`at=`; see `state::lab::AT`); None: the run's
    /// end, where the page opens.
    pub at: Option<usize>,
    /// Where a link under the retry-storm page's diagram took its settings from
    /// (`from=`; see `state::lab::Origin`); None once a setting is changed, a preset
    /// picked or reset: the page would otherwise say an edited value came from the storm.
    pub from: Option<super::lab::Origin>,
}

/// Something the learner did.
#[derive(Clone, Debug, PartialEq)]
pub enum BreakerAction {
    /// Paused the playback with this many calls shown, or let it run to the end (None).
    At(Option<usize>),
    /// Typed text into a knob's number field.
    Type(FieldKey, String),
    /// Moved a knob's slider to one of its stops.
    Slide(FieldKey, usize),
    /// Chose an option of a choice (by its key) or, for `preset`, a preset.
    Choose(&'static str, String),
    /// Back to the preset's settings.
    Reset,
}

impl Default for BreakerState {
    fn default() -> Self {
        BreakerState::new(lab::PRESETS[0])
    }
}

impl BreakerState {
    /// Whether any setting differs from the preset's (see [`super::departs_from_preset`]).
    pub fn departs_from_preset(&self) -> bool {
        super::departs_from_preset(|q| self.write_query(q))
    }

    /// A preset's state (the first preset for a name that is none).
    fn new(name: &str) -> Self {
        let preset = lab::PRESETS.into_iter().find(|p| *p == name).unwrap_or(lab::PRESETS[0]);
        let input = lab::preset(preset).unwrap_or_else(|| lab::preset(lab::PRESETS[0]).expect("a preset"));
        BreakerState {
            preset,
            input,
            errors: FormErrors::default(),
            unknown: Default::default(),
            at: None,
            from: None,
        }
    }

    /// Its settings, for lessons to quote (see [`super::Setting`]); phase `n`'s as
    /// `phase_ms.n`, `phase_fail.n`, `phase_latency.n`.
    pub fn lesson_settings(&self) -> Vec<super::Setting> {
        let w = window_knob(self.input.breaker.window_kind);
        let scalars: Vec<&K> = [w, &PHASES].into_iter().chain(SCALARS).collect();
        let mut out = super::knob_settings(&scalars, &self.input);
        for i in 0..self.input.phases.len() {
            for k in PHASE_KNOBS {
                if let Some(value) = (k.get)(&self.input, i) {
                    out.push(super::Setting {
                        key: format!("{}.{}", k.key, i + 1),
                        value,
                        label: k.label,
                        unit: k.unit,
                        owner: super::Owner::Phase(i + 1),
                    });
                }
            }
        }
        out
    }

    /// The knob a URL key names on this state (the window's knob depends on its kind).
    pub fn knob(&self, key: &str) -> Option<&'static K> {
        let w = window_knob(self.input.breaker.window_kind);
        [w, &PHASES].into_iter().chain(SCALARS).chain(PHASE_KNOBS).find(|k| k.key == key)
    }

    /// Applies an action; returns the new state.
    pub fn reduce(&self, action: BreakerAction) -> BreakerState {
        match action {
            BreakerAction::At(at) => {
                let mut next = BreakerState { at, ..self.clone() };
                next.errors.clear(&FieldKey::plain(super::lab::AT));
                next
            }
            BreakerAction::Reset => {
                BreakerState { unknown: self.unknown.clone(), ..BreakerState::new(self.preset) }
            }
            BreakerAction::Choose("preset", name) => match lab::PRESETS.iter().find(|p| **p == name.trim()) {
                Some(p) => BreakerState { unknown: self.unknown.clone(), ..BreakerState::new(p) },
                None => {
                    let choices = lab::PRESETS.map(String::from).to_vec();
                    let e = FieldError::new("preset", &name, Allowed::OneOf { choices });
                    self.with_error(FieldKey::plain("preset"), name, e)
                }
            },
            BreakerAction::Choose(key, value) => {
                let Some(c) = CHOICES.iter().find(|c| c.key == key) else { return self.clone() };
                match c.check(&value, key) {
                    Ok(v) => {
                        let mut input = self.input.clone();
                        (c.set)(&mut input, 0, v);
                        self.commit(FieldKey::plain(c.key), input, value)
                    }
                    Err(e) => self.with_error(FieldKey::plain(c.key), value, e),
                }
            }
            BreakerAction::Type(key, raw) => {
                let Some(k) = self.knob(key.key) else { return self.clone() };
                match k.parse(&raw, &key.field()) {
                    Ok(v) => self.apply(k, key, v, raw),
                    Err(e) => {
                        let e = self.rate_bound(key, e);
                        self.with_error(key, raw, e)
                    }
                }
            }
            BreakerAction::Slide(key, stop) => {
                let Some(k) = self.knob(key.key) else { return self.clone() };
                match k.value_at_stop(&self.input, key.index.unwrap_or(0), stop) {
                    Some(v) => self.apply(k, key, v, fmt_num(v)),
                    None => self.clone(),
                }
            }
        }
    }

    fn apply(&self, k: &K, key: FieldKey, v: f64, raw: String) -> BreakerState {
        let mut input = self.input.clone();
        (k.set)(&mut input, key.index.unwrap_or(0), v);
        self.commit(key, input, raw)
    }

    /// Keeps `input` if the model accepts it; else the error, named for the field changed.
    fn commit(&self, key: FieldKey, input: LabInput, raw: String) -> BreakerState {
        match lab::check(&input) {
            Ok(()) => {
                let mut errors = self.errors.clone();
                errors.clear(&key);
                let n = input.phases.len();
                errors.retain(|f| f.index.is_none_or(|i| i < n));
                // A changed setting is the learner's, not the storm's.
                let from = self.from.clone().filter(|_| input == self.input);
                BreakerState { input, errors, from, ..self.clone() }
            }
            Err(e) => self.with_error(key, raw, self.named_for(key, &input, e)),
        }
    }

    /// The model names the rate when a timeline asks for too many calls; a longer phase
    /// (or one more) is told its own bound instead.
    fn named_for(&self, key: FieldKey, input: &LabInput, e: FieldError) -> FieldError {
        if e.field != "rate" || key.key == "rate" {
            return e;
        }
        let most_ms = lab::MAX_CALLS * 1000.0 / input.rate_per_s;
        let now = &self.input.phases;
        if key.key == "phases" {
            let last = now.last().map_or(1.0, |p| p.duration_ms);
            let room = now.len() + ((most_ms - lab::total_ms(now)) / last).max(0.0) as usize;
            return FieldError::new(
                "phases",
                input.phases.len(),
                Allowed::integer(1, room.min(MAX_PHASES) as u64),
            );
        }
        let i = key.index.unwrap_or(0);
        let this = input.phases.get(i).map_or(0.0, |p| p.duration_ms);
        let max = (most_ms - (lab::total_ms(&input.phases) - this)).floor().max(limits::PHASE_MS.min);
        limits::PHASE_MS.to(max).error(&key.field(), fmt_num(this))
    }

    /// Any rate the knob refuses (too low, too high, not a number) is told the same bound
    /// as one the timeline refuses ([`lab::max_rate`], the 20,000-call cap over this
    /// timeline), not the knob's own 1,000/s: one maximum, whatever was typed.
    fn rate_bound(&self, key: FieldKey, e: FieldError) -> FieldError {
        let most = lab::max_rate(lab::total_ms(&self.input.phases));
        if key.key == RATE.key { limits::RATE.to(most).error(RATE.key, e.value) } else { e }
    }

    fn with_error(&self, key: FieldKey, raw: String, err: FieldError) -> BreakerState {
        let mut next = self.clone();
        next.errors.set(key, raw, err);
        next
    }

    /// Reads the page from a URL query: the preset, then choices, the timeline, then each
    /// number. A bad value keeps the preset's for that field only and is reported.
    pub fn from_query(q: &Query) -> BreakerState {
        let mut st = BreakerState::new(q.get("preset").unwrap_or(lab::PRESETS[0]));
        if let Some(p) = q.get("preset")
            && p != st.preset
        {
            st = st.reduce(BreakerAction::Choose("preset", p.to_string()));
        }
        for c in CHOICES {
            if let Some(v) = q.get(c.key) {
                st = st.reduce(BreakerAction::Choose(c.key, v.to_string()));
            }
        }
        let lists: Vec<(&K, Vec<&str>)> =
            PHASE_KNOBS.iter().filter_map(|k| q.get(k.key).map(|l| (*k, l.split(',').collect()))).collect();
        // The number of phases is the length of `phase_ms`; without that list, `phases=`
        // (the key the knob's label names) sets it, each new phase a copy of the last.
        match (lists.first().filter(|(k, _)| k.key == "phase_ms"), q.get(PHASES.key)) {
            // A list longer (or shorter) than the lab takes is phase_ms's error: the link
            // never said `phases`.
            (Some((k, items)), _) if !PHASES.range.accepts(items.len() as f64) => {
                let (min_len, max_len) = (PHASES.range.min as usize, PHASES.range.max as usize);
                let e = FieldError::new(k.key, clip(&items.join(",")), Allowed::Length { min_len, max_len });
                st.errors.set(FieldKey::plain(k.key), items.join(","), e);
            }
            (Some((_, items)), given) => {
                st = st.reduce(BreakerAction::Type(FieldKey::plain(PHASES.key), items.len().to_string()));
                if let Some(v) = given.filter(|v| v.trim() != items.len().to_string()) {
                    let rule = Allowed::Rule { rule: Rule::PhasesFromList, detail: items.len().to_string() };
                    st.errors.set(
                        FieldKey::plain(PHASES.key),
                        v.to_string(),
                        FieldError::new(PHASES.key, v, rule),
                    );
                }
            }
            (None, Some(v)) => {
                st = st.reduce(BreakerAction::Type(FieldKey::plain(PHASES.key), v.to_string()))
            }
            (None, None) => {}
        }
        // A link's rate lower than the preset's goes first: it only leaves more room, and a
        // long timeline (a storm link's 40-minute load) would be refused at the preset's
        // rate. Read again with the numbers below, against the timeline.
        if let Some(v) = q
            .get(RATE.key)
            .and_then(crate::float::parse_f64)
            .filter(|v| limits::RATE.accepts(*v) && *v < st.input.rate_per_s)
        {
            st.input.rate_per_s = v;
        }
        // The timeline before the numbers: the rate is told the bound the timeline sets.
        for (k, items) in &lists {
            let n = st.input.phases.len();
            // A list of another length than the timeline's is named: a longer one's extra
            // items are not used, a shorter one leaves the last phases at the preset's values.
            if items.len() != n {
                let e = FieldError::new(
                    k.key,
                    crate::error::clip(&items.join(",")),
                    Allowed::Length { min_len: n, max_len: n },
                );
                st.errors.set(FieldKey::plain(k.key), items.join(","), e);
            }
            for (i, raw) in items.iter().enumerate().take(n) {
                st = st.reduce(BreakerAction::Type(FieldKey::at(k.key, i), raw.to_string()));
            }
        }
        for key in ["window"].into_iter().chain(SCALARS.iter().map(|k| k.key)) {
            if let Some(raw) = q.get(key) {
                st = st.reduce(BreakerAction::Type(FieldKey::plain(key), raw.to_string()));
            }
        }
        st.at = super::lab::read_at(q, lab::MAX_CALLS as usize, &mut st.errors);
        st.from = super::lab::read_from(q, &mut st.errors);
        let known = |k: &str| {
            crate::state::app::is_shell_key(k)
                || matches!(k, "preset" | "window" | "phases" | super::lab::AT | super::lab::FROM)
                || SCALARS.iter().chain(PHASE_KNOBS.iter()).any(|x| x.key == k)
                || CHOICES.iter().any(|c| c.key == k)
        };
        st.unknown = crate::state::lab::unknown_keys(q, known);
        st
    }

    /// Writes the preset and every field that differs from it into `q`.
    pub fn write_query(&self, q: &mut Query) {
        let base = lab::preset(self.preset).unwrap_or_else(|| self.input.clone());
        q.set("preset", self.preset);
        for c in CHOICES {
            let v = (c.get)(&self.input, 0);
            if v != (c.get)(&base, 0) {
                q.set(c.key, v.unwrap_or_default());
            }
        }
        let w = window_knob(self.input.breaker.window_kind);
        for k in [w].into_iter().chain(SCALARS) {
            let v = (k.get)(&self.input, 0);
            if v != (k.get)(&base, 0) {
                q.set(k.key, v.map(url_num).unwrap_or_default());
            }
        }
        if self.input.phases != base.phases {
            for k in PHASE_KNOBS {
                let list: Vec<String> = (0..self.input.phases.len())
                    .filter_map(|i| (k.get)(&self.input, i).map(url_num))
                    .collect();
                q.set(k.key, list.join(","));
            }
        }
        super::lab::write_at(q, self.at);
        super::lab::write_from(q, self.from.as_ref());
    }
}

impl BreakerState {
    /// The settings as the page shows them beside Resilience4j's and opossum's names:
    /// (label, value with its unit, Resilience4j, opossum; "—" where it has none).
    pub fn settings(&self, lang: crate::i18n::Lang) -> Vec<(T, String, &'static str, &'static str)> {
        let i = &self.input;
        let val = |k: &K| {
            let v = (k.get)(i, 0).unwrap_or(0.0);
            if k.off && v == 0.0 {
                lang.t(T::OptOff).to_string()
            } else if k.unit == T::UnitPercent {
                lang.percent(&crate::i18n::format_number(v, 2))
            } else {
                lang.count(v, k.unit)
            }
        };
        let pick = |c: &C| {
            let v = (c.get)(i, 0);
            c.options.iter().find(|o| Some(o.0) == v).map_or("", |o| lang.t(o.1)).to_string()
        };
        vec![
            (T::BlWindowKind, pick(&WINDOW_KIND), "slidingWindowType", "—"),
            // opossum's window is time only (ms): a count window has no counterpart there.
            (
                T::KWindow,
                val(window_knob(i.breaker.window_kind)),
                "slidingWindowSize",
                if i.breaker.window_kind == WindowKind::Time { "rollingCountTimeout" } else { "—" },
            ),
            (T::KMinCalls, val(&MIN_CALLS), "minimumNumberOfCalls", "volumeThreshold"),
            (T::KFailurePct, val(&FAILURE_PCT), "failureRateThreshold", "errorThresholdPercentage"),
            (T::BlSlowMs, val(&SLOW_MS), "slowCallDurationThreshold", "—"),
            (T::BlSlowPct, val(&SLOW_PCT), "slowCallRateThreshold", "—"),
            (T::KOpenMs, val(&OPEN_MS), "waitDurationInOpenState", "resetTimeout"),
            (T::KHalfOpen, val(&PROBES), "permittedNumberOfCallsInHalfOpenState", "—"),
            // opossum half-opens on resetTimeout's timer: the timed way; it has no lazy one.
            (
                T::BlHalfOpen,
                pick(&HALF_OPEN),
                "automaticTransitionFromOpenToHalfOpenEnabled",
                if i.breaker.timed_half_open { "resetTimeout" } else { "—" },
            ),
        ]
    }
}

/// The lab's link for a breaker configured elsewhere (a hop's breaker on the storm page):
/// source 003's timeline with that breaker, e.g. `?page=breaker&preset=source-003&open_ms=30000&probes=1`
/// for `BreakerConfig::default()`. Its `instances` and `client_errors` do not apply to the
/// lab and are left out; a value the lab does not accept is shown as that field's error.
/// `from`: the call it guards (see `state::lab::Origin`); `traffic`: its calls and its
/// dependency's faults on the storm page ([`storm_traffic`]), in place of source 003's.
pub fn query_for(
    cfg: &BreakerConfig,
    from: Option<&super::lab::Origin>,
    traffic: Option<StormTraffic>,
) -> String {
    let mut st = BreakerState { from: from.cloned(), ..BreakerState::default() };
    st.input.breaker = BreakerConfig { instances: 1, client_errors: Default::default(), ..*cfg };
    if let Some(t) = traffic {
        (st.input.rate_per_s, st.input.arrivals, st.input.phases) = (t.rate_per_s, t.arrivals, t.phases);
        let b = &mut st.input.breaker;
        if let (Some(ms), None) = (t.timeout_as_slow_ms, b.slow_call_ms) {
            (b.slow_call_ms, b.slow_rate_pct) = (Some(ms), b.failure_rate_pct);
        }
    }
    let mut q = Query::new();
    q.set("page", "breaker");
    st.write_query(&mut q);
    q.to_query_string()
}

mod from_storm;
pub use from_storm::{StormTraffic, storm_traffic};

#[cfg(test)]
mod tests;

//! The stability map's sweep: a scenario from a storm preset, two axes, and for every cell
//! the same scenario with the two values set, run and judged by `model::stability`. A
//! cell's scenario is the storm page's state for a link (`page=storm&preset=…&rate=…`), so
//! clicking a cell opens exactly that run, and an axis can be any numeric knob of the storm
//! page, plus two read the way the research states them: `utilisation` (offered load ÷
//! the bottleneck's capacity, written as `rate`) and `trigger_ms` (the first fault window's
//! length, written as `f1.end`). The same code serves `lab sweep` and the page's workers.

pub mod batch;
pub mod page;

use crate::error::{Allowed, FieldError, Rule, clip};
use crate::model::chain::run_with;
use crate::model::stability::{Verdict, Windows, classify};
use crate::policy::retry_budget::RetryBudgetConfig;
use crate::query::Query;
use crate::report::Report;
use crate::scenario::{Fault, FaultEffect, Load, Scenario, presets};
use crate::state::runs::{BROWSER_MAX_CALLS, RunError};
use crate::state::storm::{StormState, url_num};

/// The preset a map starts from.
pub const DEFAULT_PRESET: &str = "metastable-retry-storm";
/// Most cells along an axis.
pub const MAX_STEPS: u16 = 40;
/// The series' bucket in a cell's run (ms): the windows of the verdict are whole buckets.
pub const BUCKET_MS: f64 = 250.0;

/// One axis: a knob swept from `from` to `to` in `n` evenly spaced values.
#[derive(Clone, Debug, PartialEq)]
pub struct Axis {
    /// `utilisation`, `trigger_ms`, or a storm page URL key (`l1.attempts`, `f1.factor`).
    pub key: String,
    pub from: f64,
    pub to: f64,
    /// Values along the axis (1–[`MAX_STEPS`]).
    pub n: u16,
}

impl Axis {
    /// The `i`-th value (0-based).
    pub fn value(&self, i: u16) -> f64 {
        if self.n <= 1 {
            return self.from;
        }
        // Rounded to 9 decimals, so that 0.05 + 0.95 × 5 / 19 is 0.3 in links, not
        // 0.30000000000000004.
        let mut v = self.from + (self.to - self.from) * f64::from(i) / f64::from(self.n - 1);
        if !v.is_finite() {
            // Near f64's end (an axis typed to 1e308) the product overflows; the share first
            // does not.
            v = self.from + (self.to - self.from) * (f64::from(i) / f64::from(self.n - 1));
        }
        // Only where 9 decimals fit: 1e308 × 1e9 is infinite.
        if v.abs() < 1e9 { (v * 1e9).round() / 1e9 } else { v }
    }

    /// The range an axis starts with when the learner picks its knob (the numbers of the
    /// knob picked before, 0.05..1 of a utilisation, would ask for 0.05 tries): whole
    /// tries one by one, the others over a range that shows their effect. `None` for the
    /// rate, whose range is the preset's own (its capacity).
    pub fn default_for(key: &str) -> Option<Axis> {
        let (from, to, n) = match key {
            "utilisation" => (0.05, 1.0, 20),
            "trigger_ms" => (50.0, 1000.0, 20),
            "f1.factor" => (1.0, 10.0, 10),
            "l1.attempts" => (1.0, 5.0, 5),
            "l1.per_try" => (25.0, 500.0, 20),
            "l1.budget_ratio" => (0.05, 0.5, 10),
            _ => return None,
        };
        Some(Axis { key: key.to_string(), from, to, n })
    }

    /// `KEY=FROM..TO/N`, as links and `lab sweep` write it.
    pub fn text(&self) -> String {
        format!("{}={}..{}/{}", self.key, url_num(self.from), url_num(self.to), self.n)
    }

    /// Reads `KEY=FROM..TO/N`; `field` names the axis in the error.
    pub fn parse(field: &str, text: &str) -> Result<Axis, FieldError> {
        let bad =
            || FieldError::new(field, clip(text), Allowed::OneOf { choices: vec!["KNOB=FROM..TO/N".into()] });
        let (key, rest) = text.trim().split_once('=').ok_or_else(bad)?;
        let (range, n) = rest.split_once('/').ok_or_else(bad)?;
        let (from, to) = range.split_once("..").ok_or_else(bad)?;
        // A from or to that is not a number is its own part's error (the form's field).
        let num = |part: &str, s: &str| {
            crate::float::parse_f64(s.trim()).filter(|v| v.is_finite()).ok_or_else(|| {
                FieldError::new(format!("{field} {part}"), clip(s.trim()), Allowed::rule(Rule::Number))
            })
        };
        let (from, to) = (num("from", from)?, num("to", to)?);
        // The steps named by their own field and range, whatever is wrong with them (a word,
        // a fraction, 0, 41).
        let steps = || {
            FieldError::new(
                format!("{field} steps"),
                clip(n.trim()),
                Allowed::integer(1, u64::from(MAX_STEPS)),
            )
        };
        let n: u16 = n.trim().parse().map_err(|_| steps())?;
        if !(1..=MAX_STEPS).contains(&n) {
            return Err(steps());
        }
        if key.trim().is_empty() {
            return Err(bad());
        }
        Ok(Axis { key: key.trim().to_string(), from, to, n })
    }
}

/// A protection the map can be swept again with, to show the region shrink.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protection {
    None,
    /// Source 001's retry budget: retries at most 10 % of requests.
    Budget,
    /// A timed-out call is cancelled at the server (its work stops).
    Cancel,
    /// A circuit breaker on the entry's calls (50 % of 20 calls, Resilience4j-like), open
    /// for [`BREAKER_OPEN_MS`].
    Breaker,
}

impl Protection {
    pub const ALL: [Protection; 4] =
        [Protection::None, Protection::Budget, Protection::Cancel, Protection::Breaker];

    /// The `protect=` value.
    pub fn slug(self) -> &'static str {
        match self {
            Protection::None => "none",
            Protection::Budget => "budget",
            Protection::Cancel => "cancel",
            Protection::Breaker => "breaker",
        }
    }

    /// Reads a `protect=` value.
    pub fn parse(s: &str) -> Option<Protection> {
        Protection::ALL.into_iter().find(|p| p.slug() == s)
    }

    /// The storm page's link keys that turn it on.
    pub fn link(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Protection::None => &[],
            Protection::Budget => &[("l1.budget", "ratio")],
            Protection::Cancel => &[("cancel", "on")],
            // Open for 2 s, not the page's default 30 s (source 001): a cell's run lasts 20 s
            // and is judged on its last 5, so a breaker open for 30 s was judged while still
            // open, and the map called stuck what the breaker was holding off.
            Protection::Breaker => &[("l1.breaker", "lazy"), ("l1.open_ms", "2000")],
        }
    }
}

/// How long the breaker overlay's breaker stays open (ms), as its link sets it.
pub const BREAKER_OPEN_MS: f64 = 2000.0;

/// A sweep: the preset, its seed, the axes, the protection drawn over the map.
#[derive(Clone, Debug, PartialEq)]
pub struct Sweep {
    pub preset: &'static str,
    pub seed: u64,
    pub x: Axis,
    pub y: Axis,
    pub protect: Protection,
}

/// A cell's run, ready to go.
#[derive(Clone, Debug, PartialEq)]
pub struct CellRun {
    pub scenario: Scenario,
    pub seed: u64,
    pub windows: Windows,
}

/// The storm page's state for a storm link.
fn storm(q: &Query) -> StormState {
    StormState::from_query(q)
}

/// The offered load the bottleneck can serve (req/s): the smallest workers ÷ mean work of
/// any hop with a limited pool, counting each hop's own calls (not the retries).
pub fn capacity(s: &Scenario) -> Option<f64> {
    let hop = |workers: Option<u32>, mean_ms: f64| {
        workers.filter(|_| mean_ms > 0.0).map(|w| f64::from(w) * 1000.0 / mean_ms)
    };
    s.layers
        .iter()
        .filter_map(|l| hop(l.server.workers, l.work.mean_ms()))
        .chain(hop(s.leaf.server.workers, s.leaf.work.mean_ms()))
        .reduce(f64::min)
}

impl Sweep {
    /// The default map of a preset: utilisation 5–100 % against the trigger's length
    /// 50–1,000 ms, 20 × 20 (on the metastable preset the boundary runs from a third of
    /// capacity for long triggers, where three attempts exceed capacity, to full capacity
    /// for the shortest).
    pub fn default_for(preset: &'static str) -> Sweep {
        let seed = presets::find(preset).map_or(1, |p| (p.build)().seed);
        Sweep {
            preset,
            seed,
            x: Axis::default_for("utilisation").expect("an axis of its own"),
            y: Axis::default_for("trigger_ms").expect("an axis of its own"),
            protect: Protection::None,
        }
    }

    /// Cells in the map.
    pub fn cells(&self) -> usize {
        usize::from(self.x.n) * usize::from(self.y.n)
    }

    /// Cell `index`'s axis positions (x, y), row by row from the bottom.
    pub fn position(&self, index: usize) -> (u16, u16) {
        let nx = usize::from(self.x.n.max(1));
        ((index % nx) as u16, (index / nx) as u16)
    }

    fn base_query(&self) -> Query {
        let mut q = Query::new();
        q.set("page", "storm");
        q.set("preset", self.preset);
        q.set("seed", self.seed.to_string());
        q
    }

    /// The preset's scenario, unedited.
    pub fn base(&self) -> Scenario {
        storm(&self.base_query()).a
    }

    /// Sets `axis` to `v` in a storm link over `base`. A utilisation whose rate the storm
    /// page would refuse is told its own range (`Ok(Some(..))`), not the rate's.
    fn set(base: &Scenario, q: &mut Query, axis: &Axis, v: f64) -> Result<Option<Allowed>, String> {
        match axis.key.as_str() {
            "utilisation" => {
                let cap = capacity(base).ok_or("no hop has a limited pool")?;
                let peak = match base.load {
                    Load::Constant { peak_factor, .. } | Load::Poisson { peak_factor, .. } => peak_factor,
                    Load::Batch { .. } => return Err("the preset's arrivals come in one batch".into()),
                };
                let rate = (v * cap / peak * 1e6).round() / 1e6;
                let r = crate::scenario::ranges::RATE_PER_S;
                if !(r.min..=r.max).contains(&rate) {
                    return Ok(Some(Allowed::range(r.min * peak / cap, r.max * peak / cap)));
                }
                q.set("rate", url_num(rate));
            }
            "trigger_ms" => {
                let f = base.faults.first().ok_or("the preset has no fault window (f1)")?;
                q.set("f1.end", url_num(f.start_ms + v));
            }
            key => q.set(key, url_num(v)),
        }
        Ok(None)
    }

    /// The storm link of cell `index`, with the protection if `protected`.
    pub fn cell_query(&self, index: usize, protected: bool) -> Result<Query, FieldError> {
        self.cell_query_over(&self.base(), index, protected)
    }

    /// Every cell's storm link (the preset's scenario built once).
    pub fn cell_queries(&self, protected: bool) -> Vec<Result<Query, FieldError>> {
        let base = self.base();
        (0..self.cells()).map(|i| self.cell_query_over(&base, i, protected)).collect()
    }

    fn cell_query_over(&self, base: &Scenario, index: usize, protected: bool) -> Result<Query, FieldError> {
        let (i, j) = self.position(index);
        let mut q = self.base_query();
        // A retry budget's ratio swept: the budget is on (a preset without one knows no ratio).
        if [&self.x, &self.y].iter().any(|a| a.key == "l1.budget_ratio") {
            for (k, v) in Protection::Budget.link() {
                q.set(k, *v);
            }
        }
        for (field, axis, k) in [("x", &self.x, i), ("y", &self.y, j)] {
            let v = axis.value(k);
            match Self::set(base, &mut q, axis, v) {
                Ok(None) => {}
                Ok(Some(allowed)) => {
                    return Err(FieldError::new(field, format!("{}={}", axis.key, url_num(v)), allowed));
                }
                Err(why) => {
                    return Err(FieldError::new(field, clip(&format!("{} ({why})", axis.key)), self.keys()));
                }
            }
        }
        if protected {
            for (k, v) in self.protect.link() {
                q.set(k, *v);
            }
        }
        Ok(q)
    }

    /// The share of requests the budget overlay lets retries add (0.1 = 10 %): the storm
    /// page's own `ratio` retry budget on the entry's calls, read from the scenario it builds.
    pub fn budget_overlay_ratio(&self) -> Option<f64> {
        let mut q = self.base_query();
        for (k, v) in Protection::Budget.link() {
            q.set(k, *v);
        }
        match storm(&q).a.layers.first()?.client.retry_budget? {
            RetryBudgetConfig::Ratio { retry_ratio, .. } => Some(retry_ratio),
            RetryBudgetConfig::Grpc { .. } => None,
        }
    }

    /// A storm page field's error for cell `index`, said as the axis that set the field
    /// (`y`: `trigger_ms=-5`, its range in the axis's own terms) rather than as the field
    /// the learner never typed (`f1.end (faults[0].end_ms) = 3995`); an error no axis
    /// caused is left as it is.
    fn on_axis(&self, index: usize, e: &FieldError) -> FieldError {
        let (i, j) = self.position(index);
        let storm_key = e.field.split(" (").next().unwrap_or(&e.field);
        for (field, axis, k) in [("x", &self.x, i), ("y", &self.y, j)] {
            let value = format!("{}={}", axis.key, url_num(axis.value(k)));
            if axis.key == storm_key {
                return FieldError { field: field.into(), value, ..e.clone() };
            }
            if axis.key == "trigger_ms" && storm_key == "f1.end" {
                // The trigger's length is its end less its start: the end's range, shifted.
                let start = self.base().faults.first().map_or(0.0, |f| f.start_ms);
                let r = crate::scenario::ranges::fault_end_ms(start);
                return FieldError::new(field, value, Allowed::range(r.min - start, r.max - start))
                    .with_unit("ms");
            }
        }
        e.clone()
    }

    /// The two axes sweep different knobs; `field` (`x` or `y`, or the command line's
    /// `--x`, `--y`) is the one named if not. A knob is what the axis sets in the storm
    /// link: a utilisation sets the rate, and a trigger's length the fault window's end.
    pub fn axes_differ(&self, field: &str) -> Result<(), FieldError> {
        let sets = |a: &Axis| match a.key.as_str() {
            "utilisation" => "rate".to_string(),
            "trigger_ms" => "f1.end".to_string(),
            k => k.to_string(),
        };
        if sets(&self.x) != sets(&self.y) {
            return Ok(());
        }
        let x_named = field.trim_start_matches('-') == "x";
        let (this, other) = if x_named { (&self.x, &self.y) } else { (&self.y, &self.x) };
        Err(FieldError::new(
            field,
            clip(&this.text()),
            Allowed::Rule { rule: crate::error::Rule::AxesDiffer, detail: other.key.clone() },
        ))
    }

    /// What an axis may name.
    fn keys(&self) -> Allowed {
        let choices = [
            "utilisation",
            "trigger_ms",
            "f1.factor",
            "rate",
            "l1.attempts",
            "l1.per_try",
            "l1.budget_ratio",
        ];
        Allowed::Rule { rule: crate::error::Rule::SweepAxisKey, detail: choices.join(", ") }
    }

    /// Cell `index`'s run: the storm page's scenario for its link, judged on the trigger
    /// (the first fault window) and the arrivals' end.
    pub fn cell(&self, index: usize, protected: bool) -> Result<CellRun, FieldError> {
        let q = self.cell_query(index, protected)?;
        let st = storm(&q);
        if let Some(k) = st.unknown.first() {
            let field = if self.x.key == *k { "x" } else { "y" };
            return Err(FieldError::new(field, clip(k), self.keys()));
        }
        if let Some((_, _, e)) = st.errors.iter().next() {
            return Err(self.on_axis(index, e));
        }
        let mut scenario = st.a;
        scenario.report.bucket_ms = Some(BUCKET_MS);
        scenario.report.trace_sample = 0;
        let arrivals_end_ms = match scenario.load {
            Load::Constant { duration_ms, .. } | Load::Poisson { duration_ms, .. } => duration_ms,
            Load::Batch { .. } => 0.0,
        };
        // A map needs a trigger to judge around and a steady load to hold: the page offers
        // only such presets, and the CLI refuses the others alike (a chain that always fails,
        // judged around a made-up trigger, read as stuck in every cell).
        let Some(f) = scenario.faults.first().filter(|_| arrivals_end_ms > 0.0) else {
            let choices = page::presets_with_trigger().into_iter().map(String::from).collect();
            return Err(FieldError::new("preset", self.preset, Allowed::OneOf { choices }));
        };
        let windows = Windows {
            trigger_start_ms: f.start_ms,
            trigger_end_ms: f.end_ms,
            arrivals_end_ms,
            offered_load: scenario.entry_rate_per_s().zip(capacity(&scenario)).map(|(rate, cap)| rate / cap),
        };
        if let Err(b) = windows.judged() {
            let (i, j) = self.position(index);
            // Blamed on the axis that moved the bound broken: the trigger's start, or its end
            // and the arrivals' (an axis that changes neither, like f1.factor, never).
            let early = windows.trigger_start_ms < b.earliest_start;
            let moves = |k: &str| {
                if early {
                    k == "f1.start"
                } else {
                    matches!(k, "trigger_ms" | "duration" | "f1.end" | "f1.start")
                }
            };
            let (field, value) = match [("y", &self.y, j), ("x", &self.x, i)]
                .into_iter()
                .find(|(_, a, _)| moves(&a.key))
            {
                Some((field, a, k)) => (field, format!("{}={}", a.key, url_num(a.value(k)))),
                None => (
                    "f1",
                    format!("{}..{} ms", url_num(windows.trigger_start_ms), url_num(windows.trigger_end_ms)),
                ),
            };
            let detail = format!(
                "f1.start ≥ {} ms, f1.end ≤ {} ms, arrivals ≥ {} ms",
                url_num(b.earliest_start),
                url_num(b.latest_end),
                url_num(b.shortest_arrivals)
            );
            return Err(FieldError::new(
                field,
                value,
                Allowed::Rule { rule: crate::error::Rule::JudgedWindows, detail },
            ));
        }
        Ok(CellRun { scenario, seed: st.seed, windows })
    }

    /// Runs and judges cell `index`.
    pub fn run_cell(&self, index: usize, protected: bool) -> Result<Verdict, RunError> {
        let c = self.cell(index, protected).map_err(RunError::Invalid)?;
        let r = run_with(&c.scenario, c.seed, BROWSER_MAX_CALLS)?;
        Ok(classify(&r.series, c.windows))
    }

    /// Whether every cell can be built: every value of each axis (a whole-number knob
    /// swept 1..5 in 40 steps would ask for 1.1 tries, and 800 cells be refused one by
    /// one), and the far corner (the axes are monotone, so the extremes are the corners).
    pub fn check(&self) -> Result<(), FieldError> {
        self.axes_differ("y")?;
        let nx = usize::from(self.x.n);
        let row = 0..nx;
        let column = (1..usize::from(self.y.n)).map(|j| j * nx);
        // The corners first: they hold both ends of both axes, the values the learner typed,
        // so a range broken at one end is named by that end, not by a step between.
        let last = self.cells().saturating_sub(1);
        let corners = [0, nx - 1, last + 1 - nx, last];
        for index in corners.into_iter().chain(row).chain(column) {
            self.cell(index, false)?;
            if self.protect != Protection::None {
                self.cell(index, true)?;
            }
        }
        Ok(())
    }
}

/// The hysteresis run: the preset without its faults, its load stepped from half the
/// bottleneck's capacity up to [`HYST_TOP`] of it and back down, [`HYST_STEP_MS`] a step.
pub const HYST_LEVELS: [f64; 8] = [0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.2];
/// The highest load of the hysteresis run (× capacity).
pub const HYST_TOP: f64 = HYST_LEVELS[HYST_LEVELS.len() - 1];
/// How long each load level lasts (ms).
pub const HYST_STEP_MS: f64 = 3000.0;

/// Which hysteresis run: the sweep's preset as it is, with the protection drawn over the
/// map, or with every caller making one attempt (the reference that shows what retries
/// add to the gap between the two branches).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HystRun {
    /// The preset as it is.
    Plain,
    /// With the protection drawn over the map.
    Protected,
    /// Every caller making one attempt.
    NoRetry,
}

/// On the way down the load counts as served again once goodput is at least this share of
/// it (the second half of each step is measured, so a queue still draining reads below).
pub const HYST_SERVED: f64 = 0.9;

/// The load (÷ capacity) on the way down from which on goodput serves what is offered
/// (at least [`HYST_SERVED`] of it at that level and every lower one), or `None` if it
/// never does on the ramp.
pub fn served_again_from(points: &[HystPoint]) -> Option<f64> {
    let down: Vec<&HystPoint> = points.iter().filter(|p| !p.up).collect();
    let served = |p: &&HystPoint| p.goodput >= HYST_SERVED * p.utilisation;
    // The levels fall in time order: the run of served levels at the end of the ramp.
    let from = down.iter().rposition(|p| !served(p)).map_or(0, |k| k + 1);
    down.get(from).map(|p| p.utilisation)
}

/// One level of the hysteresis run, measured over the second half of its step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HystPoint {
    /// Offered load ÷ capacity.
    pub utilisation: f64,
    /// Requests answered in full ÷ capacity.
    pub goodput: f64,
    /// On the way up (else down).
    pub up: bool,
}

impl Sweep {
    /// The levels of the hysteresis run in time order (up, then down).
    pub fn hysteresis_levels() -> Vec<(f64, bool)> {
        let up = HYST_LEVELS.iter().map(|&l| (l, true));
        let down = HYST_LEVELS.iter().rev().skip(1).map(|&l| (l, false));
        up.chain(down).collect()
    }

    /// The hysteresis run's scenario and seed.
    pub fn hysteresis(&self, run: HystRun) -> Result<(Scenario, u64), FieldError> {
        let mut q = self.base_query();
        if run == HystRun::Protected {
            for (k, v) in self.protect.link() {
                q.set(k, *v);
            }
        }
        let st = storm(&q);
        let mut s = st.a;
        if run == HystRun::NoRetry {
            for l in &mut s.layers {
                l.client.retry.max_attempts = 1;
                for d in &mut l.side_deps {
                    d.client.retry.max_attempts = 1;
                }
            }
        }
        let cap = capacity(&s).ok_or_else(|| {
            FieldError::new(
                "preset",
                self.preset,
                Allowed::OneOf { choices: vec!["a preset with a limited pool".into()] },
            )
        })?;
        let levels = Self::hysteresis_levels();
        let base = HYST_LEVELS[0] * cap;
        let total = HYST_STEP_MS * levels.len() as f64;
        s.load = Load::Poisson { rate_per_s: base, peak_factor: 1.0, duration_ms: total };
        s.faults = levels
            .iter()
            .enumerate()
            .filter(|(_, (l, _))| *l > HYST_LEVELS[0])
            .map(|(k, (l, _))| Fault {
                target: String::new(),
                start_ms: k as f64 * HYST_STEP_MS,
                end_ms: (k + 1) as f64 * HYST_STEP_MS,
                effect: FaultEffect::Surge { factor: l / HYST_LEVELS[0] },
            })
            .collect();
        s.report.bucket_ms = Some(BUCKET_MS);
        Ok((s, st.seed))
    }

    /// The hysteresis run's points, read from its report.
    pub fn hysteresis_points(&self, r: &Report) -> Vec<HystPoint> {
        let cap = capacity(&self.base()).unwrap_or(1.0);
        let s = &r.series;
        Self::hysteresis_levels()
            .into_iter()
            .enumerate()
            .map(|(k, (level, up))| {
                let (a, b) = ((k as f64 + 0.5) * HYST_STEP_MS, (k + 1) as f64 * HYST_STEP_MS);
                let bucket = |t: f64| ((t / s.bucket_ms).round() as usize).min(s.succeeded.len());
                let ok: u64 = s.succeeded.get(bucket(a)..bucket(b)).map_or(0, |x| x.iter().sum());
                let secs = (b - a) / 1000.0;
                HystPoint { utilisation: level, goodput: ok as f64 / secs / cap, up }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests;

/// A finished cell: its verdict, or why it could not run.
pub type CellResult = Result<Verdict, RunError>;

/// Why a cell could not run, in `lang`: its settings refused (a trigger past the arrivals'
/// end), too much work for the browser, or a bug. The page's map and `lab sweep`'s say it in
/// their language, the CSV's `why` column in English.
pub fn why_not_run(lang: crate::i18n::Lang, e: &RunError) -> String {
    use crate::i18n::{T, format_bound, format_number};
    match e {
        RunError::Invalid(e) => lang.field_error(e),
        RunError::TooMuchWork { estimated, cap } => lang.f(
            T::StabTooMuchWork,
            &[("estimated", &format_bound(*estimated)), ("cap", &format_number(*cap, 0))],
        ),
        RunError::Internal(m) => lang.f(T::StabInternal, &[("message", m)]),
    }
}

/// The map as CSV, one row a cell (what `lab sweep --format csv` prints and the page
/// exports): its position, the two values, the outcome, how fast it recovered (ms), and
/// goodput before and after the trigger.
pub fn csv(s: &Sweep, cells: &[Option<CellResult>], protected: bool) -> String {
    let mut out = format!(
        "# preset={} seed={} x={} y={} protect={}\n\
         # goodput_before, goodput_after: successes / arrivals in the window before the trigger and in the \
         recovery window (above 1 when a backlog is answered in it); recovered_after_ms: from the trigger's end; \
         why: a cell that could not run, why\n\
         cell,ix,iy,{},{},outcome,recovered_after_ms,goodput_before,goodput_after,why\n",
        s.preset,
        s.seed,
        s.x.text(),
        s.y.text(),
        if protected { s.protect.slug() } else { "none" },
        s.x.key,
        s.y.key,
    );
    for (index, c) in cells.iter().enumerate() {
        let (i, j) = s.position(index);
        let (x, y) = (url_num(s.x.value(i)), url_num(s.y.value(j)));
        let tail = match c {
            Some(Ok(v)) => format!(
                "{},{},{},{},",
                v.outcome.as_str(),
                v.recovered_after_ms.map(url_num).unwrap_or_default(),
                url_num(v.before),
                url_num(v.after)
            ),
            // Why, in words, quoted (the words have commas).
            Some(Err(e)) => {
                format!("error,,,,\"{}\"", why_not_run(crate::i18n::Lang::En, e).replace('"', "\"\""))
            }
            None => "pending,,,,".into(),
        };
        out.push_str(&format!("{index},{i},{j},{x},{y},{tail}\n"));
    }
    out
}

/// One cell as the page's JSON export writes it.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct CellRow {
    pub x: f64,
    pub y: f64,
    /// `recovered`, `stuck`, `overloaded`, `error` or `pending`.
    pub outcome: &'static str,
    /// Recovered: ms from the trigger's end until goodput stayed up.
    pub recovered_after_ms: Option<f64>,
    /// Goodput before the trigger and in the recovery window (0–1).
    pub goodput_before: Option<f64>,
    pub goodput_after: Option<f64>,
}

/// The map's cells as rows, in cell order.
pub fn rows(s: &Sweep, cells: &[Option<CellResult>]) -> Vec<CellRow> {
    cells
        .iter()
        .enumerate()
        .map(|(index, c)| {
            let (i, j) = s.position(index);
            let (outcome, v) = match c {
                Some(Ok(v)) => (v.outcome.as_str(), Some(v)),
                Some(Err(_)) => ("error", None),
                None => ("pending", None),
            };
            CellRow {
                x: s.x.value(i),
                y: s.y.value(j),
                outcome,
                recovered_after_ms: v.and_then(|v| v.recovered_after_ms),
                goodput_before: v.map(|v| v.before),
                goodput_after: v.map(|v| v.after),
            }
        })
        .collect()
}

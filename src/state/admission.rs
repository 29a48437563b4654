//! The admission lab's state (`?page=admission`): the gates (bucket B, rate r, concurrency
//! limit), the arrivals — an editable table or a generator (a burst at t = 0, evenly
//! spaced, Poisson) — and the run `model::admission` makes of them, which drives
//! `policy::token_bucket` itself.
//!
//! The link holds it all: `preset=`, then every setting that differs from the preset; the
//! arrivals as `gen=burst|even|poisson` with `n`, `gap`, `seed`, or as `gen=table` with
//! `arrivals=t:cost:hold,…` (ms, tokens, ms).

use super::lab::{preset_error, read_choice, read_knobs, unknown_keys, write_knobs};
use super::{FieldKey, FormErrors};
use crate::error::{Allowed, FieldError, fmt_num};
use crate::i18n::T;
use crate::knob::{Choice, Knob, Slider};
use crate::model::admission::{Arrival, Gates, MAX_ARRIVALS, Run, run};
use crate::query::Query;
use crate::scenario::AdmissionConfig;
use crate::scenario::ranges::{self as r, FieldRange, Resolution};
use crate::sim::rng;

/// Where the arrivals come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gen {
    /// The table as edited.
    Table,
    /// `n` requests at t = 0.
    Burst,
    /// `n` requests `gap` ms apart, from t = 0.
    Even,
    /// `n` requests with exponential gaps of mean `gap` ms, the first after one (seeded).
    Poisson,
}

/// Everything the lab's inputs hold.
#[derive(Clone, Debug, PartialEq)]
pub struct AdmissionInput {
    /// Bucket capacity B (tokens, whole; 0 = no token bucket).
    pub capacity: u32,
    /// Refill rate r (milli-tokens/s, so that up to 3 decimals of tokens/s read back exactly).
    pub rate_milli: u64,
    /// Cost of a generated or added request (tokens, whole).
    pub cost: u32,
    /// Concurrency limit (requests in flight; 0 = none).
    pub limit: u32,
    /// Hold time of a generated or added request (ms, whole).
    pub hold_ms: u64,
    /// Where the arrivals come from.
    pub source: Gen,
    /// Requests a generator makes (count).
    pub n: u32,
    /// Gap between generated arrivals (ms; the mean gap for Poisson).
    pub gap_ms: u64,
    /// Seed of the Poisson generator.
    pub seed: u64,
    /// The arrivals: the table, or what the generator made (kept in step with it).
    pub arrivals: Vec<Arrival>,
}

impl AdmissionInput {
    /// The gates `model::admission` takes.
    pub fn gates(&self) -> Gates {
        Gates { capacity: self.capacity, rate_milli: self.rate_milli, limit: self.limit }
    }

    /// Regenerates the arrivals from the generator (the table is left alone).
    fn regenerate(&mut self) {
        let (n, gap, cost, hold_ms) = (self.n as usize, self.gap_ms, self.cost, self.hold_ms);
        let at = |at_ms| Arrival { at_ms, cost, hold_ms };
        self.arrivals = match self.source {
            Gen::Table => return,
            Gen::Burst => vec![at(0); n],
            Gen::Even => (0..n as u64).map(|i| at(i * gap)).collect(),
            Gen::Poisson => {
                let mut s = rng::fork(self.seed, "admission-lab-arrivals");
                // A Poisson process started at t = 0: its first arrival, like every other,
                // comes after an exponential gap.
                let mut t = 0.0;
                (0..n)
                    .map(|_| {
                        t += rng::exponential(gap as f64, s.uniform());
                        at(t.floor() as u64)
                    })
                    .collect()
            }
        };
    }
}

/// A named starting point.
pub struct AdmissionPreset {
    /// `preset=` value.
    pub name: &'static str,
    /// Title in the picker.
    pub title: T,
    /// What to look at.
    pub story: T,
    build: fn() -> AdmissionInput,
}

fn base(capacity: u32, rate: u64, cost: u32, limit: u32, source: Gen, n: u32, gap_ms: u64) -> AdmissionInput {
    let mut i = AdmissionInput {
        capacity,
        rate_milli: rate * 1000,
        cost,
        limit,
        hold_ms: 100,
        source,
        n,
        gap_ms,
        seed: 1,
        arrivals: Vec::new(),
    };
    i.regenerate();
    i
}

/// The gap a preset whose own arrivals ignore it (a table, a burst) keeps for a learner who
/// switches to "even" or "Poisson": with 0 ms those would be the burst again.
const SWITCH_GAP_MS: u64 = 250;

/// Source 002's model: B = 2, r = 2/s, starting full, concurrency limit 1. Six arrivals show
/// every rule: a slot taken while tokens remain (concurrency_limit), a cost above B
/// (cost_exceeds_capacity), a completion at exactly 500 ms freeing the slot for the arrival
/// at 500 ms, a free slot without tokens (rate_limit, Retry-After 200 ms), and the retry
/// that comes back exactly then.
fn source_002() -> AdmissionInput {
    let a = |at_ms, cost, hold_ms| Arrival { at_ms, cost, hold_ms };
    AdmissionInput {
        arrivals: vec![
            a(0, 1, 500),
            a(0, 1, 100),
            a(200, 3, 100),
            a(500, 2, 300),
            a(800, 1, 100),
            a(1000, 1, 100),
        ],
        // The gap is unused by the table; it is what "even" and "Poisson" start from.
        ..base(2, 2, 1, 1, Gen::Table, 6, SWITCH_GAP_MS)
    }
}

/// The lab's presets, in picker order; the first opens by default.
pub static PRESETS: [AdmissionPreset; 4] = [
    AdmissionPreset { name: "source-002", title: T::AdmPreset002, story: T::AdmStory002, build: source_002 },
    AdmissionPreset {
        name: "source-003",
        title: T::AdmPreset003,
        story: T::AdmStory003,
        // A bucket of 5 refilling 1 token/s meets 8 requests at once: 5 × 200, 3 × 429.
        build: || base(5, 1, 1, 0, Gen::Burst, 8, SWITCH_GAP_MS),
    },
    AdmissionPreset {
        name: "cost-above-b",
        title: T::AdmPresetCost,
        story: T::AdmStoryCost,
        // B = 2, requests of 3 tokens once a second: the bucket is full every time, in vain.
        build: || base(2, 2, 3, 0, Gen::Even, 5, 1000),
    },
    AdmissionPreset {
        name: "steady-above-r",
        title: T::AdmPresetSteady,
        story: T::AdmStorySteady,
        // 2.5 req/s against r = 2/s: the burst absorbs the excess for 2 s, then 1 in 5 is refused.
        build: || base(2, 2, 1, 0, Gen::Even, 20, 400),
    },
];

/// Finds a preset by name.
pub fn preset(name: &str) -> Option<&'static AdmissionPreset> {
    PRESETS.iter().find(|p| p.name == name)
}

type K = Knob<AdmissionInput>;

const fn tokens(min: f64, max: f64) -> FieldRange {
    FieldRange { min, max, resolution: Resolution::Whole, unit: "tokens" }
}

/// Bucket capacity B (`b`).
pub static CAPACITY: K = Knob {
    key: "b",
    label: T::KBucketB,
    help: T::KBucketBHelp,
    unit: T::UnitTokens,
    range: r::BUCKET_CAPACITY,
    slider: Slider::log(1.0, 1000.0),
    step: 1.0,
    off: true,
    get: |s, _| Some(f64::from(s.capacity)),
    set: |s, _, v| s.capacity = v as u32,
};

/// Refill rate r (`r`).
pub static RATE: K = Knob {
    key: "r",
    label: T::KRefill,
    help: T::KRefillHelp,
    unit: T::UnitTokensPerS,
    range: r::BUCKET_RATE.to(1e6),
    slider: Slider::linear(0.0, 20.0),
    step: 0.5,
    off: false,
    get: |s, _| Some(s.rate_milli as f64 / 1000.0),
    set: |s, _, v| s.rate_milli = (v * 1000.0).round() as u64,
};

/// Cost of generated and added requests (`cost`).
pub static COST: K = Knob {
    key: "cost",
    label: T::KCost,
    help: T::KCostHelp,
    unit: T::UnitTokens,
    range: r::BUCKET_COST,
    slider: Slider::linear(1.0, 10.0),
    step: 1.0,
    off: false,
    get: |s, _| Some(f64::from(s.cost)),
    set: |s, _, v| s.cost = v as u32,
};

/// Concurrency limit (`limit`).
pub static LIMIT: K = Knob {
    key: "limit",
    label: T::KConcurrency,
    help: T::KConcurrencyHelp,
    unit: T::UnitRequests,
    range: r::CONCURRENCY_LIMIT,
    slider: Slider::linear(1.0, 20.0),
    step: 1.0,
    off: true,
    get: |s, _| Some(f64::from(s.limit)),
    set: |s, _, v| s.limit = v as u32,
};

/// Hold time of generated and added requests (`hold`).
pub static HOLD: K = Knob {
    key: "hold",
    label: T::KHold,
    help: T::KHoldHelp,
    unit: T::UnitMs,
    range: FieldRange { resolution: Resolution::Whole, ..r::WORK_MS },
    slider: Slider::log(1.0, 10_000.0),
    step: 1.0,
    off: false,
    get: |s, _| Some(s.hold_ms as f64),
    set: |s, _, v| s.hold_ms = v as u64,
};

/// Requests a generator makes (`n`).
pub static COUNT: K = Knob {
    key: "n",
    label: T::KCount,
    help: T::KCountHelp,
    unit: T::UnitRequests,
    range: FieldRange { min: 1.0, max: MAX_ARRIVALS as f64, resolution: Resolution::Whole, unit: "requests" },
    slider: Slider::log(1.0, MAX_ARRIVALS as f64),
    step: 1.0,
    off: false,
    get: |s, _| Some(f64::from(s.n)),
    set: |s, _, v| s.n = v as u32,
};

/// Gap between generated arrivals (`gap`).
pub static GAP: K = Knob {
    key: "gap",
    label: T::KGap,
    help: T::KGapHelp,
    unit: T::UnitMs,
    range: FieldRange { min: 0.0, max: 600_000.0, resolution: Resolution::Whole, unit: "ms" },
    slider: Slider::log(1.0, 60_000.0),
    step: 1.0,
    off: false,
    get: |s, _| Some(s.gap_ms as f64),
    set: |s, _, v| s.gap_ms = v as u64,
};

/// Seed of the Poisson generator (`seed`).
pub static SEED: K = Knob {
    key: "seed",
    label: T::Seed,
    help: T::KLabSeedHelp,
    unit: T::UnitInteger,
    range: r::SEED,
    slider: Slider::linear(0.0, 100.0),
    step: 1.0,
    off: false,
    get: |s, _| Some(s.seed as f64),
    set: |s, _, v| s.seed = v as u64,
};

/// The gate knobs, then the generator's, in page order.
pub static KNOBS: [&K; 8] = [&CAPACITY, &RATE, &COST, &LIMIT, &HOLD, &COUNT, &GAP, &SEED];

/// Where the arrivals come from (`gen`).
pub static GEN: Choice<AdmissionInput> = Choice {
    key: "gen",
    label: T::KPattern,
    help: T::KGenHelp,
    options: &[
        ("table", T::OptTable),
        ("burst", T::OptBurst),
        ("even", T::OptConstant),
        ("poisson", T::OptPoisson),
    ],
    get: |s, _| {
        Some(match s.source {
            Gen::Table => "table",
            Gen::Burst => "burst",
            Gen::Even => "even",
            Gen::Poisson => "poisson",
        })
    },
    set: |s, _, v| {
        s.source = match v {
            "burst" => Gen::Burst,
            "even" => Gen::Even,
            "poisson" => Gen::Poisson,
            _ => Gen::Table,
        }
    },
};

/// The columns of the arrivals table, each a knob on row `i`: time, cost, hold.
pub static COLUMNS: [K; 3] = [
    Knob {
        key: "time",
        label: T::ColTime,
        help: T::ColTime,
        unit: T::UnitMs,
        range: FieldRange { min: 0.0, max: 1e9, resolution: Resolution::Whole, unit: "ms" },
        slider: Slider::linear(0.0, 1.0),
        step: 1.0,
        off: false,
        get: |s, i| s.arrivals.get(i).map(|a| a.at_ms as f64),
        set: |s, i, v| s.arrivals[i].at_ms = v as u64,
    },
    Knob {
        key: "row_cost",
        label: T::ColCost,
        help: T::ColCost,
        unit: T::UnitTokens,
        range: tokens(1.0, 1e6),
        slider: Slider::linear(0.0, 1.0),
        step: 1.0,
        off: false,
        get: |s, i| s.arrivals.get(i).map(|a| f64::from(a.cost)),
        set: |s, i, v| s.arrivals[i].cost = v as u32,
    },
    Knob {
        key: "row_hold",
        label: T::ColHold,
        help: T::ColHold,
        unit: T::UnitMs,
        range: FieldRange { resolution: Resolution::Whole, ..r::WORK_MS },
        slider: Slider::linear(0.0, 1.0),
        step: 1.0,
        off: false,
        get: |s, i| s.arrivals.get(i).map(|a| a.hold_ms as f64),
        set: |s, i, v| s.arrivals[i].hold_ms = v as u64,
    },
];

/// The field a table cell's errors name, by the table's row number: `arrivals #3 cost` for
/// row index 2.
pub fn cell_field(col: usize, row: usize) -> String {
    format!("{} {}", crate::error::item_field("arrivals", row), ["time", "cost", "hold"][col.min(2)])
}

/// What the lab holds.
#[derive(Clone, Debug, PartialEq)]
pub struct AdmissionState {
    /// The preset it started from.
    pub preset: &'static str,
    /// The inputs, always valid.
    pub input: AdmissionInput,
    /// What the policy made of them.
    pub run: Run,
    /// Fields whose text or link value was not accepted.
    pub errors: FormErrors,
    /// Link keys this page does not read.
    pub unknown: crate::state::lab::UnknownKeys,
    /// Arrivals shown where the learner paused (`at=`; see `state::lab::AT`); None: the
    /// page plays the run from its start.
    pub at: Option<usize>,
    /// Where a link under the retry-storm page's diagram took its settings from
    /// (`from=`; see `state::lab::Origin`); None once a setting is changed, a preset
    /// picked or reset: the page would otherwise say an edited value came from the storm.
    pub from: Option<super::lab::Origin>,
}

/// Something the learner did.
#[derive(Clone, Debug, PartialEq)]
pub enum AdmissionAction {
    /// Paused the playback with this many arrivals shown, or let it play (None).
    At(Option<usize>),
    /// Picked a preset.
    Preset(String),
    /// Typed into a knob's field (plain key) or a table cell (`time`/`row_cost`/`row_hold`
    /// at row `i`).
    Type(FieldKey, String),
    /// Moved a knob's slider to a stop.
    Slide(FieldKey, usize),
    /// Picked where the arrivals come from.
    Gen(String),
    /// Added a row (at the last row's time, with the cost and hold knobs' values).
    AddRow,
    /// Deleted row `i`.
    DeleteRow(usize),
    /// Back to the preset as it was.
    Reset,
}

impl Default for AdmissionState {
    fn default() -> Self {
        AdmissionState::new(PRESETS[0].name)
    }
}

impl AdmissionState {
    /// Its settings, for lessons to quote (see [`super::Setting`]).
    pub fn lesson_settings(&self) -> Vec<super::Setting> {
        super::knob_settings(&KNOBS, &self.input)
    }

    /// Whether any setting differs from the preset's (see [`super::departs_from_preset`]).
    pub fn departs_from_preset(&self) -> bool {
        super::departs_from_preset(|q| self.write_query(q))
    }

    /// The preset `name` (the first preset if there is none by that name), unedited.
    pub fn new(name: &str) -> Self {
        let p = preset(name).unwrap_or(&PRESETS[0]);
        AdmissionState::with(p.name, (p.build)())
    }

    fn with(preset: &'static str, input: AdmissionInput) -> Self {
        let run = run(input.gates(), &input.arrivals);
        AdmissionState {
            preset,
            input,
            run,
            errors: FormErrors::default(),
            unknown: Default::default(),
            at: None,
            from: None,
        }
    }

    /// The same errors and unknown keys over a changed input, rerun.
    fn rerun(&self, mut input: AdmissionInput) -> Self {
        input.regenerate();
        AdmissionState {
            errors: self.errors.clone(),
            unknown: self.unknown.clone(),
            // A changed setting is the learner's, not the storm's.
            from: self.from.clone().filter(|_| input == self.input),
            ..Self::with(self.preset, input)
        }
    }

    /// The preset's unedited inputs.
    pub fn baseline(&self) -> AdmissionInput {
        (preset(self.preset).unwrap_or(&PRESETS[0]).build)()
    }

    /// Applies an action.
    pub fn reduce(&self, action: AdmissionAction) -> AdmissionState {
        match action {
            AdmissionAction::At(at) => {
                let mut next = AdmissionState { at, ..self.clone() };
                next.errors.clear(&FieldKey::plain(super::lab::AT));
                next
            }
            AdmissionAction::Preset(name) => AdmissionState::new(&name),
            AdmissionAction::Reset => AdmissionState::new(self.preset),
            AdmissionAction::Gen(v) => match GEN.check(&v, GEN.key) {
                Ok(v) => {
                    let mut input = self.input.clone();
                    (GEN.set)(&mut input, 0, v);
                    self.rerun(input)
                }
                Err(e) => self.with_error(FieldKey::plain(GEN.key), v, e),
            },
            AdmissionAction::AddRow => {
                let mut input = self.to_table();
                if input.arrivals.len() < MAX_ARRIVALS {
                    let at_ms = input.arrivals.last().map_or(0, |a| a.at_ms);
                    input.arrivals.push(Arrival { at_ms, cost: input.cost, hold_ms: input.hold_ms });
                }
                self.rerun(input)
            }
            AdmissionAction::DeleteRow(i) => {
                let mut input = self.to_table();
                if i < input.arrivals.len() {
                    input.arrivals.remove(i);
                }
                let mut next = self.rerun(input);
                next.errors.retain(|k| k.index.is_none());
                next
            }
            AdmissionAction::Type(key, raw) => {
                let (k, field) = match key.index {
                    None => match KNOBS.iter().find(|k| k.key == key.key) {
                        Some(k) => (*k, key.key.to_string()),
                        None => return self.clone(),
                    },
                    Some(row) => match COLUMNS.iter().position(|c| c.key == key.key) {
                        Some(col) if row < self.input.arrivals.len() => (&COLUMNS[col], cell_field(col, row)),
                        _ => return self.clone(),
                    },
                };
                match k.parse(&raw, &field) {
                    Ok(v) => {
                        let mut input =
                            if key.index.is_some() { self.to_table() } else { self.input.clone() };
                        (k.set)(&mut input, key.index.unwrap_or(0), v);
                        let mut next = self.rerun(input);
                        next.errors.clear(&key);
                        next
                    }
                    Err(e) => self.with_error(key, raw, e),
                }
            }
            AdmissionAction::Slide(key, stop) => match KNOBS.iter().find(|k| k.key == key.key) {
                Some(k) => match k.value_at_stop(&self.input, 0, stop) {
                    Some(v) => self.reduce(AdmissionAction::Type(key, fmt_num(v))),
                    None => self.clone(),
                },
                None => self.clone(),
            },
        }
    }

    /// The inputs with the arrivals made explicit (editing a row turns a generator's list
    /// into a table).
    fn to_table(&self) -> AdmissionInput {
        AdmissionInput { source: Gen::Table, ..self.input.clone() }
    }

    fn with_error(&self, key: FieldKey, raw: String, e: FieldError) -> AdmissionState {
        let mut next = self.clone();
        next.errors.set(key, raw, e);
        next
    }

    /// Reads the lab from a link; a bad value keeps the preset's for that field alone.
    pub fn from_query(q: &Query) -> AdmissionState {
        let names: Vec<&str> = PRESETS.iter().map(|p| p.name).collect();
        let mut st = AdmissionState::new(q.get("preset").unwrap_or(PRESETS[0].name));
        let mut errors = FormErrors::default();
        if let Some(p) = q.get("preset")
            && preset(p).is_none()
        {
            errors.set(FieldKey::plain("preset"), p.to_string(), preset_error(p, &names));
        }
        let mut input = st.input.clone();
        read_knobs(q, &KNOBS, &mut input, &mut errors);
        read_choice(q, &GEN, &mut input, &mut errors);
        if let Some(list) = q.get("arrivals") {
            input.source = Gen::Table;
            input.arrivals = parse_arrivals(list, &input, &mut errors);
        }
        st = st.rerun(input);
        st.at = super::lab::read_at(q, MAX_ARRIVALS, &mut errors);
        st.from = super::lab::read_from(q, &mut errors);
        st.errors = errors;
        st.unknown = unknown_keys(q, |k| {
            crate::state::app::is_shell_key(k)
                || matches!(k, "preset" | "gen" | "arrivals" | super::lab::AT | super::lab::FROM)
                || KNOBS.iter().any(|n| n.key == k)
        });
        st
    }

    /// Writes the lab into `q`: the preset, then what differs from it.
    pub fn write_query(&self, q: &mut Query) {
        let base = self.baseline();
        q.set("preset", self.preset);
        write_knobs(q, &KNOBS, &self.input, &base);
        if self.input.source == base.source {
            q.remove("gen");
        } else {
            q.set("gen", (GEN.get)(&self.input, 0).unwrap_or("table"));
        }
        if self.input.source == Gen::Table && self.input.arrivals != base.arrivals {
            let items: Vec<String> =
                self.input.arrivals.iter().map(|a| format!("{}:{}:{}", a.at_ms, a.cost, a.hold_ms)).collect();
            q.set("arrivals", items.join(","));
        } else {
            q.remove("arrivals");
        }
        super::lab::write_at(q, self.at);
        super::lab::write_from(q, self.from.as_ref());
    }
}

/// Reads `t:cost:hold,…` (cost and hold may be left out: the knobs' values); a bad item is
/// skipped with its error, items past [`MAX_ARRIVALS`] are dropped with an error.
fn parse_arrivals(list: &str, defaults: &AdmissionInput, errors: &mut FormErrors) -> Vec<Arrival> {
    let items: Vec<&str> = list.split(',').filter(|s| !s.trim().is_empty()).collect();
    if items.len() > MAX_ARRIVALS {
        let e = FieldError::new(
            "arrivals",
            crate::error::clip(list),
            Allowed::Length { min_len: 0, max_len: MAX_ARRIVALS },
        );
        errors.set(FieldKey::plain("arrivals"), list.to_string(), e);
    }
    let mut out = Vec::new();
    // One row at a time through the table's column knobs, so a link's values are checked
    // exactly as typed cells are.
    let mut one = AdmissionInput { arrivals: Vec::new(), ..defaults.clone() };
    for (row, item) in items.iter().take(MAX_ARRIVALS).enumerate() {
        let parts: Vec<&str> = item.split(':').collect();
        let mut bad = (parts.len() > 3).then(|| {
            FieldError::new(
                crate::error::item_field("arrivals", row),
                item,
                Allowed::Length { min_len: 1, max_len: 3 },
            )
        });
        one.arrivals = vec![Arrival { at_ms: 0, cost: defaults.cost, hold_ms: defaults.hold_ms }];
        for (col, raw) in parts.iter().enumerate().take(3) {
            if bad.is_none() {
                match COLUMNS[col].parse(raw, &cell_field(col, row)) {
                    Ok(v) => (COLUMNS[col].set)(&mut one, 0, v),
                    Err(e) => bad = Some(e),
                }
            }
        }
        match bad {
            Some(e) => errors.set(FieldKey::at("arrivals", row), item.to_string(), e),
            None => out.push(one.arrivals[0]),
        }
    }
    out
}

/// The lab's link for a hop's admission settings (`scenario::AdmissionConfig`, as the
/// retry-storm page holds them): its bucket and concurrency limit, met by a burst of
/// three more requests than the bucket (or the limit) lets through at once, each holding
/// its slot 100 ms, opened paused at the burst's end. `from`: the hop they belong to (see
/// `state::lab::Origin`).
pub fn query_for(config: &AdmissionConfig, from: Option<&super::lab::Origin>) -> String {
    let mut input = base(0, 0, 1, 0, Gen::Burst, 1, SWITCH_GAP_MS);
    if let Some(b) = config.token_bucket {
        input.capacity = b.capacity;
        input.rate_milli = (b.rate_per_s * 1000.0).round().max(0.0) as u64;
        input.cost = b.cost.max(1);
    }
    input.limit = config.concurrency_limit.unwrap_or(0);
    let through = if input.capacity > 0 { input.capacity / input.cost.max(1) } else { input.limit };
    input.n = (through.saturating_add(3)).clamp(1, MAX_ARRIVALS as u32);
    let mut st = AdmissionState::new(PRESETS[0].name).rerun(input);
    st.from = from.cloned();
    // Paused at the burst's end, every verdict shown, as the breaker lab opens at its run's
    // end: played from the start, a burst of 63 took 40 s to reach its first 429, and the
    // counts a class copies would be partway.
    st.at = Some(st.input.arrivals.len());
    let mut q = Query::new();
    q.set("page", "admission");
    st.write_query(&mut q);
    q.to_query_string()
}

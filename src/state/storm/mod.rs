//! The retry-storm page's state: a preset, the learner's edits to it (scenario A) — its
//! shape (layers, side dependencies, fault windows) and every control — the seed, compare
//! mode, and the URL that reproduces all of it.
//!
//! Every control is described once in [`knobs`] over a [`Target`] (the whole run, layer
//! `i`, the leaf, side dependency `i`, fault window `i`); the same client controls serve
//! layers and side dependencies. The URL is the page's whole state: a link, a reload, or a
//! run request sent to the Web Worker all rebuild the same scenario from it, so numbers are
//! written so that they read back exactly.

pub mod from_file;
pub mod knobs;
pub mod lesson;
pub mod shape;
pub mod target;

pub use knobs::{
    Applies, CHOICES, ChoiceDef, Group, KeyDoc, NUMBERS, NumberDef, choice, key_docs, number,
    number_for_url_key,
};
pub use shape::{MOST_FAULT_WINDOWS, Shape};
pub use target::{Target, side_count, side_owner, target_name, targets};

use super::FormErrors;
use crate::error::{Allowed, FieldError};
use crate::query::Query;
use crate::scenario::presets::{self, Preset};
use crate::scenario::validate::{MAX_LAYERS, MAX_SIDE_DEPS};
use crate::scenario::*;

/// A control on a target: how the page names a field in errors, the DOM and the URL.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StormKey {
    /// The control's key (unique across the page).
    pub key: &'static str,
    /// What it applies to.
    pub target: Target,
}

impl StormKey {
    /// A control on a target.
    pub const fn on(key: &'static str, target: Target) -> Self {
        StormKey { key, target }
    }

    /// The URL parameter: `l2.attempts`, `rate`.
    pub fn url_key(&self) -> String {
        self.target.url_key(self.key)
    }

    /// The DOM id of its number field or select: `k-l2-attempts`.
    pub fn dom_id(&self) -> String {
        format!("k-{}", self.url_key().replace('.', "-"))
    }
}

/// Page-level fields.
pub const SEED: StormKey = StormKey::on("seed", Target::Run);
pub const PRESET: StormKey = StormKey::on("preset", Target::Run);
pub const COMPARE: StormKey = StormKey::on("compare", Target::Run);
pub const OVERLAY: StormKey = StormKey::on("overlay", Target::Run);
pub const KNOBS: StormKey = StormKey::on("knobs", Target::Run);
/// Side B pinned to settings of the learner's (`pin=`: their link query, nested).
pub const PIN: StormKey = StormKey::on("pin", Target::Run);
pub const REQUEST: StormKey = StormKey::on("request", Target::Run);
/// The moment the playback was paused at (`t=`, ms), so that a link opens there, paused.
pub const MOMENT: StormKey = StormKey::on("t", Target::Run);
/// The hop picked out on the charts (`focus=`, its index: 0 = the entry).
pub const FOCUS: StormKey = StormKey::on("focus", Target::Run);
pub const LAYERS: StormKey = StormKey::on("layers", Target::Run);
pub const FAULTS: StormKey = StormKey::on("faults", Target::Run);
/// A layer's number of side dependencies (`l1.sides`).
pub const fn sides_key(layer: usize) -> StormKey {
    StormKey::on("sides", Target::Layer(layer))
}

/// URL keys the page reads besides its controls.
pub const PAGE_KEYS: [&str; 11] =
    ["preset", "seed", "compare", "overlay", "knobs", "layers", "faults", "request", "t", "focus", "pin"];

/// A fault window's target (`f1.target`).
pub const fn fault_target_key(i: usize) -> StormKey {
    StormKey::on("target", Target::Fault(i))
}

/// The services a fault window may act on: the leaf and the side dependencies.
pub fn fault_targets(s: &Scenario) -> Vec<String> {
    std::iter::once(s.leaf.name.clone())
        .chain(s.layers.iter().flat_map(|l| l.side_deps.iter().map(|d| d.target.name.clone())))
        .collect()
}

/// What the retry-storm page holds.
#[derive(Clone, Debug, PartialEq)]
pub struct StormState {
    /// The preset the page started from.
    pub preset: &'static str,
    /// The scenario as edited (side A), always valid.
    pub a: Scenario,
    /// The seed of both sides.
    pub seed: u64,
    /// Whether side B is shown.
    pub compare: bool,
    /// In compare mode, A and B drawn on the same charts (rather than side by side).
    pub overlay: bool,
    /// Every control shown, rather than the preset's lesson knobs (`knobs=all`).
    pub all_knobs: bool,
    /// The request whose attempt tree is shown (`request=N`, 0 = the first to arrive):
    /// side A's run traces it whole. None: the tree of the sampled request on show.
    pub request: Option<u64>,
    /// Where the playback was paused (ms of virtual time; `t=`): a link opens there,
    /// paused. None: it plays from the start. A view of the run, not part of it.
    pub moment: Option<f64>,
    /// The hop picked out on the charts (`focus=`, its index in the report's hops).
    pub focus: Option<usize>,
    /// Controls whose text or link value was not accepted.
    pub errors: FormErrors<StormKey>,
    /// Link parameters that name no control.
    pub unknown: crate::state::lab::UnknownKeys,
    /// Side B pinned to settings the learner had on side A (`pin=`): their settings as the
    /// link writes them (`layers=2&l1.per_try=300`), from the same preset, or led by the
    /// preset they were made on once side A moved to another (`preset=big-promo&…`). None:
    /// side B is the preset's comparison.
    pub pin: Option<String>,
}

/// Something the learner did on the page.
#[derive(Clone, Debug, PartialEq)]
pub enum StormAction {
    /// Picked a preset.
    Preset(String),
    /// Showed every control (true) or only the preset's lesson knobs (false).
    AllKnobs(bool),
    /// Committed text in a number field.
    Type(StormKey, String),
    /// Moved a slider to one of its stops (an index into `Knob::stops`).
    Slide(StormKey, usize),
    /// Picked an option.
    Choose(StormKey, String),
    /// Typed a seed.
    Seed(String),
    /// Asked for a different seed (the caller supplies it, so the reducer stays pure).
    NewSeed(u64),
    /// Asked for the attempt tree of the request numbered by the text ("" for none).
    Request(String),
    /// Paused the playback at a moment (ms), or let it play (None).
    Moment(Option<f64>),
    /// Picked a hop out on the charts, or none.
    Focus(Option<usize>),
    /// Turned compare mode on or off.
    Compare(bool),
    /// Chose overlaid (true) or side-by-side charts in compare mode.
    Overlay(bool),
    /// Set the number of layers (1–8).
    Layers(usize),
    /// Set how many side dependencies layer `.0` calls (0–3).
    Sides(usize, usize),
    /// Set the number of fault windows.
    Faults(usize),
    /// Point fault window `.0` at the service named `.1` (the leaf or a side dependency).
    FaultTarget(usize, String),
    /// Back to the preset as it was.
    Reset,
    /// Kept side A's settings as side B (and showed it), so that A can change against them.
    Pin,
    /// Let the pinned settings go, and side B with them.
    Unpin,
}

fn preset_or_default(name: &str) -> &'static Preset {
    presets::find(name).unwrap_or_else(|| presets::find(presets::DEFAULT).unwrap_or(&presets::all()[0]))
}

/// A number as the URL writes it: the shortest text that reads back as the same number.
pub fn url_num(v: f64) -> String {
    format!("{v}")
}

impl StormState {
    /// A page showing `preset` unchanged.
    pub fn new(preset: &str) -> Self {
        let p = preset_or_default(preset);
        let a = (p.build)();
        StormState {
            preset: p.name,
            seed: a.seed,
            a,
            compare: false,
            overlay: false,
            all_knobs: false,
            request: None,
            moment: None,
            focus: None,
            errors: FormErrors::default(),
            unknown: Default::default(),
            pin: None,
        }
    }

    /// Services in side A's run (its report's hops): the layers, the leaf, the side
    /// dependencies.
    pub fn hop_count(&self) -> usize {
        self.a.layers.len() + 1 + self.a.layers.iter().map(|l| l.side_deps.len()).sum::<usize>()
    }

    /// The preset's unedited scenario.
    pub fn baseline(&self) -> Scenario {
        (preset_or_default(self.preset).build)()
    }

    /// The preset brought to the current shape: what the controls' changes are measured
    /// against.
    pub fn shaped_baseline(&self) -> Scenario {
        Shape::of(&self.a).apply(&self.baseline())
    }

    /// Side B of compare mode: the preset's comparison scenario, else the preset itself as
    /// shipped (`true`: the latter, against which the controls' changes show).
    fn comparison(&self) -> (presets::Versus, bool) {
        // (A pinned side B is not a preset's: see `side_b`.)
        let p = preset_or_default(self.preset);
        p.versus.map_or((presets::Versus { title: p.title, build: p.build }, true), |v| (v, false))
    }

    /// Side A's heading in compare mode: the preset's title while its settings are the
    /// preset's, else "your scenario" from it (it had read "your scenario" either way).
    pub fn side_a_heading(&self) -> (crate::i18n::T, crate::i18n::T) {
        use crate::i18n::T;
        let changed = self.a != self.baseline();
        (if changed { T::SideAChanged } else { T::SideANamed }, preset_or_default(self.preset).title)
    }

    /// Side B's heading in compare mode: (its text, the preset title it names).
    pub fn side_b_heading(&self) -> (crate::i18n::T, crate::i18n::T) {
        use crate::i18n::T;
        let (v, shipped) = self.comparison();
        if let Some(pin) = &self.pin {
            // Pinned before any change: the preset as it ships, not "as you had changed it".
            let b = pinned_state(self.preset, pin);
            let same = b.a == b.baseline();
            return (
                if same { T::SideBPinnedSame } else { T::SideBPinned },
                preset_or_default(b.preset).title,
            );
        }
        let key = match (shipped, self.a != self.baseline()) {
            // A named side B runs as the preset ships it: the controls change side A only.
            (false, true) => T::SideBNamedChanged,
            (false, false) => T::SideBNamed,
            (true, true) => T::SideBShipped,
            (true, false) => T::SideBShippedSame,
        };
        (key, v.title)
    }

    /// Side B's name in exported files' names and provenance: its scenario's, where that is
    /// another preset's (`big-promo` beside `big-promo-protected`), else side A's preset's,
    /// marked `-pinned` for settings pinned from side A.
    pub fn side_b_preset(&self) -> String {
        match &self.pin {
            Some(pin) => format!("{}-pinned", pinned_state(self.preset, pin).preset),
            None => {
                let name = (self.comparison().0.build)().name;
                if name.is_empty() { self.preset.to_string() } else { name }
            }
        }
    }

    /// Side B of compare mode (see [`comparison`](Self::comparison)), judged by the page's
    /// one objective (the SLO knob), as side A is.
    pub fn side_b(&self) -> Scenario {
        let b = match &self.pin {
            Some(pin) => pinned_state(self.preset, pin).a,
            None => (self.comparison().0.build)(),
        };
        Scenario { slo: self.a.slo, ..b }
    }

    /// Side A's settings as the link writes them, without the page's own keys: what
    /// [`StormAction::Pin`] keeps.
    pub fn settings_query(&self) -> String {
        let mut q = Query::new();
        self.write_settings(&mut q);
        q.to_query_string().trim_start_matches('?').to_string()
    }

    /// Applies an action.
    pub fn reduce(&self, action: StormAction) -> StormState {
        let mut next = self.reduce_settings(action);
        // A picked hop the chain no longer has (fewer layers or side dependencies) is let go.
        if next.focus.is_some_and(|h| h >= next.hop_count()) {
            next.focus = None;
        }
        next
    }

    fn reduce_settings(&self, action: StormAction) -> StormState {
        match action {
            StormAction::Preset(name) => {
                let next = StormState::new(&name);
                // A pinned side B stays what it was: the settings of the preset it was made on.
                let pin = self.pin.as_ref().map(|p| pin_text(&pinned_state(self.preset, p), next.preset));
                StormState {
                    compare: self.compare,
                    overlay: self.overlay,
                    all_knobs: self.all_knobs,
                    pin,
                    ..next
                }
            }
            StormAction::Reset => StormState {
                compare: self.compare,
                overlay: self.overlay,
                all_knobs: self.all_knobs,
                pin: self.pin.clone(),
                ..StormState::new(self.preset)
            },
            StormAction::Pin => {
                let mut next = StormState { compare: true, pin: Some(self.settings_query()), ..self.clone() };
                next.errors.clear(&PIN);
                next.errors.clear(&COMPARE);
                next.unknown = next.unknown.without_prefix("pin.");
                next
            }
            StormAction::Unpin => {
                // Side B had been there for the pin: it goes with it (compare mode had shown
                // the preset as shipped against A, which no one asked for).
                let mut next = StormState { pin: None, compare: false, ..self.clone() };
                next.errors.clear(&PIN);
                next.unknown = next.unknown.without_prefix("pin.");
                next
            }
            StormAction::AllKnobs(on) => {
                let mut next = StormState { all_knobs: on, ..self.clone() };
                next.errors.clear(&KNOBS);
                next
            }
            StormAction::Overlay(on) => {
                let mut next = StormState { overlay: on, ..self.clone() };
                next.errors.clear(&OVERLAY);
                next
            }
            StormAction::Compare(on) => {
                let mut next = StormState { compare: on, ..self.clone() };
                next.errors.clear(&COMPARE);
                next
            }
            StormAction::Moment(t) => {
                let mut next = self.clone();
                next.moment = t;
                next.errors.clear(&MOMENT);
                next
            }
            StormAction::Focus(h) => {
                let mut next = self.clone();
                next.focus = h;
                next.errors.clear(&FOCUS);
                next
            }
            StormAction::Request(raw) => {
                let mut next = self.clone();
                let text = raw.trim();
                if text.is_empty() {
                    next.request = None;
                    next.errors.clear(&REQUEST);
                    return next;
                }
                let range = crate::scenario::ranges::TRACE_REQUEST;
                match text.parse::<u64>() {
                    Ok(n) if range.accepts(n as f64) => {
                        next.request = Some(n);
                        next.errors.clear(&REQUEST);
                    }
                    _ => next.errors.set(REQUEST, raw.clone(), range.error(REQUEST.key, raw.trim())),
                }
                next
            }
            StormAction::NewSeed(seed) => {
                let mut next = self.clone();
                next.seed = seed;
                next.errors.clear(&SEED);
                next
            }
            StormAction::Seed(raw) => {
                let mut next = self.clone();
                match raw.trim().parse::<u64>() {
                    Ok(v) => {
                        next.seed = v;
                        next.errors.clear(&SEED);
                    }
                    Err(_) => next.errors.set(SEED, raw.clone(), seed_error(&raw)),
                }
                next
            }
            StormAction::Layers(n) => {
                let preset = self.baseline();
                self.reshape(LAYERS, n.to_string(), |s| shape::set_layers(s, n, &preset))
            }
            StormAction::Sides(layer, n) => {
                let preset = self.baseline();
                self.reshape(sides_key(layer), n.to_string(), |s| shape::set_sides(s, layer, n, &preset))
            }
            StormAction::Faults(n) => self.reshape(FAULTS, n.to_string(), |s| shape::set_faults(s, n)),
            StormAction::FaultTarget(i, name) => {
                let key = fault_target_key(i);
                let names = fault_targets(&self.a);
                if i >= self.a.faults.len() || matches!(self.a.faults[i].effect, FaultEffect::Surge { .. }) {
                    return self.clone(); // a surge has no target
                }
                if !names.contains(&name) {
                    let e = FieldError::new(
                        key.url_key(),
                        format!("{name:?}"),
                        Allowed::OneOf { choices: names },
                    );
                    return self.with_error(key, name, e);
                }
                self.apply(key, name.clone(), |s| s.faults[i].target = name)
            }
            StormAction::Type(key, raw) => {
                let Some(def) = self.number(key) else { return self.clone() };
                match def.knob.parse(&raw, &key.url_key()) {
                    Ok(v) => {
                        self.apply(key, raw, |s| (def.knob.set)(s, key.target, v)).retry_fault_window(key)
                    }
                    Err(e) => self.with_error(key, raw, e),
                }
            }
            StormAction::Slide(key, stop) => {
                let Some(def) = self.number(key) else { return self.clone() };
                let Some(v) = def.knob.value_at_stop(&self.a, key.target, stop) else { return self.clone() };
                self.apply(key, url_num(v), |s| (def.knob.set)(s, key.target, v)).retry_fault_window(key)
            }
            StormAction::Choose(key, value) => {
                let Some(def) = choice(key.key)
                    .filter(|d| d.applies.to(key.target) && (d.choice.get)(&self.a, key.target).is_some())
                else {
                    return self.clone();
                };
                match def.choice.check(&value, &key.url_key()) {
                    Ok(v) => self.apply(key, value, |s| (def.choice.set)(s, key.target, v)),
                    Err(e) => self.with_error(key, value, e),
                }
            }
        }
    }

    /// Its numeric settings on every target, for lessons to quote (see
    /// [`super::Setting`]): `rate`, `l1.attempts`, `leaf.workers`, `f1.end`, and the chain's
    /// shape, `layers`.
    pub fn lesson_settings(&self) -> Vec<super::Setting> {
        let mut out = vec![super::Setting {
            key: LAYERS.url_key(),
            value: self.a.layers.len() as f64,
            label: crate::i18n::T::KLayers,
            unit: crate::i18n::T::UnitLayers,
            owner: super::Owner::Page,
        }];
        for t in targets(&self.a) {
            for d in knobs::NUMBERS.iter().filter(|d| d.applies.to(t)) {
                if let Some(value) = (d.knob.get)(&self.a, t) {
                    let key = StormKey::on(d.knob.key, t).url_key();
                    let owner = match t {
                        Target::Fault(i) => super::Owner::Fault(i + 1),
                        t => match target_name(&self.a, t) {
                            // A setting of the whole run (the rate, the requests) has no hop.
                            name if name.is_empty() => super::Owner::Page,
                            name => super::Owner::Hop(name),
                        },
                    };
                    out.push(super::Setting { key, value, label: d.knob.label, unit: d.knob.unit, owner });
                }
            }
        }
        out
    }

    /// The numeric control `key` names, if it applies to the scenario as it is (a control
    /// the page does not show cannot be changed).
    fn number(&self, key: StormKey) -> Option<&'static NumberDef> {
        number(key.key).filter(|d| d.applies.to(key.target) && (d.knob.get)(&self.a, key.target).is_some())
    }

    /// A shape change: applied if the result is valid, else the error by the control. The
    /// errors of controls that are gone with the shape are dropped.
    fn reshape(&self, key: StormKey, raw: String, f: impl FnOnce(&mut Scenario)) -> StormState {
        let mut next = self.apply(key, raw, f);
        let live = targets(&next.a);
        next.errors.retain(|k| live.contains(&k.target));
        next
    }

    fn apply(&self, key: StormKey, raw: String, f: impl FnOnce(&mut Scenario)) -> StormState {
        let mut a = self.a.clone();
        f(&mut a);
        match validate(&a) {
            Ok(()) => {
                let mut next = StormState { a, ..self.clone() };
                next.errors.clear(&key);
                next
            }
            Err(mut e) => {
                // Keep the last valid scenario; tell the learner which rule broke.
                e.field = format!("{} ({})", key.url_key(), e.field);
                self.with_error(key, raw, e)
            }
        }
    }

    /// After a fault window's start or end moved: the other, refused before for lying on
    /// the wrong side of it, is tried again. Validation states the rule
    /// (`scenario::ranges::fault_end_ms`); without this a link's `f1.start` past the
    /// preset's end, given before its own `f1.end`, would stay refused, and a refusal typed
    /// earlier would stay on screen, stale.
    fn retry_fault_window(self, moved: StormKey) -> StormState {
        let other = match moved.key {
            "start" => "end",
            "end" => "start",
            _ => return self,
        };
        let other = StormKey::on(other, moved.target);
        match self.errors.get(&other) {
            Some((raw, _)) if self.errors.get(&moved).is_none() => {
                let raw = raw.clone();
                let tried = self.reduce(StormAction::Type(other, raw));
                // Refused again: keep the state as it was (one retry, no ping-pong).
                if tried.errors.get(&other).is_some() { self } else { tried }
            }
            _ => self,
        }
    }

    fn with_error(&self, key: StormKey, raw: String, e: FieldError) -> StormState {
        let mut next = self.clone();
        next.errors.set(key, raw, e);
        next
    }

    /// Reads the page from a URL query: `preset`, `seed`, `compare`, the shape (`layers`,
    /// `l1.sides`, `faults`), then every changed control (`l2.attempts=4`,
    /// `leaf.error=0.5`, `f1.end=9000`, ...). A value that is not accepted keeps the
    /// preset's value for that field only and is reported by the field; a key that names
    /// nothing is listed.
    pub fn from_query(q: &Query) -> StormState {
        let mut st = StormState::new(q.get("preset").unwrap_or(presets::DEFAULT));
        // Keys that name nothing, as met; listed once each at the end.
        let mut unknown: Vec<String> = Vec::new();
        if let Some(p) = q.get("preset")
            && presets::find(p).is_none()
        {
            let choices = presets::all().iter().map(|p| p.name.to_string()).collect();
            st.errors.set(
                PRESET,
                p.to_string(),
                FieldError::new("preset", format!("{p:?}"), Allowed::OneOf { choices }),
            );
        }
        if let Some(raw) = q.get("seed") {
            st = st.reduce(StormAction::Seed(raw.to_string()));
        }
        if let Some(raw) = q.get(REQUEST.key) {
            st = st.reduce(StormAction::Request(raw.to_string()));
        }
        if let Some(raw) = q.get(MOMENT.key) {
            let range = crate::scenario::ranges::MOMENT_MS;
            match crate::float::parse_f64(raw.trim()) {
                Some(t) if range.accepts(t) => st.moment = Some(t),
                _ => st.errors.set(MOMENT, raw.to_string(), range.error(MOMENT.key, raw.trim())),
            }
        }
        match q.get(KNOBS.key) {
            None | Some("lesson") => {}
            Some("all") => st.all_knobs = true,
            Some(other) => {
                let choices = ["lesson", "all"].map(String::from).to_vec();
                st.errors.set(
                    KNOBS,
                    other.to_string(),
                    FieldError::new(KNOBS.key, format!("{other:?}"), Allowed::OneOf { choices }),
                );
            }
        }
        for (key, flag) in [(COMPARE, &mut st.compare), (OVERLAY, &mut st.overlay)] {
            let Some(raw) = q.get(key.key) else { continue };
            match raw {
                "1" | "true" | "on" => *flag = true,
                "0" | "false" | "off" => *flag = false,
                other => {
                    let choices = ["0", "1"].map(String::from).to_vec();
                    st.errors.set(
                        key,
                        other.to_string(),
                        FieldError::new(key.key, format!("{other:?}"), Allowed::OneOf { choices }),
                    );
                }
            }
        }
        if let Some(raw) = q.get(PIN.key) {
            // Read as the page reads a link, from the same preset; what it refuses or does
            // not know is named under `pin.`, and the rest is kept.
            let b = pinned_state(st.preset, raw);
            if let Some((_, text, e)) = b.errors.iter().next() {
                let named = FieldError { field: format!("pin.{}", e.field), ..e.clone() };
                st.errors.set(PIN, text.clone(), named);
            }
            unknown.extend(b.unknown.iter().map(|k| format!("pin.{k}")));
            st.pin = Some(pin_text(&b, st.preset));
        }
        // The shape first: the controls then tune what it made.
        let count =
            |st: &mut StormState, key: StormKey, raw: &str, min: usize, max: usize| -> Option<usize> {
                match raw.trim().parse::<usize>() {
                    Ok(n) if (min..=max).contains(&n) => Some(n),
                    _ => {
                        let e = FieldError::new(
                            key.url_key(),
                            raw.trim(),
                            Allowed::integer(min as u64, max as u64),
                        );
                        st.errors.set(key, raw.to_string(), e);
                        None
                    }
                }
            };
        if let Some(raw) = q.get("layers")
            && let Some(n) = count(&mut st, LAYERS, raw, 1, MAX_LAYERS)
        {
            st = st.reduce(StormAction::Layers(n));
        }
        let mut rest: Vec<(&String, &String)> = Vec::new();
        for (k, v) in q.pairs() {
            match Target::parse_key(k) {
                Some((Target::Layer(i), "sides")) if i < st.a.layers.len() => {
                    if let Some(n) = count(&mut st, sides_key(i), v, 0, MAX_SIDE_DEPS) {
                        st = st.reduce(StormAction::Sides(i, n));
                    }
                }
                _ => rest.push((k, v)),
            }
        }
        if let Some(raw) = q.get("faults")
            && let Some(n) = count(&mut st, FAULTS, raw, 0, MOST_FAULT_WINDOWS)
        {
            st = st.reduce(StormAction::Faults(n));
        }
        // Choices next: they create the structures numbers then tune (a fault window's
        // target after its kind).
        let mut numbers = Vec::new();
        let mut fault_targets_asked = Vec::new();
        for (k, v) in rest {
            if PAGE_KEYS.contains(&k.as_str()) || crate::state::app::is_shell_key(k) {
                continue;
            }
            if let Some((Target::Fault(i), "target")) = Target::parse_key(k) {
                fault_targets_asked.push((i, k, v.clone()));
                continue;
            }
            let Some((target, key)) = Target::parse_key(k) else {
                unknown.push(k.clone());
                continue;
            };
            if let Some(def) = choice(key).filter(|d| d.applies.to(target))
                && (def.choice.get)(&st.a, target).is_some()
            {
                st = st.reduce(StormAction::Choose(StormKey::on(def.choice.key, target), v.clone()));
                continue;
            }
            match number(key).filter(|d| d.applies.to(target)) {
                Some(def) => numbers.push((def, target, k, v.clone())),
                None => unknown.push(k.clone()),
            }
        }
        for (i, k, v) in fault_targets_asked {
            if i < st.a.faults.len() {
                st = st.reduce(StormAction::FaultTarget(i, v));
            } else {
                unknown.push(k.clone());
            }
        }
        for (def, target, k, v) in numbers {
            if (def.knob.get)(&st.a, target).is_some() {
                st = st.reduce(StormAction::Type(StormKey::on(def.knob.key, target), v));
            } else {
                unknown.push(k.clone());
            }
        }
        if let Some(raw) = q.get(FOCUS.key) {
            // Within the scenario's hops (read last: after the shape's layers and side dependencies).
            let range = crate::scenario::ranges::FOCUS_HOP.to(st.hop_count().saturating_sub(1) as f64);
            match raw.trim().parse::<usize>() {
                Ok(h) if range.accepts(h as f64) => st.focus = Some(h),
                _ => st.errors.set(FOCUS, raw.to_string(), range.error(FOCUS.key, raw.trim())),
            }
        }
        // Each key once, in link order (a key given twice was listed twice).
        st.unknown =
            crate::state::lab::UnknownKeys::of(&unknown.iter().map(String::as_str).collect::<Vec<_>>());
        st
    }

    /// Writes the page into `q`: preset, seed, compare, a pinned side B, and side A's
    /// settings (see `write_settings`), each number written so that it reads back exactly.
    pub fn write_query(&self, q: &mut Query) {
        q.set("preset", self.preset);
        q.set("seed", self.seed.to_string());
        for (key, on) in [("compare", self.compare), ("overlay", self.overlay && self.compare)] {
            if on {
                q.set(key, "1");
            } else {
                q.remove(key);
            }
        }
        if self.all_knobs {
            q.set(KNOBS.key, "all");
        } else {
            q.remove(KNOBS.key);
        }
        match self.request {
            Some(n) => q.set(REQUEST.key, n.to_string()),
            None => q.remove(REQUEST.key),
        }
        match self.moment {
            Some(t) => q.set(MOMENT.key, url_num(t)),
            None => q.remove(MOMENT.key),
        }
        match self.focus {
            Some(h) => q.set(FOCUS.key, h.to_string()),
            None => q.remove(FOCUS.key),
        }
        match &self.pin {
            Some(p) => q.set(PIN.key, p.clone()),
            None => q.remove(PIN.key),
        }
        self.write_settings(q);
    }

    /// Writes side A's settings into `q`: the shape where it differs from the preset's, then
    /// every control whose value differs from what the link's reader would otherwise make of
    /// it (the preset, brought to the same shape, with the settings written before it).
    fn write_settings(&self, q: &mut Query) {
        let preset = self.baseline();
        let (now, was) = (Shape::of(&self.a), Shape::of(&preset));
        let mut mine = Query::new();
        if now.layers != was.layers {
            mine.set("layers", now.layers.to_string());
        }
        let after_layers =
            Shape { layers: now.layers, sides: Vec::new(), faults: preset.faults.len() }.apply(&preset);
        for (i, &n) in now.sides.iter().enumerate() {
            if after_layers.layers.get(i).map(|l| l.side_deps.len()) != Some(n) {
                mine.set(&sides_key(i).url_key(), n.to_string());
            }
        }
        // Removing a service removes its fault windows: compare with what is left.
        let after_sides = Shape { faults: usize::MAX, ..now.clone() }.apply(&preset);
        if now.faults != after_sides.faults.len() {
            mine.set("faults", now.faults.to_string());
        }
        // The rest is written as the link will be read (`from_query`): choices, then fault
        // targets, then numbers, each against what the reader has made of the link so far.
        // A setting is written where the reader would otherwise differ: a fault made a surge
        // takes the surge's own factor, so a factor equal to the old kind's is still written;
        // a queue a worker limit made unbounded is not.
        let mut shape = mine.clone();
        shape.set("preset", self.preset);
        let mut reader = StormState::from_query(&shape);
        let ts = targets(&self.a);
        for &t in &ts {
            for def in CHOICES.iter().filter(|d| d.applies.to(t)) {
                let now = (def.choice.get)(&self.a, t);
                if let Some(v) = now
                    && now != (def.choice.get)(&reader.a, t)
                {
                    mine.set(&t.url_key(def.choice.key), v);
                    reader =
                        reader.reduce(StormAction::Choose(StormKey::on(def.choice.key, t), v.to_string()));
                }
            }
        }
        for (i, f) in self.a.faults.iter().enumerate() {
            if reader.a.faults.get(i).is_none_or(|b| b.target != f.target) && !f.target.is_empty() {
                mine.set(&fault_target_key(i).url_key(), f.target.clone());
                reader = reader.reduce(StormAction::FaultTarget(i, f.target.clone()));
            }
        }
        for &t in &ts {
            for def in NUMBERS.iter().filter(|d| d.applies.to(t)) {
                let now = (def.knob.get)(&self.a, t);
                if let Some(v) = now
                    && now != (def.knob.get)(&reader.a, t)
                {
                    mine.set(&t.url_key(def.knob.key), url_num(v));
                    reader = reader.reduce(StormAction::Type(StormKey::on(def.knob.key, t), url_num(v)));
                }
            }
        }
        for (k, v) in mine.pairs() {
            q.set(k, v.clone());
        }
    }

    /// The query that rebuilds this page's scenarios (what a run request carries).
    pub fn run_query(&self) -> String {
        self.scenario_query(false)
    }

    /// The query an exported report names to run it again (`runs::report_link`): the
    /// run's, with the objective it is judged by, so that `lab run --link` gives the
    /// JSON's `slo` verdict the page gave.
    pub fn export_query(&self) -> String {
        self.scenario_query(true)
    }

    fn scenario_query(&self, with_slo: bool) -> String {
        let mut q = Query::new();
        self.write_query(&mut q);
        q.remove("overlay"); // how the charts are laid out is not part of the run
        if !with_slo {
            q.remove("slo"); // nor is the objective the run is judged by
        }
        q.remove(KNOBS.key); // nor which controls are shown
        q.remove(MOMENT.key); // nor where the playback is
        q.remove(FOCUS.key); // nor the hop picked out
        q.to_query_string()
    }
}

/// The page a pinned side B's settings make from `preset` (see [`StormState::pin`]).
fn pinned_state(preset: &str, pin: &str) -> StormState {
    let mut q = Query::parse(pin);
    // A pin kept through a change of side A's preset names the preset it was made on.
    let own = q.get("preset").map(str::to_string);
    // Its other page keys are not settings: a pin inside a pin, a seed.
    for k in PAGE_KEYS.iter().filter(|k| !matches!(**k, "layers" | "faults")) {
        q.remove(k);
    }
    q.set("preset", own.as_deref().unwrap_or(preset));
    StormState::from_query(&q)
}

/// A pin's text on a page whose side A starts from `page_preset`: the pinned settings,
/// led by the preset they were made on when that is another.
fn pin_text(pinned: &StormState, page_preset: &str) -> String {
    let settings = pinned.settings_query();
    match (pinned.preset == page_preset, settings.is_empty()) {
        (true, _) => settings,
        (false, true) => format!("preset={}", pinned.preset),
        (false, false) => format!("preset={}&{settings}", pinned.preset),
    }
}

fn seed_error(raw: &str) -> FieldError {
    FieldError::new("seed", raw.trim(), Allowed::integer(0, u64::MAX))
}

#[cfg(test)]
mod tests;

//! The stability page's state (`?page=stability`): the sweep it shows, as its link writes it
//! (`preset`, `seed`, `x=KNOB=A..B/N`, `y=…`, `protect`), and what the link got wrong.

use super::{Axis, DEFAULT_PRESET, HystRun, Protection, Sweep};
use crate::error::{Allowed, FieldError, clip};
use crate::query::Query;
use crate::scenario::presets;
use crate::state::runs::Job;
use crate::state::{FieldKey, FormErrors};

/// The knobs an axis offers in the page's menu (any storm key works in a link).
pub const AXIS_KEYS: [&str; 7] =
    ["utilisation", "trigger_ms", "f1.factor", "l1.attempts", "l1.per_try", "l1.budget_ratio", "rate"];

/// Presets a map can start from: those with a limited pool and a fault window to trigger.
pub fn presets_with_trigger() -> Vec<&'static str> {
    presets::all()
        .iter()
        .filter(|p| {
            let s = (p.build)();
            super::capacity(&s).is_some()
                && !s.faults.is_empty()
                && !matches!(s.load, crate::scenario::Load::Batch { .. })
        })
        .map(|p| p.name)
        .collect()
}

/// The page's state.
#[derive(Clone, Debug, PartialEq)]
pub struct StabilityState {
    /// The last valid sweep.
    pub sweep: Sweep,
    /// Fields whose text was not accepted.
    pub errors: FormErrors,
    /// Link keys the page does not read.
    pub unknown: crate::state::lab::UnknownKeys,
    /// The cell "Open a cell's run" points at: column and row, from 0 (kept in the link as
    /// `col` and `row`, from 1, so that Back from the run finds it again).
    pub cell: [u16; 2],
}

/// What the learner did.
#[derive(Clone, Debug, PartialEq)]
pub enum StabilityAction {
    Preset(String),
    /// An axis (`x` or `y`) as `KNOB=A..B/N`.
    Axis(&'static str, String),
    /// The knob an axis sweeps was picked (`x` or `y`, the knob's key): the axis starts
    /// from that knob's own range ([`Axis::default_for`]).
    AxisKnob(&'static str, String),
    Protect(String),
    Seed(String),
    /// The column (`col`) or row (`row`) to open, from 1, as written.
    Cell(&'static str, String),
    Reset,
}

/// The link keys of [`StabilityState::cell`], column then row.
const CELL_KEYS: [&str; 2] = ["col", "row"];

impl Default for StabilityState {
    fn default() -> Self {
        StabilityState {
            sweep: Sweep::default_for(DEFAULT_PRESET),
            errors: FormErrors::default(),
            unknown: Default::default(),
            cell: [0, 0],
        }
    }
}

impl StabilityState {
    /// Applies an action; a value not accepted keeps the last valid one and names the field.
    pub fn reduce(&self, action: StabilityAction) -> StabilityState {
        let mut next = self.clone();
        match action {
            StabilityAction::Reset => return StabilityState::default(),
            StabilityAction::Preset(name) => {
                let list = presets_with_trigger();
                match list.iter().find(|p| **p == name.trim()) {
                    Some(p) => {
                        next.sweep = Sweep { preset: p, ..Sweep::default_for(p) };
                        next.errors.clear(&FieldKey::plain("preset"));
                    }
                    None => next.errors.set(
                        FieldKey::plain("preset"),
                        name.clone(),
                        FieldError::new(
                            "preset",
                            clip(&name),
                            Allowed::OneOf { choices: list.iter().map(|s| s.to_string()).collect() },
                        ),
                    ),
                }
            }
            StabilityAction::AxisKnob(field, key) => {
                // Another knob picked: its own starting range, not the last knob's numbers.
                let now = if field == "x" { &self.sweep.x } else { &self.sweep.y };
                let axis = Axis::default_for(&key).filter(|_| key != now.key);
                let text = axis.unwrap_or_else(|| Axis { key, ..now.clone() }).text();
                return self.reduce(StabilityAction::Axis(field, text));
            }
            StabilityAction::Axis(field, text) => {
                let key = FieldKey::plain(field);
                let parsed = Axis::parse(field, &text).and_then(|a| {
                    let mut s = next.sweep.clone();
                    if field == "x" {
                        s.x = a
                    } else {
                        s.y = a
                    }
                    s.axes_differ(field)?;
                    s.check().map(|()| s)
                });
                match parsed {
                    Ok(s) => {
                        next.sweep = s;
                        next.errors.clear(&key);
                    }
                    Err(e) => next.errors.set(key, text, e),
                }
            }
            StabilityAction::Protect(v) => match Protection::parse(v.trim()) {
                Some(p) => {
                    next.sweep.protect = p;
                    next.errors.clear(&FieldKey::plain("protect"));
                }
                None => {
                    let choices = Protection::ALL.iter().map(|p| p.slug().to_string()).collect();
                    next.errors.set(
                        FieldKey::plain("protect"),
                        v.clone(),
                        FieldError::new("protect", clip(&v), Allowed::OneOf { choices }),
                    );
                }
            },
            StabilityAction::Cell(field, v) => {
                let k = usize::from(field == CELL_KEYS[1]);
                let n = if k == 0 { next.sweep.x.n } else { next.sweep.y.n };
                match v.trim().parse::<u16>() {
                    Ok(i) if (1..=n).contains(&i) => {
                        next.cell[k] = i - 1;
                        next.errors.clear(&FieldKey::plain(field));
                    }
                    _ => next.errors.set(
                        FieldKey::plain(field),
                        v.clone(),
                        FieldError::new(field, clip(&v), Allowed::integer(1, u64::from(n))),
                    ),
                }
            }
            StabilityAction::Seed(v) => match v.trim().parse::<u64>() {
                Ok(seed) => {
                    next.sweep.seed = seed;
                    next.errors.clear(&FieldKey::plain("seed"));
                }
                Err(_) => next.errors.set(
                    FieldKey::plain("seed"),
                    v.clone(),
                    FieldError::new("seed", clip(&v), Allowed::integer(0, u64::MAX)),
                ),
            },
        }
        // A smaller grid keeps the cell inside it.
        next.cell = [
            next.cell[0].min(next.sweep.x.n.saturating_sub(1)),
            next.cell[1].min(next.sweep.y.n.saturating_sub(1)),
        ];
        next
    }

    /// Reads the page's keys from a link.
    pub fn from_query(q: &Query) -> StabilityState {
        let mut st = StabilityState::default();
        if let Some(p) = q.get("preset") {
            st = st.reduce(StabilityAction::Preset(p.to_string()));
        }
        if let Some(s) = q.get("seed") {
            st = st.reduce(StabilityAction::Seed(s.to_string()));
        }
        // Both axes at once where both are good: one at a time would refuse a link that
        // swaps them (x=trigger_ms&y=utilisation) as the same knob on both for a moment.
        let both = match (q.get("x"), q.get("y")) {
            (Some(x), Some(y)) => {
                Axis::parse("x", x).ok().zip(Axis::parse("y", y).ok()).and_then(|(x, y)| {
                    let s = Sweep { x, y, ..st.sweep.clone() };
                    s.check().is_ok().then_some(s)
                })
            }
            _ => None,
        };
        match both {
            Some(s) => st.sweep = s,
            None => {
                for field in ["x", "y"] {
                    if let Some(v) = q.get(field) {
                        st = st.reduce(StabilityAction::Axis(field, v.to_string()));
                    }
                }
            }
        }
        if let Some(v) = q.get("protect") {
            st = st.reduce(StabilityAction::Protect(v.to_string()));
        }
        for field in CELL_KEYS {
            if let Some(v) = q.get(field) {
                st = st.reduce(StabilityAction::Cell(field, v.to_string()));
            }
        }
        st.unknown = crate::state::lab::unknown_keys(q, |k| {
            crate::state::app::is_shell_key(k)
                || ["preset", "seed", "x", "y", "protect"].contains(&k)
                || CELL_KEYS.contains(&k)
        });
        st
    }

    /// Writes what differs from the default map.
    pub fn write_query(&self, q: &mut Query) {
        let s = &self.sweep;
        let d = Sweep::default_for(s.preset);
        if s.preset != DEFAULT_PRESET {
            q.set("preset", s.preset);
        }
        if s.seed != d.seed {
            q.set("seed", s.seed.to_string());
        }
        if s.x != d.x {
            q.set("x", s.x.text());
        }
        if s.y != d.y {
            q.set("y", s.y.text());
        }
        if s.protect != Protection::None {
            q.set("protect", s.protect.slug());
        }
        for (field, &i) in CELL_KEYS.iter().zip(&self.cell) {
            if i > 0 {
                q.set(field, (i + 1).to_string());
            }
        }
    }

    /// The query that rebuilds this sweep in a worker.
    pub fn run_query(&self) -> String {
        self.run_query_with(self.sweep.protect)
    }

    /// [`run_query`](Self::run_query) with no protection: what the map's plain cells depend
    /// on (a protection changed leaves them as they are, and only the overlay is run).
    pub fn plain_run_query(&self) -> String {
        self.run_query_with(Protection::None)
    }

    fn run_query_with(&self, protect: Protection) -> String {
        let mut q = Query::new();
        let s = &self.sweep;
        q.set("preset", s.preset);
        q.set("seed", s.seed.to_string());
        q.set("x", s.x.text());
        q.set("y", s.y.text());
        q.set("protect", protect.slug());
        q.to_query_string()
    }

    /// What the hysteresis runs read: the preset and seed, and the protection only for its
    /// own run, so moving an axis or the protection does not run the others again.
    pub fn hysteresis_jobs(&self) -> Vec<Job> {
        let s = &self.sweep;
        let query = |protect: Protection| {
            let mut q = Query::new();
            q.set("preset", s.preset);
            q.set("seed", s.seed.to_string());
            q.set("protect", protect.slug());
            q.to_query_string()
        };
        let mut jobs = vec![
            Job::Hysteresis { query: query(Protection::None), run: HystRun::Plain },
            Job::Hysteresis { query: query(Protection::None), run: HystRun::NoRetry },
        ];
        if s.protect != Protection::None {
            jobs.push(Job::Hysteresis { query: query(s.protect), run: HystRun::Protected });
        }
        jobs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_link_round_trips() {
        let q = Query::parse("?page=stability&x=utilisation%3D0.2..0.9%2F8&protect=budget&seed=4");
        let st = StabilityState::from_query(&q);
        assert!(st.errors.is_empty() && st.unknown.is_empty(), "{st:?}");
        assert_eq!((st.sweep.x.n, st.sweep.protect, st.sweep.seed), (8, Protection::Budget, 4));
        let mut out = Query::new();
        st.write_query(&mut out);
        assert_eq!(StabilityState::from_query(&out).sweep, st.sweep);
        assert_eq!(StabilityState::from_query(&Query::parse(&st.run_query())).sweep, st.sweep);
        let mut d = Query::new();
        StabilityState::default().write_query(&mut d);
        assert!(d.pairs().is_empty(), "the default map writes nothing");
    }

    #[test]
    fn bad_values_keep_the_last_good_one_and_name_the_field() {
        let st = StabilityState::from_query(&Query::parse(
            "?x=nonsense%3D1..2%2F3&protect=helmet&seed=-1&preset=chain-3x3&wat=1",
        ));
        let fields: Vec<&str> = st.errors.iter().map(|(k, _, _)| k.key).collect();
        assert_eq!(fields, ["preset", "seed", "x", "protect"]);
        assert_eq!(st.sweep, Sweep::default_for(DEFAULT_PRESET));
        assert_eq!(st.unknown[..], ["wat"]);
    }

    #[test]
    fn the_metastable_preset_can_be_mapped() {
        assert!(presets_with_trigger().contains(&DEFAULT_PRESET));
        assert!(!presets_with_trigger().contains(&"lab11-unprotected"), "a batch has no load to sweep");
    }
}

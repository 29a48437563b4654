//! Page state and reducers, free of browser code so they are tested natively.
//!
//! The Yew components in `ui/` hold these in `use_reducer` and only display them.

pub mod admission;
pub mod announce;
pub mod app;
pub mod breaker;
pub mod calculator;
pub mod lab;
pub mod lesson;
pub mod queue;
pub mod runs;
pub mod stability;
pub mod storm;

use crate::error::FieldError;
use crate::query::Query;

/// A page's setting as a lesson quotes it (`{set-<key>}`): its link key (`l1.attempts`,
/// `workers`, `attempts.2` for item 2 of a per-item knob), value, label and unit.
#[derive(Clone, Debug, PartialEq)]
pub struct Setting {
    pub key: String,
    pub value: f64,
    pub label: crate::i18n::T,
    pub unit: crate::i18n::T,
    /// Whose setting it is, where a page has several.
    pub owner: Owner,
}

/// Whose setting it is, which its label names before its own words.
#[derive(Clone, Debug, PartialEq)]
pub enum Owner {
    /// The page's own (one of it).
    Page,
    /// A storm hop's, by name.
    Hop(String),
    /// Fault window `n` (from 1).
    Fault(usize),
    /// Phase `n` of the breaker lab's timeline (from 1).
    Phase(usize),
    /// Row `n` of a per-row knob whose label says the row itself (`Attempts at layer {n}`).
    Row(usize),
}

impl Setting {
    /// Its label with its owner, as a lesson card lists it: `server · Workers`, `fault 1 ·
    /// Start`, `Phase 2 · Length`, `Attempts at layer 1`.
    pub fn label_text(&self, lang: crate::i18n::Lang) -> String {
        use crate::i18n::T;
        let label = lang.t(self.label);
        let owner = match &self.owner {
            Owner::Page => return label.to_string(),
            Owner::Row(n) => return lang.f(self.label, &[("n", &n.to_string())]),
            Owner::Hop(name) => lang.service(name).into_owned(),
            Owner::Fault(n) => lang.f(T::FaultShort, &[("n", &n.to_string())]),
            Owner::Phase(n) => lang.f(T::BlPhase, &[("n", &n.to_string())]),
        };
        format!("{owner} · {label}")
    }
}

/// The settings of single-valued knobs over `input`.
pub fn knob_settings<S>(knobs: &[&crate::knob::Knob<S>], input: &S) -> Vec<Setting> {
    knobs
        .iter()
        .filter_map(|k| {
            (k.get)(input, 0).map(|value| Setting {
                key: k.key.to_string(),
                value,
                label: k.label,
                unit: k.unit,
                owner: Owner::Page,
            })
        })
        .collect()
}

/// Names one input field: a knob key, and an index for per-item knobs (attempts of
/// layer `i`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FieldKey {
    /// The knob's key.
    pub key: &'static str,
    /// The item, for per-item knobs.
    pub index: Option<usize>,
}

impl FieldKey {
    /// A knob with one value.
    pub const fn plain(key: &'static str) -> Self {
        FieldKey { key, index: None }
    }
    /// Item `index` of a per-item knob.
    pub const fn at(key: &'static str, index: usize) -> Self {
        FieldKey { key, index: Some(index) }
    }
    /// The name in error messages: the key, with the item for per-item knobs
    /// (`attempts #2` for index 1, as the page counts rows).
    pub fn field(&self) -> String {
        match self.index {
            Some(i) => crate::error::item_field(self.key, i),
            None => self.key.to_string(),
        }
    }

    /// The DOM id of the number field (the slider's is this plus `-slider`).
    pub fn dom_id(&self) -> String {
        match self.index {
            Some(i) => format!("f-{}-{}", self.key, i),
            None => format!("f-{}", self.key),
        }
    }
}

/// Fields whose text is not accepted: the text as typed and the error to show beside it,
/// by the page's field key type `K`.
#[derive(Clone, Debug, PartialEq)]
pub struct FormErrors<K = FieldKey> {
    items: Vec<(K, String, FieldError)>,
}

impl<K> Default for FormErrors<K> {
    fn default() -> Self {
        FormErrors { items: Vec::new() }
    }
}

impl<K: PartialEq> FormErrors<K> {
    /// Records (or replaces) the error of a field.
    pub fn set(&mut self, key: K, raw: String, err: FieldError) {
        self.clear(&key);
        self.items.push((key, raw, err));
    }
    /// Forgets the error of a field.
    pub fn clear(&mut self, key: &K) {
        self.items.retain(|(k, _, _)| k != key);
    }
    /// Keeps only the errors whose key passes `keep`.
    pub fn retain(&mut self, mut keep: impl FnMut(&K) -> bool) {
        self.items.retain(|(k, _, _)| keep(k));
    }
    /// The text and error of a field, if it has one.
    pub fn get(&self, key: &K) -> Option<(&String, &FieldError)> {
        self.items.iter().find(|(k, _, _)| k == key).map(|(_, raw, e)| (raw, e))
    }
    /// Whether no field has an error.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
    /// Every error, in the order they were found.
    pub fn iter(&self) -> impl Iterator<Item = (&K, &String, &FieldError)> {
        self.items.iter().map(|(k, r, e)| (k, r, e))
    }
}

/// Whether a lab's state departs from its preset: its link (`write` is the page's
/// `write_query`, the one statement of what differs) holds anything beyond `preset=`. The
/// preset's story describes the preset as loaded, so the page says when it no longer does.
pub fn departs_from_preset(write: impl FnOnce(&mut Query)) -> bool {
    let mut q = Query::new();
    write(&mut q);
    // Where a lab's playback was paused (`at`) and where its settings came from (`from`)
    // are not settings.
    q.pairs().iter().any(|(k, _)| k != "preset" && k != lab::AT && k != lab::FROM)
}

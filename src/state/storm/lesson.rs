//! The lesson view of the control panel: the few controls a preset's lesson turns
//! (`Preset::knobs`), plus any control already moved away from the preset, so that a link
//! never hides what it changed. Every other control is one click away ("all knobs").

use super::{CHOICES, ChoiceDef, NUMBERS, NumberDef, StormKey, StormState, Target, targets};
use crate::scenario::presets;

/// One control of the lesson view.
#[derive(Clone, Copy)]
pub enum LessonControl {
    /// The layers stepper.
    Layers,
    Number(&'static NumberDef, Target),
    Choice(&'static ChoiceDef, Target),
}

impl LessonControl {
    /// The control's URL key (`layers`, `l1.attempts`).
    pub fn url_key(self) -> String {
        match self {
            LessonControl::Layers => "layers".to_string(),
            LessonControl::Number(d, t) => t.url_key(d.knob.key),
            LessonControl::Choice(d, t) => t.url_key(d.choice.key),
        }
    }
}

/// The control a URL key names on the current scenario, if it shows there (a knob whose
/// mechanism is off still shows: its control turns it on).
pub fn resolve(st: &StormState, url_key: &str) -> Option<LessonControl> {
    if url_key == "layers" {
        return Some(LessonControl::Layers);
    }
    let (t, key) = Target::parse_key(url_key)?;
    if !targets(&st.a).contains(&t) {
        return None;
    }
    if let Some(d) = NUMBERS.iter().find(|d| d.knob.key == key && d.applies.to(t)) {
        return (d.knob.get)(&st.a, t).is_some().then_some(LessonControl::Number(d, t));
    }
    let d = CHOICES.iter().find(|d| d.choice.key == key && d.applies.to(t))?;
    (d.choice.get)(&st.a, t).is_some().then_some(LessonControl::Choice(d, t))
}

/// The lesson view's controls, in the preset's order, then those the learner (or a link)
/// changed or gave a value they refused (so its error shows); empty when the preset names
/// none.
pub fn lesson_controls(st: &StormState) -> Vec<LessonControl> {
    let Some(p) = presets::find(st.preset) else { return Vec::new() };
    if p.knobs.is_empty() {
        return Vec::new();
    }
    // A refused shape (`layers`, `faults`, a side count, a fault's target) is shown where
    // the full panel shows it: the lesson view steps aside.
    let page_level = [super::PRESET, super::SEED, super::COMPARE, super::OVERLAY, super::KNOBS];
    let shown_anyway = |k: &StormKey| {
        page_level.contains(k)
            || NUMBERS.iter().any(|d| d.knob.key == k.key)
            || CHOICES.iter().any(|d| d.choice.key == k.key)
            || (k.key == "layers" && p.knobs.contains(&"layers"))
    };
    let shape_error = st.errors.iter().any(|(k, _, _)| !shown_anyway(k));
    // So is a shape a link changed (side dependencies, fault windows and their targets,
    // layers unless the lesson turns them): the link says what differs, once.
    let mut q = crate::query::Query::new();
    st.write_query(&mut q);
    let reshaped = q.keys().any(|k| {
        k == "faults"
            || (k == "layers" && !p.knobs.contains(&"layers"))
            || k.ends_with(".sides")
            || k.ends_with(".target")
    });
    if shape_error || reshaped {
        return Vec::new();
    }
    let mut out: Vec<LessonControl> = p.knobs.iter().filter_map(|k| resolve(st, k)).collect();
    let base = st.shaped_baseline();
    let mut seen: Vec<String> = out.iter().map(|c| c.url_key()).collect();
    for t in targets(&st.a) {
        for d in NUMBERS.iter().filter(|d| d.applies.to(t)) {
            let now = (d.knob.get)(&st.a, t);
            let refused = st.errors.get(&StormKey::on(d.knob.key, t)).is_some();
            let changed = now.is_some() && now != (d.knob.get)(&base, t);
            if (changed || refused) && !seen.contains(&t.url_key(d.knob.key)) {
                seen.push(t.url_key(d.knob.key));
                out.push(LessonControl::Number(d, t));
            }
        }
        for d in CHOICES.iter().filter(|d| d.applies.to(t)) {
            let now = (d.choice.get)(&st.a, t);
            let refused = st.errors.get(&StormKey::on(d.choice.key, t)).is_some();
            let changed = now.is_some() && now != (d.choice.get)(&base, t);
            if (changed || refused) && !seen.contains(&t.url_key(d.choice.key)) {
                seen.push(t.url_key(d.choice.key));
                out.push(LessonControl::Choice(d, t));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::Query;
    use crate::state::storm::StormAction;

    #[test]
    fn every_preset_names_controls_that_exist_on_it() {
        for p in presets::all() {
            let st = StormState::new(p.name);
            assert!(!p.knobs.is_empty() && p.knobs.len() <= 6, "{}: 1 to 6 lesson knobs", p.name);
            for k in p.knobs {
                assert!(resolve(&st, k).is_some(), "{}: lesson knob {k} names no control", p.name);
            }
            assert_eq!(lesson_controls(&st).len(), p.knobs.len(), "{}: nothing changed yet", p.name);
        }
    }

    #[test]
    fn a_changed_control_joins_the_lesson_view() {
        let st = StormState::new("chain-3x3");
        let key = StormKey::on("ms", Target::Leaf);
        let st = st.reduce(StormAction::Type(key, "55".into()));
        let keys: Vec<String> = lesson_controls(&st).iter().map(|c| c.url_key()).collect();
        assert_eq!(keys.last().map(String::as_str), Some("leaf.ms"), "{keys:?}");
    }

    #[test]
    fn a_refused_shape_shows_the_full_panel() {
        let st = StormState::from_query(&Query::parse("?preset=chain-3x3&faults=1,2"));
        assert!(!st.errors.is_empty());
        assert!(lesson_controls(&st).is_empty());
    }

    #[test]
    fn a_changed_shape_shows_the_full_panel() {
        for link in
            ["?preset=chain-3x3&faults=1", "?preset=big-promo&layers=4", "?preset=big-promo&l1.sides=1"]
        {
            let st = StormState::from_query(&Query::parse(link));
            assert!(st.errors.is_empty(), "{link}: {:?}", st.errors);
            assert!(lesson_controls(&st).is_empty(), "{link}");
        }
        let st = StormState::from_query(&Query::parse("?preset=chain-3x3&layers=5"));
        assert!(!lesson_controls(&st).is_empty(), "chain-3x3's lesson turns the layers");
    }

    #[test]
    fn a_refused_value_shows_with_its_error() {
        let st = StormState::from_query(&Query::parse("?preset=chain-3x3&leaf.ms=-4"));
        let keys: Vec<String> = lesson_controls(&st).iter().map(|c| c.url_key()).collect();
        assert!(keys.contains(&"leaf.ms".to_string()), "{keys:?}");
    }
}

//! A scenario file as a retry-storm page link (`lab link --scenario FILE`): the page's own
//! writer and reader decide it, so the link says exactly what the page would run, and what
//! the page cannot say (a field with no control: services' names, `honor_retry_after`, …)
//! is named rather than silently dropped.

use super::StormState;
use crate::query::Query;
use crate::scenario::{Scenario, presets};

/// A page link for a scenario, and the fields of the scenario it does not carry.
#[derive(Clone, Debug, PartialEq)]
pub struct FileLink {
    /// `?page=storm&preset=…&seed=…&…`.
    pub query: String,
    /// The preset the link starts from.
    pub preset: &'static str,
    /// The scenario's fields the page would run differently, as JSON paths
    /// (`layers[0].name`), with the file's value and the page's: empty when the link is
    /// exact. The scenario's own `name` is not among them: the page names its run by its
    /// preset.
    pub lost: Vec<Lost>,
}

/// One field of a scenario file that a page link does not carry.
#[derive(Clone, Debug, PartialEq)]
pub struct Lost {
    pub path: String,
    pub file: String,
    pub page: String,
}

/// The link, over every preset (or only `preset`), that loses the fewest fields, the
/// shortest of those: a file made from a preset (`lab show`) and edited within the page's
/// controls comes back exactly.
pub fn link_for(s: &Scenario, preset: Option<&str>) -> FileLink {
    let mut best: Option<FileLink> = None;
    for p in presets::all().iter().filter(|p| preset.is_none_or(|name| name == p.name)) {
        let st = StormState { a: s.clone(), seed: s.seed, ..StormState::new(p.name) };
        let mut q = Query::new();
        q.set("page", "storm");
        st.write_query(&mut q);
        let read = StormState::from_query(&q);
        let lost = differences(s, &Scenario { name: s.name.clone(), seed: read.seed, ..read.a });
        let candidate = FileLink { query: q.to_query_string(), preset: p.name, lost };
        let better = best
            .as_ref()
            .is_none_or(|b| (candidate.lost.len(), candidate.query.len()) < (b.lost.len(), b.query.len()));
        if better {
            best = Some(candidate);
        }
    }
    best.unwrap_or_else(|| FileLink { query: String::new(), preset: presets::DEFAULT, lost: Vec::new() })
}

/// The leaves where two scenarios' JSON differ (an array of another length is one).
fn differences(file: &Scenario, page: &Scenario) -> Vec<Lost> {
    let (a, b) =
        (serde_json::to_value(file).unwrap_or_default(), serde_json::to_value(page).unwrap_or_default());
    let mut out = Vec::new();
    walk(&a, &b, String::new(), &mut out);
    out
}

fn walk(a: &serde_json::Value, b: &serde_json::Value, path: String, out: &mut Vec<Lost>) {
    use serde_json::Value::{Array, Object};
    match (a, b) {
        (Object(x), Object(y)) => {
            for k in x.keys().chain(y.keys().filter(|k| !x.contains_key(*k))) {
                let null = serde_json::Value::Null;
                let p = if path.is_empty() { k.clone() } else { format!("{path}.{k}") };
                walk(x.get(k).unwrap_or(&null), y.get(k).unwrap_or(&null), p, out);
            }
        }
        (Array(x), Array(y)) if x.len() == y.len() => {
            for (i, (u, v)) in x.iter().zip(y).enumerate() {
                walk(u, v, format!("{path}[{i}]"), out);
            }
        }
        _ if a != b => out.push(Lost { path, file: a.to_string(), page: b.to_string() }),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_preset_edited_within_the_controls_comes_back_exactly() {
        let mut s = presets::chain_3x3();
        s.layers[1].client.retry.max_attempts = 5;
        s.leaf.server.workers = Some(40);
        s.seed = 9;
        let l = link_for(&s, None);
        assert!(l.lost.is_empty(), "{:?}", l.lost);
        assert_eq!(l.preset, "chain-3x3");
        let read = StormState::from_query(&Query::parse(&l.query));
        assert_eq!((read.a.layers[1].client.retry.max_attempts, read.seed), (5, 9), "{}", l.query);
        assert!(read.errors.is_empty() && read.unknown.is_empty());
    }

    #[test]
    fn what_the_page_cannot_say_is_named() {
        let mut s = presets::chain_3x3();
        s.layers[0].name = "gateway".into();
        s.layers[0].client.retry.honor_retry_after = false;
        let l = link_for(&s, Some("chain-3x3"));
        let paths: Vec<&str> = l.lost.iter().map(|x| x.path.as_str()).collect();
        assert_eq!(paths, ["layers[0].client.retry.honor_retry_after", "layers[0].name"], "{:?}", l.lost);
        assert_eq!((l.lost[1].file.as_str(), l.lost[1].page.as_str()), ("\"gateway\"", "\"client\""));
    }
}

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

/// The link, over every preset (or only `preset`), that loses the fewest fields; of those,
/// the one from the preset the file is named after (`lab show` names it so), else the
/// shortest: a file made from a preset and edited within the page's controls comes back
/// exactly, and one whose services were renamed keeps its preset's chain. The link always
/// opens without an error: a value the page would refuse (a ninth fault window, a rate below
/// a control's range) is left out and listed as lost.
pub fn link_for(s: &Scenario, preset: Option<&str>) -> FileLink {
    let mut best: Option<FileLink> = None;
    for p in presets::all().iter().filter(|p| preset.is_none_or(|name| name == p.name)) {
        let (query, read) = page_link(s, p.name);
        let lost = differences(s, &Scenario { name: s.name.clone(), seed: read.seed, ..read.a });
        let candidate = FileLink { query, preset: p.name, lost };
        let rank = |l: &FileLink| (l.lost.len(), l.preset != s.name, l.query.len());
        let better = best.as_ref().is_none_or(|b| rank(&candidate) < rank(b));
        if better {
            best = Some(candidate);
        }
    }
    best.unwrap_or_else(|| FileLink { query: String::new(), preset: presets::DEFAULT, lost: Vec::new() })
}

/// The link from `preset` for `s`, and the page it opens.
fn page_link(s: &Scenario, preset: &'static str) -> (String, StormState) {
    let write = |s: &Scenario| {
        let st = StormState { a: s.clone(), seed: s.seed, ..StormState::new(preset) };
        let mut q = Query::new();
        q.set("page", "storm");
        st.write_query(&mut q);
        q
    };
    // The page names its services by the preset's, position for position: a file's own names
    // are lost, and its fault windows follow their service to the page's name for it.
    let shaped = StormState::from_query(&write(s)).a;
    let mut named = s.clone();
    rename(&mut named, &shaped.hop_names());
    let mut q = write(&named);
    // Whatever the page refuses or does not read is left out (each pass drops at least one
    // key, so this ends).
    loop {
        let read = StormState::from_query(&q);
        let refused: Vec<String> =
            read.errors.iter().map(|(k, _, _)| k.url_key()).chain(read.unknown.iter().cloned()).collect();
        if refused.is_empty() || !refused.iter().any(|k| q.get(k).is_some()) {
            return (q.to_query_string(), read);
        }
        for k in &refused {
            q.remove(k);
        }
    }
}

/// Gives the services of `s` the names `names` (in `Scenario::hop_names`' order), and
/// points its fault windows at the renamed services.
fn rename(s: &mut Scenario, names: &[String]) {
    let old = s.hop_names();
    if old.len() != names.len() {
        return;
    }
    let mut it = names.iter().cloned();
    for l in &mut s.layers {
        l.name = it.next().unwrap_or_default();
    }
    s.leaf.name = it.next().unwrap_or_default();
    for l in &mut s.layers {
        for d in &mut l.side_deps {
            d.target.name = it.next().unwrap_or_default();
        }
    }
    for f in &mut s.faults {
        if let Some(i) = old.iter().position(|n| *n == f.target) {
            f.target = names[i].clone();
        }
    }
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
    fn a_link_always_opens_and_faults_follow_their_renamed_service() {
        // bulkhead-shared-vs-isolated's window slows recommendations; renamed "recs" in the
        // file, the link points the window at the page's recommendations.
        let mut s = (presets::find("bulkhead-shared-vs-isolated").unwrap().build)();
        s.layers[0].side_deps[0].target.name = "recs".into();
        s.faults[0].target = "recs".into();
        // Nine windows: the page has eight at most; the ninth is lost, not refused.
        let w = s.faults[0].clone();
        s.faults = vec![w; 9];
        let l = link_for(&s, Some("bulkhead-shared-vs-isolated"));
        let read = StormState::from_query(&Query::parse(&l.query));
        assert!(
            read.errors.is_empty() && read.unknown.is_empty(),
            "{}: {:?} {:?}",
            l.query,
            read.errors,
            read.unknown
        );
        assert!(!l.query.contains("recs"), "{}", l.query);
        let paths: Vec<&str> = l.lost.iter().map(|x| x.path.as_str()).collect();
        assert!(
            paths.contains(&"faults") && paths.contains(&"layers[0].side_deps[0].target.name"),
            "{paths:?}"
        );
    }

    #[test]
    fn a_renamed_file_keeps_the_preset_it_is_named_after() {
        let mut s = presets::chain_3x3();
        for (l, n) in s.layers.iter_mut().zip(["入口网关", "订单服务", "推荐"]) {
            l.name = n.into();
        }
        s.leaf.name = "支付".into();
        s.faults.iter_mut().for_each(|f| f.target = "支付".into());
        assert_eq!(link_for(&s, None).preset, "chain-3x3");
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

//! What a control of the retry-storm page applies to — the whole run, a layer, the leaf, a
//! side dependency or a fault window — its URL prefix, and typed access to that part of a
//! scenario.

use crate::scenario::*;

/// What a control applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Target {
    /// The whole run (load, cancellation).
    Run,
    /// Layer `i` (its server and its client towards the next hop).
    Layer(usize),
    /// The leaf service.
    Leaf,
    /// Side dependency `i`, counting across layers in order (its target and client).
    Side(usize),
    /// Fault window `i`.
    Fault(usize),
}

/// Most items a URL prefix may number (`l99.` is the most): larger numbers are not ours.
const MOST_ITEMS: usize = 99;

impl Target {
    /// The URL prefix: `l1.`, `s1.`, `leaf.`, `f1.` (1-based), or nothing for the run.
    pub fn prefix(self) -> String {
        match self {
            Target::Run => String::new(),
            Target::Layer(i) => format!("l{}.", i + 1),
            Target::Side(i) => format!("s{}.", i + 1),
            Target::Leaf => "leaf.".into(),
            Target::Fault(i) => format!("f{}.", i + 1),
        }
    }

    /// Reads a URL key into a target and the control's key (`l2.attempts` → layer 1,
    /// `attempts`). Works on characters, so any text (empty, non-ASCII, multi-byte) is
    /// read without panicking; anything that is not a target prefix gives `None`.
    pub fn parse_key(url_key: &str) -> Option<(Target, &str)> {
        let Some((head, rest)) = url_key.split_once('.') else { return Some((Target::Run, url_key)) };
        if head == "leaf" {
            return Some((Target::Leaf, rest));
        }
        let mut chars = head.chars();
        let kind = chars.next()?;
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let n: usize = digits.parse().ok()?;
        if n == 0 || n > MOST_ITEMS {
            return None;
        }
        match kind {
            'l' => Some((Target::Layer(n - 1), rest)),
            's' => Some((Target::Side(n - 1), rest)),
            'f' => Some((Target::Fault(n - 1), rest)),
            _ => None,
        }
    }

    /// The URL key of control `key` on this target.
    pub fn url_key(self, key: &str) -> String {
        format!("{}{}", self.prefix(), key)
    }
}

/// Side dependency `i`, counting across layers in order.
pub fn side(s: &Scenario, i: usize) -> Option<&SideDep> {
    s.layers.iter().flat_map(|l| l.side_deps.iter()).nth(i)
}

pub fn side_mut(s: &mut Scenario, i: usize) -> Option<&mut SideDep> {
    s.layers.iter_mut().flat_map(|l| l.side_deps.iter_mut()).nth(i)
}

/// The layer side dependency `i` belongs to.
pub fn side_owner(s: &Scenario, i: usize) -> Option<usize> {
    let mut n = 0;
    for (li, l) in s.layers.iter().enumerate() {
        if i < n + l.side_deps.len() {
            return Some(li);
        }
        n += l.side_deps.len();
    }
    None
}

/// Number of side dependencies in the scenario.
pub fn side_count(s: &Scenario) -> usize {
    s.layers.iter().map(|l| l.side_deps.len()).sum()
}

/// The client of a layer or side dependency.
pub fn client(s: &Scenario, t: Target) -> Option<&Client> {
    match t {
        Target::Layer(i) => s.layers.get(i).map(|l| &l.client),
        Target::Side(i) => side(s, i).map(|d| &d.client),
        _ => None,
    }
}

pub fn client_mut(s: &mut Scenario, t: Target) -> Option<&mut Client> {
    match t {
        Target::Layer(i) => s.layers.get_mut(i).map(|l| &mut l.client),
        Target::Side(i) => side_mut(s, i).map(|d| &mut d.client),
        _ => None,
    }
}

/// The server side of a layer, the leaf or a side dependency.
pub fn server(s: &Scenario, t: Target) -> Option<&Server> {
    match t {
        Target::Layer(i) => s.layers.get(i).map(|l| &l.server),
        Target::Leaf => Some(&s.leaf.server),
        Target::Side(i) => side(s, i).map(|d| &d.target.server),
        _ => None,
    }
}

pub fn server_mut(s: &mut Scenario, t: Target) -> Option<&mut Server> {
    match t {
        Target::Layer(i) => s.layers.get_mut(i).map(|l| &mut l.server),
        Target::Leaf => Some(&mut s.leaf.server),
        Target::Side(i) => side_mut(s, i).map(|d| &mut d.target.server),
        _ => None,
    }
}

/// The leaf or a side dependency's service.
pub fn service(s: &Scenario, t: Target) -> Option<&Leaf> {
    match t {
        Target::Leaf => Some(&s.leaf),
        Target::Side(i) => side(s, i).map(|d| &d.target),
        _ => None,
    }
}

pub fn service_mut(s: &mut Scenario, t: Target) -> Option<&mut Leaf> {
    match t {
        Target::Leaf => Some(&mut s.leaf),
        Target::Side(i) => side_mut(s, i).map(|d| &mut d.target),
        _ => None,
    }
}

pub fn fault(s: &Scenario, t: Target) -> Option<&Fault> {
    match t {
        Target::Fault(i) => s.faults.get(i),
        _ => None,
    }
}

pub fn fault_mut(s: &mut Scenario, t: Target) -> Option<&mut Fault> {
    match t {
        Target::Fault(i) => s.faults.get_mut(i),
        _ => None,
    }
}

/// Every target a scenario has, in page order.
/// The service a target names (empty for the run and for a fault window).
pub fn target_name(s: &Scenario, t: Target) -> String {
    match t {
        Target::Run | Target::Fault(_) => String::new(),
        Target::Layer(i) => s.layers.get(i).map(|l| l.name.clone()).unwrap_or_default(),
        Target::Leaf => s.leaf.name.clone(),
        Target::Side(i) => s
            .layers
            .iter()
            .flat_map(|l| l.side_deps.iter())
            .nth(i)
            .map(|d| d.target.name.clone())
            .unwrap_or_default(),
    }
}

pub fn targets(s: &Scenario) -> Vec<Target> {
    let mut t = vec![Target::Run];
    t.extend((0..s.layers.len()).map(Target::Layer));
    t.push(Target::Leaf);
    t.extend((0..side_count(s)).map(Target::Side));
    t.extend((0..s.faults.len()).map(Target::Fault));
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_round_trip_through_url_keys() {
        for t in
            [Target::Run, Target::Layer(0), Target::Layer(7), Target::Leaf, Target::Side(2), Target::Fault(1)]
        {
            let k = t.url_key("x");
            assert_eq!(Target::parse_key(&k), Some((t, "x")), "{k}");
        }
        assert_eq!(Target::parse_key("l0.x"), None, "1-based");
        assert_eq!(Target::parse_key("q1.x"), None);
        assert_eq!(Target::parse_key("rate"), Some((Target::Run, "rate")));
    }

    #[test]
    fn any_text_parses_without_panicking() {
        for k in [
            ".",
            ".attempts",
            "..",
            "中.attempts",
            "é1.attempts",
            "\u{a0}.x",
            "l.x",
            "l1",
            "l+1.x",
            "l٣.x",
            "f1.",
            "l123.x",
            "",
            "lé.x",
        ] {
            let got = Target::parse_key(k);
            assert!(
                !matches!(got, Some((Target::Layer(_) | Target::Side(_) | Target::Fault(_), _)))
                    || k == "f1.",
                "{k:?} -> {got:?}"
            );
        }
        assert_eq!(Target::parse_key("f1."), Some((Target::Fault(0), "")));
    }
}

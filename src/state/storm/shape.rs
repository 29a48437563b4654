//! The shape of a chain the learner can change from the page: how many layers, how many
//! side dependencies each layer calls, how many fault windows. Adding a layer past the
//! preset's appends one like its neighbour (same server and client settings), so going from
//! 3 to 5 layers of 3 attempts shows 3⁵ = 243×; removing one drops the last, and adding one
//! the preset had gives that one back, so the original run returns. Every name is a
//! function of the position, so a shape read from a link rebuilds exactly the same chain.

use crate::i18n::T;
use crate::scenario::presets::{leaf, retrying};
use crate::scenario::validate::{MAX_LAYERS, MAX_SIDE_DEPS};
use crate::scenario::*;

/// Most fault windows the page adds.
pub const MOST_FAULT_WINDOWS: usize = 8;

/// The parts of a scenario's shape the page can change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    pub layers: usize,
    /// Side dependencies per layer.
    pub sides: Vec<usize>,
    pub faults: usize,
}

impl Shape {
    /// The shape of `s`.
    pub fn of(s: &Scenario) -> Shape {
        Shape {
            layers: s.layers.len(),
            sides: s.layers.iter().map(|l| l.side_deps.len()).collect(),
            faults: s.faults.len(),
        }
    }

    /// `base` (a preset) brought to this shape: layers first, then each layer's side
    /// dependencies, then the fault windows.
    pub fn apply(&self, base: &Scenario) -> Scenario {
        let mut s = base.clone();
        set_layers(&mut s, self.layers, base);
        for (i, &n) in self.sides.iter().enumerate() {
            set_sides(&mut s, i, n, base);
        }
        set_faults(&mut s, self.faults);
        s
    }
}

/// Drops fault windows that act on a service that is gone.
fn drop_orphan_faults(s: &mut Scenario) {
    let names = s.hop_names();
    s.faults.retain(|f| matches!(f.effect, FaultEffect::Surge { .. }) || names.contains(&f.target));
}

/// Brings the chain to `n` layers (1–8). A layer the preset had at that place comes back
/// as it was; one beyond copies the last layer (without its side dependencies or deadline,
/// which belong where they are), named `service-N`; extra layers are dropped.
pub fn set_layers(s: &mut Scenario, n: usize, preset: &Scenario) {
    let n = n.clamp(1, MAX_LAYERS);
    while s.layers.len() > n {
        s.layers.pop();
    }
    while s.layers.len() < n {
        let i = s.layers.len();
        let l = match preset.layers.get(i) {
            Some(l) => l.clone(),
            None => {
                let Some(last) = s.layers.last() else { break };
                let mut l = last.clone();
                l.name = crate::i18n::fill(T::SvcNumbered.en(), &[("n", &(i + 1).to_string())]);
                l.deadline_ms = None;
                l.side_deps.clear();
                if !l.client.use_shared_pool && l.side_deps.is_empty() {
                    l.shared_pool = None;
                }
                l
            }
        };
        s.layers.push(l);
    }
    drop_orphan_faults(s);
}

/// A side dependency for a layer that has none to copy: a recommendation-like service
/// (20 ms median, p99 100 ms) the layer may do without (fallback "unavailable").
fn new_side(name: String) -> SideDep {
    let mut target = leaf(&name, 0.0, 0.0);
    target.work = Dist::LogNormal { median_ms: 20.0, p99_ms: 100.0 };
    let client = Client { fallback: Some(Fallback::Unavailable {}), ..retrying(1, 0.0) };
    SideDep { target, client, needed_by: 1.0 }
}

/// Gives layer `layer` `n` side dependencies (0–3). One the preset had at that place comes
/// back as it was; a new one copies the layer's last (or else a fresh recommendation-like
/// service), named `side-L-J`; extra ones are dropped, with their fault windows.
pub fn set_sides(s: &mut Scenario, layer: usize, n: usize, preset: &Scenario) {
    let n = n.min(MAX_SIDE_DEPS);
    if layer >= s.layers.len() {
        return;
    }
    while s.layers[layer].side_deps.len() > n {
        s.layers[layer].side_deps.pop();
    }
    while s.layers[layer].side_deps.len() < n {
        let j = s.layers[layer].side_deps.len();
        let name = crate::i18n::fill(T::SvcSide.en(), &[("n", &format!("{}-{}", layer + 1, j + 1))]);
        let from_preset =
            (layer < preset.layers.len()).then(|| preset.layers[layer].side_deps.get(j)).flatten();
        let d = match (from_preset, s.layers[layer].side_deps.last()) {
            (Some(d), _) => d.clone(),
            (None, Some(last)) => {
                let mut d = last.clone();
                d.target.name = name;
                d
            }
            (None, None) => new_side(name),
        };
        s.layers[layer].side_deps.push(d);
    }
    drop_orphan_faults(s);
}

/// Keeps the first `n` fault windows (at most [`MOST_FAULT_WINDOWS`]; `usize::MAX` keeps
/// them all as they are); new ones slow the leaf ×5 during the second quarter of the run
/// (of 4 s for a batch, whose length is not known before it runs: 1–2 s). Links leave out a
/// window's start and end when they are these, so the defaults are part of the link format
/// and stay as they are (a short batch such as lab 11's never reaches 1 s: the help says
/// to move the window).
pub fn set_faults(s: &mut Scenario, n: usize) {
    if n == usize::MAX {
        return; // keep them as they are
    }
    let n = n.min(MOST_FAULT_WINDOWS);
    s.faults.truncate(n);
    let span = match s.load {
        Load::Batch { .. } => 4_000.0,
        Load::Constant { duration_ms, .. } | Load::Poisson { duration_ms, .. } => duration_ms,
    };
    let (start_ms, end_ms) = ((span * 0.25).round(), (span * 0.5).round());
    while s.faults.len() < n {
        s.faults.push(Fault {
            target: s.leaf.name.clone(),
            start_ms,
            end_ms,
            effect: FaultEffect::Latency { factor: 5.0 },
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::chain::run;
    use crate::scenario::presets;

    #[test]
    fn three_to_five_layers_gives_243() {
        let preset = presets::chain_3x3();
        let mut s = preset.clone();
        set_layers(&mut s, 5, &preset);
        assert_eq!(validate(&s), Ok(()));
        assert_eq!(s.layers[4].client.retry.max_attempts, 3);
        assert_eq!(run(&s).unwrap().summary.amplification, 243.0);
        set_layers(&mut s, 3, &preset);
        assert_eq!(s, preset, "removing the layers gives the original back");
        set_layers(&mut s, 1, &preset);
        set_layers(&mut s, 3, &preset);
        assert_eq!(s, preset, "and adding the preset's layers back too");
    }

    #[test]
    fn sides_and_faults_come_and_go() {
        let preset = presets::chain_2x3();
        let mut s = preset.clone();
        set_sides(&mut s, 0, 2, &preset);
        assert_eq!(validate(&s), Ok(()));
        assert_eq!(s.layers[0].side_deps.len(), 2);
        set_faults(&mut s, 2);
        s.faults[1].target = s.layers[0].side_deps[1].target.name.clone();
        assert_eq!(validate(&s), Ok(()));
        set_sides(&mut s, 0, 1, &preset);
        assert_eq!(s.faults.len(), 1, "the window on the removed dependency went with it");
        assert_eq!(validate(&s), Ok(()));
        let shape = Shape::of(&s);
        assert_eq!(shape.apply(&presets::chain_2x3()), s);
        let big_preset = presets::big_promo_protected();
        let mut big = big_preset.clone();
        set_sides(&mut big, 1, 3, &big_preset);
        assert_eq!(validate(&big), Ok(()), "copies of a dependency with a bulkhead and breaker are valid");
    }

    #[test]
    fn a_new_windows_place_is_part_of_the_link_format() {
        // Links leave out a window's start and end when they are the defaults: a link saved
        // with `faults=1` on a batch preset must keep opening 1–2 s.
        let mut s = presets::lab11_unprotected();
        set_faults(&mut s, 1);
        assert_eq!((s.faults[0].start_ms, s.faults[0].end_ms), (1000.0, 2000.0));
        let mut c = presets::chain_3x3();
        set_faults(&mut c, 1);
        assert_eq!((c.faults[0].start_ms, c.faults[0].end_ms), (250.0, 500.0), "the second quarter of 1 s");
    }
}

//! Determinism: the same scenario and seed give byte-identical reports, and the digests
//! pinned in `tests/common/mod.rs` match — the browser test checks the same digests.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use resilience_lab::model::chain::{DEFAULT_MAX_CALLS, run_with};
use resilience_lab::scenario::presets;

fn json(name: &str, seed: u64) -> String {
    let s = (presets::find(name).unwrap().build)();
    run_with(&s, seed, DEFAULT_MAX_CALLS).unwrap().to_json()
}

#[test]
fn same_seed_same_bytes() {
    for p in presets::all() {
        assert_eq!(json(p.name, 3), json(p.name, 3), "{}", p.name);
    }
}

#[test]
fn pinned_digests_match() {
    let mut actual = Vec::new();
    for p in presets::all() {
        for seed in [1, 42] {
            actual.push((p.name, seed, common::digest(&json(p.name, seed))));
        }
    }
    let table: String = actual.iter().map(|(n, s, d)| format!("    ({n:?}, {s}, 0x{d:016x}),\n")).collect();
    assert_eq!(
        actual,
        common::DIGESTS.to_vec(),
        "digests changed; if the model changed on purpose, paste this into tests/common/mod.rs:\n{table}"
    );
}

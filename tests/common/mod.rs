//! Shared by the native and the browser determinism tests: both must produce these exact
//! digests of the JSON report, so a seed means the same run natively and in wasm.
#![allow(dead_code)]

pub mod random;

/// FNV-1a (64 bit) of a report's compact JSON.
pub fn digest(json: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in json.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01B3);
    }
    h
}

/// (preset, seed, digest of `Report::to_json()`).
pub const DIGESTS: &[(&str, u64, u64)] = &[
    ("lab11-unprotected", 1, 0xd8425deabcdae1bc),
    ("lab11-unprotected", 42, 0xa48bfe0b6642ca39),
    ("lab11-protected", 1, 0x8a300192c39b24cf),
    ("lab11-protected", 42, 0x715591bae9ce55a4),
    ("lab11-budget-150", 1, 0x53e3f224424a3b7e),
    ("lab11-budget-150", 42, 0x362f61ebbbe369f9),
    ("chain-2x3", 1, 0xb3c6413a5d27c39b),
    ("chain-2x3", 42, 0x8a960931f151501e),
    ("chain-3x3", 1, 0xd64104eca87bfff1),
    ("chain-3x3", 42, 0xadf79176902babea),
    ("chain-3x4", 1, 0xfd4b4cbbd4268b47),
    ("chain-3x4", 42, 0x377541b0f038c4d0),
    ("recommendation-500rps", 1, 0xa294349ec34f17d4),
    ("recommendation-500rps", 42, 0xd63349c353480d4d),
    ("big-promo", 1, 0x8927ea976da1efd7),
    ("big-promo", 42, 0x70b4d7d0a5f945fb),
    ("big-promo-protected", 1, 0x55a83651ce096c1b),
    ("big-promo-protected", 42, 0x648358cb06bca562),
    ("breaker-demo", 1, 0x2e26c49eed6fc31f),
    ("breaker-demo", 42, 0x1110e429dd86ca42),
    ("bulkhead-shared-vs-isolated", 1, 0x7690bef439a49a4c),
    ("bulkhead-shared-vs-isolated", 42, 0x6e41c41e8117265c),
    ("metastable-retry-storm", 1, 0xc095124897da76d7),
    ("metastable-retry-storm", 42, 0xd9e407f3acf0c1e6),
];

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

/// (preset, seed, digest of `Report::to_json()`). The JSON names the crate's version
/// (`generator`), so a version bump re-pins them too.
pub const DIGESTS: &[(&str, u64, u64)] = &[
    ("lab11-unprotected", 1, 0xb7bac464de057501),
    ("lab11-unprotected", 42, 0x5c3f6d3d100a81e4),
    ("lab11-protected", 1, 0xc58eda6262729eb9),
    ("lab11-protected", 42, 0x9570436bbcc86644),
    ("lab11-budget-150", 1, 0xc847847b62b4ec46),
    ("lab11-budget-150", 42, 0x124a6b54d6973213),
    ("chain-2x3", 1, 0x2f94d4117e9a5ac5),
    ("chain-2x3", 42, 0xb52fb36868329048),
    ("chain-3x3", 1, 0x278b52e326456c33),
    ("chain-3x3", 42, 0x6572f34146edb59e),
    ("chain-3x4", 1, 0xc47ff5a016f088d1),
    ("chain-3x4", 42, 0xf5bb3cafed7c643e),
    ("recommendation-500rps", 1, 0xfb9388ff52c33d34),
    ("recommendation-500rps", 42, 0xece5d85b8e47392d),
    ("big-promo", 1, 0x99fd8a72c5b4eecc),
    ("big-promo", 42, 0x56580a9126174599),
    ("big-promo-protected", 1, 0x1cf2166fcd82d531),
    ("big-promo-protected", 42, 0x6a3033bc64436d8b),
    ("breaker-demo", 1, 0x422987b326bbda3a),
    ("breaker-demo", 42, 0x45db7b9ce07698bb),
    ("bulkhead-shared-vs-isolated", 1, 0x16c09a9c5e3e6b79),
    ("bulkhead-shared-vs-isolated", 42, 0x3619188fb7ea7b31),
    ("metastable-retry-storm", 1, 0x2709398b11934a28),
    ("metastable-retry-storm", 42, 0x741aacd07f7a46c7),
];

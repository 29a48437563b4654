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
    ("lab11-unprotected", 1, 0xbfaa98d0ad3fb5e9),
    ("lab11-unprotected", 42, 0x4e82b11d52133dec),
    ("lab11-protected", 1, 0xc58eda6262729eb9),
    ("lab11-protected", 42, 0x9570436bbcc86644),
    ("lab11-budget-150", 1, 0xc847847b62b4ec46),
    ("lab11-budget-150", 42, 0x124a6b54d6973213),
    ("chain-2x3", 1, 0x249f8118822bf0cf),
    ("chain-2x3", 42, 0x8dcd054ea6521a3a),
    ("chain-3x3", 1, 0xe62d780d6800903f),
    ("chain-3x3", 42, 0xa2f7f8b7fd97d6d2),
    ("chain-3x4", 1, 0xc47ff5a016f088d1),
    ("chain-3x4", 42, 0xf5bb3cafed7c643e),
    ("recommendation-500rps", 1, 0x2849ff20e11a870a),
    ("recommendation-500rps", 42, 0xaf3bb0bebf4b4dff),
    ("big-promo", 1, 0x99fd8a72c5b4eecc),
    ("big-promo", 42, 0xb920e6febe0feb1b),
    ("big-promo-protected", 1, 0x1cf2166fcd82d531),
    ("big-promo-protected", 42, 0x6a3033bc64436d8b),
    ("breaker-demo", 1, 0x422987b326bbda3a),
    ("breaker-demo", 42, 0x45db7b9ce07698bb),
    ("bulkhead-shared-vs-isolated", 1, 0x16c09a9c5e3e6b79),
    ("bulkhead-shared-vs-isolated", 42, 0xb1f9933f19f06245),
    ("metastable-retry-storm", 1, 0x2709398b11934a28),
    ("metastable-retry-storm", 42, 0x741aacd07f7a46c7),
];

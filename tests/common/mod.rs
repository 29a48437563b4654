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
    ("lab11-unprotected", 1, 0x5b17ff6b930ca6dc),
    ("lab11-unprotected", 42, 0xbaca2e5ea8408d1f),
    ("lab11-protected", 1, 0x1a8b7a4f9f1fc65c),
    ("lab11-protected", 42, 0x862afafee64e8649),
    ("lab11-budget-150", 1, 0x9a97759d35d3a1dd),
    ("lab11-budget-150", 42, 0x541a13ec3e307170),
    ("chain-2x3", 1, 0x13da7ecce51cc42f),
    ("chain-2x3", 42, 0x75faedbf4e509f94),
    ("chain-3x3", 1, 0xaba699a92aa8bf8b),
    ("chain-3x3", 42, 0x18f1a9506e747166),
    ("chain-3x4", 1, 0xbef02fa28a8dca47),
    ("chain-3x4", 42, 0x35013f74d639505a),
    ("recommendation-500rps", 1, 0xd1732894aa5950a9),
    ("recommendation-500rps", 42, 0x8bbebdb7f9dac4fc),
    ("big-promo", 1, 0x00470bff392f40a0),
    ("big-promo", 42, 0xcfd4e5470fed2eed),
    ("big-promo-protected", 1, 0x8a8f850f4b728d04),
    ("big-promo-protected", 42, 0xcd9b72b8aeb327a8),
    ("breaker-demo", 1, 0xafd4a50bec419b56),
    ("breaker-demo", 42, 0xcdcb7ee04f3717c4),
    ("bulkhead-shared-vs-isolated", 1, 0x037c478da02fc860),
    ("bulkhead-shared-vs-isolated", 42, 0x7c7e8b6681f06873),
    ("metastable-retry-storm", 1, 0x094c2672220e8b0d),
    ("metastable-retry-storm", 42, 0x748e2cc871c6a371),
];

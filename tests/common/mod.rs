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
    ("lab11-unprotected", 1, 0xb5cd71bb002b2560),
    ("lab11-unprotected", 42, 0x7b1fbe4f9db82adb),
    ("lab11-protected", 1, 0xd0159e8c0e98fada),
    ("lab11-protected", 42, 0x3637a685f5b08359),
    ("lab11-budget-150", 1, 0x6192ab11fd4e9a5b),
    ("lab11-budget-150", 42, 0xa9d7269a4da7fa0c),
    ("chain-2x3", 1, 0x68136e51ea000814),
    ("chain-2x3", 42, 0x8bbcbf7011daaacb),
    ("chain-3x3", 1, 0xafdfe21db809d8ac),
    ("chain-3x3", 42, 0x38c0564dd36b3477),
    ("chain-3x4", 1, 0x4b2df68845fb21aa),
    ("chain-3x4", 42, 0xecb18bb6719030bf),
    ("recommendation-500rps", 1, 0x5922c71715856597),
    ("recommendation-500rps", 42, 0xd98286e9d32002ec),
    ("big-promo", 1, 0x9961e3bbea655b89),
    ("big-promo", 42, 0x83df851d6728b69c),
    ("big-promo-protected", 1, 0x5c639485cdd7605c),
    ("big-promo-protected", 42, 0xb812382000c4812e),
    ("breaker-demo", 1, 0xda31a467cf03b58b),
    ("breaker-demo", 42, 0x8130d7924ab559c8),
    ("bulkhead-shared-vs-isolated", 1, 0x79ae846d3245f108),
    ("bulkhead-shared-vs-isolated", 42, 0x76a3950771e5f410),
    ("metastable-retry-storm", 1, 0x0ce548e89e4b061b),
    ("metastable-retry-storm", 42, 0xe2cd0a1e73cd33a2),
];

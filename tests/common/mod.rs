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
    ("lab11-unprotected", 1, 0x493c92e3067ca1db),
    ("lab11-unprotected", 42, 0x78a3abb61c6626f2),
    ("lab11-protected", 1, 0x8a300192c39b24cf),
    ("lab11-protected", 42, 0x715591bae9ce55a4),
    ("lab11-budget-150", 1, 0x53e3f224424a3b7e),
    ("lab11-budget-150", 42, 0x362f61ebbbe369f9),
    ("chain-2x3", 1, 0x5925b656113beebe),
    ("chain-2x3", 42, 0x48face565247de7b),
    ("chain-3x3", 1, 0x6fa09a1932f74ff4),
    ("chain-3x3", 42, 0x162b755f8f8117e9),
    ("chain-3x4", 1, 0xb9b38673d561860a),
    ("chain-3x4", 42, 0x65ee8742237961cb),
    ("recommendation-500rps", 1, 0x08aa30235ecd07c7),
    ("recommendation-500rps", 42, 0xefcdddd1bf49deae),
    ("big-promo", 1, 0x05995a3fcad10328),
    ("big-promo", 42, 0x53f7b322d08af625),
    ("big-promo-protected", 1, 0xe64e16ba595ea99f),
    ("big-promo-protected", 42, 0x1970a8150927c6fd),
    ("breaker-demo", 1, 0x00283c1d82b7e199),
    ("breaker-demo", 42, 0x99f091092bb407dd),
    ("bulkhead-shared-vs-isolated", 1, 0xa9f21f4ebff98b32),
    ("bulkhead-shared-vs-isolated", 42, 0xa8e516ab942df581),
    ("metastable-retry-storm", 1, 0xc5c92d44b44cbae5),
    ("metastable-retry-storm", 42, 0xb348c4ccf490e4df),
];

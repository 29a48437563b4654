//! Shared by the native and the browser determinism tests: both must produce these exact
//! digests of the JSON report, so a seed means the same run natively and in wasm.
#![allow(dead_code)]

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
    ("lab11-unprotected", 1, 0xb4f21e3d592652f2),
    ("lab11-unprotected", 42, 0x09e33d81f5942441),
    ("lab11-protected", 1, 0x7d89083ba5dc4cd6),
    ("lab11-protected", 42, 0x0e371e0484a10a41),
    ("lab11-budget-150", 1, 0xe75fc058ba3d542f),
    ("lab11-budget-150", 42, 0xad3a60b1d0d889c8),
    ("chain-2x3", 1, 0x78d1fcf04c11c787),
    ("chain-2x3", 42, 0xfe4556e66e7eadcc),
    ("chain-3x3", 1, 0x9c23ae49c1d382dc),
    ("chain-3x3", 42, 0xf92929daf332c959),
    ("chain-3x4", 1, 0x73669ed2f049198f),
    ("chain-3x4", 42, 0x699a83738c20a13a),
    ("recommendation-500rps", 1, 0xb71e03fec8d0b36c),
    ("recommendation-500rps", 42, 0xaa296f78950adbdd),
    ("big-promo", 1, 0x02a94b33910047fb),
    ("big-promo", 42, 0x219320ec414d9d4c),
    ("big-promo-protected", 1, 0xc27df1f3aa0ffe0c),
    ("big-promo-protected", 42, 0x2b97533732084aed),
    ("breaker-demo", 1, 0xd6b7a606e59250c0),
    ("breaker-demo", 42, 0x649bd0b21e25f362),
    ("bulkhead-shared-vs-isolated", 1, 0xacc97cd2bb1df39d),
    ("bulkhead-shared-vs-isolated", 42, 0x6ceea109ae427325),
    ("metastable-retry-storm", 1, 0x89acd4089ff4a37f),
    ("metastable-retry-storm", 42, 0xfa340565be442c75),
];

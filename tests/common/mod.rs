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
    ("lab11-unprotected", 1, 0xeeced55fca102597),
    ("lab11-unprotected", 42, 0x89dfdbc0b6d771de),
    ("lab11-protected", 1, 0x68d22a15aacb66ac),
    ("lab11-protected", 42, 0xb44f65559fc62b77),
    ("lab11-budget-150", 1, 0x832efb5a37277959),
    ("lab11-budget-150", 42, 0x065c537398669c12),
    ("chain-2x3", 1, 0x86e1507f6dff943a),
    ("chain-2x3", 42, 0x36df7540d23221b3),
    ("chain-3x3", 1, 0x2b03acd22ca20ee0),
    ("chain-3x3", 42, 0x679c6e90bb1e04c7),
    ("chain-3x4", 1, 0xa596183b648123c2),
    ("chain-3x4", 42, 0x9d2d608d367df831),
    ("recommendation-500rps", 1, 0xc0106947bc2c366b),
    ("recommendation-500rps", 42, 0x10646dc0590ebb6e),
    ("big-promo", 1, 0xf463c29755c4e1f8),
    ("big-promo", 42, 0x60e50e807cdde6e0),
    ("big-promo-protected", 1, 0x65992fe89a647bb8),
    ("big-promo-protected", 42, 0xaebd567fff148f57),
    ("breaker-demo", 1, 0x892741b69e6f4d62),
    ("breaker-demo", 42, 0xea323bd0c5dba64d),
    ("bulkhead-shared-vs-isolated", 1, 0x5eb551e567d1a1df),
    ("bulkhead-shared-vs-isolated", 42, 0xb71caeec97a8133c),
    ("metastable-retry-storm", 1, 0xb31a08c39fca1820),
    ("metastable-retry-storm", 42, 0x64a2c680a94c12bd),
];

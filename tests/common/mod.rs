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
    ("lab11-unprotected", 1, 0x8b058d81d3584a60),
    ("lab11-unprotected", 42, 0x44d6a010ff19d143),
    ("lab11-protected", 1, 0x487b7fd46beac438),
    ("lab11-protected", 42, 0xac26c2da703a8adb),
    ("lab11-budget-150", 1, 0x06d2755c56373d85),
    ("lab11-budget-150", 42, 0xc2e001bc4522bdb6),
    ("chain-2x3", 1, 0xe22d28e9582a6ff6),
    ("chain-2x3", 42, 0x12e4ffa54e0c9635),
    ("chain-3x3", 1, 0x1c51a3b0bc603e66),
    ("chain-3x3", 42, 0x26fd43e20fe319c9),
    ("chain-3x4", 1, 0x430770e5dd4a2366),
    ("chain-3x4", 42, 0x4c039ee6e5ac0a2f),
    ("recommendation-500rps", 1, 0xa1584adc550d2fa4),
    ("recommendation-500rps", 42, 0xe5e184fd5be827a1),
    ("big-promo", 1, 0xebad4b86c0e434c1),
    ("big-promo", 42, 0xdec998e4bd2ec14a),
    ("big-promo-protected", 1, 0x595e3929fb3e04a2),
    ("big-promo-protected", 42, 0xfd92eeb56525ef2d),
    ("breaker-demo", 1, 0xccd2cb0e21734294),
    ("breaker-demo", 42, 0xfd5dbad32226918e),
    ("bulkhead-shared-vs-isolated", 1, 0xfac943a69ecc930e),
    ("bulkhead-shared-vs-isolated", 42, 0x38f0905f36172c35),
    ("metastable-retry-storm", 1, 0x1fa64f910373fa7b),
    ("metastable-retry-storm", 42, 0x62ca3b1689606d95),
];

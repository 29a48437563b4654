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
    ("lab11-unprotected", 1, 0x9db8b415819a2789),
    ("lab11-unprotected", 42, 0x74502921c9b0db7a),
    ("lab11-protected", 1, 0x7554caac8b24c830),
    ("lab11-protected", 42, 0x565e4a85b0076775),
    ("lab11-budget-150", 1, 0x16c2371ddd856261),
    ("lab11-budget-150", 42, 0x0fe2ea6cb6f8a4e8),
    ("chain-2x3", 1, 0x38cc0acb572b6f8a),
    ("chain-2x3", 42, 0xb3bab7c2b736f325),
    ("chain-3x3", 1, 0xa8bda158a3b53c38),
    ("chain-3x3", 42, 0x69df19d4d10085d5),
    ("chain-3x4", 1, 0xb2dd3666dff561f2),
    ("chain-3x4", 42, 0xeb43be5117873cc7),
    ("recommendation-500rps", 1, 0xbc3034fb173f6249),
    ("recommendation-500rps", 42, 0xc7681cf741dcc796),
    ("big-promo", 1, 0x02cca44d05355d58),
    ("big-promo", 42, 0xe910d46d95fc1c4a),
    ("big-promo-protected", 1, 0xc86d76d28c7c085c),
    ("big-promo-protected", 42, 0xc54fdd5be15f141b),
    ("breaker-demo", 1, 0x7d2933b9bf2775d6),
    ("breaker-demo", 42, 0x3ed43755e19923d3),
    ("bulkhead-shared-vs-isolated", 1, 0x22761d237894515d),
    ("bulkhead-shared-vs-isolated", 42, 0xf31ca817589fbb19),
    ("metastable-retry-storm", 1, 0x7ae7d6ed7bcb5be6),
    ("metastable-retry-storm", 42, 0x9f20d4f6af86ad91),
];

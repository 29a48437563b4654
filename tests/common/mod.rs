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
    ("lab11-unprotected", 1, 0x19f147ea72caa75f),
    ("lab11-unprotected", 42, 0xe97d3f9f09c6ce3a),
    ("lab11-protected", 1, 0x13a47e2e018918de),
    ("lab11-protected", 42, 0xef302ca3ecca4b35),
    ("lab11-budget-150", 1, 0x77f685cb78401687),
    ("lab11-budget-150", 42, 0xdb40a49e37af3ba8),
    ("chain-2x3", 1, 0x2fd56c59ba6369e0),
    ("chain-2x3", 42, 0xe31572eb180eb10d),
    ("chain-3x3", 1, 0xda848a19e340597a),
    ("chain-3x3", 42, 0x27ba79ab61c68839),
    ("chain-3x4", 1, 0x5f0d658c9c12bfae),
    ("chain-3x4", 42, 0xc2a48fc3d3966815),
    ("recommendation-500rps", 1, 0xbeeba77f4a42e1b1),
    ("recommendation-500rps", 42, 0xb74e936e5254e0ec),
    ("big-promo", 1, 0x93607208bd95925a),
    ("big-promo", 42, 0x5f51df59317a0966),
    ("big-promo-protected", 1, 0xe122874b1c6176be),
    ("big-promo-protected", 42, 0x7cea029d8df35372),
    ("breaker-demo", 1, 0xae61ca04444429b5),
    ("breaker-demo", 42, 0x4fccdd67a85c9427),
    ("bulkhead-shared-vs-isolated", 1, 0xa37eed8f2af89667),
    ("bulkhead-shared-vs-isolated", 42, 0x882d71f75bc3fbd9),
    ("metastable-retry-storm", 1, 0x2ab3a785292b2a86),
    ("metastable-retry-storm", 42, 0x31031fc83df740b1),
];

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
    ("lab11-unprotected", 1, 0xb2d5241a50dadc48),
    ("lab11-unprotected", 42, 0x919a807cefb66811),
    ("lab11-protected", 1, 0xd47afce047b74ed8),
    ("lab11-protected", 42, 0xed2a1f29aa92d84b),
    ("lab11-budget-150", 1, 0x258d4d6db86249d5),
    ("lab11-budget-150", 42, 0x7dc0cac0556cd676),
    ("chain-2x3", 1, 0x764030d13066c7db),
    ("chain-2x3", 42, 0x22d370b1bd40056a),
    ("chain-3x3", 1, 0x8209c3ceeb34c3fa),
    ("chain-3x3", 42, 0x6d9d00dcf6a22c05),
    ("chain-3x4", 1, 0xc40c2261b29b2cdb),
    ("chain-3x4", 42, 0x64ad8f6b9b77cb38),
    ("recommendation-500rps", 1, 0xd780513d4eae6b05),
    ("recommendation-500rps", 42, 0x3392ce2114789624),
];

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
    ("lab11-unprotected", 1, 0x9ad8bfb21c1cb9e2),
    ("lab11-unprotected", 42, 0xcd6151cbe91a81b1),
    ("lab11-protected", 1, 0xc9bf74ab6191f0e1),
    ("lab11-protected", 42, 0xcb3b65ce2c633fac),
    ("lab11-budget-150", 1, 0x447a6f9434dc4188),
    ("lab11-budget-150", 42, 0x3c1dedf455324df1),
    ("chain-2x3", 1, 0x0b31c0fd1e1d044d),
    ("chain-2x3", 42, 0x63221073a90c7532),
    ("chain-3x3", 1, 0x6aef6e28df5a7887),
    ("chain-3x3", 42, 0x92ec2b7c476942fe),
    ("chain-3x4", 1, 0x1c8aaaca15d3b2fb),
    ("chain-3x4", 42, 0xcb3d1a3b87460bc2),
    ("recommendation-500rps", 1, 0xecaf614941253158),
    ("recommendation-500rps", 42, 0xe6176c25b8c55bbb),
    ("big-promo", 1, 0xfb607a4e235754e9),
    ("big-promo", 42, 0xcdcf27c04d616807),
    ("big-promo-protected", 1, 0x9d154e6cad727320),
    ("big-promo-protected", 42, 0x7b6f259e802f59cc),
    ("breaker-demo", 1, 0xa1c2e79aa6a1f713),
    ("breaker-demo", 42, 0x5b06be7a5d2c1662),
    ("bulkhead-shared-vs-isolated", 1, 0x947ee1794447dfae),
    ("bulkhead-shared-vs-isolated", 42, 0xe62f7801f92353a0),
    ("metastable-retry-storm", 1, 0x8a8c05fa5151349f),
    ("metastable-retry-storm", 42, 0x55895b614682e8d8),
];

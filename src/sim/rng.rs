//! Seeded randomness with pinned algorithms, so a seed means the same run natively, in
//! wasm, and in later versions.
//!
//! - One seed per run. Each component's stream is forked from it by name
//!   ([`fork`]: SplitMix64 of the seed and an FNV-1a hash of the name, feeding PCG32
//!   `Lcg64Xsh32` from `rand_pcg`), so adding a component does not shift the others.
//! - Per-request randomness is drawn when the request arrives (common random numbers):
//!   the arrival stream hands each request a 64-bit key, and every draw the request's
//!   calls need (failure, service time, jitter) is a pure function of that key and the
//!   call's position ([`Key`]). Two policies run on one seed therefore see the same traffic
//!   and the same per-attempt luck.
//! - Floating-point transforms use `libm`, which is the same Rust code on every target
//!   (std's `ln`/`exp` call the platform's libm natively and may differ in the last bit).
//!
//! Which draws go through which crate: a stream's 64-bit words come from `rand_pcg`
//! (PCG32) and its uniform floats from `rand`'s `StandardUniform` (the top 53 bits times
//! 2⁻⁵³, exact on every target). Per-call draws are counter-based — a SplitMix64 hash of
//! the key, not a sequential generator, which `rand` does not offer — and turn their 64
//! bits into a float with [`unit`], the same conversion (a test pins the two together).
//! Exponential and normal variates are written here over `libm` rather than taken from
//! `rand_distr`, whose `ln`/`exp` go through std and may differ natively and in wasm.

use rand::RngExt;
use rand_core::Rng;
use rand_pcg::Lcg64Xsh32;

/// SplitMix64's finaliser: a bijective mix of 64 bits.
#[inline]
pub const fn mix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// FNV-1a of a name, to turn component names into stream ids.
pub fn name_hash(name: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in name.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01B3);
    }
    h
}

/// A stream forked from the run's seed for the component called `name`.
pub fn fork(seed: u64, name: &str) -> Stream {
    let h = name_hash(name);
    Stream(Lcg64Xsh32::new(mix64(seed ^ h), mix64(h)))
}

/// A component's random stream.
pub struct Stream(Lcg64Xsh32);

impl Stream {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }
    /// A uniform number in [0, 1) (`rand`'s `StandardUniform`).
    pub fn uniform(&mut self) -> f64 {
        self.0.random::<f64>()
    }
}

/// 53 random bits as a uniform number in [0, 1): the conversion of `rand`'s
/// `StandardUniform` for `f64`, for bits that do not come from a stream.
#[inline]
pub fn unit(bits: u64) -> f64 {
    (bits >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// The randomness of one call, derived from its request's key and its position in the
/// request's call tree (hop, dependency, attempt at each level).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Key(pub u64);

/// What a draw is for; each purpose gets an independent number from the same key.
#[derive(Clone, Copy, Debug)]
#[repr(u64)]
pub enum Purpose {
    /// Whether the call fails.
    Failure = 1,
    /// How long it takes.
    Service = 2,
    /// Backoff jitter before a retry.
    Jitter = 3,
    /// Whether it is a client error (4xx).
    ClientError = 4,
    /// Which client instance a request uses.
    Instance = 5,
    /// Whether the request needs an optional dependency.
    Needs = 6,
    /// Whether a successful answer is a computed empty result.
    Empty = 7,
}

impl Key {
    /// The key of a child: the call made for dependency `dep`, attempt `attempt`.
    #[inline(always)]
    pub fn child(self, dep: u32, attempt: u32) -> Key {
        // The first dependency's first attempts (nearly every call) read their salt from a
        // table: one load instead of a mixing step.
        let salt = match FIRST_DEP_SALTS.get(attempt as usize) {
            Some(&s) if dep == 0 => s,
            _ => child_salt(dep, attempt),
        };
        self.child_salted(salt)
    }
    /// [`Key::child`] with the position's salt computed ahead ([`child_salt`]): the same
    /// key, one mixing step shorter.
    #[inline]
    pub fn child_salted(self, salt: u64) -> Key {
        Key(mix64(self.0 ^ salt))
    }
    /// A uniform number in [0, 1) for `purpose`.
    #[inline]
    pub fn uniform(self, purpose: Purpose) -> f64 {
        unit(mix64(self.0.wrapping_add((purpose as u64).wrapping_mul(0xD1B5_4A32_D192_ED03))))
    }
    /// A uniform number for the `n`-th draw of `purpose` (e.g. the jitter of retry `n`).
    #[inline]
    pub fn uniform_n(self, purpose: Purpose, n: u32) -> f64 {
        Key(self.0 ^ mix64(u64::from(n) + 0x1000)).uniform(purpose)
    }
}

/// [`child_salt`] of dependency 0's attempts 0 to 15, computed at compile time.
const FIRST_DEP_SALTS: [u64; 16] = {
    let mut t = [0; 16];
    let mut a = 0;
    while a < 16 {
        t[a] = child_salt(0, a as u32);
        a += 1;
    }
    t
};

/// What [`Key::child`] mixes into its parent's key for dependency `dep`, attempt
/// `attempt`: a function of the position only, so it can be tabulated.
#[inline]
pub const fn child_salt(dep: u32, attempt: u32) -> u64 {
    mix64(((dep as u64) << 32) | attempt as u64)
}

/// An exponential variate with the given mean from a uniform `u` in [0, 1).
pub fn exponential(mean: f64, u: f64) -> f64 {
    -mean * libm::log1p(-u)
}

/// A standard normal variate from a uniform `u` in (0, 1): Wichura's AS 241 (PPND16),
/// accurate to about 1e-16, pure arithmetic plus `libm`.
pub fn std_normal(u: f64) -> f64 {
    let u = u.clamp(1e-300, 1.0 - 1e-16);
    let q = u - 0.5;
    if q.abs() <= 0.425 {
        let r = 0.180625 - q * q;
        return q
            * (((((((2509.0809287301227 * r + 33_430.575_583_588_13) * r + 67_265.770_927_008_7) * r
                + 45_921.953_931_549_87)
                * r
                + 13_731.693_765_509_46)
                * r
                + 1_971.590_950_306_551_3)
                * r
                + 133.141_667_891_784_38)
                * r
                + 3.387_132_872_796_366_5)
            / (((((((5_226.495_278_852_546 * r + 28_729.085_735_721_943) * r + 39_307.895_800_092_71)
                * r
                + 21_213.794_301_586_597)
                * r
                + 5_394.196_021_424_751)
                * r
                + 687.187_007_492_057_9)
                * r
                + 42.313_330_701_600_91)
                * r
                + 1.0);
    }
    let mut r = if q < 0.0 { u } else { 1.0 - u };
    r = libm::sqrt(-libm::log(r));
    let val = if r <= 5.0 {
        let r = r - 1.6;
        (((((((7.745_450_142_783_414e-4 * r + 0.022_723_844_989_269_184) * r + 0.241_780_725_177_450_6)
            * r
            + 1.270_458_252_452_368_4)
            * r
            + 3.647_848_324_763_204_5)
            * r
            + 5.769_497_221_460_691)
            * r
            + 4.630_337_846_156_546)
            * r
            + 1.423_437_110_749_683_5)
            / (((((((1.050_750_071_644_416_9e-9 * r + 5.475_938_084_995_345e-4) * r
                + 0.015_198_666_563_616_457)
                * r
                + 0.148_103_976_427_480_08)
                * r
                + 0.689_767_334_985_1)
                * r
                + 1.676_384_830_183_803_8)
                * r
                + 2.053_191_626_637_759)
                * r
                + 1.0)
    } else {
        let r = r - 5.0;
        (((((((2.010_334_399_292_288_1e-7 * r + 2.711_555_568_743_487_6e-5) * r
            + 0.001_242_660_947_388_078_4)
            * r
            + 0.026_532_189_526_576_124)
            * r
            + 0.296_560_571_828_504_87)
            * r
            + 1.784_826_539_917_291_3)
            * r
            + 5.463_784_911_164_114)
            * r
            + 6.657_904_643_501_103)
            / (((((((2.044_263_103_389_939_7e-15 * r + 1.421_511_758_316_446e-7) * r
                + 1.846_318_317_510_054_8e-5)
                * r
                + 7.868_691_311_456_133e-4)
                * r
                + 0.014_875_361_290_850_615)
                * r
                + 0.136_929_880_922_735_8)
                * r
                + 0.599_832_206_555_888)
                * r
                + 1.0)
    };
    if q < 0.0 { -val } else { val }
}

/// z such that P(Z ≤ z) = 0.99 for a standard normal Z.
pub const Z99: f64 = 2.326_347_874_040_840_8;

/// A log-normal variate with the given median and 99th percentile (p99 ≥ median).
pub fn lognormal(median: f64, p99: f64, u: f64) -> f64 {
    if p99 <= median || median <= 0.0 {
        return median.max(0.0);
    }
    let sigma = libm::log(p99 / median) / Z99;
    median * libm::exp(sigma * std_normal(u))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_childs_key_is_the_same_from_the_table_or_mixed() {
        // The table covers dependency 0's attempts 0-15; every other position mixes its salt.
        for parent in [0, 1, 0xDEAD_BEEF, u64::MAX] {
            for dep in 0..3 {
                for attempt in 0..40 {
                    let mixed = Key(mix64(parent ^ mix64((u64::from(dep) << 32) | u64::from(attempt))));
                    assert_eq!(Key(parent).child(dep, attempt), mixed, "{parent} {dep} {attempt}");
                }
            }
        }
    }

    #[test]
    fn unit_is_rands_standard_uniform() {
        // The streams draw floats through rand; per-call keys through `unit`. They must be
        // one conversion, or a key's draw and a stream's draw would disagree in the last bit.
        let (mut a, mut b) = (fork(7, "arrivals"), fork(7, "arrivals"));
        for _ in 0..10_000 {
            assert_eq!(a.uniform().to_bits(), unit(b.next_u64()).to_bits());
        }
        assert_eq!(unit(u64::MAX), 1.0 - f64::EPSILON / 2.0, "never 1.0");
        assert_eq!(unit(0), 0.0);
    }

    #[test]
    fn forks_are_stable_and_independent_of_each_other() {
        let a1: Vec<u64> = {
            let mut s = fork(7, "traffic");
            (0..4).map(|_| s.next_u64()).collect()
        };
        let a2: Vec<u64> = {
            let mut s = fork(7, "traffic");
            (0..4).map(|_| s.next_u64()).collect()
        };
        assert_eq!(a1, a2);
        let mut other = fork(7, "faults");
        assert_ne!(a1[0], other.next_u64());
        let mut seed8 = fork(8, "traffic");
        assert_ne!(a1[0], seed8.next_u64());
    }

    /// Pins the algorithms: if these change, every saved link replays differently.
    #[test]
    fn streams_are_pinned() {
        let mut s = fork(1, "traffic");
        assert_eq!(s.next_u64(), PINNED_FIRST_DRAW);
        assert_eq!(mix64(0), 0xE220_A839_7B1D_CDAF);
    }
    const PINNED_FIRST_DRAW: u64 = 2_066_096_930_110_551_120;

    #[test]
    fn normal_quantiles_are_accurate() {
        assert!(std_normal(0.5).abs() < 1e-15);
        assert!((std_normal(0.99) - Z99).abs() < 1e-12);
        assert!((std_normal(0.025) + 1.959_963_984_540_054).abs() < 1e-12);
        assert!((std_normal(1e-10) + 6.361_340_902_404_056).abs() < 1e-9);
    }

    #[test]
    fn lognormal_hits_its_median_and_p99() {
        assert!((lognormal(20.0, 2000.0, 0.5) - 20.0).abs() < 1e-9);
        assert!((lognormal(20.0, 2000.0, 0.99) - 2000.0).abs() < 1e-6);
        assert_eq!(lognormal(20.0, 10.0, 0.99), 20.0, "p99 below median degenerates to constant");
    }

    #[test]
    fn keys_give_different_numbers_per_purpose_and_child() {
        let k = Key(42);
        assert_ne!(k.uniform(Purpose::Failure), k.uniform(Purpose::Service));
        assert_ne!(k.child(0, 1), k.child(0, 2));
        assert_ne!(k.child(0, 1), k.child(1, 1));
        assert_ne!(k.uniform_n(Purpose::Jitter, 1), k.uniform_n(Purpose::Jitter, 2));
        let u = k.uniform(Purpose::Failure);
        assert!((0.0..1.0).contains(&u));
    }
}

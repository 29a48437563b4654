//! Closed forms for a pool of c workers fed by one stream of arrivals (the queue lab).
//!
//! Exact results hold for **M/M/c** only: Poisson arrivals at rate λ, exponential service
//! at rate μ per worker, c workers, an unbounded FIFO queue, and λ < cμ (otherwise no
//! steady state exists and every figure but ρ is infinite):
//!
//! - offered load a = λ/μ, utilisation ρ = λ/(cμ) (this one holds for any distribution);
//! - Erlang C, the probability an arrival waits: C(c, a), computed from the Erlang B
//!   recursion B(0) = 1, B(k) = a·B(k−1)/(k + a·B(k−1)), then C = c·B / (c − a(1 − B));
//! - mean wait Wq = C/(cμ − λ); mean time in system W = Wq + 1/μ; L = λW (Little);
//! - waits are 0 with probability 1 − C, else exponential with rate cμ − λ, so the wait's
//!   p99 is ln(C/0.01)/(cμ − λ) (0 when C ≤ 1 %); the time in system is that wait plus an
//!   independent exponential service, whose tail
//!   P(T > t) = e^{−μt} + C·(e^{−μt} − e^{−(cμ−λ)t})/(c − 1 − a) is solved for its p99.
//!
//! With a queue limit (at most q calls wait; K = c + q in the system) **M/M/c/K** is a
//! finite birth–death chain, so a steady state exists at any load and the forms are exact:
//! p_n ∝ aⁿ/n! for n ≤ c and ∝ a^c/c!·(a/c)^(n−c) for c < n ≤ K; an arrival finding K is
//! turned away (P_K, by PASTA), so λ(1 − P_K) is let in; P(wait) = Σ_{c ≤ n < K} p_n / (1 − P_K)
//! among those let in; Lq = Σ (n − c)·p_n, Wq = Lq / (λ(1 − P_K)), W = Wq + 1/μ, L = λ(1 − P_K)·W;
//! the busy share is λ(1 − P_K)/(cμ). No p99 is drawn for it.
//!
//! Evenly spaced arrivals with exponential service, **D/M/c**, have an exact steady state
//! too (Takács' solution of GI/M/c, as in Gross & Harris): σ is the root in (0, 1) of
//! σ = A*(cμ(1 − σ)), A* the Laplace–Stieltjes transform of the gap between arrivals, which
//! for a fixed gap 1/λ is σ = e^{−(1−σ)/ρ}; an arrival waits with probability
//! P(wait) = C/(1 − σ), where 1/C = 1/(1 − σ) + Σ_{j=1..c} (c choose j)/(C_j(1 − g_j)) ·
//! (c(1 − g_j) − j)/(c(1 − σ) − j), g_j = A*(jμ) = e^{−j/(cρ)}, C_j = Π_{i≤j} g_i/(1 − g_i);
//! a wait, when there is one, is exponential with rate cμ(1 − σ), so Wq = P(wait)/(cμ(1 − σ))
//! and the time in system's tail is M/M/c's with those two numbers. (For Poisson arrivals
//! the same formulas give σ = ρ and Erlang C.) The sum is taken in logarithms: at a low load
//! its terms span hundreds of orders of magnitude.
//!
//! Other cases get no exact formula. The lab draws the **Allen–Cunneen** approximation for
//! the mean wait, Wq ≈ Wq(M/M/c) · (Ca² + Cs²)/2, with Ca² the squared coefficient of
//! variation of the gaps between arrivals (1 Poisson, 0 evenly spaced) and Cs² that of the
//! service time (0 constant, 1 exponential, e^{σ²} − 1 log-normal). For M/D/1 it is exact
//! (Pollaczek–Khinchine); for D/D/c it gives 0, which is also exact. No p99 is drawn then.

use serde::Serialize;

/// One pool under steady load.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Pool {
    /// Arrival rate λ (req/s).
    pub lambda: f64,
    /// Mean service time 1/μ (ms).
    pub service_ms: f64,
    /// Workers c (count).
    pub workers: u32,
}

/// Most states (c + q + 1) [`Pool::mmck`] sums: it runs on the page's thread, once for the
/// figures and 90 times for the curve. A longer queue gets the unbounded forms (at ρ < 1 a
/// queue that long is nearly never full).
pub const MMCK_MAX_STATES: u32 = 20_000;

/// Most workers [`Pool::dmc`] sums for: each of its c terms takes a few logarithms, and the
/// page's curve draws 60 of them on its thread (60,000 terms at this bound). A larger
/// pool with evenly spaced arrivals gets Allen–Cunneen's approximation.
pub const DMC_MAX_WORKERS: u32 = 1_000;

/// The closed-form figures of a pool.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Figures {
    /// The share of worker time busy (fraction): ρ = λ/(cμ), or λ(1 − P_K)/(cμ) with a
    /// queue limit.
    pub rho: f64,
    /// The probability an arrival waits (fraction): Erlang C, or with a queue limit the
    /// share of the calls let in that wait; `None` without a steady state.
    pub p_wait: Option<f64>,
    /// Mean wait for a worker Wq (ms).
    pub wait_ms: Option<f64>,
    /// Mean time in system W = Wq + 1/μ (ms).
    pub time_ms: Option<f64>,
    /// Mean number in system L = λW (count).
    pub in_system: Option<f64>,
    /// With a queue limit, the share of arrivals turned away, P_K (fraction); `None`
    /// without one.
    pub blocked: Option<f64>,
}

impl Pool {
    /// μ per worker (req/s).
    pub fn mu(&self) -> f64 {
        1000.0 / self.service_ms
    }

    /// Offered load a = λ/μ (erlangs).
    pub fn offered(&self) -> f64 {
        self.lambda * self.service_ms / 1000.0
    }

    /// ρ = λ/(cμ).
    pub fn rho(&self) -> f64 {
        self.offered() / f64::from(self.workers.max(1))
    }

    /// Whether a steady state exists (λ < cμ).
    pub fn stable(&self) -> bool {
        self.rho() < 1.0 && self.service_ms > 0.0
    }

    /// Erlang C(c, a), `None` when unstable.
    pub fn erlang_c(&self) -> Option<f64> {
        if !self.stable() {
            return None;
        }
        let (c, a) = (self.workers, self.offered());
        let mut b = 1.0;
        for k in 1..=c {
            b = a * b / (f64::from(k) + a * b);
        }
        Some(f64::from(c) * b / (f64::from(c) - a * (1.0 - b)))
    }

    /// The M/M/c figures.
    pub fn mmc(&self) -> Figures {
        self.scaled(1.0)
    }

    /// The M/M/c figures with the mean wait scaled by `factor` (Allen–Cunneen's
    /// (Ca² + Cs²)/2; 1 for M/M/c).
    pub fn scaled(&self, factor: f64) -> Figures {
        let rho = self.rho();
        let p_wait = self.erlang_c();
        // cμ − λ in req/ms, so that a wait comes out in ms.
        let spare = (f64::from(self.workers) * self.mu() - self.lambda) / 1000.0;
        let wait_ms = p_wait.map(|c| factor * c / spare);
        let time_ms = wait_ms.map(|w| w + self.service_ms);
        let in_system = time_ms.map(|w| self.lambda * w / 1000.0);
        Figures { rho, p_wait, wait_ms, time_ms, in_system, blocked: None }
    }

    /// The M/M/c/K figures with at most `queue` calls waiting (see the module's doc), at
    /// any load; `None` past [`MMCK_MAX_STATES`] or without a service time.
    pub fn mmck(&self, queue: u32) -> Option<Figures> {
        let c = self.workers.max(1);
        let k = c.checked_add(queue).filter(|&k| k < MMCK_MAX_STATES)?;
        if self.service_ms <= 0.0 || !self.lambda.is_finite() {
            return None;
        }
        let a = self.offered();
        // Unnormalised p_n from p_0 = 1, with every sum rescaled together when the terms
        // grow large (a heavy load): only their ratios matter.
        let (mut t, mut sum, mut waiting, mut queued) = (1.0_f64, 1.0_f64, 0.0_f64, 0.0_f64);
        // The sum without the last state: 1 − P_K from it keeps its digits when nearly every
        // arrival is turned away (1 − blocked would not).
        let mut below_k = sum;
        for n in 1..=k {
            t *= a / f64::from(n.min(c));
            if t > 1e250 {
                (t, sum, waiting, queued) = (t * 1e-250, sum * 1e-250, waiting * 1e-250, queued * 1e-250);
            }
            below_k = sum;
            sum += t;
            if n > c {
                queued += f64::from(n - c) * t;
            }
            // An arrival finding n (c ≤ n < K) is let in and waits; finding K, turned away.
            if n >= c && n < k {
                waiting += t;
            }
        }
        let (blocked, admitted) = (t / sum, below_k / sum);
        let let_in = self.lambda * admitted;
        let lq = queued / sum;
        let wait_ms = if let_in > 0.0 { lq / let_in * 1000.0 } else { 0.0 };
        let time_ms = wait_ms + self.service_ms;
        Some(Figures {
            rho: let_in * self.service_ms / 1000.0 / f64::from(c),
            p_wait: Some(if admitted > 0.0 { waiting / sum / admitted } else { 0.0 }),
            wait_ms: Some(wait_ms),
            time_ms: Some(time_ms),
            in_system: Some(let_in * time_ms / 1000.0),
            blocked: Some(blocked),
        })
    }

    /// The D/M/c figures (evenly spaced arrivals, exponential service; see the module's
    /// doc): exact, with an unbounded queue; without a steady state (ρ ≥ 1) only ρ.
    pub fn dmc(&self) -> Figures {
        let rho = self.rho();
        let none =
            Figures { rho, p_wait: None, wait_ms: None, time_ms: None, in_system: None, blocked: None };
        let Some((p_wait, theta)) = self.dmc_wait() else { return none };
        let wait_ms = p_wait / theta;
        let time_ms = wait_ms + self.service_ms;
        Figures {
            rho,
            p_wait: Some(p_wait),
            wait_ms: Some(wait_ms),
            time_ms: Some(time_ms),
            in_system: Some(self.lambda * time_ms / 1000.0),
            blocked: None,
        }
    }

    /// D/M/c's σ, the root in (0, 1) of σ = e^{−(1−σ)/ρ}, for ρ < 1 (bisection: the
    /// function σ − e^{−(1−σ)/ρ} is below 0 at 0 and above it just under 1).
    pub fn dmc_sigma(&self) -> Option<f64> {
        let rho = self.rho();
        if !(self.stable() && rho > 0.0) {
            return None;
        }
        let (mut lo, mut hi) = (0.0_f64, 1.0 - 1e-15);
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            if mid - (-(1.0 - mid) / rho).exp() < 0.0 {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        Some(0.5 * (lo + hi))
    }

    /// D/M/c's P(wait) and the rate of a wait (per ms), cμ(1 − σ); `None` without a steady
    /// state. Takács' sum in logarithms (signs apart), scaled by its largest term.
    fn dmc_wait(&self) -> Option<(f64, f64)> {
        let sigma = self.dmc_sigma()?;
        let c = self.workers.max(1);
        let (cf, rho) = (f64::from(c), self.rho());
        // (sign, ln |term|) of 1/(1 − σ) and each j's term.
        let mut terms: Vec<(f64, f64)> = Vec::with_capacity(c as usize + 1);
        terms.push((1.0, -(1.0 - sigma).ln()));
        let (mut ln_cj, mut ln_binom) = (0.0_f64, 0.0_f64);
        for j in 1..=c {
            let jf = f64::from(j);
            let x = jf / (cf * rho);
            // 1 − g_j without cancellation; ln g_j = −x.
            let one_less = -(-x).exp_m1();
            ln_cj += -x - one_less.ln();
            ln_binom += ((cf - jf + 1.0) / jf).ln();
            // (c(1 − g_j) − j)/(c(1 − σ) − j) without cancelling the two differences: since
            // σ = e^{−(1−σ)/ρ}, g_j = σe^y with y = (c − j − cσ)/(cρ), so the ratio is
            // 1 − (σ/ρ)(e^y − 1)/y (1 − σ/ρ at y = 0, where both differences vanish). At a
            // low load both are exactly 0 in floats for j = c, the sum's largest term.
            let y = ((cf - jf) - cf * sigma) / (cf * rho);
            let grows = if y == 0.0 { 1.0 } else { y.exp_m1() / y };
            let ratio = 1.0 - sigma / rho * grows;
            if ratio == 0.0 {
                continue;
            }
            let ln = ln_binom - ln_cj - one_less.ln() + ratio.abs().ln();
            terms.push((ratio.signum(), ln));
        }
        let top = terms.iter().map(|t| t.1).fold(f64::NEG_INFINITY, f64::max);
        let sum: f64 = terms.iter().map(|(sign, ln)| sign * (ln - top).exp()).sum();
        // A sum that is not positive (rounding gone wrong; never seen) or NaN gives nothing.
        if sum.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
            return None;
        }
        // P(wait) = C/(1 − σ) with 1/C = sum · e^{top}.
        let p_wait = ((-top).exp() / ((1.0 - sigma) * sum)).clamp(0.0, 1.0);
        Some((p_wait, cf * self.mu() * (1.0 - sigma) / 1000.0))
    }

    /// p99 of the time in system (ms) for D/M/c, by bisection on the tail.
    pub fn dmc_time_p99_ms(&self) -> Option<f64> {
        let (p_wait, theta) = self.dmc_wait()?;
        Some(self.p99_of(p_wait, theta))
    }

    /// p99 of the wait (ms) for M/M/c.
    pub fn wait_p99_ms(&self) -> Option<f64> {
        let c = self.erlang_c()?;
        let theta = (f64::from(self.workers) * self.mu() - self.lambda) / 1000.0;
        Some(if c <= 0.01 { 0.0 } else { (c / 0.01).ln() / theta })
    }

    /// P(time in system > t ms) for M/M/c.
    pub fn time_tail(&self, t_ms: f64) -> Option<f64> {
        Some(self.tail(self.erlang_c()?, self.mmc_theta(), t_ms))
    }

    /// The rate of an M/M/c wait (per ms): cμ − λ.
    fn mmc_theta(&self) -> f64 {
        (f64::from(self.workers) * self.mu() - self.lambda) / 1000.0
    }

    /// The tail of the time in system when an arrival waits with probability `c`, then an
    /// exponential time of rate `theta` (per ms), then its exponential service (P(wait)
    /// computed once: it costs O(c)).
    fn tail(&self, c: f64, theta: f64, t_ms: f64) -> f64 {
        let mu = self.mu() / 1000.0;
        let es = (-mu * t_ms).exp();
        let d = theta - mu;
        // X + S with X ~ Exp(θ), S ~ Exp(μ): (θe^{−μt} − μe^{−θt})/(θ − μ), or (1 + μt)e^{−μt}
        // when θ = μ.
        let both = if (d / mu).abs() < 1e-9 {
            (1.0 + mu * t_ms) * es
        } else {
            (theta * es - mu * (-theta * t_ms).exp()) / d
        };
        (1.0 - c) * es + c * both
    }

    /// p99 of the time in system (ms) for M/M/c, by bisection on the tail.
    pub fn time_p99_ms(&self) -> Option<f64> {
        Some(self.p99_of(self.erlang_c()?, self.mmc_theta()))
    }

    /// The p99 of [`tail`](Self::tail) (ms), by bisection.
    fn p99_of(&self, c: f64, theta: f64) -> f64 {
        let (mut lo, mut hi) = (0.0, self.service_ms);
        while self.tail(c, theta, hi) > 0.01 {
            hi *= 2.0;
        }
        for _ in 0..100 {
            let mid = 0.5 * (lo + hi);
            if self.tail(c, theta, mid) > 0.01 {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        0.5 * (lo + hi)
    }
}

/// Allen–Cunneen's factor (Ca² + Cs²)/2.
pub fn allen_cunneen(ca2: f64, cs2: f64) -> f64 {
    (ca2 + cs2) / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool(lambda: f64, mu: f64, c: u32) -> Pool {
        Pool { lambda, service_ms: 1000.0 / mu, workers: c }
    }

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn d_m_c_is_takacs_solution() {
        // Source 002's workload with evenly spaced arrivals: D/M/8 at ρ = 0.6 (λ = 120/s,
        // 40 ms). σ = e^{−(1−σ)/0.6} = 0.32424…; Takács' sum evaluated to 400 digits gives
        // P(wait) = 0.0275532396648985, so Wq = P(wait)/(cμ(1 − σ)) = 0.20387 ms (a
        // 300,000-request simulation gives 2.7 % and 0.20 ms; Erlang C says 13.95 %).
        let p = pool(120.0, 25.0, 8);
        let sigma = p.dmc_sigma().expect("a steady state");
        assert!(close(sigma, 0.3242432664, 1e-9), "{sigma}");
        let f = p.dmc();
        assert!(close(f.p_wait.unwrap(), 0.027553239664898532, 1e-12), "{f:?}");
        assert!(close(f.wait_ms.unwrap(), 0.203869516171054, 1e-9), "{f:?}");
        assert!(close(f.time_ms.unwrap(), 40.203_869_516_171_05, 1e-9), "{f:?}");
        // D/M/1: an arrival waits with probability σ, for 1/(μ(1 − σ)) on average, at every
        // load (at ρ = 0.02, σ = 1.9e-22: the first version said 1 there, its largest term
        // lost to cancellation).
        for lambda in [0.5, 5.0, 18.0, 24.0] {
            let one = pool(lambda, 25.0, 1);
            let s1 = one.dmc_sigma().unwrap();
            let f = one.dmc();
            assert!((f.p_wait.unwrap() - s1).abs() <= 1e-12 * s1, "λ = {lambda}: {f:?} vs σ {s1}");
            let want = s1 * 1000.0 / (25.0 * (1.0 - s1));
            assert!((f.wait_ms.unwrap() - want).abs() <= 1e-9 * want.max(1e-300), "λ = {lambda}: {f:?}");
        }
        // Low loads (where the sum's terms span hundreds of orders of magnitude, and where
        // for c = 1 both differences of its last term vanish in floats) and large pools:
        // the sum evaluated to 80 and 400 digits.
        let big = |c: u32, rho: f64| pool(rho * f64::from(c) * 25.0, 25.0, c).dmc().p_wait.unwrap();
        for (c, rho, want) in [
            (8, 0.1, 4.518_914_406_326_028e-20),
            (50, 0.3, 6.380_459_683_957_052e-29),
            (3, 0.05, 4.253_774_791_123_639e-18),
            (2, 0.5, 0.103_448_879_739_974_74),
            (200, 0.9, 0.02149576789153485),
            (1000, 0.9, 1.6381609829880804e-06),
            (1000, 0.99, 0.5434269361286497),
        ] {
            let got = big(c, rho);
            assert!((got - want).abs() <= 1e-9 * want, "c = {c}, ρ = {rho}: {got} vs {want}");
        }
        // No steady state at ρ ≥ 1.
        assert_eq!(pool(200.0, 25.0, 8).dmc().p_wait, None);
        // The p99 of the time in system: its tail at the p99 is 1 %.
        let p99 = p.dmc_time_p99_ms().unwrap();
        let (pw, theta) = p.dmc_wait().unwrap();
        assert!(close(p.tail(pw, theta, p99), 0.01, 1e-9), "{p99}");
    }

    #[test]
    fn takacs_formula_for_poisson_arrivals_is_erlang_c() {
        // The formula, not the code: Takács' sum in its general form with A*(s) = λ/(λ + s)
        // gives σ = ρ and Erlang C, a check that the sum `dmc_wait` specialises is written
        // down right (the code itself is held to high-precision values above).
        let p = pool(120.0, 25.0, 8);
        let (c, rho, mu) = (8.0_f64, 0.6_f64, 25.0_f64);
        let lambda = rho * c * mu;
        let a = |s: f64| lambda / (lambda + s);
        let sigma = rho;
        let (mut cj, mut sum) = (1.0_f64, 1.0 / (1.0 - sigma));
        for j in 1..=8u32 {
            let g = a(f64::from(j) * mu);
            cj *= g / (1.0 - g);
            let binom = (1..=j).fold(1.0, |b, i| b * f64::from(8 - i + 1) / f64::from(i));
            sum += binom / (cj * (1.0 - g)) * (c * (1.0 - g) - f64::from(j))
                / (c * (1.0 - sigma) - f64::from(j));
        }
        let p_wait = 1.0 / sum / (1.0 - sigma);
        assert!(close(p_wait, p.erlang_c().unwrap(), 1e-12), "{p_wait} vs {:?}", p.erlang_c());
    }

    #[test]
    fn erlang_c_for_textbook_cases() {
        // c = 2, λ = 1.5, μ = 1: a = 1.5; a²/2! · c/(c − a) = 1.125 · 4 = 4.5; Σ_{k<2} aᵏ/k!
        // = 2.5; C = 4.5 / 7 = 9/14 = 0.642857…
        let p = pool(1.5, 1.0, 2);
        assert!(close(p.erlang_c().unwrap(), 9.0 / 14.0, 1e-12));
        assert_eq!(format!("{:.4}", p.erlang_c().unwrap()), "0.6429");
        // Wq = C/(cμ − λ) = (9/14)/0.5 = 9/7 s; W = 9/7 + 1 = 16/7 s; L = 1.5 · 16/7 = 24/7.
        let f = p.mmc();
        assert!(close(f.wait_ms.unwrap(), 9000.0 / 7.0, 1e-9));
        assert!(close(f.time_ms.unwrap(), 16000.0 / 7.0, 1e-9));
        assert!(close(f.in_system.unwrap(), 24.0 / 7.0, 1e-12));
        // c = 3, λ = 2, μ = 1: a³/3! · 3/(3 − 2) = 4; Σ_{k<3} = 1 + 2 + 2 = 5; C = 4/9.
        assert!(close(pool(2.0, 1.0, 3).erlang_c().unwrap(), 4.0 / 9.0, 1e-12));
        // M/M/1: C = ρ, Wq = ρ/(μ − λ): λ = 0.8, μ = 1 → 0.8 and 4 s.
        let m1 = pool(0.8, 1.0, 1);
        assert!(close(m1.erlang_c().unwrap(), 0.8, 1e-12));
        assert!(close(m1.mmc().wait_ms.unwrap(), 4000.0, 1e-9));
    }

    #[test]
    fn erlang_c_matches_the_direct_sum() {
        // Source 002's workload as M/M/8: a = 4.8. The direct formula, term by term.
        let p = pool(120.0, 25.0, 8);
        let a: f64 = 4.8;
        let fact = |n: u32| (1..=n).map(f64::from).product::<f64>();
        let top = a.powi(8) / fact(8) * 8.0 / (8.0 - a);
        let sum: f64 = (0..8).map(|k| a.powi(k as i32) / fact(k)).sum();
        assert!(close(p.erlang_c().unwrap(), top / (sum + top), 1e-12));
        assert!(close(p.rho(), 0.6, 1e-12));
    }

    #[test]
    fn tails_and_percentiles() {
        // M/M/1, λ = 0.8, μ = 1: the time in system is exponential with rate μ − λ = 0.2/s,
        // so its p99 is ln(100)/0.2 s = 23.03 s; the wait's p99 is ln(0.8/0.01)/0.2 s.
        let m1 = pool(0.8, 1.0, 1);
        assert!(close(m1.time_p99_ms().unwrap(), 100.0f64.ln() / 0.2 * 1000.0, 1e-6));
        assert!(close(m1.wait_p99_ms().unwrap(), 80.0f64.ln() / 0.2 * 1000.0, 1e-6));
        // θ = μ (c − 1 − a = 0): c = 2, λ = 1, μ = 1 takes the limit branch; the tail is 1 at 0.
        let p = pool(1.0, 1.0, 2);
        assert!(close(p.time_tail(0.0).unwrap(), 1.0, 1e-12));
        assert!(p.time_p99_ms().unwrap() > p.wait_p99_ms().unwrap());
        // Light load: almost nobody waits, the wait's p99 is 0.
        assert_eq!(pool(1.0, 25.0, 8).wait_p99_ms(), Some(0.0));
    }

    #[test]
    fn unstable_pools_have_no_steady_state() {
        let p = pool(210.0, 25.0, 8);
        assert!(!p.stable());
        assert!(close(p.rho(), 1.05, 1e-12));
        assert_eq!(p.mmc().wait_ms, None);
        assert_eq!(p.time_p99_ms(), None);
    }

    #[test]
    fn mmck_matches_m_m_1_k_and_erlang_b() {
        // M/M/1/K: p_n = (1 − ρ)ρⁿ/(1 − ρ^{K+1}). λ = 0.8, μ = 1, one place to wait (K = 2):
        // p = (1, 0.8, 0.64)/2.44; turned away 0.64/2.44; of those let in, the share that
        // waits is p_1/(1 − p_2); Lq = p_2; Wq = Lq/(λ(1 − p_2)).
        let f = pool(0.8, 1.0, 1).mmck(1).unwrap();
        let (p1, p2) = (0.8 / 2.44, 0.64 / 2.44);
        assert!(close(f.blocked.unwrap(), p2, 1e-12));
        assert!(close(f.p_wait.unwrap(), p1 / (1.0 - p2), 1e-12));
        assert!(close(f.wait_ms.unwrap(), p2 / (0.8 * (1.0 - p2)) * 1000.0, 1e-9));
        assert!(close(f.in_system.unwrap(), p1 + 2.0 * p2, 1e-12), "L = Σ n·p_n");
        assert!(close(f.rho, 1.0 - 1.0 / 2.44, 1e-12), "busy = 1 − p_0");
        // No room to wait (K = c): Erlang B, the loss formula. c = 2, a = 1.5: B = (a²/2)/(1 + a + a²/2).
        let b = pool(1.5, 1.0, 2).mmck(0).unwrap();
        assert!(close(b.blocked.unwrap(), 1.125 / 3.625, 1e-12));
        assert_eq!(b.wait_ms, Some(0.0));
    }

    #[test]
    fn mmck_tends_to_mmc_and_stays_finite_past_capacity() {
        // Source 002's workload with a long queue: the unbounded forms.
        let p = pool(120.0, 25.0, 8);
        let (long, mmc) = (p.mmck(5_000).unwrap(), p.mmc());
        assert!(close(long.p_wait.unwrap(), mmc.p_wait.unwrap(), 1e-9));
        assert!(close(long.wait_ms.unwrap(), mmc.wait_ms.unwrap(), 1e-9));
        assert!(long.blocked.unwrap() < 1e-12);
        // 210/s on 8 workers of 25/s behind 50 places (the queue lab's overload preset): a
        // steady state exists; about 5 % turned away, the queue mostly full, every worker
        // nearly always busy, and the wait short of the 250 ms a full queue takes to drain.
        let over = pool(210.0, 25.0, 8).mmck(50).unwrap();
        // The overload story's figures (5 %, two-thirds full, ≈ 170 ms), as computed by hand
        // from the birth–death sums.
        let blocked = over.blocked.unwrap();
        assert!(close(blocked, 0.051_263, 1e-6), "{blocked}");
        assert!(close(over.rho, 210.0 * (1.0 - blocked) / 200.0, 1e-12));
        assert!(close(over.wait_ms.unwrap(), 171.521, 1e-3), "{over:?}");
        let lq = over.wait_ms.unwrap() / 1000.0 * 210.0 * (1.0 - blocked);
        assert!(close(lq / 50.0, 0.683, 1e-3), "the queue two-thirds full on average: {lq}");
        // A heavy load past the scale where the terms would overflow: still a number.
        let heavy = pool(1e6, 1.0, 1000).mmck(10_000).unwrap();
        assert!(heavy.blocked.unwrap() > 0.99 && heavy.wait_ms.unwrap().is_finite(), "{heavy:?}");
        assert_eq!(pool(1.0, 1.0, 1).mmck(MMCK_MAX_STATES), None, "too many states for the page");
        // Nearly every arrival turned away: the one worker is still always busy. 1 − P_K
        // taken from P_K itself rounded to 0 (a busy share of 0).
        let swamped = pool(1e17, 1.0, 1).mmck(1).unwrap();
        assert!(close(swamped.rho, 1.0, 1e-9), "{swamped:?}");
    }

    #[test]
    fn allen_cunneen_is_exact_for_md1() {
        // M/D/1 (Pollaczek–Khinchine): Wq = ρ/(2μ(1 − ρ)); at ρ = 0.8, μ = 1: 2 s, half of
        // M/M/1's 4 s.
        let f = pool(0.8, 1.0, 1).scaled(allen_cunneen(1.0, 0.0));
        assert!(close(f.wait_ms.unwrap(), 2000.0, 1e-9));
        assert_eq!(allen_cunneen(0.0, 0.0), 0.0, "D/D/c: nobody waits");
    }
}

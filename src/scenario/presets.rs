//! Presets named after the source documents. Each is a plain scenario a learner can start
//! from; the numbers the sources give are asserted on their reports in `tests/`.

use super::*;
use crate::i18n::T;
use crate::policy::retry::{Backoff, Jitter, RetryOn};

/// A named, explained starting point.
pub struct Preset {
    /// The name used in URLs and on the command line.
    pub name: &'static str,
    /// One-line story (title).
    pub title: T,
    /// What to look at.
    pub story: T,
    /// Builds the scenario.
    pub build: fn() -> Scenario,
}

/// Every preset, in the order the picker shows them.
pub fn all() -> &'static [Preset] {
    PRESETS
}

/// Finds a preset by name.
pub fn find(name: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.name == name)
}

/// The preset the retry-storm page opens on.
pub const DEFAULT: &str = "lab11-unprotected";

static PRESETS: &[Preset] = &[
    Preset {
        name: "lab11-unprotected",
        title: T::PresetLab11Unprotected,
        story: T::PresetLab11UnprotectedStory,
        build: lab11_unprotected,
    },
    Preset {
        name: "lab11-protected",
        title: T::PresetLab11Protected,
        story: T::PresetLab11ProtectedStory,
        build: lab11_protected,
    },
    Preset {
        name: "lab11-budget-150",
        title: T::PresetLab11Budget150,
        story: T::PresetLab11Budget150Story,
        build: lab11_budget_150,
    },
    Preset { name: "chain-2x3", title: T::PresetChain2x3, story: T::PresetChain2x3Story, build: chain_2x3 },
    Preset { name: "chain-3x3", title: T::PresetChain3x3, story: T::PresetChain3x3Story, build: chain_3x3 },
    Preset { name: "chain-3x4", title: T::PresetChain3x4, story: T::PresetChain3x4Story, build: chain_3x4 },
    Preset {
        name: "recommendation-500rps",
        title: T::PresetRecommendation500,
        story: T::PresetRecommendation500Story,
        build: recommendation_500rps,
    },
];

/// A retrying caller: `attempts` in all, a fixed backoff in ms (0 = none).
pub fn retrying(attempts: u32, backoff_ms: f64) -> Client {
    Client {
        retry: RetryPolicy {
            max_attempts: attempts,
            retry_on: RetryOn::default(),
            backoff: if backoff_ms > 0.0 { Backoff::Fixed { ms: backoff_ms } } else { Backoff::None },
            jitter: Jitter::None,
            honor_retry_after: true,
        },
        ..Client::default()
    }
}

/// A layer with unlimited workers and no protections but its retries.
pub fn layer(name: &str, client: Client) -> Layer {
    Layer {
        name: name.to_string(),
        server: Server::default(),
        work: Dist::default(),
        deadline_ms: None,
        client,
        side_deps: Vec::new(),
        shared_pool: None,
    }
}

/// A leaf that holds each call `ms` and fails with probability `error_rate`.
pub fn leaf(name: &str, ms: f64, error_rate: f64) -> Leaf {
    Leaf {
        name: name.to_string(),
        server: Server::default(),
        work: Dist::Constant { ms },
        error_rate,
        client_error_rate: 0.0,
    }
}

fn base(name: &str, load: Load, layers: Vec<Layer>, leaf: Leaf) -> Scenario {
    Scenario {
        name: name.to_string(),
        seed: default_seed(),
        load,
        layers,
        leaf,
        faults: Vec::new(),
        cancel_on_timeout: false,
        report: ReportOptions::default(),
    }
}

/// Source 000, lab 11 without protection: 100 requests at once; the page retries the
/// recommendation service at once, which retries the slow profile service after 20 ms;
/// every profile call holds 100 ms and fails.
pub fn lab11_unprotected() -> Scenario {
    base(
        "lab11-unprotected",
        Load::Batch { requests: 100 },
        vec![layer("page", retrying(3, 0.0)), layer("recommendation", retrying(3, 20.0))],
        leaf("profile", 100.0, 1.0),
    )
}

/// Source 000, lab 11 protected: the entry admits a burst of 20 and fast-rejects the rest,
/// sets a 250 ms budget and degrades instead of failing; the recommendation client is the
/// only retrying layer (2 attempts, 20 ms backoff) and only tries when 100 ms remain.
pub fn lab11_protected() -> Scenario {
    let mut page = layer("page", Client { fallback: Some(Fallback::Unavailable), ..retrying(1, 0.0) });
    page.deadline_ms = Some(250.0);
    page.server.admission = Some(AdmissionConfig {
        token_bucket: Some(TokenBucketConfig { capacity: 20, rate_per_s: 20.0, cost: 1 }),
        concurrency_limit: None,
        retry_after_ms: 1000.0,
    });
    let rec = layer("recommendation", Client { min_useful_ms: 100.0, ..retrying(2, 20.0) });
    base("lab11-protected", Load::Batch { requests: 100 }, vec![page, rec], leaf("profile", 100.0, 1.0))
}

/// The protected lab with the budget cut to 150 ms: after the first failure only 30 ms
/// would remain after the backoff, less than the 100 ms a try needs, so no retry is sent.
pub fn lab11_budget_150() -> Scenario {
    let mut s = lab11_protected();
    s.name = "lab11-budget-150".to_string();
    s.layers[0].deadline_ms = Some(150.0);
    s
}

fn failing_chain(name: &str, rate: f64, attempts: u32, layers: usize) -> Scenario {
    let names =
        ["client", "gateway", "order", "service-4", "service-5", "service-6", "service-7", "service-8"];
    let ls = (0..layers).map(|i| layer(names[i], retrying(attempts, 0.0))).collect();
    base(
        name,
        Load::Constant { rate_per_s: rate, peak_factor: 1.0, duration_ms: 1000.0 },
        ls,
        leaf("payment", 10.0, 1.0),
    )
}

/// Sources 000/002: 2 layers × 3 attempts against an always-failing leaf: 9×.
pub fn chain_2x3() -> Scenario {
    let mut s = failing_chain("chain-2x3", 500.0, 3, 2);
    s.layers[0].name = "page".into();
    s.layers[1].name = "recommendation".into();
    s.leaf.name = "profile".into();
    s
}

/// Source 001: client → gateway → order → payment, 3 × 3 × 3 = 27×; 1,000 QPS → 27,000.
pub fn chain_3x3() -> Scenario {
    failing_chain("chain-3x3", 1000.0, 3, 3)
}

/// Source 002: "first + 3 retries" on 3 layers = 4³ = 64×.
pub fn chain_3x4() -> Scenario {
    failing_chain("chain-3x4", 1000.0, 4, 3)
}

/// Source 000's peak: 500 req/s through page → recommendation → profile, 2 layers × 3
/// attempts, the profile service degraded to 800 ms per call behind a pool of 200: demand
/// (400 connections before any retry) exceeds the pool, calls queue, time out and are
/// retried, and abandoned calls still occupy the pool.
pub fn recommendation_500rps() -> Scenario {
    let mut page = layer("page", Client { per_try_timeout_ms: Some(3000.0), ..retrying(3, 0.0) });
    page.server.workers = None;
    let rec = layer("recommendation", Client { per_try_timeout_ms: Some(1000.0), ..retrying(3, 0.0) });
    let mut profile = leaf("profile", 800.0, 0.0);
    profile.server.workers = Some(200);
    base(
        "recommendation-500rps",
        Load::Constant { rate_per_s: 100.0, peak_factor: 5.0, duration_ms: 10_000.0 },
        vec![page, rec],
        profile,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_is_valid_and_named_after_itself() {
        for p in all() {
            let s = (p.build)();
            assert_eq!(s.name, p.name);
            assert_eq!(validate(&s), Ok(()), "{}", p.name);
            assert_eq!(find(p.name).map(|f| f.name), Some(p.name));
        }
        assert!(find(DEFAULT).is_some());
        assert!(find("nope").is_none());
    }
}

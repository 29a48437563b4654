//! Presets named after the source documents. Each is a plain scenario a learner can start
//! from; the numbers the sources give are asserted on their reports in `tests/`.

use super::*;
use crate::i18n::T;
use crate::policy::breaker::BreakerConfig;
use crate::policy::bulkhead::BulkheadConfig;
use crate::policy::retry::{Backoff, Jitter, RetryOn};
use crate::policy::retry_budget::RetryBudgetConfig;

/// A preset's comparison scenario, with the title compare mode heads side B with.
#[derive(Clone, Copy)]
pub struct Versus {
    pub title: T,
    pub build: fn() -> Scenario,
}

/// A named, explained starting point.
pub struct Preset {
    /// The name used in URLs and on the command line.
    pub name: &'static str,
    /// One-line story (title).
    pub title: T,
    /// What to look at. A story that names an order of protections says `{order}`, filled
    /// from the compiled stack of the client calling `story_stack` (see [`Preset::story`]).
    pub story: T,
    /// The callee (a service name) whose caller's stack the story's `{order}` names.
    pub story_stack: Option<&'static str>,
    /// Builds the scenario.
    pub build: fn() -> Scenario,
    /// A second scenario to compare against on the same seed and traffic (compare mode's
    /// side B; `lab run --versus`).
    pub versus: Option<Versus>,
    /// The storm page's controls that matter for this preset's lesson, as URL keys
    /// (`l1.attempts`, `rate`, or `layers` for the layers stepper); the page shows these
    /// first, with every other control one click away.
    pub knobs: &'static [&'static str],
}

impl Preset {
    /// The story in `lang`, with `{order}` filled from the engine's own compiled stack (the
    /// order `clients[i].stack` reports), so the story cannot state another order.
    pub fn story(&self, lang: crate::i18n::Lang) -> String {
        let order = self.story_stack.map(|callee| {
            let plan = crate::model::chain::plan::compile(&(self.build)());
            let stack = plan
                .clients
                .iter()
                .find(|c| plan.hops.get(c.callee).is_some_and(|h| h.name == callee))
                .map(|c| c.stack())
                .unwrap_or_default();
            stack.iter().map(|&st| lang.stage_word(st)).collect::<Vec<_>>().join(" → ")
        });
        lang.f(self.story, &[("order", order.as_deref().unwrap_or(""))])
    }
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
        versus: Some(Versus { title: T::PresetLab11Protected, build: lab11_protected }),
        story_stack: None,
        knobs: &["l1.attempts", "l2.attempts", "l2.backoff_ms", "requests"],
    },
    Preset {
        name: "lab11-protected",
        title: T::PresetLab11Protected,
        story: T::PresetLab11ProtectedStory,
        build: lab11_protected,
        versus: Some(Versus { title: T::PresetLab11Budget150, build: lab11_budget_150 }),
        story_stack: None,
        knobs: &["l1.attempts", "l2.attempts", "l2.budget", "l2.per_try", "requests"],
    },
    Preset {
        name: "lab11-budget-150",
        title: T::PresetLab11Budget150,
        story: T::PresetLab11Budget150Story,
        build: lab11_budget_150,
        versus: None,
        story_stack: None,
        knobs: &["l1.attempts", "l2.attempts", "l2.budget", "l1.deadline"],
    },
    Preset {
        name: "chain-2x3",
        title: T::PresetChain2x3,
        story: T::PresetChain2x3Story,
        build: chain_2x3,
        versus: None,
        story_stack: None,
        knobs: &["layers", "l1.attempts", "l2.attempts", "leaf.error"],
    },
    Preset {
        name: "chain-3x3",
        title: T::PresetChain3x3,
        story: T::PresetChain3x3Story,
        build: chain_3x3,
        versus: None,
        story_stack: None,
        knobs: &["layers", "l1.attempts", "l2.attempts", "l3.attempts", "leaf.error"],
    },
    Preset {
        name: "chain-3x4",
        title: T::PresetChain3x4,
        story: T::PresetChain3x4Story,
        build: chain_3x4,
        versus: None,
        story_stack: None,
        knobs: &["layers", "l1.attempts", "l2.attempts", "l3.attempts", "leaf.error"],
    },
    Preset {
        name: "recommendation-500rps",
        title: T::PresetRecommendation500,
        story: T::PresetRecommendation500Story,
        build: recommendation_500rps,
        versus: None,
        story_stack: None,
        knobs: &["rate", "l1.attempts", "l2.attempts", "l2.per_try", "leaf.workers"],
    },
    Preset {
        name: "big-promo",
        title: T::PresetBigPromo,
        story: T::PresetBigPromoStory,
        build: big_promo,
        versus: Some(Versus { title: T::PresetBigPromoProtected, build: big_promo_protected }),
        story_stack: None,
        knobs: &["rate", "f1.factor", "f2.factor", "l2.shared_pool", "l1.attempts", "slo"],
    },
    Preset {
        name: "big-promo-protected",
        title: T::PresetBigPromoProtected,
        story: T::PresetBigPromoProtectedStory,
        build: big_promo_protected,
        versus: Some(Versus { title: T::PresetBigPromo, build: big_promo }),
        story_stack: Some("recommendations"),
        knobs: &["l1.rate_limit", "l1.budget", "s1.bulkhead", "s1.per_try", "s1.breaker", "slo"],
    },
    Preset {
        name: "breaker-demo",
        title: T::PresetBreakerDemo,
        story: T::PresetBreakerDemoStory,
        build: breaker_demo,
        versus: None,
        story_stack: None,
        knobs: &["l1.breaker", "l1.window", "l1.min_calls", "l1.failure_pct", "l1.open_ms"],
    },
    Preset {
        name: "bulkhead-shared-vs-isolated",
        title: T::PresetBulkhead,
        story: T::PresetBulkheadStory,
        build: bulkhead_shared,
        versus: Some(Versus { title: T::VersusBulkheadIsolated, build: bulkhead_isolated }),
        story_stack: None,
        knobs: &["rate", "l1.shared_pool", "s1.pool", "f1.factor"],
    },
    Preset {
        name: "metastable-retry-storm",
        title: T::PresetMetastable,
        story: T::PresetMetastableStory,
        build: metastable_retry_storm,
        versus: Some(Versus { title: T::VersusMetastableBudget, build: metastable_with_budget }),
        story_stack: None,
        knobs: &["rate", "l1.attempts", "l1.budget", "f1.factor", "f1.end"],
    },
];

/// A retrying caller: `attempts` in all, a fixed backoff in ms (0 = none).
pub fn retrying(attempts: u32, backoff_ms: f64) -> Client {
    Client {
        retry: RetryPolicy {
            max_attempts: attempts,
            retry_on: RetryOn::default(),
            backoff: if backoff_ms > 0.0 { Backoff::Fixed { ms: backoff_ms } } else { Backoff::None {} },
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
        empty_rate: 0.0,
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
        slo: Default::default(),
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
    let mut page = layer("page", Client { fallback: Some(Fallback::Unavailable {}), ..retrying(1, 0.0) });
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
    // Source 001's three, then numbered as the layer editor numbers the layers it adds.
    let hop_name = |i: usize| match ["client", "gateway", "order"].get(i) {
        Some(n) => n.to_string(),
        None => crate::i18n::fill(crate::i18n::T::SvcNumbered.en(), &[("n", &(i + 1).to_string())]),
    };
    let ls = (0..layers).map(|i| layer(&hop_name(i), retrying(attempts, 0.0))).collect();
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
        Load::Constant { rate_per_s: 100.0, peak_factor: 5.0, duration_ms: 5_000.0 },
        vec![page, rec],
        profile,
    )
}

/// A side dependency called by a layer.
pub fn side(target: Leaf, client: Client) -> SideDep {
    SideDep { target, client, needed_by: 1.0 }
}

/// The recommendation service of sources 000/003: usually 20 ms (p99 100 ms).
fn recommendations() -> Leaf {
    Leaf { work: Dist::LogNormal { median_ms: 20.0, p99_ms: 100.0 }, ..leaf("recommendations", 0.0, 0.0) }
}

/// The core dependency the product/order path needs: fast and healthy.
fn order_core() -> Leaf {
    Leaf { work: Dist::Exponential { mean_ms: 5.0 }, ..leaf("order-core", 0.0, 0.0) }
}

fn window(target: &str, start_ms: f64, end_ms: f64, effect: FaultEffect) -> Fault {
    Fault { target: target.to_string(), start_ms, end_ms, effect }
}

/// Source 003's incident, unprotected: a ×5 promotion surge, recommendations slow to a
/// p99 of about 2 s, every dependency on one shared pool of 8 threads with an unbounded
/// queue, no timeouts worth the name, and an app that retries at once. Order calls queue
/// behind slow recommendation calls; the app times out and retries; the order path, which
/// never needed recommendations, goes down with them.
pub fn big_promo() -> Scenario {
    let app = layer("app", Client { per_try_timeout_ms: Some(2000.0), ..retrying(3, 0.0) });
    let mut product = layer("product", Client { use_shared_pool: true, fallback: None, ..retrying(1, 0.0) });
    product.shared_pool = Some(SharedPool { size: 8, queue: None });
    product.side_deps = vec![side(
        recommendations(),
        Client { use_shared_pool: true, fallback: Some(Fallback::Unavailable {}), ..retrying(1, 0.0) },
    )];
    let mut s = base(
        "big-promo",
        Load::Poisson { rate_per_s: 60.0, peak_factor: 1.0, duration_ms: 40_000.0 },
        vec![app, product],
        order_core(),
    );
    s.faults = vec![
        window("", 10_000.0, 25_000.0, FaultEffect::Surge { factor: 5.0 }),
        window("recommendations", 10_000.0, 30_000.0, FaultEffect::Latency { factor: 20.0 }),
    ];
    s
}

/// Source 003's protection chain on the same incident: entry rate limit (429 +
/// Retry-After) → a recommendation bulkhead of 20 with no queue → a 150 ms timeout → a
/// breaker (≥ 20 calls, ≥ 50 %) → the hot list as a labelled stale fallback; the order
/// path has its own bulkhead; the app backs off with jitter inside a retry budget. Orders
/// keep ≥ 99.9 % success while recommendations degrade visibly.
pub fn big_promo_protected() -> Scenario {
    let mut s = big_promo();
    s.name = "big-promo-protected".to_string();
    let app = &mut s.layers[0];
    app.client.retry.max_attempts = 2;
    app.client.retry.backoff = Backoff::Exponential { base_ms: 100.0, cap_ms: 1000.0 };
    app.client.retry.jitter = Jitter::Full;
    app.client.per_try_timeout_ms = Some(1000.0);
    app.client.retry_budget = Some(RetryBudgetConfig::Ratio { max_tokens: 100.0, retry_ratio: 0.1 });
    // The rate limit sits at the entry, where a 429 turns a request away before it costs
    // anything downstream.
    app.server.admission = Some(AdmissionConfig {
        token_bucket: Some(TokenBucketConfig { capacity: 60, rate_per_s: 240.0, cost: 1 }),
        concurrency_limit: None,
        retry_after_ms: 1000.0,
    });
    let product = &mut s.layers[1];
    product.shared_pool = None;
    product.client.use_shared_pool = false;
    product.client.bulkhead =
        Some(BulkheadConfig { max_concurrent: 16, max_queue: 32, queue_timeout_ms: Some(100.0) });
    product.client.per_try_timeout_ms = Some(200.0);
    let recs = &mut product.side_deps[0].client;
    recs.use_shared_pool = false;
    recs.bulkhead = Some(BulkheadConfig { max_concurrent: 20, max_queue: 0, queue_timeout_ms: None });
    recs.per_try_timeout_ms = Some(150.0);
    recs.breaker = Some(BreakerConfig { open_ms: 5000.0, half_open_calls: 3, ..BreakerConfig::default() });
    recs.fallback = Some(Fallback::Stale { age_ms: 60_000.0 });
    s
}

/// A dependency fails for five seconds, then recovers: the breaker (window 20, ≥ 50 %)
/// opens, half-opens after 2 s with 3 probes, opens again while the failure lasts, and
/// closes once the probes succeed.
pub fn breaker_demo() -> Scenario {
    let mut shop = layer(
        "shop",
        Client {
            per_try_timeout_ms: Some(300.0),
            breaker: Some(BreakerConfig { open_ms: 2000.0, half_open_calls: 3, ..BreakerConfig::default() }),
            fallback: Some(Fallback::Unavailable {}),
            ..retrying(1, 0.0)
        },
    );
    shop.name = "shop".into();
    let inventory = Leaf { work: Dist::Exponential { mean_ms: 10.0 }, ..leaf("inventory", 0.0, 0.01) };
    let mut s = base(
        "breaker-demo",
        Load::Poisson { rate_per_s: 100.0, peak_factor: 1.0, duration_ms: 15_000.0 },
        vec![shop],
        inventory,
    );
    s.faults = vec![window("inventory", 3000.0, 8000.0, FaultEffect::ErrorRate { rate: 1.0 })];
    s
}

/// Source 003's bulkhead counter-example: the product service calls the order core and
/// recommendations on one shared pool of 8 threads; recommendations slow down for 10 s
/// and take every thread, so order calls queue behind them.
pub fn bulkhead_shared() -> Scenario {
    let mut product = layer(
        "product",
        Client { use_shared_pool: true, per_try_timeout_ms: Some(500.0), ..retrying(1, 0.0) },
    );
    product.shared_pool = Some(SharedPool { size: 8, queue: None });
    product.side_deps = vec![side(
        recommendations(),
        Client {
            use_shared_pool: true,
            per_try_timeout_ms: Some(1000.0),
            fallback: Some(Fallback::Unavailable {}),
            ..retrying(1, 0.0)
        },
    )];
    let mut s = base(
        "bulkhead-shared-vs-isolated",
        Load::Poisson { rate_per_s: 150.0, peak_factor: 1.0, duration_ms: 20_000.0 },
        vec![product],
        order_core(),
    );
    s.faults = vec![window("recommendations", 5000.0, 15_000.0, FaultEffect::Latency { factor: 20.0 })];
    s
}

/// The same slow dependency with isolated pools: recommendations may use 10 threads
/// (about twice their normal need) and are refused beyond that, the fallback answering;
/// the order core has 4 of its own (source 003 draws 2 and 4 for a smaller load).
pub fn bulkhead_isolated() -> Scenario {
    let mut s = bulkhead_shared();
    let product = &mut s.layers[0];
    product.shared_pool = None;
    product.client.use_shared_pool = false;
    product.client.bulkhead =
        Some(BulkheadConfig { max_concurrent: 4, max_queue: 20, queue_timeout_ms: Some(100.0) });
    let recs = &mut product.side_deps[0].client;
    recs.use_shared_pool = false;
    recs.bulkhead = Some(BulkheadConfig { max_concurrent: 10, max_queue: 0, queue_timeout_ms: None });
    s
}

/// A metastable failure: a server at 90 % utilisation is slowed ×3 for one second. Its
/// queue grows, callers time out and retry at once, abandoned calls still take a worker,
/// and the retries keep the overload going long after the trigger is gone.
pub fn metastable_retry_storm() -> Scenario {
    let client = layer("client", Client { per_try_timeout_ms: Some(150.0), ..retrying(3, 0.0) });
    let mut server = leaf("server", 10.0, 0.0);
    server.server.workers = Some(5);
    let mut s = base(
        "metastable-retry-storm",
        Load::Poisson { rate_per_s: 450.0, peak_factor: 1.0, duration_ms: 20_000.0 },
        vec![client],
        server,
    );
    s.faults = vec![window("server", 4000.0, 5000.0, FaultEffect::Latency { factor: 3.0 })];
    s
}

/// The same trigger with a ratio retry budget: once first attempts stop succeeding the
/// budget stops the retries, the queue drains and the system recovers.
pub fn metastable_with_budget() -> Scenario {
    let mut s = metastable_retry_storm();
    s.layers[0].client.retry_budget = Some(RetryBudgetConfig::Ratio { max_tokens: 20.0, retry_ratio: 0.1 });
    s
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
            if let Some(v) = p.versus {
                assert_eq!(validate(&(v.build)()), Ok(()), "{} versus", p.name);
            }
        }
        assert!(find(DEFAULT).is_some());
        assert!(find("nope").is_none());
    }
}

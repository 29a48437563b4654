//! The queue lab's state (`?page=queue`): one pool of c workers behind a queue, fed at λ.
//!
//! The simulated figures come from the chain engine itself: a one-layer scenario (a client
//! that calls once, no retries) in front of a leaf with the lab's workers, queue and
//! service time, so it is the same model as the retry-storm page. The closed forms come
//! from `model::queueing`, the capacity table from `model::capacity`. The link holds
//! `preset=` and every setting that differs from it.

use super::lab::{preset_error, read_choice, read_knobs, unknown_keys, write_knobs};
use super::{FieldKey, FormErrors};
use crate::error::{FieldError, fmt_num};
use crate::i18n::T;
use crate::knob::{Choice, Knob, Slider};
use crate::model::capacity::{self, CapacityInput, CapacityOutput};
use crate::model::queueing::{Figures, Pool, allen_cunneen};
use crate::query::Query;
use crate::report::{Report, RequestOutcome};
use crate::scenario::presets::{layer, leaf, retrying};
use crate::scenario::ranges::{self as r, FieldRange, Resolution};
use crate::scenario::{Dist, Load, ReportOptions, Scenario};
use crate::sim::rng::Z99;
use serde::Serialize;

/// Requests in the run at the lab's own setting.
pub const RUN_REQUESTS: u64 = 20_000;
/// Requests in each run of the latency-versus-utilisation sweep.
pub const SWEEP_REQUESTS: u64 = 5_000;
/// The utilisations the sweep simulates (at most 12 runs, each bounded as above).
pub const SWEEP_RHOS: [f64; 10] = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95];
/// Most workers: the closed forms cost O(c) each and the curve draws 60 of them.
pub const MAX_WORKERS: f64 = 10_000.0;

/// The service-time distribution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Service {
    Constant,
    Exponential,
    LogNormal,
}

/// Everything the lab's inputs hold.
#[derive(Clone, Debug, PartialEq)]
pub struct QueueInput {
    /// Arrival rate λ (req/s).
    pub rate: f64,
    /// Poisson arrivals (else evenly spaced).
    pub poisson: bool,
    /// Shape of the service time.
    pub service: Service,
    /// Service time: the constant, the mean (exponential) or the median (log-normal) (ms).
    pub service_ms: f64,
    /// 99th percentile of a log-normal service time (ms).
    pub p99_ms: f64,
    /// Workers c (count).
    pub workers: u32,
    /// Calls that may wait for a worker (count; 0 = unbounded).
    pub queue: u32,
    /// Share of the ideal capacity admission allows (%), for the capacity table.
    pub ceiling_pct: f64,
    /// End-to-end time in system for the capacity table's second L = λW (ms).
    pub w_ms: f64,
    /// Seed of the runs.
    pub seed: u64,
}

fn source_002() -> QueueInput {
    QueueInput {
        rate: 120.0,
        poisson: true,
        service: Service::Exponential,
        service_ms: 40.0,
        p99_ms: 400.0,
        workers: 8,
        queue: 0,
        ceiling_pct: 75.0,
        w_ms: 100.0,
        seed: 1,
    }
}

/// A named starting point.
pub struct QueuePreset {
    /// `preset=` value.
    pub name: &'static str,
    /// Title in the picker.
    pub title: T,
    /// What to look at.
    pub story: T,
    build: fn() -> QueueInput,
}

/// The lab's presets, in picker order; the first opens by default.
pub static PRESETS: [QueuePreset; 5] = [
    // Source 002's workload: λ = 120/s, 40 ms, 8 workers (ρ = 60 %), ceiling 75 %.
    QueuePreset { name: "source-002", title: T::QPreset002, story: T::QStory002, build: source_002 },
    QueuePreset {
        name: "single-worker",
        title: T::QPresetSingle,
        story: T::QStorySingle,
        // M/M/1 at ρ = 80 %: the mean wait is 4 service times.
        build: || QueueInput { rate: 20.0, workers: 1, ..source_002() },
    },
    QueuePreset {
        name: "constant-service",
        title: T::QPresetConstant,
        story: T::QStoryConstant,
        build: || QueueInput { service: Service::Constant, ..source_002() },
    },
    QueuePreset {
        name: "long-tail",
        title: T::QPresetTail,
        story: T::QStoryTail,
        // Log-normal, median 30 ms and p99 300 ms: mean ≈ 49 ms, ρ ≈ 74 %.
        build: || QueueInput { service: Service::LogNormal, service_ms: 30.0, p99_ms: 300.0, ..source_002() },
    },
    QueuePreset {
        name: "overload",
        title: T::QPresetOverload,
        story: T::QStoryOverload,
        // λ = 210/s against cμ = 200/s, behind a queue of 50: no steady state without the
        // limit; with it, M/M/8/58's (about 5 % turned away).
        build: || QueueInput { rate: 210.0, queue: 50, ..source_002() },
    },
];

/// Finds a preset by name.
pub fn preset(name: &str) -> Option<&'static QueuePreset> {
    PRESETS.iter().find(|p| p.name == name)
}

type K = Knob<QueueInput>;

/// Arrival rate λ (`rate`).
pub static RATE: K = Knob {
    key: "rate",
    label: T::KRate,
    help: T::QRateHelp,
    unit: T::UnitRps,
    range: r::RATE_PER_S,
    // Fine stops: one arrow key moves the utilisation a few points, so a learner can walk
    // it through 60–95 %, where the queue's curve bends (the log slider's 150 → 200 jumped
    // from 75 % to 100 %).
    slider: Slider::fine_log(1.0, 10_000.0),
    step: 0.1,
    off: false,
    get: |s, _| Some(s.rate),
    set: |s, _, v| s.rate = v,
};

/// Service time (`ms`).
pub static SERVICE_MS: K = Knob {
    key: "ms",
    label: T::QServiceMs,
    help: T::QServiceMsHelp,
    unit: T::UnitMs,
    range: r::LOG_NORMAL_MS,
    slider: Slider::log(1.0, 10_000.0),
    step: 0.1,
    off: false,
    get: |s, _| Some(s.service_ms),
    set: |s, _, v| s.service_ms = v,
};

/// Log-normal p99 (`p99`).
pub static P99: K = Knob {
    key: "p99",
    label: T::KP99,
    help: T::QP99Help,
    unit: T::UnitMs,
    range: r::LOG_NORMAL_MS,
    slider: Slider::log(1.0, 60_000.0),
    step: 0.1,
    off: false,
    get: |s, _| Some(s.p99_ms),
    set: |s, _, v| s.p99_ms = v,
};

/// Workers c (`workers`).
pub static WORKERS: K = Knob {
    key: "workers",
    label: T::KWorkers,
    help: T::QWorkersHelp,
    unit: T::UnitWorkers,
    range: r::WORKERS.to(MAX_WORKERS),
    // One worker a step up to 100, so the arrow keys reach source 002's 7 (and the
    // lesson's 6) from 8; more is typed.
    slider: Slider::linear(1.0, 100.0),
    step: 1.0,
    off: false,
    get: |s, _| Some(f64::from(s.workers)),
    set: |s, _, v| s.workers = v as u32,
};

/// Queue limit (`queue`, 0 = unbounded).
pub static QUEUE: K = Knob {
    key: "queue",
    label: T::KQueue,
    help: T::KQueueHelp,
    unit: T::UnitCallsAtOnce,
    range: r::QUEUE.from(1.0),
    slider: Slider::log(1.0, 10_000.0),
    step: 1.0,
    off: true,
    get: |s, _| Some(f64::from(s.queue)),
    set: |s, _, v| s.queue = v as u32,
};

/// Utilisation ceiling (`ceiling`, %).
pub static CEILING: K = Knob {
    key: "ceiling",
    label: T::QCeiling,
    help: T::QCeilingHelp,
    unit: T::UnitPercent,
    range: FieldRange { min: 1.0, max: 100.0, resolution: Resolution::Any, unit: "%" },
    slider: Slider::linear(5.0, 100.0),
    step: 5.0,
    off: false,
    get: |s, _| Some(s.ceiling_pct),
    set: |s, _, v| s.ceiling_pct = v,
};

/// Time in system for the capacity table's L = λW (`w`).
pub static W: K = Knob {
    key: "w",
    label: T::QW,
    help: T::QWHelp,
    unit: T::UnitMs,
    range: FieldRange { min: 0.0, max: 3_600_000.0, resolution: Resolution::Any, unit: "ms" },
    slider: Slider::log(1.0, 10_000.0),
    step: 0.1,
    off: false,
    get: |s, _| Some(s.w_ms),
    set: |s, _, v| s.w_ms = v,
};

/// Seed of the runs (`seed`).
pub static SEED: K = Knob {
    key: "seed",
    label: T::Seed,
    help: T::KLabSeedHelp,
    unit: T::UnitInteger,
    range: r::SEED,
    slider: Slider::linear(0.0, 100.0),
    step: 1.0,
    off: false,
    get: |s, _| Some(s.seed as f64),
    set: |s, _, v| s.seed = v as u64,
};

/// Every knob, in page order.
pub static KNOBS: [&K; 8] = [&RATE, &SERVICE_MS, &P99, &WORKERS, &QUEUE, &CEILING, &W, &SEED];

/// Poisson or evenly spaced arrivals (`arrivals`).
pub static ARRIVALS: Choice<QueueInput> = Choice {
    key: "arrivals",
    label: T::KPattern,
    help: T::QArrivalsHelp,
    options: &[("poisson", T::OptPoisson), ("even", T::OptConstant)],
    get: |s, _| Some(if s.poisson { "poisson" } else { "even" }),
    set: |s, _, v| s.poisson = v == "poisson",
};

/// The service-time shape (`service`).
pub static SERVICE: Choice<QueueInput> = Choice {
    key: "service",
    label: T::KDist,
    help: T::QServiceHelp,
    options: &[
        ("exponential", T::OptExponentialDist),
        ("constant", T::OptConstantDist),
        ("log_normal", T::OptLogNormal),
    ],
    get: |s, _| {
        Some(match s.service {
            Service::Constant => "constant",
            Service::Exponential => "exponential",
            Service::LogNormal => "log_normal",
        })
    },
    set: |s, _, v| {
        s.service = match v {
            "constant" => Service::Constant,
            "log_normal" => Service::LogNormal,
            _ => Service::Exponential,
        }
    },
};

/// Which closed forms a setting gets (see `model::queueing`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Model {
    /// Poisson arrivals, exponential service, an unbounded queue: Erlang C, exact.
    Mmc,
    /// The same with a queue limit: exact at any load.
    Mmck,
    /// Evenly spaced arrivals, exponential service: Takács' GI/M/c, exact.
    Dmc,
    /// Any other: Allen–Cunneen's approximation of the mean wait.
    AllenCunneen,
}

/// The closed forms for the lab's setting.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Closed {
    /// The pool (λ, mean service, c).
    pub pool: Pool,
    /// Which forms: the line's and the figures' model.
    pub model: Model,
    /// Whether the forms are exact: M/M/c, M/M/c/K or D/M/c.
    pub exact: bool,
    /// Whether the figures are M/M/c/K's: an exact setting with a queue limit (at most
    /// `queueing::MMCK_MAX_STATES` states), exact at any load.
    pub bounded: bool,
    /// The figures (mean wait scaled by Allen–Cunneen's factor when not exact).
    pub figures: Figures,
    /// p99 of the time in system (ms), M/M/c only.
    pub p99_ms: Option<f64>,
}

impl QueueInput {
    /// The service time as the scenario's distribution.
    pub fn dist(&self) -> Dist {
        match self.service {
            Service::Constant => Dist::Constant { ms: self.service_ms },
            Service::Exponential => Dist::Exponential { mean_ms: self.service_ms },
            Service::LogNormal => {
                Dist::LogNormal { median_ms: self.service_ms, p99_ms: self.p99_ms.max(self.service_ms) }
            }
        }
    }

    /// The pool the closed forms see: λ, the mean service time, c.
    pub fn pool(&self) -> Pool {
        Pool { lambda: self.rate, service_ms: self.dist().mean_ms(), workers: self.workers }
    }

    /// Allen–Cunneen's (Ca² + Cs²)/2: 1 for M/M/c.
    pub fn factor(&self) -> f64 {
        let ca2 = if self.poisson { 1.0 } else { 0.0 };
        let cs2 = match self.dist() {
            Dist::Constant { .. } => 0.0,
            Dist::Exponential { .. } => 1.0,
            Dist::LogNormal { median_ms, p99_ms } => {
                let sigma = (p99_ms / median_ms).ln() / Z99;
                (sigma * sigma).exp() - 1.0
            }
        };
        allen_cunneen(ca2, cs2)
    }

    /// The closed forms (see `model::queueing` for what each assumes).
    pub fn closed(&self) -> Closed {
        let pool = self.pool();
        let exponential = self.service == Service::Exponential;
        // M/M/c/K's sum is taken once: it decides the model and gives the figures.
        let mmck = (self.poisson && exponential && self.queue > 0).then(|| pool.mmck(self.queue)).flatten();
        let (model, figures, p99_ms) = match (mmck, self.poisson, exponential) {
            (Some(f), ..) => (Model::Mmck, f, None),
            (None, true, true) => (Model::Mmc, pool.mmc(), pool.time_p99_ms()),
            (None, false, true) if pool.workers <= crate::model::queueing::DMC_MAX_WORKERS => {
                (Model::Dmc, pool.dmc(), pool.dmc_time_p99_ms())
            }
            _ => (Model::AllenCunneen, pool.scaled(self.factor()), None),
        };
        Closed {
            pool,
            model,
            exact: model != Model::AllenCunneen,
            bounded: model == Model::Mmck,
            figures,
            p99_ms,
        }
    }

    /// Source 002's capacity table for this setting.
    pub fn capacity(&self) -> Result<CapacityOutput, FieldError> {
        capacity::compute(&CapacityInput {
            arrival_rps: self.rate,
            service_ms: self.dist().mean_ms(),
            workers: self.workers,
            ceiling: self.ceiling_pct / 100.0,
            time_in_system_ms: self.w_ms,
        })
    }

    /// The closed-form mean time in system (ms) against the offered ρ, for the
    /// latency-versus-utilisation curve, in `model` ([`Closed::model`] of
    /// [`closed`](Self::closed), which the caller has already): 60 points up to 0.98 (and
    /// the setting's own ρ if it lies between that and 1), or with M/M/c/K's forms 90 up to
    /// 1.5, since a bounded queue has a steady state past capacity too.
    pub fn curve(&self, model: Model) -> Vec<(f64, f64)> {
        let (pool, factor) = (self.pool(), self.factor());
        let bounded = model == Model::Mmck;
        let (n, top) = if bounded { (90, 1.5) } else { (60, 0.98) };
        // A setting between 98 % and capacity: the line goes on to it, so that its marker
        // sits on the line it belongs to (at 99.5 %, 1,024 ms, it had floated far above the
        // line's end at 270 ms).
        let own = pool.rho();
        let past_top = (!bounded && own > top && own < 1.0).then_some(own);
        (1..=n)
            .map(|i| top * f64::from(i) / f64::from(n))
            .chain(past_top)
            .filter_map(|rho| {
                let p = Pool { lambda: rho * f64::from(pool.workers) * pool.mu(), ..pool };
                let f = match model {
                    Model::Mmck => p.mmck(self.queue),
                    Model::Mmc => Some(p.mmc()),
                    Model::Dmc => Some(p.dmc()),
                    Model::AllenCunneen => Some(p.scaled(factor)),
                };
                f.and_then(|f| f.time_ms).map(|w| (rho, w))
            })
            .collect()
    }

    /// The arrival rate (req/s) and request count of sweep point `point` (0 = the lab's own
    /// setting, `k` ≥ 1 = the k-th of [`SWEEP_RHOS`], where λ = ρ × c × μ).
    fn point_load(&self, point: usize) -> (f64, u64) {
        match point.checked_sub(1).and_then(|k| SWEEP_RHOS.get(k)) {
            Some(rho) => (rho * f64::from(self.workers) * self.pool().mu(), SWEEP_REQUESTS),
            None => (self.rate, RUN_REQUESTS),
        }
    }

    /// The sweep points the engine can run: the lab's own, and each of the curve's whose
    /// λ = ρ × c × μ lies in the engine's range of rates (10,000 workers of 1 ms each want
    /// 10⁶ req/s at ρ = 10 %; a log-normal whose p99 is a million times its median, a mean
    /// of hours and a rate near zero). A point outside is not run, and the page says so,
    /// rather than fail the whole page on a rate the learner never typed.
    pub fn simulated_points(&self) -> Vec<usize> {
        (0..=SWEEP_RHOS.len()).filter(|&p| p == 0 || r::RATE_PER_S.accepts(self.point_load(p).0)).collect()
    }

    /// The seed of sweep point `point`: the lab's own for its run (point 0), and for each
    /// point of the curve one drawn from it. With one seed for all, every point's run drew
    /// the same uniforms, so their sampling errors went the same way and the dots sat on one
    /// side of the line together (ρ 0.9 and 0.95 both above it with seed 1).
    pub fn point_seed(&self, point: usize) -> u64 {
        if point == 0 {
            self.seed
        } else {
            crate::sim::rng::mix64(self.seed ^ crate::sim::rng::mix64(point as u64))
        }
    }

    /// How long sweep point `point`'s load lasts (ms): its requests at its rate, at least the
    /// engine's shortest run (at a rate near its top, 5,000 requests last under a
    /// millisecond; the run then holds up to 10,000).
    fn point_duration_ms(&self, point: usize) -> f64 {
        let (rate, requests) = self.point_load(point);
        (requests as f64 / rate * 1000.0).clamp(r::DURATION_MS.min, r::DURATION_MS.max)
    }

    /// The offered load per worker the lab's own run (point 0) saw: its arrivals per second
    /// over the load's window ÷ (c × μ), the run's λ̂/(cμ) beside the closed form's λ/(cμ).
    /// (Its busy share, `Simulated::rho`, stops at 100 % however far past it λ goes.)
    pub fn offered_seen(&self, sim: &Simulated) -> f64 {
        let window_s = self.point_duration_ms(0) / 1000.0;
        let capacity = f64::from(self.workers) * self.pool().mu();
        if window_s > 0.0 && capacity > 0.0 { sim.arrived as f64 / window_s / capacity } else { f64::NAN }
    }

    /// The scenario of sweep point `point` (see [`point_load`](Self::point_load)): a client
    /// that calls once, in front of the pool, with the point's seed.
    pub fn scenario(&self, point: usize) -> Scenario {
        let (rate, _) = self.point_load(point);
        let duration_ms = self.point_duration_ms(point);
        let (rate_per_s, peak_factor) = (rate, 1.0);
        let load = if self.poisson {
            Load::Poisson { rate_per_s, peak_factor, duration_ms }
        } else {
            Load::Constant { rate_per_s, peak_factor, duration_ms }
        };
        let mut server = leaf("server", 0.0, 0.0);
        server.work = self.dist();
        server.server.workers = Some(self.workers);
        server.server.queue = (self.queue > 0).then_some(self.queue);
        Scenario {
            name: "queue-lab".into(),
            seed: self.point_seed(point),
            load,
            layers: vec![layer("client", retrying(1, 0.0))],
            leaf: server,
            faults: Vec::new(),
            cancel_on_timeout: false,
            slo: Default::default(),
            // The lab's own run: about as many buckets as a report holds (each keeps its
            // highest value), so the queue's spikes stay visible, each a round width that
            // can be said aloud (200 ms, not 113); the sweep's series are not drawn.
            report: ReportOptions {
                bucket_ms: (point == 0).then(|| round_bucket_ms(duration_ms / 400.0)),
                trace_sample: 0,
                trace_requests: Vec::new(),
            },
        }
    }
}

/// The least 1, 2 or 5 × 10ⁿ ms at or above `ms` (and 1 ms at least), in whole numbers so
/// that the width is the same natively and in wasm.
fn round_bucket_ms(ms: f64) -> f64 {
    let raw = ms.ceil().max(1.0);
    let mut mag = 1.0;
    // Bounded: an infinite width (never asked for: runs are at most 10⁹ ms) stops at 10¹⁸.
    while mag * 10.0 <= raw && mag < 1e18 {
        mag *= 10.0;
    }
    [1.0, 2.0, 5.0, 10.0].into_iter().map(|m| m * mag).find(|v| *v >= raw).unwrap_or(raw)
}

/// What a run of the lab's scenario measured at the pool.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Simulated {
    /// Busy time ÷ (c × run length) (fraction).
    pub rho: f64,
    /// Share of served calls that waited for a worker.
    pub p_wait: f64,
    /// Mean wait for a worker (ms).
    pub wait_ms: f64,
    /// Mean time in the pool, wait plus service (ms).
    pub time_ms: f64,
    /// p99 of the requests' latency (ms): the time in the pool, as the client adds none.
    pub p99_ms: f64,
    /// Calls in the pool averaged over the run's time (count): measured from the pool's
    /// gauges, not from λ and W.
    pub in_system: f64,
    /// λ̂ × Ŵ with λ̂ = served ÷ run length and Ŵ the mean time in the pool (count): what
    /// Little's law says `in_system` must be, from the run's own λ and W.
    pub little: f64,
    /// Calls turned away by a full queue (fraction of calls).
    pub blocked: f64,
    /// Calls served.
    pub served: u64,
    /// Calls that reached the pool (served, turned away, or still there at the end).
    pub arrived: u64,
}

/// The figures the page shows from the closed forms and the capacity table, by the DOM id
/// that shows each (`q-rho`, `cap-admit`), for lessons to quote.
pub fn closed_figures(input: &QueueInput) -> Vec<(String, f64, crate::lesson::figures::Unit)> {
    use crate::lesson::figures::Unit;
    let c = input.closed();
    let f = &c.figures;
    let mut out = vec![("q-rho".to_string(), f.rho, Unit::Fraction)];
    let optional = [
        ("q-pwait", f.p_wait, Unit::Fraction),
        ("q-wait", f.wait_ms, Unit::Ms),
        ("q-time", f.time_ms, Unit::Ms),
        ("q-p99", c.p99_ms, Unit::Ms),
        ("q-l", f.in_system, Unit::Count),
        ("q-blocked", f.blocked, Unit::Fraction),
    ];
    out.extend(
        optional
            .into_iter()
            .filter_map(|(id, v, u)| v.filter(|v| v.is_finite()).map(|v| (id.to_string(), v, u))),
    );
    if let Ok(o) = input.capacity() {
        for (id, v, u) in [
            ("mu", o.per_worker_rps, Unit::Count),
            ("ideal", o.ideal_rps, Unit::Count),
            ("rho", o.utilisation * 100.0, Unit::Percent),
            ("admit", o.admit_rps, Unit::Count),
            ("headroom", o.headroom_rps, Unit::Count),
            ("margin", o.margin_to_ceiling_rps, Unit::Count),
            ("min-workers", o.min_workers as f64, Unit::Count),
            ("busy", o.busy_workers, Unit::Count),
        ] {
            out.push((format!("cap-{id}"), v, u));
        }
        if let Some(l) = o.in_system {
            out.push(("cap-in-system".to_string(), l, Unit::Count));
        }
    }
    out
}

/// The pool's figures from a report of [`QueueInput::scenario`] (`None` if nothing ran).
pub fn simulated(r: &Report) -> Option<Simulated> {
    let pool = r.hops.get(1)?;
    let q = pool.queueing?;
    if q.served == 0 || r.summary.end_ms <= 0.0 {
        return None;
    }
    let n = q.served as f64;
    let workers = f64::from(pool.workers.unwrap_or(1));
    let time_ms = (q.wait_ms + q.busy_ms) / n;
    let p99_ms =
        r.latency.iter().find(|d| d.outcome == RequestOutcome::Succeeded).map_or(0.0, |d| d.percentiles.p99);
    Some(Simulated {
        rho: q.busy_ms / (workers * r.summary.end_ms),
        p_wait: q.waited as f64 / n,
        wait_ms: q.wait_ms / n,
        time_ms,
        p99_ms,
        in_system: q.mean_in_pool,
        little: n / r.summary.end_ms * time_ms,
        blocked: if pool.calls == 0 { 0.0 } else { pool.rejected as f64 / pool.calls as f64 },
        served: q.served,
        arrived: pool.calls,
    })
}

/// Why a run of the lab ended with requests still in the pool.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Cut {
    /// The engine stopped it (too many calls alive at once, or its work limit).
    Stopped(crate::report::Stopped),
    /// It ran the engine's longest drain after the last arrival
    /// (`model::chain::DRAIN_HORIZON`) and the pool had not emptied.
    Drain,
}

/// A run that ended before all its requests did: the simulated figures then count only
/// those that finished, and understate the wait.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Unfinished {
    /// Requests still waiting or in service at the end.
    pub left: u64,
    /// Requests that arrived.
    pub total: u64,
    pub cut: Cut,
}

/// Whether the run `r` left requests unfinished, and why.
pub fn unfinished(r: &Report) -> Option<Unfinished> {
    let s = &r.summary;
    (s.unfinished > 0).then(|| Unfinished {
        left: s.unfinished,
        total: s.original_requests,
        cut: s.stopped.map_or(Cut::Drain, Cut::Stopped),
    })
}

/// What the lab holds.
#[derive(Clone, Debug, PartialEq)]
pub struct QueueState {
    /// The preset it started from.
    pub preset: &'static str,
    /// The inputs, always valid.
    pub input: QueueInput,
    /// Fields whose text or link value was not accepted.
    pub errors: FormErrors,
    /// Link keys this page does not read.
    pub unknown: crate::state::lab::UnknownKeys,
    /// Where a link under the retry-storm page's diagram took its settings from
    /// (`from=`; see `state::lab::Origin`); None once a setting is changed, a preset
    /// picked or reset: the page would otherwise say an edited value came from the storm.
    pub from: Option<super::lab::Origin>,
}

/// Something the learner did.
#[derive(Clone, Debug, PartialEq)]
pub enum QueueAction {
    /// Picked a preset.
    Preset(String),
    /// Typed into a knob's field.
    Type(FieldKey, String),
    /// Moved a knob's slider to a stop.
    Slide(FieldKey, usize),
    /// Picked an option of a choice (by key).
    Choose(&'static str, String),
    /// Back to the preset as it was.
    Reset,
}

impl Default for QueueState {
    fn default() -> Self {
        QueueState::new(PRESETS[0].name)
    }
}

impl QueueState {
    /// Its settings, for lessons to quote (see [`super::Setting`]).
    pub fn lesson_settings(&self) -> Vec<super::Setting> {
        super::knob_settings(&KNOBS, &self.input)
    }

    /// Whether any setting differs from the preset's (see [`super::departs_from_preset`]).
    pub fn departs_from_preset(&self) -> bool {
        super::departs_from_preset(|q| self.write_query(q))
    }

    /// The preset `name` (the first if there is none by that name), unedited.
    pub fn new(name: &str) -> Self {
        let p = preset(name).unwrap_or(&PRESETS[0]);
        QueueState {
            preset: p.name,
            input: (p.build)(),
            errors: FormErrors::default(),
            unknown: Default::default(),
            from: None,
        }
    }

    /// Applies an action.
    pub fn reduce(&self, action: QueueAction) -> QueueState {
        let mut next = self.clone();
        match action {
            QueueAction::Preset(name) => return QueueState::new(&name),
            QueueAction::Reset => return QueueState::new(self.preset),
            QueueAction::Choose(key, v) => {
                let Some(c) = [&ARRIVALS, &SERVICE].into_iter().find(|c| c.key == key) else { return next };
                match c.check(&v, key) {
                    Ok(v) => {
                        (c.set)(&mut next.input, 0, v);
                        next.errors.clear(&FieldKey::plain(key));
                    }
                    Err(e) => next.errors.set(FieldKey::plain(key), v, e),
                }
            }
            QueueAction::Type(key, raw) => {
                let Some(k) = KNOBS.iter().find(|k| k.key == key.key) else { return next };
                match k.parse(&raw, key.key) {
                    Ok(v) => {
                        (k.set)(&mut next.input, 0, v);
                        next.errors.clear(&key);
                    }
                    Err(e) => next.errors.set(key, raw, e),
                }
            }
            QueueAction::Slide(key, stop) => {
                if let Some(v) = KNOBS
                    .iter()
                    .find(|k| k.key == key.key)
                    .and_then(|k| k.value_at_stop(&self.input, 0, stop))
                {
                    return self.reduce(QueueAction::Type(key, fmt_num(v)));
                }
            }
        }
        next.check_p99();
        if next.input != self.input {
            next.from = None;
        }
        next
    }

    /// A log-normal's p99 below its median names the p99 and its range (from the median,
    /// as a scenario file's validation does); the model meanwhile uses the median, i.e.
    /// constant service (`QueueInput::dist`).
    fn check_p99(&mut self) {
        let key = FieldKey::plain("p99");
        let (median, p99) = (self.input.service_ms, self.input.p99_ms);
        if self.input.service == Service::LogNormal && p99 < median {
            let range = crate::scenario::ranges::LOG_NORMAL_MS.from(median);
            self.errors.set(key, fmt_num(p99), range.error("p99", fmt_num(p99)));
        } else if self
            .errors
            .get(&key)
            .is_some_and(|(raw, _)| crate::float::parse_f64(raw).is_some_and(|v| v == p99))
        {
            // The p99 shown is the one now accepted (the median moved below it).
            self.errors.clear(&key);
        }
    }

    /// Reads the lab from a link; a bad value keeps the preset's for that field alone.
    pub fn from_query(q: &Query) -> QueueState {
        let mut st = QueueState::new(q.get("preset").unwrap_or(PRESETS[0].name));
        if let Some(p) = q.get("preset")
            && preset(p).is_none()
        {
            let names: Vec<&str> = PRESETS.iter().map(|p| p.name).collect();
            st.errors.set(FieldKey::plain("preset"), p.to_string(), preset_error(p, &names));
        }
        read_knobs(q, &KNOBS, &mut st.input, &mut st.errors);
        read_choice(q, &ARRIVALS, &mut st.input, &mut st.errors);
        read_choice(q, &SERVICE, &mut st.input, &mut st.errors);
        st.check_p99();
        st.from = super::lab::read_from(q, &mut st.errors);
        st.unknown = unknown_keys(q, |k| {
            crate::state::app::is_shell_key(k)
                || matches!(k, "preset" | "arrivals" | "service" | super::lab::FROM)
                || KNOBS.iter().any(|n| n.key == k)
        });
        st
    }

    /// Writes the lab into `q`: the preset, then what differs from it.
    pub fn write_query(&self, q: &mut Query) {
        let base = (preset(self.preset).unwrap_or(&PRESETS[0]).build)();
        q.set("preset", self.preset);
        write_knobs(q, &KNOBS, &self.input, &base);
        for c in [&ARRIVALS, &SERVICE] {
            match (c.get)(&self.input, 0) {
                Some(v) if Some(v) != (c.get)(&base, 0) => q.set(c.key, v),
                _ => q.remove(c.key),
            }
        }
        super::lab::write_from(q, self.from.as_ref());
    }

    /// The page's own link query (what the worker rebuilds the runs from).
    pub fn run_query(&self) -> String {
        let mut q = Query::new();
        self.write_query(&mut q);
        q.to_query_string()
    }
}

/// The lab's link for a hop's pool, as the retry-storm page holds it (`Server::workers`,
/// `Server::queue`, `Layer::work`/`Leaf::work` and the rate arriving there). Values the lab
/// cannot show are brought to its nearest: more than 10,000 workers to 10,000, a service
/// time of 0 to 0.001 ms, and `Some(0)` — no waiting room, which only a scenario file can
/// say (the lab's queue 0, like the storm page's, means unbounded) — to a queue of 1.
/// The capacity table's W is the closed form's (the mean work time without a steady state).
/// `poisson`: the storm's load
/// is a Poisson process (else its requests are evenly spaced). `from`: the hop (see
/// `state::lab::Origin`).
pub fn query_for(
    workers: u32,
    queue: Option<u32>,
    work: &Dist,
    arrival_rate: f64,
    poisson: bool,
    from: Option<&super::lab::Origin>,
) -> String {
    let mut input = source_002();
    input.poisson = poisson;
    input.workers = workers.clamp(1, MAX_WORKERS as u32);
    input.queue = queue.map_or(0, |q| q.max(1));
    if arrival_rate.is_finite() {
        input.rate = arrival_rate.clamp(r::RATE_PER_S.min, r::RATE_PER_S.max);
    }
    let floor = |ms: f64| ms.max(r::LOG_NORMAL_MS.min);
    match *work {
        Dist::Constant { ms } => (input.service, input.service_ms) = (Service::Constant, floor(ms)),
        Dist::Exponential { mean_ms } => {
            (input.service, input.service_ms) = (Service::Exponential, floor(mean_ms))
        }
        Dist::LogNormal { median_ms, p99_ms } => {
            (input.service, input.service_ms, input.p99_ms) =
                (Service::LogNormal, floor(median_ms), floor(p99_ms))
        }
    }
    // The capacity table's assumed time in system: the closed form's W for these settings,
    // so that its L = λW agrees with the page's other L (source 002's 100 ms belongs to its
    // own example, and below an 800 ms work time the table refuses it); the mean work time
    // when the pool has no steady state. Up to a tenth of a ms.
    let w =
        input.closed().figures.time_ms.filter(|w| w.is_finite()).unwrap_or_else(|| input.dist().mean_ms());
    input.w_ms = ((w * 10.0).ceil() / 10.0).min(W.range.max);
    let st = QueueState { input, from: from.cloned(), ..QueueState::default() };
    let mut q = Query::new();
    q.set("page", "queue");
    st.write_query(&mut q);
    q.to_query_string()
}

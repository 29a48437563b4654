//! Runs as messages: what a page asks for (a [`Request`] of [`Job`]s) and what comes back
//! ([`Reply`]), and the [`Batch`] that steps a request's simulations in slices. The same
//! code runs in a Web Worker (the usual case: the page's main thread only renders) and, where
//! no worker can start, in slices on the main thread. Free of browser code, so it is tested
//! natively; messages use the compact encoding of `crate::wire`.

use crate::error::FieldError;
use crate::model::chain::{ChainSim, SimError};
use crate::query::Query;
use crate::report::Report;
use crate::scenario::Scenario;
use crate::state::queue::QueueState;
use crate::state::stability::HystRun;
use crate::state::storm::StormState;
use crate::wire::{Reader, Wire, Writer, wire_struct, wire_unit_enum};

/// The link a storm report names (its JSON's `link`): the page's query that rebuilds the
/// run (what `lab run --link` takes), for a run that is not its preset's as shipped (an
/// edited knob, a traced request); `None` for a preset as shipped, whose report
/// `lab run --preset P --seed S` prints. The page's export and the CLI both ask this.
pub fn report_link(query: &str, side: Side) -> Option<crate::export::ReportLink> {
    let (scenario, _) = Job::Storm { query: query.to_string(), side }.scenario().ok()?;
    let st = StormState::from_query(&Query::parse(query));
    let p = crate::scenario::presets::find(st.preset)?;
    // Side B of a preset without a comparison scenario is the preset itself.
    let shipped = match (side, p.versus) {
        (Side::B, Some(v)) => (v.build)(),
        _ => (p.build)(),
    };
    (scenario != shipped).then(|| crate::export::ReportLink {
        query: query.trim_start_matches('?').to_string(),
        versus: side == Side::B,
    })
}

/// The browser refuses scenarios implying more calls than this (worst case).
pub const BROWSER_MAX_CALLS: f64 = 2e7;

/// Which side of compare mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    A,
    B,
}

/// One simulation to run, described by the page state that asks for it: a page's URL query
/// is its whole state, so the worker rebuilds exactly the scenario the page shows (a test
/// checks the round trip over random edits), and no scenario has to travel as a message.
#[derive(Clone, Debug, PartialEq)]
pub enum Job {
    /// One side of the retry-storm page.
    Storm { query: String, side: Side },
    /// A run of the queue lab: its own setting (`point` 0) or point `k` of its
    /// latency-versus-utilisation sweep (`state::queue::SWEEP_RHOS[k - 1]`).
    Queue { query: String, point: u8 },
    /// One of the stability page's hysteresis runs (load stepped up and down).
    Hysteresis { query: String, run: HystRun },
}

impl Job {
    /// The retry-storm page's state a storm job was asked for, judged by `slo` (which no run
    /// carries: moving it redraws without rerunning). The page draws its diagram, formulas
    /// and retry timing from this, the state of the run whose figures are on screen, and not
    /// from its panel's, which the next run will show.
    pub fn storm_state(&self, slo: crate::model::slo::Slo) -> Option<StormState> {
        let Job::Storm { query, .. } = self else { return None };
        let mut st = StormState::from_query(&Query::parse(query));
        st.a.slo = slo;
        Some(st)
    }

    /// The scenario and seed the job runs, or why there is none (a hysteresis run of a
    /// preset without a limited pool: nothing to step its load against).
    pub fn scenario(&self) -> Result<(Scenario, u64), FieldError> {
        match self {
            Job::Storm { query, side } => {
                let st = StormState::from_query(&Query::parse(query));
                let s = match side {
                    // Side A also traces the request whose attempt tree is asked for.
                    Side::A => {
                        let mut s = st.a.clone();
                        s.report.trace_requests = st.request.into_iter().collect();
                        s
                    }
                    // Side B traces it too, so compare mode shows how B handled the same request.
                    Side::B => {
                        let mut s = st.side_b();
                        s.report.trace_requests = st.request.into_iter().collect();
                        s
                    }
                };
                Ok((s, st.seed))
            }
            Job::Queue { query, point } => {
                let st = QueueState::from_query(&Query::parse(query));
                let point = usize::from(*point);
                Ok((st.input.scenario(point), st.input.point_seed(point)))
            }
            Job::Hysteresis { query, run } => {
                let st = crate::state::stability::page::StabilityState::from_query(&Query::parse(query));
                st.sweep.hysteresis(*run)
            }
        }
    }
}

/// A page's request: run these jobs. A newer request replaces an older one.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    /// Increases with every request a page makes.
    pub id: u64,
    pub jobs: Vec<Job>,
}

/// Why a job did not produce a report (a [`SimError`] that can travel as a message).
#[derive(Clone, Debug, PartialEq)]
pub enum RunError {
    /// A field is out of range.
    Invalid(FieldError),
    /// More work than the cap allows.
    TooMuchWork { estimated: f64, cap: f64 },
    /// A bug in the model.
    Internal(String),
}

impl From<SimError> for RunError {
    fn from(e: SimError) -> Self {
        match e {
            SimError::Invalid(f) => RunError::Invalid(f),
            SimError::TooMuchWork { estimated, cap } => RunError::TooMuchWork { estimated, cap },
            SimError::Internal(m) => RunError::Internal(m),
        }
    }
}

/// What one job ended with.
pub type JobResult = Result<Report, RunError>;

/// What comes back for a request.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    /// Still running: the share done (0–1).
    Progress { id: u64, fraction: f64 },
    /// Every job's result, in the order of the request, and each report's [`digest`]
    /// (0 for an error), computed where the run happened so the page need not serialize it.
    Done { id: u64, results: Vec<JobResult>, digests: Vec<u64> },
    /// Cells of a stability sweep finished since the last reply; `done` when the worker's
    /// share is complete.
    Cells { id: u64, cells: Vec<crate::state::stability::batch::CellDone>, done: bool },
}

impl Reply {
    /// The request this answers.
    pub fn id(&self) -> u64 {
        match self {
            Reply::Progress { id, .. } | Reply::Done { id, .. } | Reply::Cells { id, .. } => *id,
        }
    }
}

wire_unit_enum!(Side { A, B });
wire_unit_enum!(HystRun { Plain, Protected, NoRetry });
wire_struct!(Request { id, jobs });

impl Wire for Job {
    fn put(&self, w: &mut Writer) {
        match self {
            Job::Storm { query, side } => {
                0u8.put(w);
                query.put(w);
                side.put(w);
            }
            Job::Queue { query, point } => {
                1u8.put(w);
                query.put(w);
                point.put(w);
            }
            Job::Hysteresis { query, run } => {
                2u8.put(w);
                query.put(w);
                run.put(w);
            }
        }
    }
    fn get(r: &mut Reader) -> Option<Self> {
        match u8::get(r)? {
            0 => Some(Job::Storm { query: Wire::get(r)?, side: Wire::get(r)? }),
            1 => Some(Job::Queue { query: Wire::get(r)?, point: Wire::get(r)? }),
            2 => Some(Job::Hysteresis { query: Wire::get(r)?, run: Wire::get(r)? }),
            _ => None,
        }
    }
}

impl Wire for RunError {
    fn put(&self, w: &mut Writer) {
        match self {
            RunError::Invalid(f) => {
                0u8.put(w);
                f.put(w);
            }
            RunError::TooMuchWork { estimated, cap } => {
                1u8.put(w);
                (*estimated, *cap).put(w);
            }
            RunError::Internal(m) => {
                2u8.put(w);
                m.put(w);
            }
        }
    }
    fn get(r: &mut Reader) -> Option<Self> {
        Some(match u8::get(r)? {
            0 => RunError::Invalid(Wire::get(r)?),
            1 => {
                let (estimated, cap) = Wire::get(r)?;
                RunError::TooMuchWork { estimated, cap }
            }
            2 => RunError::Internal(Wire::get(r)?),
            _ => return None,
        })
    }
}

impl Wire for Reply {
    fn put(&self, w: &mut Writer) {
        match self {
            Reply::Progress { id, fraction } => {
                0u8.put(w);
                (*id, *fraction).put(w);
            }
            Reply::Done { id, results, digests } => {
                1u8.put(w);
                id.put(w);
                results.put(w);
                digests.put(w);
            }
            Reply::Cells { id, cells, done } => {
                2u8.put(w);
                id.put(w);
                cells.put(w);
                done.put(w);
            }
        }
    }
    fn get(r: &mut Reader) -> Option<Self> {
        Some(match u8::get(r)? {
            0 => {
                let (id, fraction) = Wire::get(r)?;
                Reply::Progress { id, fraction }
            }
            1 => Reply::Done { id: Wire::get(r)?, results: Wire::get(r)?, digests: Wire::get(r)? },
            2 => Reply::Cells { id: Wire::get(r)?, cells: Wire::get(r)?, done: Wire::get(r)? },
            _ => return None,
        })
    }
}

/// Events a slice handles between looks at the clock: ≈ 1–3 ms of a run in the browser.
/// (Every 2,000 events, the clock took ≈ 4 % of a run in the worker: `performance.now()`
/// through the worker's global scope is a call out of wasm and back, measured.)
const EVENTS_PER_CHECK: u64 = 10_000;

/// A request's simulations, stepped in slices.
pub struct Batch {
    id: u64,
    sims: Vec<Option<ChainSim>>,
    results: Vec<Option<JobResult>>,
}

impl Batch {
    /// Prepares every job (a job that cannot start is done at once, with its error).
    pub fn new(req: &Request) -> Batch {
        let mut sims = Vec::new();
        let mut results = Vec::new();
        for j in &req.jobs {
            let started = j.scenario().map_err(RunError::Invalid).and_then(|(scenario, seed)| {
                ChainSim::new(&scenario, seed, BROWSER_MAX_CALLS).map_err(RunError::from)
            });
            match started {
                Ok(sim) => {
                    sims.push(Some(sim));
                    results.push(None);
                }
                Err(e) => {
                    sims.push(None);
                    results.push(Some(Err(e)));
                }
            }
        }
        Batch { id: req.id, sims, results }
    }

    /// The request it runs.
    pub fn id(&self) -> u64 {
        self.id
    }

    /// Steps the jobs, one after the other, while `more_time()` says so (it is asked every
    /// few thousand events). Returns the final reply when every job is done.
    pub fn step(&mut self, mut more_time: impl FnMut() -> bool) -> Option<Reply> {
        for (sim, result) in self.sims.iter_mut().zip(&mut self.results) {
            while let Some(s) = sim {
                match s.step(EVENTS_PER_CHECK) {
                    Ok(true) => {
                        *result = sim.take().map(|s| Ok(s.finish()));
                    }
                    Ok(false) => {}
                    Err(e) => {
                        *sim = None;
                        *result = Some(Err(e.into()));
                    }
                }
                if sim.is_some() && !more_time() {
                    return None;
                }
            }
        }
        let results: Vec<JobResult> = self
            .results
            .iter_mut()
            .map(|r| r.take().unwrap_or(Err(RunError::Internal("lost".into()))))
            .collect();
        let digests = results.iter().map(|r| r.as_ref().map_or(0, report_digest)).collect();
        Some(Reply::Done { id: self.id, results, digests })
    }

    /// The share of the work done (0–1), for a progress bar.
    pub fn progress(&self) -> f64 {
        if self.sims.is_empty() {
            return 1.0;
        }
        let done: f64 = self.sims.iter().map(|s| s.as_ref().map_or(1.0, ChainSim::progress)).sum();
        done / self.sims.len() as f64
    }

    /// The current progress as a reply.
    pub fn progress_reply(&self) -> Reply {
        Reply::Progress { id: self.id, fraction: self.progress() }
    }
}

/// What a page sends its worker: runs whose reports it wants, or cells of a sweep.
#[derive(Clone, Debug, PartialEq)]
pub enum Message {
    Run(Request),
    Sweep(crate::state::stability::batch::SweepRequest),
}

impl Wire for Message {
    fn put(&self, w: &mut Writer) {
        match self {
            Message::Run(r) => {
                0u8.put(w);
                r.put(w);
            }
            Message::Sweep(r) => {
                1u8.put(w);
                r.put(w);
            }
        }
    }
    fn get(r: &mut Reader) -> Option<Self> {
        match u8::get(r)? {
            0 => Some(Message::Run(Wire::get(r)?)),
            1 => Some(Message::Sweep(Wire::get(r)?)),
            _ => None,
        }
    }
}

/// A message being worked on, stepped in slices.
pub enum Work {
    Run(Batch),
    /// Boxed: a sweep's batch (the cell running, its windows) is several times a run's.
    Sweep(Box<crate::state::stability::batch::SweepBatch>),
}

impl Work {
    pub fn new(m: &Message) -> Work {
        match m {
            Message::Run(r) => Work::Run(Batch::new(r)),
            Message::Sweep(r) => Work::Sweep(Box::new(crate::state::stability::batch::SweepBatch::new(r))),
        }
    }

    /// Steps while `more_time()` says so; returns a reply to post now, if any, and whether
    /// the work is done. A run posts its result when done (and progress is the caller's
    /// choice, [`Work::progress_reply`]); a sweep posts its cells as they finish.
    pub fn step(&mut self, more_time: impl FnMut() -> bool) -> (Option<Reply>, bool) {
        match self {
            Work::Run(b) => match b.step(more_time) {
                Some(done) => (Some(done), true),
                None => (None, false),
            },
            Work::Sweep(s) => s.step(more_time),
        }
    }

    /// How far a run has come, for a progress bar (a sweep's cells are their own progress).
    pub fn progress_reply(&self) -> Option<Reply> {
        match self {
            Work::Run(b) => Some(b.progress_reply()),
            Work::Sweep(_) => None,
        }
    }
}

/// The page's side: which request is the latest, so that late replies to older ones are
/// dropped.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Latest {
    id: u64,
}

impl Latest {
    /// A new request id, replacing the previous one.
    pub fn bump(&mut self) -> u64 {
        self.id += 1;
        self.id
    }

    /// Whether a reply answers the latest request.
    pub fn current(&self, reply: &Reply) -> bool {
        reply.id() == self.id
    }
}

/// FNV-1a (64 bit) of a report's wire encoding (`crate::wire`, every field, floats as their
/// exact bits), shown on the page as `data-digest` and printed by `lab run --format digest`,
/// so a test can compare a worker's run with a native one byte for byte. (Not the JSON: the
/// page carries no JSON writer, which would cost ~10 KB of the bundle.)
pub fn report_digest(r: &Report) -> u64 {
    digest(&crate::wire::encode(r))
}

/// FNV-1a (64 bit) of some bytes.
pub fn digest(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01B3);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::chain::{DEFAULT_MAX_CALLS, run_with};
    use crate::scenario::presets;

    fn storm(query: &str, side: Side) -> Job {
        Job::Storm { query: query.to_string(), side }
    }

    #[test]
    fn a_storm_job_gives_back_the_state_that_asked_for_it() {
        let st = StormState::from_query(&Query::parse(
            "?preset=chain-3x3&l1.attempts=2&compare=1&slo=99.5&leaf.workers=40&focus=2",
        ));
        assert_eq!(st.a.layers.len(), 3, "the link is read: {:?}", st.errors);
        let job = storm(&st.run_query(), Side::A);
        let back = job.storm_state(st.a.slo).expect("a storm job");
        assert_eq!(back.a, st.a);
        assert_eq!(back.side_b(), st.side_b());
        assert!(back.compare);
        // The run does not carry the objective: the caller's is put back.
        let other = crate::model::slo::Slo { success_percent: 90.0 };
        assert_ne!(job.storm_state(other).map(|s| s.a), Some(st.a.clone()));
        assert_eq!(storm_state_of_queue(), None);
    }

    fn storm_state_of_queue() -> Option<StormState> {
        Job::Queue { query: String::new(), point: 0 }.storm_state(crate::model::slo::Slo::default())
    }

    #[test]
    fn a_batch_stepped_in_slices_gives_the_same_reports_as_one_run() {
        let a = presets::breaker_demo();
        let b = presets::metastable_retry_storm();
        let req = Request {
            id: 7,
            jobs: vec![
                storm("?preset=breaker-demo", Side::A),
                storm("?preset=metastable-retry-storm&seed=1", Side::A),
            ],
        };
        let mut batch = Batch::new(&req);
        let mut slices = 0;
        let reply = loop {
            let mut budget = 2; // two looks at the clock per slice
            if let Some(r) = batch.step(|| {
                budget -= 1;
                budget > 0
            }) {
                break r;
            }
            slices += 1;
            assert!(batch.progress() < 1.0);
        };
        assert!(slices > 2, "it took several slices");
        let Reply::Done { id, results, digests } = reply else { panic!("done") };
        assert_eq!(id, 7);
        let want = [
            run_with(&a, a.seed, DEFAULT_MAX_CALLS).unwrap(),
            run_with(&b, b.seed, DEFAULT_MAX_CALLS).unwrap(),
        ];
        for ((got, want), d) in results.iter().zip(want).zip(digests) {
            assert_eq!(got.as_ref().unwrap().to_json(), want.to_json());
            assert_eq!(d, report_digest(&want), "the digest travels with the report");
        }
    }

    #[test]
    fn replies_travel_as_messages_and_errors_survive() {
        let req = Request {
            id: 1,
            jobs: vec![
                storm(
                    "?preset=chain-3x4&pattern=batch&requests=100000&l1.attempts=10&l2.attempts=10&l3.attempts=10",
                    Side::A,
                ),
                storm("?preset=lab11-unprotected", Side::A),
                storm("?preset=metastable-retry-storm&compare=1", Side::B),
            ],
        };
        let back: Request = crate::wire::decode(&crate::wire::encode(&req)).unwrap();
        assert_eq!(back, req);
        let reply = Batch::new(&back).step(|| true).unwrap();
        let Reply::Done { results, .. } = crate::wire::decode::<Reply>(&crate::wire::encode(&reply)).unwrap()
        else {
            panic!()
        };
        assert!(matches!(&results[0], Err(RunError::TooMuchWork { .. })), "{:?}", results[0].as_ref().err());
        assert_eq!(results[1].as_ref().unwrap().summary.downstream_attempts, 900);
        let b = presets::metastable_with_budget();
        assert_eq!(
            results[2].as_ref().unwrap().to_json(),
            run_with(&b, b.seed, DEFAULT_MAX_CALLS).unwrap().to_json()
        );
    }

    #[test]
    fn hysteresis_jobs_travel_with_their_run() {
        let q = "?page=stability&protect=budget".to_string();
        let jobs: Vec<Job> = [HystRun::Plain, HystRun::NoRetry, HystRun::Protected]
            .into_iter()
            .map(|run| Job::Hysteresis { query: q.clone(), run })
            .collect();
        let req = Request { id: 3, jobs };
        let back: Request = crate::wire::decode(&crate::wire::encode(&req)).unwrap();
        assert_eq!(back, req);
        let scenario = |j: &Job| j.scenario().expect("the default preset has a limited pool").0;
        let attempts = |j: &Job| scenario(j).layers[0].client.retry.max_attempts;
        assert_eq!(attempts(&back.jobs[0]), 3, "the preset's own retries");
        assert_eq!(attempts(&back.jobs[1]), 1, "the reference makes one attempt");
        assert!(scenario(&back.jobs[2]).layers[0].client.retry_budget.is_some(), "the protection's run");
        assert!(scenario(&back.jobs[0]).layers[0].client.retry_budget.is_none());
        // A preset with no limited pool has no ramp to step: the run says so (the job hands
        // that on to the page as the run's error, not another run under the same label).
        let sweep = crate::state::stability::Sweep::default_for("chain-3x3");
        assert_eq!(sweep.hysteresis(HystRun::NoRetry).map_err(|e| e.field), Err("preset".to_string()));
    }

    #[test]
    fn only_the_latest_request_counts() {
        let mut l = Latest::default();
        let first = l.bump();
        let second = l.bump();
        assert!(!l.current(&Reply::Progress { id: first, fraction: 0.5 }));
        assert!(l.current(&Reply::Done { id: second, results: vec![], digests: vec![] }));
    }
}

//! Running simulations for a page: the [`use_runs`] hook sends the page's jobs to a Web Worker
//! (so no run, however large, blocks input or animation) and hands back the latest results.
//! Where no worker can start (a test harness without the site's files), the same
//! [`Batch`] runs in slices of at most 40 ms on the main thread.

use crate::report::Report;
use crate::state::runs::{Job, Latest, Message, Reply, Request, RunError, Work};
use gloo_timers::callback::Timeout;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use web_sys::{MessageEvent, Worker, WorkerOptions, WorkerType};
use yew::prelude::*;

/// Longest slice on the main thread when there is no worker (ms).
const LOCAL_SLICE_MS: f64 = 40.0;

/// The size of this wasm instance's linear memory (bytes).
pub fn memory_bytes() -> u64 {
    wasm_bindgen::memory()
        .dyn_into::<js_sys::WebAssembly::Memory>()
        .map_or(0, |m| m.buffer().unchecked_into::<js_sys::ArrayBuffer>().byte_length() as u64)
}

fn now() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// Where runs happen.
enum Backend {
    Worker { worker: Worker, _onmessage: Closure<dyn FnMut(MessageEvent)> },
    Local { work: Rc<RefCell<Option<Work>>>, next: Rc<RefCell<Option<Timeout>>> },
}

impl Backend {
    fn local() -> Backend {
        Backend::Local { work: Rc::new(RefCell::new(None)), next: Rc::new(RefCell::new(None)) }
    }
}

/// What comes with a reply besides itself.
#[derive(Clone, Copy, Debug)]
pub struct Meta {
    /// The linear memory of the wasm instance the run happens in (bytes).
    pub memory: u64,
    /// How long the request has taken where it runs, from its arrival there (ms).
    pub took_ms: f64,
    /// Whether the reply came from a Web Worker (false once a runner has fallen back to the
    /// main thread).
    pub in_worker: bool,
}

/// The callback a runner hands replies to.
pub type OnReply = Rc<dyn Fn(Reply, Meta)>;

/// A runner's state, shared with its worker's message handler: the handler switches it to
/// the main thread when the worker says it could not start.
struct Shared {
    backend: Backend,
    /// The last message sent, sent again on the main thread if the worker never started.
    last: Option<Message>,
    on_reply: OnReply,
}

/// A page's runner: submits requests, passes replies to the latest one on.
pub struct Runner {
    shared: Rc<RefCell<Shared>>,
}

/// The worker script and module URLs `static/boot.js` left on `window.labBoot`.
fn boot_urls() -> Option<(String, String, String)> {
    let window: JsValue = web_sys::window()?.into();
    let boot = js_sys::Reflect::get(&window, &"labBoot".into()).ok()?;
    let get = |k: &str| js_sys::Reflect::get(&boot, &k.into()).ok()?.as_string();
    Some((get("worker")?, get("js")?, get("wasm")?))
}

fn start_worker(shared: &Rc<RefCell<Shared>>) -> Option<Backend> {
    let (script, js, wasm) = boot_urls()?;
    let opts = WorkerOptions::new();
    opts.set_type(WorkerType::Module);
    let worker = Worker::new_with_options(&script, &opts).ok()?;
    let on_reply = shared.borrow().on_reply.clone();
    let weak = Rc::downgrade(shared);
    let onmessage = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
        let data = e.data();
        if let Some(bytes) = data.dyn_ref::<js_sys::Uint8Array>().map(|a| a.to_vec()) {
            if let Some(((memory, took_us), reply)) = crate::wire::decode::<((u64, u64), Reply)>(&bytes) {
                on_reply(reply, Meta { memory, took_ms: took_us as f64 / 1000.0, in_worker: true });
            }
        } else if js_sys::Reflect::has(&data, &"labFailed".into()).unwrap_or(false) {
            // The worker could not load the module (the browser refused it a wasm memory:
            // a tab's address space for them is finite, and pages long gone may still hold
            // theirs until collected). Runs go on here, in slices; the switch waits for this
            // handler to return, since it drops the handler.
            let weak = weak.clone();
            Timeout::new(0, move || {
                if let Some(shared) = weak.upgrade() {
                    fall_back(&shared);
                }
            })
            .forget();
        }
    });
    worker.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
    let init = js_sys::Object::new();
    let urls = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&urls, &"js".into(), &js.into());
    let _ = js_sys::Reflect::set(&urls, &"wasm".into(), &wasm.into());
    let _ = js_sys::Reflect::set(&init, &"labInit".into(), &urls);
    worker.post_message(&init).ok()?;
    Some(Backend::Worker { worker, _onmessage: onmessage })
}

/// Moves a runner whose worker could not start to the main thread and sends its last
/// message again there.
fn fall_back(shared: &Rc<RefCell<Shared>>) {
    let last = {
        let mut sh = shared.borrow_mut();
        if let Backend::Worker { worker, .. } = std::mem::replace(&mut sh.backend, Backend::local()) {
            worker.terminate();
        }
        sh.last.clone()
    };
    if let Some(msg) = last {
        send(shared, &msg);
    }
}

/// Sends `msg` to wherever the runner runs; no borrow is held when a local first slice runs
/// (it may reply at once, and a reply may send again).
fn send(shared: &Rc<RefCell<Shared>>, msg: &Message) {
    let local = {
        let mut sh = shared.borrow_mut();
        sh.last = Some(msg.clone());
        match &sh.backend {
            Backend::Worker { worker, .. } => {
                let bytes = crate::wire::encode(msg);
                let _ = worker.post_message(&js_sys::Uint8Array::from(bytes.as_slice()));
                None
            }
            Backend::Local { work, next } => {
                *work.borrow_mut() = Some(Work::new(msg));
                Some((work.clone(), next.clone(), sh.on_reply.clone()))
            }
        }
    };
    if let Some((work, next, on_reply)) = local {
        local_slice(work, next, on_reply, now());
    }
}

impl Runner {
    /// A runner on a worker if one can start, else on the main thread.
    pub fn new(on_reply: OnReply) -> Runner {
        let shared = Rc::new(RefCell::new(Shared { backend: Backend::local(), last: None, on_reply }));
        if let Some(worker) = start_worker(&shared) {
            shared.borrow_mut().backend = worker;
        }
        Runner { shared }
    }

    /// Whether runs happen off the main thread.
    pub fn in_worker(&self) -> bool {
        matches!(self.shared.borrow().backend, Backend::Worker { .. })
    }

    /// Runs `req`, replacing whatever ran before.
    pub fn submit(&self, req: &Request) {
        self.send(&Message::Run(req.clone()));
    }

    /// Works on `msg` (runs or a sweep's cells), replacing whatever ran before.
    pub fn send(&self, msg: &Message) {
        send(&self.shared, msg);
    }
}

impl Drop for Runner {
    fn drop(&mut self) {
        if let Backend::Worker { worker, .. } = &self.shared.borrow().backend {
            worker.terminate();
        }
    }
}

fn local_slice(
    work: Rc<RefCell<Option<Work>>>,
    next: Rc<RefCell<Option<Timeout>>>,
    on_reply: OnReply,
    started: f64,
) {
    let t0 = now();
    let (reply, progress, done) = {
        let mut guard = work.borrow_mut();
        let Some(w) = guard.as_mut() else { return };
        let (reply, done) = w.step(|| now() - t0 < LOCAL_SLICE_MS);
        let progress = if done { None } else { w.progress_reply() };
        if done {
            *guard = None;
        }
        (reply, progress, done)
    };
    // Replies go out after the borrow ends: a reply may start new work on this runner.
    let meta = Meta { memory: memory_bytes(), took_ms: now() - started, in_worker: false };
    for r in [reply, progress].into_iter().flatten() {
        on_reply(r, meta);
    }
    if !done {
        let (w, n, r) = (work.clone(), next.clone(), on_reply);
        *next.borrow_mut() = Some(Timeout::new(0, move || local_slice(w, n, r, started)));
    }
}

/// One job's result as pages hold it.
#[derive(Clone, Debug, PartialEq)]
pub struct Shown {
    /// The report, or why there is none.
    pub result: Result<Rc<Report>, RunError>,
    /// The report's digest (0 for an error), for tests comparing with native runs.
    pub digest: u64,
}

/// What a page's runs have produced so far.
#[derive(Clone, Default, PartialEq)]
pub struct Runs {
    /// The results of the latest finished request, in the order of its jobs (each report
    /// behind an `Rc`: views share it, nothing copies it).
    pub results: Option<Rc<Vec<Shown>>>,
    /// The jobs those results are for.
    pub jobs: Option<Rc<Vec<Job>>>,
    /// 0–1 while the latest request runs, 1 when it is done.
    pub progress: f64,
    /// How many requests have finished (increases with every finished run).
    pub finished: u64,
    /// Whether runs happen in a Web Worker.
    pub in_worker: bool,
    /// The most linear memory the runs' wasm instance has had (bytes; the worker's when
    /// runs happen there), for the end-to-end memory bound.
    pub memory_bytes: u64,
    /// How long the latest finished request took where it ran (ms, from its arrival in the
    /// worker to its report): the run's share of a rerun, the rest being transfer and drawing.
    pub run_ms: f64,
}

impl Runs {
    /// Whether the results on hand are for `jobs`.
    pub fn is_for(&self, jobs: &[Job]) -> bool {
        self.jobs.as_deref().is_some_and(|j| j == jobs)
    }
}

/// Runs `jobs` whenever they change, in a worker when one can start; a newer set of jobs
/// replaces an older one still running.
///
/// New jobs go to the worker as soon as the page renders with them, before its views do:
/// the run then overlaps the drawing of the control that changed (an effect, which runs
/// after the whole page is drawn, had sent them only then). The runs' state lives in a
/// `RefCell` that the reply callback updates before it asks for a render; the hook hands
/// back a copy of it. (A state handle kept by a long-lived closure must not be read: each
/// read of it keeps the value it read alive for the handle's lifetime, here every report
/// of every run.)
#[hook]
pub fn use_runs(jobs: Vec<Job>) -> Runs {
    let redraw = use_force_update();
    let current = use_mut_ref(Runs::default);
    let latest = use_mut_ref(Latest::default);
    let asked = use_mut_ref(|| None::<Rc<Vec<Job>>>);
    let runner = {
        let current = current.clone();
        let latest = latest.clone();
        let asked = asked.clone();
        use_mut_ref(move || {
            let on_reply: OnReply = Rc::new(move |reply: Reply, meta: Meta| {
                if !latest.borrow().current(&reply) {
                    return;
                }
                {
                    let mut now = current.borrow_mut();
                    now.memory_bytes = now.memory_bytes.max(meta.memory);
                    now.in_worker = meta.in_worker;
                    match reply {
                        Reply::Progress { fraction, .. } => now.progress = fraction,
                        Reply::Cells { .. } => return,
                        Reply::Done { results, digests, .. } => {
                            let shown = results
                                .into_iter()
                                .zip(digests.into_iter().chain(std::iter::repeat(0)))
                                .map(|(result, digest)| Shown { result: result.map(Rc::new), digest })
                                .collect();
                            now.results = Some(Rc::new(shown));
                            now.jobs = asked.borrow().clone();
                            now.progress = 1.0;
                            now.finished += 1;
                            now.run_ms = meta.took_ms;
                        }
                    }
                }
                redraw.force_update();
            });
            Runner::new(on_reply)
        })
    };
    let changed = asked.borrow().as_deref() != Some(&jobs);
    if changed {
        let id = latest.borrow_mut().bump();
        *asked.borrow_mut() = Some(Rc::new(jobs.clone()));
        {
            let mut now = current.borrow_mut();
            now.progress = 0.0;
            now.in_worker = runner.borrow().in_worker();
        }
        // No borrow held: without a worker the first slice runs now and may reply at once.
        runner.borrow().submit(&Request { id, jobs });
    }
    current.borrow().clone()
}

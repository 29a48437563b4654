//! A pool of Web Workers for a sweep: one per core the browser reports
//! (`navigator.hardwareConcurrency`) but one, left to the page (1–8 workers), each loading
//! the page's own wasm module. The
//! cells are dealt out coarse to fine (every fourth row and column first) so the map takes
//! shape early, round robin over the workers; each posts its cells as they finish. A newer
//! sweep, or Cancel, replaces the work every worker is doing.

use super::super::runs::{Meta, OnReply, Runner};
use crate::state::runs::{Message, Reply};
use crate::state::stability::CellResult;
use crate::state::stability::batch::SweepRequest;
use std::rc::Rc;
use yew::prelude::*;

/// Most workers in the pool.
const MAX_WORKERS: usize = 8;

/// A sweep's cells as they come in.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SweepView {
    /// The map's cells, by index (None: not yet done).
    pub plain: Rc<Vec<Option<CellResult>>>,
    /// The same cells with the protection (empty when there is none).
    pub protected: Rc<Vec<Option<CellResult>>>,
    /// Cells done, of `total`.
    pub done: usize,
    pub total: usize,
    /// From sending the cells to the last one back (ms), once all are back.
    pub elapsed_ms: Option<f64>,
    /// Workers in the pool still running cells (0: runs on the main thread, in slices; a
    /// worker the browser refused to start has its cells run there).
    pub workers: usize,
    /// The time the cells still missing should take (ms), at the pace of the cells back so
    /// far in this sweep; None until enough are back to tell (and once all are).
    pub left_ms: Option<f64>,
    /// Cancelled before the end.
    pub cancelled: bool,
    /// When the plain cells were all back (ms from the start of the sweep that finished
    /// them): the map's time once the protection is switched off and they are all of it.
    pub plain_ms: Option<f64>,
}

fn now() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// The time `left` cells should take (ms) at the pace of the `ran` cells back in `elapsed`
/// ms: said once at least 8 cells and half a second are in, so that the first few (dealt
/// coarse to fine, the costliest rows with the cheap ones) do not set it alone.
pub fn time_left(elapsed: f64, ran: usize, left: usize) -> Option<f64> {
    (ran >= 8 && elapsed >= 500.0).then(|| elapsed / ran as f64 * left as f64)
}

/// The order cells are dealt in: the coarse grid (every fourth row and column), then every
/// second, then the rest, each row by row.
pub fn deal_order(nx: usize, ny: usize) -> Vec<usize> {
    let level = |i: usize, j: usize| {
        if i.is_multiple_of(4) && j.is_multiple_of(4) {
            0
        } else if i.is_multiple_of(2) && j.is_multiple_of(2) {
            1
        } else {
            2
        }
    };
    crate::order::order_by(nx * ny, |c| level(c % nx, c / nx))
}

/// What a sweep is of: its run query, grid and whether it runs the protection too.
type SweepKey = (String, usize, usize, bool);

thread_local! {
    /// The page's last sweep, as far as it got, so that coming back to its map (Back from a
    /// cell's run) shows the cells done at once and runs only the rest, instead of all 400
    /// (or 3,200) again. Runs are deterministic, so the cells are the ones a new sweep would
    /// give.
    static SWEPT: std::cell::RefCell<Option<(SweepKey, SweepView)>> = const { std::cell::RefCell::new(None) };
}

struct Shared {
    id: u64,
    key: Option<SweepKey>,
    view: SweepView,
    started: f64,
    /// Runners that have fallen back to the main thread (by index in the pool).
    on_page: Vec<bool>,
    /// Cells already done when this sweep started (a sweep resumed after Back).
    done_at_start: usize,
    /// What the plain cells in `view` are of: the run query without the protection, and
    /// the grid. A protection switched on, off or to another keeps them.
    plain_key: Option<(String, usize, usize)>,
    /// The `round` of the sweep in `view` (a new one: Run again).
    round: u32,
    /// The next frame's redraw, when cells came in since the last one: replies are drawn at
    /// most once a frame, however many arrive.
    frame: Option<gloo_render::AnimationFrame>,
}

/// Runs the sweep `query` (a stability page's run query) over its `nx` × `ny` cells, twice
/// when `protected` (plain and with the protection); a new `round` runs it again; `cancel`
/// stops it. `plain_query`: the same without the protection, so that a protection changed
/// keeps the plain cells done.
#[hook]
pub fn use_sweep(
    query: String,
    plain_query: String,
    nx: usize,
    ny: usize,
    protected: bool,
    round: u32,
) -> (SweepView, Callback<()>) {
    // A map come back to (Back from a cell's run) whose sweep had finished is drawn whole
    // from the first frame: a first frame without its status line was 30 px shorter above
    // the map, and the page's scroll, restored on that frame, came back that far off.
    let state = use_state(|| {
        let key: SweepKey = (query.clone(), nx, ny, protected);
        SWEPT
            .with(|f| {
                f.borrow().as_ref().filter(|(k, v)| *k == key && v.done >= v.total).map(|(_, v)| v.clone())
            })
            .unwrap_or_default()
    });
    let shared = use_mut_ref(|| Shared {
        id: 0,
        key: None,
        view: SweepView::default(),
        started: 0.0,
        on_page: Vec::new(),
        done_at_start: 0,
        plain_key: None,
        round: 0,
        frame: None,
    });
    let pool = {
        let set = state.setter();
        let shared = shared.clone();
        let weak = Rc::downgrade(&shared);
        use_mut_ref(move || {
            // One core stays with the page, so that drawing and input never wait for a run.
            let n = web_sys::window()
                .map(|w| w.navigator().hardware_concurrency() as usize)
                .unwrap_or(2)
                .saturating_sub(1)
                .clamp(1, MAX_WORKERS);
            shared.borrow_mut().on_page = vec![false; n];
            let on_reply = Rc::new(move |k: usize, reply: Reply, meta: Meta| {
                let Reply::Cells { id, cells, .. } = reply else { return };
                let mut sh = shared.borrow_mut();
                if !meta.in_worker && sh.on_page.get(k) == Some(&false) {
                    sh.on_page[k] = true;
                    let workers = sh.on_page.iter().filter(|p| !**p).count();
                    sh.view.workers = sh.view.workers.min(workers);
                }
                if id != sh.id || sh.view.cancelled {
                    return;
                }
                let mut plain = (*sh.view.plain).clone();
                let mut prot = (*sh.view.protected).clone();
                for c in cells {
                    let grid = if c.protected { &mut prot } else { &mut plain };
                    if let Some(slot) = grid.get_mut(c.index as usize)
                        && slot.is_none()
                    {
                        *slot = Some(c.result);
                        sh.view.done += 1;
                    }
                }
                let elapsed = now() - sh.started;
                if sh.view.plain_ms.is_none() && plain.iter().all(Option::is_some) {
                    sh.view.plain_ms = Some(elapsed);
                }
                sh.view.plain = Rc::new(plain);
                sh.view.protected = Rc::new(prot);
                if sh.view.done >= sh.view.total {
                    sh.view.elapsed_ms = Some(elapsed);
                    sh.view.left_ms = None;
                } else {
                    sh.view.left_ms =
                        time_left(elapsed, sh.view.done - sh.done_at_start, sh.view.total - sh.view.done);
                }
                let swept = sh.key.clone().map(|k| (k, sh.view.clone()));
                SWEPT.with(|f| *f.borrow_mut() = swept);
                if sh.frame.is_none() {
                    let (set, weak) = (set.clone(), weak.clone());
                    sh.frame = Some(gloo_render::request_animation_frame(move |_| {
                        if let Some(shared) = weak.upgrade() {
                            let mut sh = shared.borrow_mut();
                            sh.frame = None;
                            set.set(sh.view.clone());
                        }
                    }));
                }
            });
            (0..n)
                .map(|k| {
                    let on_reply = on_reply.clone();
                    Runner::new(Rc::new(move |reply, meta| on_reply(k, reply, meta)) as OnReply)
                })
                .collect::<Vec<Runner>>()
        })
    };
    {
        let (set, shared, pool) = (state.setter(), shared.clone(), pool.clone());
        use_effect_with(
            (query, plain_query, nx, ny, protected, round),
            move |(query, plain_query, nx, ny, protected, round)| {
                let total_cells = nx * ny;
                let runners = pool.borrow();
                // The runners whose worker started take the cells; with none, the first runs them
                // on the main thread.
                let mut active: Vec<&Runner> = runners.iter().filter(|r| r.in_worker()).collect();
                let workers = active.len();
                if active.is_empty() {
                    active.extend(runners.first());
                }
                let mut sh = shared.borrow_mut();
                sh.id += 1;
                sh.started = now();
                let key: SweepKey = (query.clone(), *nx, *ny, *protected);
                sh.key = Some(key.clone());
                // A page come back to shows its sweep as far as it got, and runs only the cells
                // still missing; Run again runs them all.
                let cached =
                    SWEPT.with(|f| f.borrow().as_ref().filter(|(k, _)| *k == key).map(|(_, v)| v.clone()));
                let again = std::mem::replace(&mut sh.round, *round) != *round;
                let plain_key = (plain_query.clone(), *nx, *ny);
                let same_plain = !again && sh.plain_key.as_ref() == Some(&plain_key);
                sh.plain_key = Some(plain_key);
                match (again, cached) {
                    (false, Some(view)) if view.done >= view.total => {
                        sh.view = view;
                        // The workers may still be on the sweep this one replaces: stop them.
                        for r in &active {
                            r.send(&Message::Sweep(SweepRequest {
                                id: sh.id,
                                query: String::new(),
                                cells: Vec::new(),
                            }));
                        }
                        set.set(sh.view.clone());
                        return;
                    }
                    (false, Some(view)) => {
                        sh.view =
                            SweepView { cancelled: false, elapsed_ms: None, left_ms: None, workers, ..view }
                    }
                    // Only the protection changed: the plain cells stay (done or not), and the
                    // protected ones start afresh.
                    _ if same_plain => {
                        let (plain, plain_ms) = (sh.view.plain.clone(), sh.view.plain_ms);
                        let done = plain.iter().filter(|c| c.is_some()).count();
                        sh.view = SweepView {
                            done,
                            plain,
                            protected: Rc::new(if *protected { vec![None; total_cells] } else { Vec::new() }),
                            total: total_cells * if *protected { 2 } else { 1 },
                            elapsed_ms: if *protected || done < total_cells { None } else { plain_ms },
                            workers,
                            cancelled: false,
                            left_ms: None,
                            plain_ms,
                        };
                        // What Back comes back to, though no cell may come in to write it.
                        let swept = Some((key.clone(), sh.view.clone()));
                        SWEPT.with(|f| *f.borrow_mut() = swept);
                    }
                    _ => {
                        sh.view = SweepView {
                            plain: Rc::new(vec![None; total_cells]),
                            protected: Rc::new(if *protected { vec![None; total_cells] } else { Vec::new() }),
                            done: 0,
                            total: total_cells * if *protected { 2 } else { 1 },
                            elapsed_ms: None,
                            workers,
                            cancelled: false,
                            left_ms: None,
                            plain_ms: None,
                        }
                    }
                }
                let order = deal_order(*nx, *ny);
                let missing = |grid: &[Option<_>], c: usize| grid.get(c).is_some_and(Option::is_none);
                let mut jobs: Vec<(u32, bool)> = order
                    .iter()
                    .filter(|&&c| missing(&sh.view.plain, c))
                    .map(|&c| (c as u32, false))
                    .collect();
                if *protected {
                    jobs.extend(
                        order.iter().filter(|&&c| missing(&sh.view.protected, c)).map(|&c| (c as u32, true)),
                    );
                }
                for (k, r) in active.iter().enumerate() {
                    let cells = jobs.iter().skip(k).step_by(active.len()).copied().collect();
                    r.send(&Message::Sweep(SweepRequest { id: sh.id, query: query.clone(), cells }));
                }
                sh.done_at_start = sh.view.done;
                set.set(sh.view.clone());
            },
        );
    }
    let cancel = {
        let (set, shared, pool) = (state.setter(), shared.clone(), pool.clone());
        Callback::from(move |()| {
            let mut sh = shared.borrow_mut();
            sh.view.cancelled = true;
            sh.id += 1;
            for r in pool.borrow().iter() {
                r.send(&Message::Sweep(SweepRequest { id: sh.id, query: String::new(), cells: Vec::new() }));
            }
            set.set(sh.view.clone());
        })
    };
    ((*state).clone(), cancel)
}

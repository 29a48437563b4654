//! The simulation's side of the Web Worker. `static/worker.js` loads the app's own module in
//! the worker and hands every message here: an encoded [`Request`] (`crate::wire`). The
//! worker steps it in slices of about 50 ms, posting progress (with the worker's memory
//! size) between them once a run has taken a while, and a newer request replaces the one
//! being run (it is looked at between slices).

use crate::state::runs::{Message, Work};
use gloo_timers::callback::Timeout;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use web_sys::{DedicatedWorkerGlobalScope, WorkerGlobalScope};

/// Longest slice of simulation between looks at the message queue (ms). The worker blocks
/// nothing the learner sees; a slice only bounds how late a newer request is noticed.
const SLICE_MS: f64 = 50.0;

/// Runs shorter than this post no progress (ms): every progress reply re-renders the page,
/// which would only slow a quick rerun down.
const QUIET_MS: f64 = 150.0;

thread_local! {
    static CURRENT: RefCell<Option<Work>> = const { RefCell::new(None) };
    /// When the current request arrived (ms, the worker's clock).
    static STARTED: RefCell<f64> = const { RefCell::new(0.0) };
    /// The pending call of the next slice (an owned handle: dropping it cancels it).
    static NEXT: RefCell<Option<Timeout>> = const { RefCell::new(None) };
}

fn now() -> f64 {
    js_sys::global().unchecked_into::<WorkerGlobalScope>().performance().map_or(0.0, |p| p.now())
}

fn post(bytes: &[u8]) {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let _ = scope.post_message(&js_sys::Uint8Array::from(bytes));
}

/// Called once the module is loaded in the worker.
#[wasm_bindgen]
pub fn worker_ready() {}

/// A message from the page: a run request.
#[wasm_bindgen]
pub fn worker_message(data: JsValue) {
    let Some(bytes) = data.dyn_ref::<js_sys::Uint8Array>().map(|a| a.to_vec()) else { return };
    let Some(msg) = crate::wire::decode::<Message>(&bytes) else { return };
    STARTED.with(|t| *t.borrow_mut() = now());
    CURRENT.with(|c| *c.borrow_mut() = Some(Work::new(&msg)));
    NEXT.with(|n| *n.borrow_mut() = Some(Timeout::new(0, slice)));
}

/// Runs the current request for one slice and posts what came of it.
fn slice() {
    let t0 = now();
    let out = CURRENT.with(|c| {
        let mut guard = c.borrow_mut();
        let work = guard.as_mut()?;
        let (reply, done) = work.step(|| now() - t0 < SLICE_MS);
        let progress = if done { None } else { work.progress_reply() };
        if done {
            *guard = None;
        }
        Some((reply, progress, done))
    });
    let Some((reply, progress, done)) = out else { return };
    // With every reply: the worker's memory and how long the request has taken so far (µs,
    // from its arrival here), so that the page can tell the run's share of a redraw.
    let took_us = (STARTED.with(|t| now() - *t.borrow()).max(0.0) * 1000.0) as u64;
    let send = |r| post(&crate::wire::encode(&((crate::ui::runs::memory_bytes(), took_us), r)));
    if let Some(r) = reply {
        send(r);
    }
    if !done {
        if let Some(p) = progress.filter(|_| STARTED.with(|t| now() - *t.borrow() >= QUIET_MS)) {
            send(p);
        }
        NEXT.with(|n| *n.borrow_mut() = Some(Timeout::new(0, slice)));
    }
}

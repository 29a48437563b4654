//! Pointing at a lesson step's figure: the outline (class `spot`) and the scroll that
//! brings the figure into view, which gives way to the learner. The figure of a step on the
//! storm page is drawn only once its run is in, seconds after the step on a slow machine;
//! a scroll then, after the learner has started to read or scroll the card, would move the
//! page under their hand (and a click aimed at the card's buttons would land elsewhere).

use super::browser;
use super::{marks, remove_class_but};
use std::cell::Cell;
use std::rc::Rc;

thread_local! {
    /// Which pointing is current: a step moved on (or left) stops the looks of the one
    /// before, whose figure may still appear later.
    static POINTING: Cell<u32> = const { Cell::new(0) };
}

/// The looks for a figure to appear, then the follow-ups while the page is still being
/// drawn (a chart drawn late grows the figure below the window's edge, parts drawn late
/// above it push it down).
const FOLLOW_LOOKS: u32 = 12;
/// Between looks for a figure not yet drawn, ms.
const LOOK_EVERY_MS: u32 = 150;
/// Between follow-ups once it is drawn, ms.
const FOLLOW_EVERY_MS: u32 = 250;

fn next_pointing() -> u32 {
    POINTING.with(|p| {
        p.set(p.get().wrapping_add(1));
        p.get()
    })
}

/// Outside a lesson: no figure is the step's.
pub fn no_spotlight() {
    next_pointing();
    marks::keep_spot(None);
    remove_class_but("spot", &[]);
}

/// Whether the learner has touched the page (wheel, touch, key, pointer) since the step
/// was drawn: the scroll position cannot tell, the browser's scroll anchoring moves it too.
/// The listeners go with the last clone, when the looks end.
#[derive(Clone)]
struct Watch {
    pointing: u32,
    touched: Rc<Cell<bool>>,
    // Only held: the listeners stay attached while a look is pending.
    _listeners: Rc<Vec<gloo_events::EventListener>>,
}

impl Watch {
    fn start(pointing: u32) -> Option<Self> {
        let win = web_sys::window()?;
        let touched = Rc::new(Cell::new(false));
        let listeners = ["wheel", "touchstart", "keydown", "pointerdown"]
            .into_iter()
            .map(|kind| {
                let touched = touched.clone();
                gloo_events::EventListener::new(&win, kind, move |_| touched.set(true))
            })
            .collect();
        Some(Self { pointing, touched, _listeners: Rc::new(listeners) })
    }

    /// Whether this pointing may still scroll the page.
    fn may_scroll(&self) -> bool {
        !self.touched.get() && POINTING.with(Cell::get) == self.pointing
    }
}

/// Points at the step's figure: outlines it (class `spot`, taken from the previous one) and,
/// if `scroll`, scrolls it into view unless the learner has touched the page since. The
/// figure may appear only once its run is drawn, so this looks `tries` times more.
pub fn spotlight(id: &'static str, tries: u32, scroll: bool) {
    let pointing = next_pointing();
    remove_class_but("spot", &[id]);
    // Kept on the figure however often its view draws it again (see `marks`).
    marks::keep_spot(Some(id));
    if let Some(watch) = Watch::start(pointing) {
        look(id, tries, scroll, watch);
    }
}

/// One look for the step's figure.
fn look(id: &'static str, tries: u32, scroll: bool, watch: Watch) {
    if POINTING.with(Cell::get) != watch.pointing {
        return;
    }
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
    match doc.get_element_by_id(id) {
        // On a narrow screen the card is above the page: scrolling to the figure would
        // skip the narration, so the learner scrolls.
        Some(el) if scroll && browser::is_wide() => {
            bring_into_view(&el, &watch);
            follow(el, watch, FOLLOW_LOOKS);
        }
        Some(_) => {}
        None if tries > 0 => {
            gloo_timers::callback::Timeout::new(LOOK_EVERY_MS, move || look(id, tries - 1, scroll, watch))
                .forget();
        }
        None => {}
    }
}

/// Scrolls the figure into view if it is not and the page is still the pointing's.
fn bring_into_view(el: &web_sys::Element, watch: &Watch) {
    let Some(win) = web_sys::window() else { return };
    let vh = win.inner_height().ok().and_then(|h| h.as_f64()).unwrap_or(0.0);
    // Already in view: leave the page where the learner has it.
    if watch.may_scroll() && !in_view(el, vh) {
        scroll_to_spot(el, vh);
    }
}

/// Brings the step's figure back into view while the page is still being drawn, for a
/// few seconds; stops as soon as the learner touches the page or the step moves on.
fn follow(el: web_sys::Element, watch: Watch, tries: u32) {
    if tries == 0 {
        return;
    }
    gloo_timers::callback::Timeout::new(FOLLOW_EVERY_MS, move || {
        if !watch.may_scroll() || !el.class_list().contains("spot") || !el.is_connected() {
            return;
        }
        bring_into_view(&el, &watch);
        follow(el, watch, tries - 1);
    })
    .forget();
}

/// Scrolls the step's figure into view: centred, or from its top when it is taller than
/// the window (its heading is what the step names).
fn scroll_to_spot(el: &web_sys::Element, vh: f64) {
    let opts = web_sys::ScrollIntoViewOptions::new();
    let tall = el.get_bounding_client_rect().height() > vh * 0.8;
    opts.set_block(if tall {
        web_sys::ScrollLogicalPosition::Start
    } else {
        web_sys::ScrollLogicalPosition::Center
    });
    el.scroll_into_view_with_scroll_into_view_options(&opts);
}

/// Whether the step's figure is in view: all of it, or its top part when it is taller
/// than the window.
fn in_view(el: &web_sys::Element, vh: f64) -> bool {
    let r = el.get_bounding_client_rect();
    r.top() >= 0.0 && (r.bottom() <= vh || (r.height() > vh * 0.8 && r.top() <= vh * 0.25))
}

//! The classes a lesson puts on its page's figures: `spot` on the step's figure and `veiled`
//! on what would answer the question. They are not the views' own classes, so a view that
//! draws its element again (a slider moved in the step changes the element's `class`, or a
//! new run replaces the element) drops them. One `MutationObserver` on the page puts them
//! back in the same task, before the page is painted: in presenter mode the figure on the
//! stage is the one with `spot`, and without it the stage went blank until the step was
//! opened again.

use std::cell::RefCell;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::Closure;

#[derive(Default)]
struct Marks {
    spot: Option<&'static str>,
    veiled: Vec<&'static str>,
    /// The figures a revealed answer quotes.
    answered: Vec<&'static str>,
    /// The observer and its callback, made once (kept alive here).
    observer: Option<(web_sys::MutationObserver, Closure<dyn FnMut()>)>,
}

thread_local! {
    static MARKS: RefCell<Marks> = RefCell::new(Marks::default());
}

/// Keeps `spot` on the element `id` (none: on no element kept).
pub fn keep_spot(id: Option<&'static str>) {
    MARKS.with(|m| m.borrow_mut().spot = id);
    watch();
    apply();
}

/// Keeps `veiled` on the elements `ids` (and on no other kept).
pub fn keep_veiled(ids: Vec<&'static str>) {
    MARKS.with(|m| m.borrow_mut().veiled = ids);
    watch();
    apply();
}

/// Keeps `answered` on the elements `ids` (and on no other kept).
pub fn keep_answered(ids: Vec<&'static str>) {
    MARKS.with(|m| m.borrow_mut().answered = ids);
    watch();
    apply();
}

/// Puts the kept classes back where they are missing. The observer sees its own additions
/// and calls this once more, which then finds nothing missing and changes nothing.
fn apply() {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
    let (spot, veiled, answered) = MARKS.with(|m| {
        let m = m.borrow();
        (m.spot, m.veiled.clone(), m.answered.clone())
    });
    let ensure = |id: &str, class: &str| {
        if let Some(el) = doc.get_element_by_id(id)
            && !el.class_list().contains(class)
        {
            let _ = el.class_list().add_1(class);
        }
    };
    if let Some(id) = spot {
        ensure(id, "spot");
    }
    for id in answered {
        ensure(id, "answered");
    }
    for id in veiled {
        ensure(id, "veiled");
        if let Some(el) = doc.get_element_by_id(id) {
            hide_from_readers(&el);
        }
    }
}

/// Marks an element whose own view did not hide it from screen readers.
const HIDDEN_BY_VEIL: &str = "data-veil-hidden";

/// A veiled figure is hidden from screen readers too, as it is blurred on the screen: a
/// listener would otherwise hear the answer (a live region announces it) before the
/// question is asked. Of a chart, its drawing (the caption, with its title and export
/// button, stays readable, as on the screen); a veiled block with controls in it (a
/// step's knobs) is left to the keyboard and the reader alike; an element its view hides
/// already is left as it is.
fn hide_from_readers(el: &web_sys::Element) {
    let hide = |e: &web_sys::Element| {
        if !e.has_attribute("aria-hidden") {
            let _ = e.set_attribute("aria-hidden", "true");
            let _ = e.set_attribute(HIDDEN_BY_VEIL, "");
        }
    };
    if let Ok(plots) = el.query_selector_all("figure > .plot")
        && plots.length() > 0
    {
        for i in 0..plots.length() {
            if let Some(p) = plots.item(i).and_then(|n| n.dyn_into::<web_sys::Element>().ok()) {
                hide(&p);
            }
        }
    } else if !matches!(el.query_selector("input, select, textarea, button, summary, a[href]"), Ok(Some(_))) {
        hide(el);
    }
}

/// Gives back to screen readers everything a veil hid (before the veils kept now are put
/// back): whatever its class is now, so that a view that redrew a figure's class as its veil
/// was lifted does not leave it hidden.
pub fn show_all_to_readers() {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
    if let Ok(hidden) = doc.query_selector_all(&format!("[{HIDDEN_BY_VEIL}]")) {
        for i in 0..hidden.length() {
            if let Some(el) = hidden.item(i).and_then(|n| n.dyn_into::<web_sys::Element>().ok()) {
                let _ = el.remove_attribute("aria-hidden");
                let _ = el.remove_attribute(HIDDEN_BY_VEIL);
            }
        }
    }
}

/// Starts the observer while there is something to keep (any class change or element
/// added anywhere in the page), and stops it once there is nothing: outside a lesson the
/// page is not watched.
fn watch() {
    let (started, wanted) = MARKS.with(|m| {
        let m = m.borrow();
        (m.observer.is_some(), m.spot.is_some() || !m.veiled.is_empty() || !m.answered.is_empty())
    });
    if started && !wanted {
        if let Some((observer, _callback)) = MARKS.with(|m| m.borrow_mut().observer.take()) {
            observer.disconnect();
        }
        return;
    }
    if started || !wanted {
        return;
    }
    let Some(body) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.body()) else { return };
    let callback = Closure::<dyn FnMut()>::new(apply);
    let Ok(observer) = web_sys::MutationObserver::new(callback.as_ref().unchecked_ref()) else { return };
    let init = web_sys::MutationObserverInit::new();
    init.set_attributes(true);
    init.set_attribute_filter(&js_sys::Array::of1(&"class".into()));
    init.set_child_list(true);
    init.set_subtree(true);
    if observer.observe_with_options(&body, &init).is_ok() {
        MARKS.with(|m| m.borrow_mut().observer = Some((observer, callback)));
    }
}

//! The stability map page (`?page=stability`): a sweep of the chain model over two axes,
//! run in a pool of Web Workers and drawn as it fills in (`plot::stability`), the same
//! sweep with a protection as a dashed boundary, and the hysteresis run. The main thread
//! only draws.

pub mod pool;

use super::export::{DataKind, ExportMenu};
use super::lab::{LabSettings, preset_picker};
use super::runs::use_runs;
use crate::export::{Provenance, lab_json};
use crate::i18n::{Lang, T, format_number};
use crate::model::stability::Outcome;
use crate::plot::stability::{
    HystLines, axis_title, cell_view, hyst_served_text, hysteresis_markup, hysteresis_y_axis_markup,
    map_boundaries, map_markup, map_y_axis_markup, protection_label, saved_marks,
};
use crate::scenario::presets;
use crate::state::FieldKey;
use crate::state::stability::page::{AXIS_KEYS, StabilityAction as A, StabilityState, presets_with_trigger};
use crate::state::stability::{Axis, HYST_LEVELS, HYST_STEP_MS, HYST_TOP, Protection, Sweep, capacity};
use pool::{SweepView, use_sweep};
use std::rc::Rc;
use wasm_bindgen::JsCast;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct StabilityProps {
    pub lang: Lang,
    /// Compact mode (`embed=1`): a cell's run opens compact too, inside the same frame.
    #[prop_or_default]
    pub embed: bool,
    pub state: StabilityState,
    pub dispatch: Callback<A>,
}

/// An axis' error as its form shows it: named by the part of the form it is about (the
/// axis, then from, to, steps or the knob at a value), not in the link's `KEY=FROM..TO/N`
/// terms; an error of the axis as a whole (a malformed link) keeps those.
fn axis_error(lang: Lang, field: &str, e: &crate::error::FieldError) -> String {
    let axis = lang.t(if field == "x" { T::StabX } else { T::StabY });
    let named =
        |part: &str, e: &crate::error::FieldError| lang.named_error(e, &format!("{axis} · {part}"), &e.unit);
    match e.field.strip_prefix(field).map(str::trim) {
        Some("from") => named(lang.t(T::StabFrom), e),
        Some("to") => named(lang.t(T::StabTo), e),
        Some("steps") => named(lang.t(T::StabSteps), e),
        _ => match e.value.split_once('=') {
            // A value of the axis' knob at one of its cells (`trigger_ms=-5`).
            Some((key, v)) if !v.contains("..") => {
                let e = crate::error::FieldError { value: v.to_string(), ..e.clone() };
                named(&axis_title(lang, key), &e)
            }
            _ => lang.field_error(e),
        },
    }
}

/// One axis' controls: the knob, from, to, steps; any change sends the whole axis.
fn axis_controls(
    lang: Lang,
    field: &'static str,
    axis: &Axis,
    st: &StabilityState,
    dispatch: &Callback<A>,
) -> Html {
    let t = |k: T| lang.t(k);
    let id = |part: &str| format!("stab-{field}-{part}");
    let onchange = {
        let d = dispatch.clone();
        let ids = [id("key"), id("from"), id("to"), id("n")];
        Callback::from(move |_: Event| {
            let doc = web_sys::window().and_then(|w| w.document());
            let get = |i: &str| {
                let el = doc.as_ref().and_then(|d| d.get_element_by_id(i));
                el.as_ref()
                    .and_then(|e| wasm_bindgen::JsCast::dyn_ref::<HtmlInputElement>(e).map(|x| x.value()))
                    .or_else(|| {
                        el.as_ref().and_then(|e| {
                            wasm_bindgen::JsCast::dyn_ref::<HtmlSelectElement>(e).map(|x| x.value())
                        })
                    })
                    .unwrap_or_default()
            };
            d.emit(A::Axis(
                field,
                format!("{}={}..{}/{}", get(&ids[0]), get(&ids[1]), get(&ids[2]), get(&ids[3])),
            ));
        })
    };
    // Another knob: the axis starts from that knob's own range (see `Axis::default_for`).
    let onknob = {
        let d = dispatch.clone();
        Callback::from(move |e: Event| {
            let select: HtmlSelectElement = e.target_unchecked_into();
            d.emit(A::AxisKnob(field, select.value()));
        })
    };
    let keys: Vec<&str> = if AXIS_KEYS.contains(&axis.key.as_str()) {
        AXIS_KEYS.to_vec()
    } else {
        let mut k = AXIS_KEYS.to_vec();
        k.push(&axis.key);
        k
    };
    let error = st.errors.get(&FieldKey::plain(field)).map(|(_, e)| axis_error(lang, field, e));
    let num = |part: &str, label: T, v: String| {
        html! {
            <label class="axis-num">{ t(label) }
                <input id={id(part)} class="num" type="text" inputmode="decimal" value={v} onchange={onchange.clone()}
                    aria-describedby="stab-axis-help" />
            </label>
        }
    };
    html! {
        <fieldset class="group" id={format!("stab-{field}")}>
            <legend>{ t(if field == "x" { T::StabX } else { T::StabY }) }</legend>
            <div class="control-head">
                <label for={id("key")}>{ t(T::StabAxisKnob) }</label>
                <select id={id("key")} onchange={onknob} title={t(T::StabAxisHelp)} aria-describedby="stab-axis-help">
                    { for keys.iter().map(|k| html! { <option value={k.to_string()} selected={*k == axis.key}>{ axis_title(lang, k) }</option> }) }
                </select>
            </div>
            <div class="axis-nums">
                { num("from", T::StabFrom, crate::state::storm::url_num(axis.from)) }
                { num("to", T::StabTo, crate::state::storm::url_num(axis.to)) }
                { num("n", T::StabSteps, axis.n.to_string()) }
            </div>
            if let Some(e) = error { <p class="field-error" role="alert" id={format!("stab-{field}-error")}>{ e }</p> }
        </fieldset>
    }
}

/// Brings the drawn map up to date with the cells in: each changed cell's class, data and
/// tooltip, and the boundaries. `applied` remembers each cell's tooltip as drawn, so only
/// cells that changed are touched.
fn patch_map(
    lang: Lang,
    s: &crate::state::stability::Sweep,
    plain: &[Option<crate::state::stability::CellResult>],
    protected: &[Option<crate::state::stability::CellResult>],
    applied: &mut Vec<String>,
) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
    if applied.len() != plain.len() {
        *applied = vec![String::new(); plain.len()];
    }
    for (index, c) in plain.iter().enumerate() {
        let (class, outcome, after, title) = cell_view(lang, s, index, c.as_ref());
        let Some(el) = doc.get_element_by_id(&format!("cell-{index}")) else { return };
        // A cell drawn anew (new markup) shows "pending" again: compare with the page.
        if applied[index] == title && el.get_attribute("data-outcome").as_deref() == Some(outcome) {
            continue;
        }
        let _ = el.set_attribute("class", &class);
        let _ = el.set_attribute("data-outcome", outcome);
        let _ = el.set_attribute("data-after", &after);
        if let Some(t) = el.first_element_child() {
            t.set_text_content(Some(&title));
        }
        applied[index] = title;
    }
    let (b, bp) = map_boundaries(s, plain, protected);
    for (id, d) in [("stab-boundary", b), ("stab-boundary-protected", bp)] {
        if let Some(el) = doc.get_element_by_id(id) {
            let _ = el.set_attribute("d", &d);
        }
    }
    if let Some(g) = doc.get_element_by_id("stab-saved") {
        let (n, marks) = saved_marks(s, plain, protected);
        if g.get_attribute("data-count").as_deref() != Some(&n.to_string()) {
            let _ = g.set_attribute("data-count", &n.to_string());
            g.set_inner_html(&marks);
        }
    }
}

/// What the stability page exports as JSON: the sweep and every cell, with and without
/// the protection.
#[derive(serde::Serialize)]
struct StabilityExport<'a> {
    x: String,
    y: String,
    protect: &'a str,
    cells: Vec<crate::state::stability::CellRow>,
    protected_cells: Vec<crate::state::stability::CellRow>,
}

/// A cell's run as a link of the page's language ("" for a cell the sweep cannot run).
fn cell_href(lang: Lang, embed: bool, q: Result<crate::query::Query, crate::error::FieldError>) -> String {
    q.map(|mut q| {
        q.set("lang", lang.code());
        if embed {
            q.set("embed", "1");
        }
        q.to_query_string()
    })
    .unwrap_or_default()
}

/// The keyboard's way to a cell's run (the cells themselves are links left out of the tab
/// order, so that the map is not 400 tab stops): a column, a row, and a link to that run.
/// The choice is the page's state (`col`, `row` in its link), so Back from the run finds it.
fn open_cell(
    lang: Lang,
    embed: bool,
    st: &StabilityState,
    view: &SweepView,
    links: &Rc<Vec<String>>,
    dispatch: &Callback<A>,
) -> Html {
    let s = &st.sweep;
    let [i, j] = st.cell;
    let index = usize::from(j) * usize::from(s.x.n) + usize::from(i);
    // The picked cell's verdict in words, on every device: a tooltip is a mouse's alone (a
    // tap on a tablet picks the cell, see `pick_on_touch`), and a keyboard picks it here.
    let verdict = |cells: &[Option<crate::state::stability::CellResult>]| {
        crate::plot::stability::verdict_text(lang, cells.get(index).and_then(Option::as_ref))
    };
    let protected_verdict = (s.protect != Protection::None).then(|| verdict(&view.protected));
    let href = links.get(index).cloned().unwrap_or_default();
    // The same cell with the overlaid protection on: the map shows both runs' verdicts, and
    // the unprotected one alone could not be opened to see why it recovered.
    let protected_href = (s.protect != Protection::None)
        .then(|| cell_href(lang, embed, s.cell_query(index, true)))
        .filter(|h| !h.is_empty());
    let pick = |field: &'static str| {
        dispatch.reform(move |e: Event| {
            let sel: HtmlSelectElement = e.target_unchecked_into();
            A::Cell(field, sel.value())
        })
    };
    // Values from 1, as the link writes them.
    let options = |axis: &Axis, chosen: u16| -> Html {
        (0..axis.n)
            .map(|k| html! { <option value={(k + 1).to_string()} selected={k == chosen}>{ crate::plot::stability::axis_value(lang, &axis.key, axis.value(k)) }</option> })
            .collect()
    };
    let errors: Html = ["col", "row"]
        .into_iter()
        .filter_map(|f| st.errors.get(&FieldKey::plain(f)))
        .map(|(_, e)| html! { <p class="field-error" role="alert">{ lang.field_error(e) }</p> })
        .collect();
    html! {
        <div class="open-cell" role="group" aria-labelledby="stab-open-label">
            <span id="stab-open-label" title={lang.t(T::StabOpenCellHelp)}>{ lang.t(T::StabOpenCell) }</span>
            <label>{ axis_title(lang, &s.x.key) }
                <select id="stab-open-x" aria-describedby="stab-open-help" onchange={pick("col")}>{ options(&s.x, i) }</select></label>
            <label>{ axis_title(lang, &s.y.key) }
                <select id="stab-open-y" aria-describedby="stab-open-help" onchange={pick("row")}>{ options(&s.y, j) }</select></label>
            // On screen, not only as a tooltip: a touch screen shows none.
            <p class="help" id="stab-open-help">{ lang.t(T::StabOpenCellHelp) }</p>
            <p class="cell-verdict" id="stab-cell-verdict" aria-live="polite">
                <strong>{ lang.t(T::StabCellVerdict) }</strong>{ lang.t(T::LabelSep) }{ verdict(&view.plain) }
                if let Some(v) = protected_verdict {
                    { lang.t(T::ClauseSep) }{ lang.f(T::StabCellProtected, &[("p", &protection_label(lang, s, s.protect)), ("verdict", &v)]) }
                }
            </p>
            <a class="button secondary" id="stab-open" {href}>{ lang.t(T::StabOpen) }</a>
            if let Some(href) = protected_href {
                <a class="button secondary" id="stab-open-protected" {href}>
                    { lang.f(T::StabOpenProtected, &[("p", &protection_label(lang, s, s.protect))]) }
                </a>
            }
            { errors }
        </div>
    }
}

/// The protection select (the page's own, and a lesson step's knob).
fn protect_control(lang: Lang, st: &StabilityState, dispatch: &Callback<A>) -> Html {
    let t = |k: T| lang.t(k);
    let onprotect = {
        let d = dispatch.clone();
        Callback::from(move |e: Event| {
            let sel: HtmlSelectElement = e.target_unchecked_into();
            d.emit(A::Protect(sel.value()));
        })
    };
    let error = st.errors.get(&FieldKey::plain("protect")).map(|(_, e)| lang.field_error(e));
    html! {
        <div class="control choice">
            <div class="control-head">
                <label for="stab-protect" title={t(T::StabProtectHelp)}>{ t(T::StabProtect) }</label>
                <select id="stab-protect" onchange={onprotect} aria-describedby="stab-protect-help">
                    { for Protection::ALL.iter().map(|p| {
                        // The budget's option says its ratio; lessons quote it from here.
                        let ratio = (*p == Protection::Budget).then(|| st.sweep.budget_overlay_ratio()).flatten();
                        html! {
                            <option value={p.slug()} selected={*p == st.sweep.protect}
                                id={ratio.map(|_| "stab-budget-ratio")} data-value={ratio.map(|r| (r * 100.0).to_string())}>
                                { protection_label(lang, &st.sweep, *p) }</option>
                        }
                    }) }
                </select>
            </div>
            <p class="help" id="stab-protect-help">{ t(T::StabProtectHelp) }</p>
            if let Some(e) = error { <p class="field-error" role="alert" id="stab-protect-error">{ e }</p> }
        </div>
    }
}

/// The control a guided lesson's step offers (the protection).
pub fn step_knob(lang: Lang, st: &StabilityState, dispatch: &Callback<A>, key: &str) -> Option<Html> {
    (key == "protect").then(|| protect_control(lang, st, dispatch))
}
/// Outlines the picked cell (the cell picker's) on the map: a rectangle of its own over the
/// cells, drawn last (a stroke on the cell itself was painted over by its neighbours, and
/// its link's focus style took its colour).
fn mark_picked(index: usize) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
    let Some(cell) = doc.get_element_by_id(&format!("cell-{index}")) else { return };
    let Some(svg) = cell.closest("svg").ok().flatten() else { return };
    let outline = match doc.get_element_by_id("stab-picked") {
        Some(o) => o,
        None => {
            let Ok(o) = doc.create_element_ns(Some("http://www.w3.org/2000/svg"), "rect") else { return };
            o.set_id("stab-picked");
            // The page's choice, not the figure's: left out of an export.
            let _ = o.set_attribute("class", "picked-outline no-export");
            let _ = o.set_attribute("pointer-events", "none");
            let _ = o.set_attribute("aria-hidden", "true");
            o
        }
    };
    for attr in ["x", "y", "width", "height"] {
        if let Some(v) = cell.get_attribute(attr) {
            let _ = outline.set_attribute(attr, &v);
        }
    }
    // Last in the map's drawing (again after a redraw of the markup), over every cell.
    let _ = svg.append_child(&outline);
}

/// The width of the y axis' copy held at a picture box's left edge (0 where none is shown).
fn held_axis_width(wrap: &web_sys::Element) -> f64 {
    wrap.query_selector(".stab-yaxis").ok().flatten().map_or(0.0, |a| a.get_bounding_client_rect().width())
}

/// Scrolls the map's box sideways (a phone's), not the page, so that the picked cell is in
/// view beside the y axis held at its left edge: a cell picked from the keyboard had stayed
/// out of sight while the words under the map spoke of it.
fn keep_in_view(index: usize) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
    let Some(cell) = doc.get_element_by_id(&format!("cell-{index}")) else { return };
    let Some(wrap) = cell.closest(".stab-map-wrap").ok().flatten() else { return };
    let axis = held_axis_width(&wrap);
    let (c, w) = (cell.get_bounding_client_rect(), wrap.get_bounding_client_rect());
    let (from, to) = (w.left() + axis + 4.0, w.right() - 4.0);
    let by = if c.left() < from {
        c.left() - from
    } else if c.right() > to {
        c.right() - to
    } else {
        return;
    };
    wrap.set_scroll_left(wrap.scroll_left() + by.round() as i32);
}

/// Scrolls a picture's box sideways (a phone's) so that the span from `left` to `right`
/// (client px, measured with the box unscrolled) sits mid-way in what the held y axis leaves
/// in view. Only a box still at its left edge: one the reader (or a picked cell) has
/// scrolled stays where it is.
fn center_sideways(wrap: &web_sys::Element, left: f64, right: f64) {
    if wrap.scroll_width() <= wrap.client_width() + 1 || wrap.scroll_left() != 0 || right < left {
        return;
    }
    let axis = held_axis_width(wrap);
    let w = wrap.get_bounding_client_rect();
    let by = (left + right) / 2.0 - (w.left() + axis + w.right()) / 2.0;
    if by > 0.5 {
        wrap.set_scroll_left(by.round() as i32);
    }
}

/// The horizontal span (client px) of the elements `selector` finds in `within`, leaving
/// out empty ones (a boundary with no edge yet).
fn span_of(within: &web_sys::Element, selector: &str) -> Option<(f64, f64)> {
    let found = within.query_selector_all(selector).ok()?;
    let mut span: Option<(f64, f64)> = None;
    for i in 0..found.length() {
        let Some(el) = found.item(i).and_then(|n| n.dyn_into::<web_sys::Element>().ok()) else { continue };
        let r = el.get_bounding_client_rect();
        if r.width() <= 0.0 && r.height() <= 0.0 {
            continue;
        }
        span = Some(span.map_or((r.left(), r.right()), |(a, b)| (a.min(r.left()), b.max(r.right()))));
    }
    span
}

/// On a phone the map opens at its left edge, the lowest loads, where every cell recovers,
/// and the hysteresis chart at the half of the capacity where both its branches are calm:
/// what a lesson's step asks about (where the boundary lies, where goodput breaks) was
/// off to the right. Once drawn, the map's boundaries and the rising branch's peak are
/// brought to the middle of their boxes.
fn show_what_matters(map_done: bool, hyst_drawn: bool) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
    if map_done
        && let Some(wrap) = doc.query_selector(".stab-map-wrap").ok().flatten()
        && let Some((l, r)) = span_of(&wrap, "path.boundary")
    {
        center_sideways(&wrap, l, r);
    }
    if hyst_drawn {
        let Some(wrap) = doc.query_selector("#stability-hysteresis .stab-scroll").ok().flatten() else {
            return;
        };
        let Ok(dots) = wrap.query_selector_all("circle.hyst-dot.up:not(.protected)") else { return };
        // The rising branch's highest point: where goodput breaks.
        let mut peak: Option<web_sys::DomRect> = None;
        for i in 0..dots.length() {
            let Some(d) = dots.item(i).and_then(|n| n.dyn_into::<web_sys::Element>().ok()) else { continue };
            let r = d.get_bounding_client_rect();
            if peak.as_ref().is_none_or(|p| r.top() < p.top()) {
                peak = Some(r);
            }
        }
        if let Some(p) = peak {
            center_sideways(&wrap, p.left(), p.right());
        }
    }
}

/// On a touch screen a tap on a cell picks it (outlined, its verdict said under the map,
/// the picker's Open a tap away) rather than opening its run: a cell is 22 × 16 px on a
/// tablet, too small for a finger to be sure of, and a touch has no tooltip to check it by.
/// A mouse's click opens the run, as the cell's link says.
fn pick_on_touch(s: &Sweep, dispatch: &Callback<A>) -> Callback<MouseEvent> {
    let (nx, dispatch) = (usize::from(s.x.n).max(1), dispatch.clone());
    Callback::from(move |e: MouseEvent| {
        let coarse = crate::ui::browser::touch_first();
        let Some(target) = e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return };
        let Some(link) = target.closest("a.cell-link").ok().flatten() else { return };
        let index = link
            .query_selector("rect")
            .ok()
            .flatten()
            .and_then(|r| r.id().strip_prefix("cell-").and_then(|n| n.parse::<usize>().ok()));
        let Some(index) = index.filter(|_| coarse) else { return };
        e.prevent_default();
        dispatch.emit(A::Cell("col", (index % nx + 1).to_string()));
        dispatch.emit(A::Cell("row", (index / nx + 1).to_string()));
        if let Some(el) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id("stab-cell-verdict"))
        {
            let opts = web_sys::ScrollIntoViewOptions::new();
            opts.set_block(web_sys::ScrollLogicalPosition::Nearest);
            el.scroll_into_view_with_scroll_into_view_options(&opts);
        }
    })
}

/// The page.
/// The legend's words for each recovery band but the last ("later"), sized by the bands.
const BAND_LABELS: [T; crate::plot::stability::RECOVERY_BANDS_MS.len()] =
    [T::StabLegendRec0, T::StabLegendRec1, T::StabLegendRec2];

#[component]
pub fn StabilityPage(props: &StabilityProps) -> Html {
    let lang = props.lang;
    let t = |k: T| lang.t(k);
    let st = &props.state;
    let s = &st.sweep;
    let dispatch = &props.dispatch;
    let round = use_state(|| 0u32);
    let protected = s.protect != Protection::None;
    let (nx, ny) = (usize::from(s.x.n), usize::from(s.y.n));
    let (view, cancel) = use_sweep(st.run_query(), st.plain_run_query(), nx, ny, protected, *round);
    let jobs = st.hysteresis_jobs();
    let hyst_runs = use_runs(jobs.clone());
    let links = use_memo((s.clone(), lang, props.embed), |(s, lang, embed)| {
        s.cell_queries(false).into_iter().map(|q| cell_href(*lang, *embed, q)).collect::<Vec<String>>()
    });
    // The map's markup is written once per sweep and language (every cell pending, and the
    // protected boundary's path if there is one); as cells come in they are updated in
    // place, so a frame's work is a few attributes, not the whole picture again.
    let map = use_memo((links.clone(), s.clone(), lang), |(links, s, lang)| {
        let pending = vec![None; s.cells()];
        let protected = if s.protect == Protection::None { Vec::new() } else { pending.clone() };
        AttrValue::from(map_markup(*lang, s, &pending, &protected, links))
    });
    let map_axis = use_memo((s.clone(), lang), |(s, lang)| AttrValue::from(map_y_axis_markup(*lang, s)));
    {
        let applied = use_mut_ref(Vec::<String>::new);
        let picked = usize::from(st.cell[1]) * nx + usize::from(st.cell[0]);
        use_effect_with(
            (view.plain.clone(), view.protected.clone(), map.clone(), s.clone(), lang, picked),
            move |(p, q, _, s, lang, picked)| {
                patch_map(*lang, s, p, q, &mut applied.borrow_mut());
                mark_picked(*picked);
            },
        );
        // When the pick changes only: a phone's reader who scrolled the map stays where they
        // are as cells come in.
        use_effect_with(picked, |picked| keep_in_view(*picked));
    }
    // Only results of these very jobs: until the new runs are back, the old ones (another
    // protection's, another preset's) would be drawn and said under the new names.
    let current = hyst_runs.results.clone().filter(|_| hyst_runs.is_for(&jobs));
    let hyst = use_memo((current, s.clone(), lang), |(r, s, lang)| {
        let points = |k: usize| {
            r.as_ref()
                .and_then(|r| r.get(k))
                .and_then(|x| x.result.as_ref().ok())
                .map(|rep| s.hysteresis_points(rep))
                .unwrap_or_default()
        };
        let plain = points(0);
        (!plain.is_empty()).then(|| {
            let (no_retry, protected) = (points(1), points(2));
            let lines = HystLines { plain: &plain, no_retry: &no_retry, protected: &protected };
            let chart = hysteresis_markup(*lang, lines);
            let label = protection_label(*lang, s, s.protect);
            let served = hyst_served_text(*lang, &plain, &no_retry, Some((&protected, &label)));
            (AttrValue::from(hysteresis_y_axis_markup(*lang, lines)), AttrValue::from(chart), served)
        })
    });
    let stuck = |cells: &[Option<crate::state::stability::CellResult>]| {
        cells.iter().filter(|c| matches!(c, Some(Ok(v)) if v.outcome == Outcome::Stuck)).count()
    };
    let running = view.done < view.total && !view.cancelled;
    {
        // After the map's cells are patched (the effect above); a cell the link picked is
        // kept in view instead (`keep_in_view`).
        let map_done = !running && !view.cancelled && view.total > 0 && st.cell == [0, 0];
        use_effect_with((map_done, map.clone(), hyst.is_some()), |(map_done, _, hyst_drawn)| {
            show_what_matters(*map_done, *hyst_drawn)
        });
    }
    let status = if view.cancelled {
        lang.f(T::StabCancelled, &[("done", &view.done.to_string()), ("total", &view.total.to_string())])
    } else if let Some(ms) = view.elapsed_ms {
        lang.f(
            match view.workers {
                0 => T::StabDoneLocal,
                1 => T::StabDoneOne,
                _ => T::StabDone,
            },
            &[
                ("total", &view.total.to_string()),
                ("s", &format_number(ms / 1000.0, 1)),
                ("workers", &view.workers.to_string()),
            ],
        )
    } else if view.total == 0 {
        // Before the sweep's first request (the first frame): nothing to count yet, and no
        // worker has been asked, so "on the page (no worker could start)" would be wrong.
        String::new()
    } else if view.workers == 0 {
        lang.f(T::StabProgressLocal, &[("done", &view.done.to_string()), ("total", &view.total.to_string())])
    } else {
        lang.f(
            if view.workers == 1 { T::StabProgressOne } else { T::StabProgress },
            &[
                ("done", &view.done.to_string()),
                ("total", &view.total.to_string()),
                ("workers", &view.workers.to_string()),
            ],
        )
    };
    // A long sweep (thousands of cells) says how long it has still to go, at its pace so far.
    let status = match view.left_ms {
        Some(ms) if running && ms >= 3_000.0 => {
            lang.f(T::StabLeft, &[("status", &status), ("t", &left_words(lang, ms))])
        }
        _ => status,
    };
    // With a protection the map is swept twice: say so, or "800 cells" reads against a
    // 20 × 20 map (decided from the sweep shown, not from the control just moved).
    let status = if view.protected.is_empty() {
        status
    } else {
        // In brackets after the status, inside its full stop if it has one.
        let twice = lang.f(T::StabTwoSweeps, &[("n", &view.plain.len().to_string())]);
        let (body, stop) = match status.strip_suffix('.').or_else(|| status.strip_suffix('。')) {
            Some(body) => (body, &status[body.len()..]),
            None => (status.as_str(), ""),
        };
        let gap = if lang == Lang::En && !body.is_empty() { " " } else { "" };
        format!("{body}{gap}{twice}{stop}")
    };
    let oncancel = {
        let c = cancel.clone();
        Callback::from(move |_: MouseEvent| c.emit(()))
    };
    let onrerun = {
        let r = round.clone();
        Callback::from(move |_: MouseEvent| r.set(*r + 1))
    };
    let presets = use_memo((), |_| {
        presets_with_trigger()
            .into_iter()
            .filter_map(|n| presets::find(n).map(|p| (p.name, p.title, p.story)))
            .collect::<Vec<(&'static str, T, T)>>()
    });
    let onseed = {
        let d = dispatch.clone();
        Callback::from(move |e: Event| {
            let i: HtmlInputElement = e.target_unchecked_into();
            d.emit(A::Seed(i.value()));
        })
    };
    let onreset = {
        let d = dispatch.clone();
        Callback::from(move |_: MouseEvent| d.emit(A::Reset))
    };
    let export_data = {
        let (s, view) = (s.clone(), view.clone());
        Callback::from(move |(kind, p): (DataKind, Rc<Provenance>)| {
            if view.done < view.total {
                return None;
            }
            let protected = !view.protected.is_empty();
            Some(match kind {
                DataKind::Json => lab_json(
                    &p,
                    &StabilityExport {
                        x: s.x.text(),
                        y: s.y.text(),
                        protect: s.protect.slug(),
                        cells: crate::state::stability::rows(&s, &view.plain),
                        protected_cells: crate::state::stability::rows(&s, &view.protected),
                    },
                ),
                DataKind::Csv => {
                    let mut out = crate::state::stability::csv(&s, &view.plain, false);
                    if protected {
                        out.push_str(&crate::state::stability::csv(&s, &view.protected, true));
                    }
                    out
                }
            })
        })
    };
    let seed_error = st.errors.get(&FieldKey::plain("seed")).map(|(_, e)| lang.field_error(e));
    let cap = *use_memo(s.preset, |p| {
        capacity(&crate::state::stability::Sweep::default_for(p).base()).unwrap_or(0.0)
    });
    let legend = |class: &str, label: T| html! { <span class="legend-item"><span class={classes!("swatch", "box", class.to_string())} />{ t(label) }</span> };
    // The recovery bands' limits, from the rule that shades the cells.
    let band = |class: &str, label: T, i: usize| {
        let s = format_number(crate::plot::stability::RECOVERY_BANDS_MS[i] / 1000.0, 1);
        html! { <span class="legend-item"><span class={classes!("swatch", "box", class.to_string())} />{ lang.f(label, &[("s", &s)]) }</span> }
    };
    // What the last change did, for the settings' bar (see `LabSettings`).
    let said_now = AttrValue::from(status.clone());
    html! {
        <section class="page lab stability" id="stability" aria-labelledby="page-title">
            <h1 id="page-title">{ t(T::StabTitle) }</h1>
            // The way to the settings ends the intro: a line of its own pushed the first
            // figure off a phone's first screen.
            <p class="intro">{ t(T::StabIntro) }{ " " }{ crate::ui::lab::to_settings_link(lang, T::ToLabSettings) }</p>
            <ExportMenu {lang} page="stability" preset={s.preset} seed={Some(s.seed)} data={export_data} />
            <div class="two-col">
                // The figures first; the settings after them (see `LabSettings`).
                <div class="outputs" id={crate::ui::lab::LAB_FIGURES}>
                    <section class="panel" id="stability-map"
                        data-done={view.done.to_string()} data-total={view.total.to_string()}
                        data-elapsed-ms={view.elapsed_ms.map(|m| format!("{m:.0}"))} data-left-ms={view.left_ms.map(|m| format!("{m:.0}"))} data-workers={view.workers.to_string()}
                        data-stuck={stuck(&view.plain).to_string()} data-stuck-protected={stuck(&view.protected).to_string()}>
                        <h2 id="stab-map-h">{ t(T::StabNav) }</h2>
                        // What a screen reader hears: the sweep starting and how it ended, not
                        // each of its dozens of progress counts (the line below is not live).
                        <p class="sr-only" role="status" id="stab-announce">{
                            if running { lang.f(T::StabSweeping, &[("total", &view.total.to_string())]) } else { status.clone() }
                        }</p>
                        <div class="stab-status">
                            if running { <span class="spinner" aria-hidden="true" /> }
                            <span id="stab-status">{ status }</span>
                            <progress max={view.total.max(1).to_string()} value={view.done.to_string()} aria-label={t(T::StabNav)} />
                            if running {
                                <button type="button" class="secondary small" id="stab-cancel" onclick={oncancel}>{ t(T::StabCancel) }</button>
                            } else {
                                <button type="button" class="secondary small" id="stab-rerun" onclick={onrerun}>{ t(T::StabRerun) }</button>
                            }
                        </div>
                        // Above the map: the figure a protection is judged by, in view with it.
                        if protected && !view.cancelled && view.done >= view.total {
                            <p id="stab-stuck-count" class="export-note">{ lang.f(T::StabStuckCount, &[
                                ("plain", &stuck(&view.plain).to_string()),
                                ("prot", &stuck(&view.protected).to_string()),
                                ("p", &protection_label(lang, s, s.protect)),
                            ]) }</p>
                        } else if protected && running {
                            // Its line kept while the sweeps run: the map does not jump down
                            // when the count arrives.
                            <p id="stab-stuck-pending" class="help">{ t(T::StabStuckPending) }</p>
                        }
                        <div class="stab-map-wrap stab-scroll" tabindex="0" role="region" aria-labelledby="stab-map-h" onclick={pick_on_touch(s, dispatch)}>
                            { Html::from_html_unchecked((*map_axis).clone()) }{ Html::from_html_unchecked((*map).clone()) }
                        </div>
                        { open_cell(lang, props.embed, st, &view, &links, dispatch) }
                        <p class="legend">
                            { for BAND_LABELS.iter().enumerate().map(|(i, &label)| band(crate::plot::stability::RECOVERY_CLASSES[i], label, i)) }
                            { legend(crate::plot::stability::RECOVERY_CLASSES[BAND_LABELS.len()], T::StabLegendRec3) }
                            { legend("draining", T::StabDraining) }
                            { legend("stuck", T::StabStuck) }{ legend("overloaded", T::StabOverloaded) }
                            { legend("pending", T::StabPending) }
                            <span class="legend-item"><span class="swatch line boundary" />{ t(T::StabLegendBoundary) }</span>
                            if protected { <span class="legend-item"><span class="swatch line boundary protected" />{ t(T::StabLegendBoundaryProt) }</span> }
                            if protected { <span class="legend-item"><span class="swatch saved" />{ t(T::StabLegendSaved) }</span> }
                        </p>
                        <p class="help">{ lang.f(T::Sentences, &[("a", &lang.f(T::StabCapacity, &[("cap", &format_number(cap, 2))])), ("b", &rule_text(lang))]) }</p>
                    </section>
                    <section class="panel" id="stability-hysteresis">
                        <h2 id="stab-hyst-h">{ t(T::StabHystTitle) }</h2>
                        // Focusable: on a phone it scrolls sideways, by keyboard too.
                        <div class="stab-scroll" tabindex="0" role="region" aria-labelledby="stab-hyst-h">
                            if let Some((axis, h, _)) = (*hyst).clone() { { Html::from_html_unchecked(axis) }{ Html::from_html_unchecked(h) } }
                        </div>
                        <p class="legend">
                            <span class="legend-item"><span class="swatch line hyst-up" />{ t(T::StabHystUp) }</span>
                            <span class="legend-item"><span class="swatch line hyst-down" />{ t(T::StabHystDown) }</span>
                            <span class="legend-item"><span class="swatch line hyst-noretry" />{ t(T::StabHystNoRetry) }</span>
                            <span class="legend-item"><span class="swatch line hyst-ideal" />{ t(T::StabHystIdeal) }</span>
                            if protected {
                                <span class="legend-item"><span class="swatch line hyst-up protected" /><span class="swatch line hyst-down protected" />{ lang.f(T::StabHystProtected, &[("p", &protection_label(lang, s, s.protect))]) }</span>
                            }
                        </p>
                        <p class="help" id="stab-hyst-top" data-value={(HYST_TOP * 100.0).to_string()}>{ lang.f(T::StabHystNote, &[
                            ("bottom", &format_number(HYST_LEVELS[0] * 100.0, 1)),
                            ("top", &format_number(HYST_TOP * 100.0, 1)),
                            ("step", &format_number(HYST_STEP_MS / 1000.0, 1)),
                        ]) }</p>
                        if let Some((_, _, served)) = (*hyst).clone().filter(|h| !h.2.is_empty()) {
                            <p class="help export-note" id="stab-hyst-served">{ served }</p>
                        }
                        <p class="help" id="stab-hyst-why">{ t(T::StabHystWhy) }</p>
                    </section>
                </div>
                <LabSettings {lang} said={said_now}>
                    <form class="panel inputs" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
                        { preset_picker(lang, &presets[..], s.preset, crate::ui::lab::Story { changed: false, from: None }, &st.errors, &st.unknown, dispatch.reform(A::Preset)) }
                        { axis_controls(lang, "x", &s.x, st, dispatch) }
                        { axis_controls(lang, "y", &s.y, st, dispatch) }
                        <p class="help" id="stab-axis-help">{ t(T::StabAxisHelp) }</p>
                        { protect_control(lang, st, dispatch) }
                        <div class="control seed-row">
                            <div class="control-head">
                                <label for="seed" title={t(T::StabSeedHelp)}>{ t(T::Seed) }</label>
                                <input id="seed" class="num" type="text" inputmode="numeric" value={s.seed.to_string()} onchange={onseed} aria-describedby="seed-help" />
                            </div>
                            <p class="help" id="seed-help">{ t(T::StabSeedHelp) }</p>
                            if let Some(e) = seed_error { <p class="field-error" role="alert" id="seed-error">{ e }</p> }
                        </div>
                        <button type="button" class="secondary" id="reset-preset" onclick={onreset}>{ t(T::ResetPreset) }</button>
                    </form>
                </LabSettings>
            </div>
        </section>
    }
}

/// How a cell is judged, its thresholds from the rule itself (`model::stability`).
fn rule_text(lang: Lang) -> String {
    use crate::model::stability::{
        DRAINING_FALL, GOOD, MIN_ARRIVALS, MIN_JUDGED_MS, RECOVERY_SHARE, STEP_MS, WARMUP_MS,
    };
    lang.f(
        T::StabRule,
        &[
            ("good", &format_number(GOOD * 100.0, 1)),
            ("share", &format_number(RECOVERY_SHARE * 100.0, 1)),
            ("step", &format_number(STEP_MS / 1000.0, 1)),
            ("min", &format_number(MIN_ARRIVALS, 0)),
            ("fall", &format_number(DRAINING_FALL * 100.0, 1)),
            ("judged", &format_number(MIN_JUDGED_MS / 1000.0, 1)),
            ("warm", &format_number(WARMUP_MS / 1000.0, 1)),
        ],
    )
}

/// A time still to go, rounded up: whole seconds under a minute, whole minutes above.
fn left_words(lang: Lang, ms: f64) -> String {
    let s = (ms / 1000.0).ceil();
    if s < 60.0 {
        lang.f(T::StabLeftSeconds, &[("n", &format_number(s, 0))])
    } else {
        lang.f(T::StabLeftMinutes, &[("n", &format_number((s / 60.0).ceil(), 0))])
    }
}

//! Export in the browser: the page's Export menu, the per-figure export button, and the
//! glue behind them (Blob downloads, self-contained SVG clones, PNG through a canvas).
//!
//! Everything happens in the page: files are Blobs handed to an `<a download>`, so export
//! works offline and with no server. File names, CSV comments, the PNG text chunk and the
//! embed snippet come from the natively tested `crate::export`.

use crate::export::{Provenance, embed_snippet, full_page_url, is_clear_colour, png_with_text};
use crate::i18n::{Lang, T};
use crate::ui::browser;
use std::rc::Rc;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{
    Blob, BlobPropertyBag, Document, Element, HtmlAnchorElement, HtmlCanvasElement, HtmlImageElement, Url,
};
use yew::prelude::*;

/// What a page hands over as data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataKind {
    /// Its results as JSON (the storm page: the report exactly as the CLI prints it).
    Json,
    /// Its time series or step table as CSV, without the comment lines (added here).
    Csv,
}

/// A figure's export: SVG, or PNG at a scale of the size shown.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Format {
    Svg,
    Png(f64),
}

const SVG_NS: &str = "http://www.w3.org/2000/svg";

/// The computed styles a chart's look depends on, copied onto a clone as presentation
/// attributes. Attributes, not a `style` attribute: the page's CSP (`style-src 'self'`)
/// refuses inline styles, and an exported file has no stylesheet to need them.
const STYLES: [&str; 18] = [
    "fill",
    "fill-opacity",
    "stroke",
    "stroke-width",
    "stroke-dasharray",
    "stroke-opacity",
    "stroke-linecap",
    "stroke-linejoin",
    // The labels' halo (a stroke in the panel's colour, drawn under the fill): without it
    // the stroke is painted over the letters and an exported label is a white smear.
    "paint-order",
    "opacity",
    "font-size",
    "font-family",
    "font-weight",
    "font-style",
    "text-anchor",
    "dominant-baseline",
    "visibility",
    "display",
];

fn document() -> Option<Document> {
    web_sys::window()?.document()
}

/// Which page the menu is on, read from the menu's `data-*` attributes, so that a
/// figure's button anywhere on the page names its file the same way.
fn provenance(side: Option<&'static str>) -> Provenance {
    let menu = document().and_then(|d| d.get_element_by_id("export"));
    let attr = |k: &str| menu.as_ref().and_then(|m| m.get_attribute(k)).unwrap_or_default();
    // Compare mode's side B is named by its own preset (or A's, pinned), not side A's.
    let preset = Some(attr("data-preset-b")).filter(|b| side == Some("B") && !b.is_empty());
    Provenance {
        page: attr("data-page"),
        preset: preset.unwrap_or_else(|| attr("data-preset")),
        seed: attr("data-seed").parse().ok(),
        // The full page's link, even from compact mode: it is what reproduces the figure.
        link: full_page_url(&browser::current_href()),
        side,
    }
}

/// Compare mode's side an element is drawn on (`A` or `B`), from the two columns it draws
/// each side's figures in and the pair of diagrams above them; none outside compare mode.
fn side_of(el: &Element) -> Option<&'static str> {
    let side = el.closest(".sides.compare > .side, .compare-diagrams > .panel").ok().flatten()?;
    Some(if side.previous_element_sibling().is_some() { "B" } else { "A" })
}

/// Hands `bytes` to the browser as a download named `name`.
fn download(name: &str, mime: &str, bytes: &[u8]) -> Result<(), JsValue> {
    let url = blob_url(bytes, mime)?;
    let doc = document().ok_or("no document")?;
    let a: HtmlAnchorElement = doc.create_element("a")?.dyn_into()?;
    a.set_href(&url);
    a.set_download(name);
    let body = doc.body().ok_or("no body")?;
    body.append_child(&a)?;
    a.click();
    body.remove_child(&a)?;
    // The download starts after this task; revoke the URL once it surely has.
    gloo_timers::callback::Timeout::new(60_000, move || {
        let _ = Url::revoke_object_url(&url);
    })
    .forget();
    Ok(())
}

fn blob_url(bytes: &[u8], mime: &str) -> Result<String, JsValue> {
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    let opts = BlobPropertyBag::new();
    opts.set_type(mime);
    Url::create_object_url_with_blob(&Blob::new_with_u8_array_sequence_and_options(&parts, &opts)?)
}

/// The first non-transparent background behind `el` (the panel the figure sits on).
fn background(el: &Element) -> String {
    let mut at = Some(el.clone());
    while let Some(e) = at {
        let bg = computed(&e, "background-color");
        if !is_clear_colour(&bg) {
            return bg;
        }
        at = e.parent_element();
    }
    "#ffffff".into()
}

/// A computed style property of `el` (empty if none).
fn computed(el: &Element, prop: &str) -> String {
    web_sys::window()
        .and_then(|w| w.get_computed_style(el).ok().flatten())
        .and_then(|s| s.get_property_value(prop).ok())
        .unwrap_or_default()
}

/// Roughly how wide `s` is in ems: CJK and other wide characters take a whole em, the
/// rest about 0.6 (the legend only needs to wrap before the edge, not to measure).
fn ems(s: &str) -> f64 {
    s.chars().map(|c| if (c as u32) < 0x2E80 { 0.6 } else { 1.0 }).sum()
}

/// `s` in lines of at most `max` ems (see [`ems`]), broken at a space where there is one
/// (Chinese has none: it breaks anywhere).
fn wrap_ems(s: &str, max: f64) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for c in s.chars() {
        line.push(c);
        if ems(&line) > max {
            let cut = line.trim_end().rfind(' ').filter(|&i| i > 0).unwrap_or(line.len() - c.len_utf8());
            let rest = line.split_off(cut);
            lines.push(std::mem::take(&mut line).trim_end().to_string());
            line = rest.trim_start().to_string();
        }
    }
    if !line.trim().is_empty() {
        lines.push(line.trim().to_string());
    }
    lines
}

/// An SVG element with attributes.
fn svg_el(doc: &Document, name: &str, attrs: &[(&str, String)]) -> Result<Element, JsValue> {
    let el = doc.create_element_ns(Some(SVG_NS), name)?;
    for (k, v) in attrs {
        el.set_attribute(k, v)?;
    }
    Ok(el)
}

/// The figure's caption and legend, which the page writes in HTML beside the SVG, drawn
/// as a band above the chart (in a slide the colours mean nothing without them). A figure
/// without a caption (the breaker lab's band and cells) is titled by its accessible name
/// `name`; a legend the page writes right after the figure (the labs') counts as its own.
/// Returns the band and its height in the SVG's units.
fn caption_band(
    doc: &Document,
    svg: &Element,
    name: &str,
    vb: [f64; 4],
    k: f64,
) -> Result<Option<(Element, f64)>, JsValue> {
    let fig = svg.closest("figure")?;
    let cap = fig.as_ref().and_then(|f| f.query_selector("figcaption").ok().flatten());
    let title = match &cap {
        Some(cap) => {
            // The caption's own text (its first text node), then the unit, if any.
            let mut title = cap
                .first_child()
                .filter(|n| n.node_type() == 3)
                .and_then(|n| n.text_content())
                .unwrap_or_default();
            if let Some(unit) = cap.query_selector(".unit")?.and_then(|u| u.text_content()) {
                title = format!("{} {unit}", title.trim());
            }
            // Off the page, a compare-mode figure says whose it is, and a figure drawn at the
            // playhead says when (`data-moment`: the chain diagram).
            if let Some(side) = side_of(svg) {
                title = format!("{side} · {}", title.trim());
            }
            if let Some(moment) = svg.get_attribute("data-moment").filter(|m| !m.is_empty()) {
                title = format!("{} · {moment}", title.trim());
            }
            title
        }
        // The accessible name says whose it is already (see `figures`).
        None => name.to_string(),
    };
    let legend_items = |in_el: &Element| -> Result<Vec<Element>, JsValue> {
        let list = in_el.query_selector_all(".legend-item")?;
        Ok((0..list.length()).filter_map(|i| list.item(i)?.dyn_into::<Element>().ok()).collect())
    };
    let mut items = match &cap {
        Some(cap) => legend_items(cap)?,
        None => Vec::new(),
    };
    if items.is_empty()
        && let Some(after) = fig
            .clone()
            .unwrap_or_else(|| svg.clone())
            .next_element_sibling()
            .filter(|e| e.class_list().contains("legend"))
    {
        items = legend_items(&after)?;
    }
    // A figure alone in its page section with neither (the stability map, the hysteresis
    // chart): the section's legend, and its notes marked `export-note` (the stuck cells
    // counted with and without the protection) as lines under the title.
    let mut notes: Vec<String> = Vec::new();
    if cap.is_none()
        && let Some(section) = svg.closest("section")?
        && section.query_selector_all("svg[role=img], svg[role=group]")?.length() == 1
    {
        if items.is_empty()
            && let Some(legend) = section.query_selector(".legend")?
        {
            items = legend_items(&legend)?;
        }
        let marked = section.query_selector_all(".export-note")?;
        notes = (0..marked.length())
            .filter_map(|i| marked.item(i)?.text_content())
            .map(|t| t.trim().to_string())
            .filter(|t| !t.is_empty())
            .collect();
    }
    // A chart's notes written right under it (an error budget spent past the chart's top,
    // a pool full while its line is flat) go with it: without them a figure can mislead.
    let mut next = fig.clone().unwrap_or_else(|| svg.clone()).next_element_sibling();
    while let Some(el) = next {
        if el.class_list().contains("chart-note")
            && let Some(t) = el.text_content().map(|t| t.trim().to_string()).filter(|t| !t.is_empty())
        {
            notes.push(t);
        }
        next = el.next_element_sibling();
    }
    if title.trim().is_empty() && items.is_empty() {
        return Ok(None);
    }
    let from = cap.clone().unwrap_or_else(|| svg.clone());
    let (ink, font) = (computed(&from, "color"), computed(&from, "font-family"));
    let g = svg_el(doc, "g", &[("font-family", font), ("fill", ink.clone())])?;
    let fs = 12.0 * k;
    // The title in as many lines as the figure's width needs (a long one had been cut at
    // the edge of a 447 px export); bold text is about a tenth wider than `ems` counts.
    let mut y = vb[1] - k;
    for line in wrap_ems(title.trim(), (vb[2] - 8.0 * k) / (13.0 * k * 1.1)) {
        y += 17.0 * k;
        let t = svg_el(
            doc,
            "text",
            &[
                ("x", (vb[0] + 4.0 * k).to_string()),
                ("y", y.to_string()),
                ("font-size", (13.0 * k).to_string()),
                ("font-weight", "600".into()),
            ],
        )?;
        t.set_text_content(Some(&line));
        g.append_child(&t)?;
    }
    let mut y = y.max(vb[1] + 16.0 * k);
    for line in notes.iter().flat_map(|n| wrap_ems(n, (vb[2] - 8.0 * k) / fs)) {
        y += 17.0 * k;
        let n = svg_el(
            doc,
            "text",
            &[("x", (vb[0] + 4.0 * k).to_string()), ("y", y.to_string()), ("font-size", fs.to_string())],
        )?;
        n.set_text_content(Some(&line));
        g.append_child(&n)?;
    }
    let (mut x, mut y) = (vb[0] + 4.0 * k, y + 20.0 * k);
    for item in &items {
        let label = item.text_content().unwrap_or_default();
        let width = 16.0 * k + ems(&label) * fs;
        if x > vb[0] + 4.0 * k && x + width > vb[0] + vb[2] {
            x = vb[0] + 4.0 * k;
            y += 18.0 * k;
        }
        // The swatch's colour is the series' `--c` where it has one (dashed swatches are
        // gradients, with no background colour), else its background or border; its
        // dash pattern says which line style the series has.
        let sw = item.query_selector(".swatch")?;
        // A glyph drawn as a small SVG of its own (the breaker lab's cells) is copied as it is.
        if sw.is_none()
            && let Some(glyph) = item.query_selector("svg")?
            && let Some(window) = web_sys::window()
        {
            let copy = styled_copy(&window, &glyph)?;
            for (name, v) in [("x", x), ("y", y - 10.0 * k), ("width", 12.0 * k), ("height", 12.0 * k)] {
                copy.set_attribute(name, &v.to_string())?;
            }
            g.append_child(&copy)?;
        }
        let (color, dash) = sw.as_ref().map_or_else(Default::default, |sw| {
            let class = sw.get_attribute("class").unwrap_or_default();
            let c = computed(sw, "--c").trim().to_string();
            let bg = computed(sw, "background-color");
            let color = if !c.is_empty() {
                c
            } else if is_clear_colour(&bg) {
                computed(sw, "border-top-color")
            } else {
                bg
            };
            let dashed = computed(sw, "border-top-style") == "dashed";
            let dash = match () {
                _ if class.contains("dash1") || dashed => format!("{} {}", 4.0 * k, 2.0 * k),
                _ if class.contains("dash2") => format!("{} {}", 2.0 * k, 2.0 * k),
                _ => "none".into(),
            };
            (color, dash)
        });
        // A round swatch (the queue lab's dots and ring) is drawn as a circle: filled with its
        // colour, or a ring in its border's colour when it has no fill.
        let round = sw.as_ref().is_some_and(|sw| computed(sw, "border-top-left-radius") == "50%");
        let swatch = if round {
            let hollow = sw.as_ref().is_some_and(|sw| is_clear_colour(&computed(sw, "background-color")));
            let (fill, stroke) =
                if hollow { ("none".to_string(), color) } else { (color, "none".to_string()) };
            svg_el(
                doc,
                "circle",
                &[
                    ("cx", (x + 6.0 * k).to_string()),
                    ("cy", (y - 4.0 * k).to_string()),
                    ("r", (4.0 * k).to_string()),
                    ("fill", fill),
                    ("stroke", stroke),
                    ("stroke-width", (2.0 * k).to_string()),
                ],
            )?
        } else if let Some(sw) = sw.as_ref().filter(|sw| sw.class_list().contains("box")) {
            // A box swatch (the stability map's shades) is a square filled as the figure's
            // cells of its class are (the stuck cells' hatching is a pattern the copy keeps),
            // else with its own colour.
            let classes = sw.get_attribute("class").unwrap_or_default();
            let cell_fill = classes
                .split_whitespace()
                .filter(|c| !matches!(*c, "swatch" | "box"))
                .find_map(|c| svg.query_selector(&format!(".cell.{c}")).ok().flatten())
                .map(|cell| computed(&cell, "fill"))
                .filter(|f| !f.is_empty() && f != "none");
            let fill = cell_fill.unwrap_or_else(|| computed(sw, "background-color"));
            svg_el(
                doc,
                "rect",
                &[
                    ("x", x.to_string()),
                    ("y", (y - 10.0 * k).to_string()),
                    ("width", (11.0 * k).to_string()),
                    ("height", (11.0 * k).to_string()),
                    ("fill", fill),
                    ("stroke", computed(sw, "outline-color")),
                    ("stroke-width", (0.5 * k).to_string()),
                ],
            )?
        } else {
            svg_el(
                doc,
                "line",
                &[
                    ("x1", x.to_string()),
                    ("x2", (x + 12.0 * k).to_string()),
                    ("y1", (y - 4.0 * k).to_string()),
                    ("y2", (y - 4.0 * k).to_string()),
                    ("stroke", color),
                    ("stroke-width", (3.0 * k).to_string()),
                    ("stroke-dasharray", dash),
                ],
            )?
        };
        if sw.is_some() {
            g.append_child(&swatch)?;
        }
        let lt = svg_el(
            doc,
            "text",
            &[
                ("x", (x + 14.0 * k).to_string()),
                ("y", y.to_string()),
                ("font-size", fs.to_string()),
                ("fill", ink.clone()),
            ],
        )?;
        lt.set_text_content(Some(&label));
        g.append_child(&lt)?;
        x += width + 12.0 * k;
    }
    let band = if items.is_empty() { y - vb[1] - 12.0 * k } else { y - vb[1] + 8.0 * k };
    g.set_attribute("transform", &format!("translate(0 {})", -band))?;
    Ok(Some((g, band)))
}

/// A deep copy of `el` with the computed styles the export keeps ([`STYLES`]) written as
/// attributes on it and every element under it, so that it looks the same outside the page.
fn styled_copy(window: &web_sys::Window, el: &Element) -> Result<Element, JsValue> {
    let clone: Element = el.clone_node_with_deep(true)?.dyn_into()?;
    let copy = |from: &Element, to: &Element| -> Result<(), JsValue> {
        if let Some(style) = window.get_computed_style(from)? {
            for prop in STYLES {
                let v = style.get_property_value(prop)?;
                if !v.is_empty() {
                    to.set_attribute(prop, &v)?;
                }
            }
        }
        Ok(())
    };
    copy(el, &clone)?;
    // Both lists are in document order over identical trees, so they pair up.
    let (src, dst) = (el.query_selector_all("*")?, clone.query_selector_all("*")?);
    for i in 0..src.length().min(dst.length()) {
        if let (Some(a), Some(b)) = (src.item(i), dst.item(i)) {
            copy(&a.dyn_into()?, &b.dyn_into()?)?;
        }
    }
    Ok(clone)
}

/// A self-contained copy of `svg`: computed styles inlined, `xmlns`, size and viewBox,
/// a background, its caption and legend above it, and the provenance in `<desc>` and
/// `<metadata>`. Returns the text and the size (CSS px).
fn svg_text(svg: &Element, name: &str, p: &Provenance) -> Result<(String, f64, f64), JsValue> {
    let window = web_sys::window().ok_or("no window")?;
    let doc = document().ok_or("no document")?;
    let rect = svg.get_bounding_client_rect();
    // In CSS px of the layout, not of the screen: the projector's zoom (1.25× from 1,800 px
    // wide) would otherwise export the same figure bigger, and its caption smaller beside it.
    let zoom = js_sys::Reflect::get(svg, &"currentCSSZoom".into())
        .ok()
        .and_then(|z| z.as_f64())
        .filter(|z| z.is_finite() && *z > 0.0)
        .unwrap_or(1.0);
    let (mut w, mut h) = ((rect.width() / zoom).round(), (rect.height() / zoom).round());
    let clone = styled_copy(&window, svg)?;
    // A time chart's fault windows are drawn on the layer over it, with the playhead
    // (`charts.rs`); the exported figure is the whole run, so it takes the windows, not the
    // playhead. Both layers share one viewBox.
    if let Some(layer) =
        svg.parent_element().and_then(|p| p.query_selector(":scope > svg.playhead-layer").ok().flatten())
        && layer.get_attribute("viewBox") == svg.get_attribute("viewBox")
    {
        let windows = layer.query_selector_all(".fault-window")?;
        for i in 0..windows.length() {
            if let Some(w) = windows.item(i) {
                let copy: web_sys::Node = styled_copy(&window, &w.dyn_into()?)?.into();
                clone.append_child(&copy)?;
            }
        }
    }
    // What marks the page's own state rather than the figure (the stability map's picked
    // cell) stays on the page.
    let skipped = clone.query_selector_all(".no-export")?;
    for i in 0..skipped.length() {
        if let Some(n) = skipped.item(i)
            && let Some(p) = n.parent_node()
        {
            p.remove_child(&n)?;
        }
    }
    clone.set_attribute("xmlns", SVG_NS)?;
    let parsed: Vec<f64> = clone
        .get_attribute("viewBox")
        .unwrap_or_default()
        .split([' ', ','])
        .filter_map(crate::float::parse_f64)
        .collect();
    let mut vb = match parsed[..] {
        [x, y, vw, vh] if vw > 0.0 && vh > 0.0 => [x, y, vw, vh],
        _ => [0.0, 0.0, w.max(1.0), h.max(1.0)],
    };
    // A figure not laid out (hidden, folded away) is exported at its own units' size.
    if w < 1.0 || h < 1.0 {
        (w, h) = (vb[2].round().max(1.0), vb[3].round().max(1.0));
    }
    // SVG units per CSS pixel, so the caption is drawn at the page's text size.
    let k = vb[2] / w;
    let band = caption_band(&doc, svg, name, vb, k)?;
    let h = h + band.as_ref().map_or(0.0, |(_, b)| (b / k).round());
    if let Some((_, b)) = &band {
        vb[1] -= b;
        vb[3] += b;
    }
    clone.set_attribute("viewBox", &format!("{} {} {} {}", vb[0], vb[1], vb[2], vb[3]))?;
    clone.set_attribute("width", &w.to_string())?;
    clone.set_attribute("height", &h.to_string())?;
    let bg = svg_el(
        &doc,
        "rect",
        &[
            ("x", vb[0].to_string()),
            ("y", vb[1].to_string()),
            ("width", vb[2].to_string()),
            ("height", vb[3].to_string()),
            ("fill", background(svg)),
        ],
    )?;
    let text = p.lines().join("\n");
    let title = doc.create_element_ns(Some(SVG_NS), "title")?;
    title.set_text_content(Some(name));
    let desc = doc.create_element_ns(Some(SVG_NS), "desc")?;
    desc.set_text_content(Some(&text));
    let meta = doc.create_element_ns(Some(SVG_NS), "metadata")?;
    meta.set_text_content(Some(&text));
    let first = clone.first_child();
    for node in [&title, &desc, &meta, &bg] {
        clone.insert_before(node, first.as_ref())?;
    }
    if let Some((g, _)) = band {
        clone.insert_before(&g, first.as_ref())?;
    }
    let xml = web_sys::XmlSerializer::new()?.serialize_to_string(&clone)?;
    Ok((format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n{xml}\n"), w, h))
}

/// The SVG drawn into a canvas `scale` times the size shown (whatever the screen's pixel
/// ratio), as PNG bytes.
async fn png_bytes(svg: &str, w: f64, h: f64, scale: f64) -> Result<Vec<u8>, JsValue> {
    use wasm_bindgen_futures::JsFuture;
    let url = blob_url(svg.as_bytes(), "image/svg+xml")?;
    let img = HtmlImageElement::new()?;
    img.set_src(&url);
    let decoded = JsFuture::from(img.decode()).await;
    let _ = Url::revoke_object_url(&url);
    decoded?;
    let doc = document().ok_or("no document")?;
    let canvas: HtmlCanvasElement = doc.create_element("canvas")?.dyn_into()?;
    let (cw, ch) = ((w * scale).round(), (h * scale).round());
    canvas.set_width(cw as u32);
    canvas.set_height(ch as u32);
    let ctx: web_sys::CanvasRenderingContext2d =
        canvas.get_context("2d")?.ok_or("no 2d context")?.dyn_into()?;
    ctx.draw_image_with_html_image_element_and_dw_and_dh(&img, 0.0, 0.0, cw, ch)?;
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let _ = canvas.to_blob(&resolve);
    });
    let blob: Blob = JsFuture::from(promise).await?.dyn_into()?;
    let buf = JsFuture::from(blob.array_buffer()).await?;
    Ok(js_sys::Uint8Array::new(&buf).to_vec())
}

/// The figures on the page: every SVG that is an image (not the decorative overlays),
/// with the id of the element holding it (for the file name) and its accessible name.
fn figures() -> Vec<(Element, String, String)> {
    let Some(list) =
        document().and_then(|d| d.query_selector_all("#main svg[role=img], #main svg[role=group]").ok())
    else {
        return Vec::new();
    };
    let mut out: Vec<(Element, String, String)> = Vec::new();
    for svg in (0..list.length()).filter_map(|i| list.item(i)?.dyn_into::<Element>().ok()) {
        // A figure drawn twice for two widths (the calculator's chain as a picture and as
        // rows) is listed as the one shown.
        if !displayed(&svg) {
            continue;
        }
        // The name the figure asks for (`data-export-id`), else the figure's id, else its kind
        // (`diagram`), else the nearest id around it.
        let fig = svg.closest("figure").ok().flatten();
        let mut id = svg
            .get_attribute("data-export-id")
            .or_else(|| fig.as_ref().map(|f| f.id()))
            .filter(|i| !i.is_empty())
            .or_else(|| fig.as_ref()?.get_attribute("class")?.split_whitespace().next().map(String::from))
            .or_else(|| Some(svg.closest("[id]").ok()??.id()))
            .unwrap_or_default();
        // Two of a kind (compare mode's diagrams) get distinct file names.
        let same = out.iter().filter(|(_, i, _)| i == &id || i.starts_with(&format!("{id}-"))).count();
        if same > 0 {
            id = format!("{id}-{}", same + 1);
        }
        // Its name for the list: a fixed one if it has one (an accessible name that says its
        // live value changed as the animation played), else its accessible name: its label,
        // else what names it (a `<title>` by id).
        let mut name = ["data-export-name", "aria-label"]
            .into_iter()
            .find_map(|a| svg.get_attribute(a).filter(|n| !n.is_empty()))
            .unwrap_or_else(|| {
                svg.get_attribute("aria-labelledby")
                    .and_then(|ids| document()?.get_element_by_id(ids.split_whitespace().next()?))
                    .and_then(|e| e.text_content())
                    .unwrap_or_default()
            });
        // Compare mode draws each figure twice: the list says whose it is.
        if let Some(tag) = side_of(&svg) {
            name = format!("{tag} · {name}");
        }
        out.push((svg, id, name));
    }
    out
}

/// Whether `el` is drawn: neither it nor a box around it is `display: none`.
fn displayed(el: &Element) -> bool {
    let Some(w) = web_sys::window() else { return true };
    let mut at = Some(el.clone());
    while let Some(e) = at {
        if w.get_computed_style(&e)
            .ok()
            .flatten()
            .and_then(|st| st.get_property_value("display").ok())
            .as_deref()
            == Some("none")
        {
            return false;
        }
        at = e.parent_element();
    }
    true
}

/// Exports one figure; the message says what was saved or why not.
async fn export_figure(lang: Lang, svg: Element, id: String, name: String, format: Format) -> String {
    let p = provenance(side_of(&svg));
    let result = async {
        let (text, w, h) = svg_text(&svg, &name, &p)?;
        match format {
            Format::Svg => {
                let file = p.file_name(Some(&id), ".svg");
                download(&file, "image/svg+xml", text.as_bytes())?;
                Ok::<String, JsValue>(file)
            }
            Format::Png(scale) => {
                let png = png_bytes(&text, w, h, scale).await?;
                let png = png_with_text(&png, "Description", &p.ascii_text()).ok_or("not a PNG")?;
                let file = p.file_name(Some(&id), if scale > 1.0 { "@2x.png" } else { ".png" });
                download(&file, "image/png", &png)?;
                Ok(file)
            }
        }
    }
    .await;
    match result {
        Ok(file) => lang.f(T::ExportSaved, &[("file", &file)]),
        Err(e) => lang.f(T::ExportFailed, &[("message", &e.as_string().unwrap_or_else(|| format!("{e:?}")))]),
    }
}

/// The three buttons of one figure.
fn format_buttons(
    lang: Lang,
    name: &str,
    id_prefix: &str,
    on: impl Fn(Format) -> Callback<MouseEvent>,
) -> Html {
    let formats = [
        (Format::Svg, T::ExportSvg, "svg"),
        (Format::Png(1.0), T::ExportPng, "png"),
        (Format::Png(2.0), T::ExportPng2x, "png2x"),
    ];
    formats
        .into_iter()
        .map(|(f, key, slug)| {
            let label = lang.f(T::ExportFormatLabel, &[("name", name), ("format", lang.t(key))]);
            html! {
                <button type="button" class="secondary small" id={format!("{id_prefix}-{slug}")}
                    aria-label={label.clone()} title={label} onclick={on(f)}>{ lang.t(key) }</button>
            }
        })
        .collect()
}

/// A page's data of one kind as text, for the file that carries `Provenance`; `None` while
/// there is none (a run not finished).
pub type PageData = Callback<(DataKind, Rc<Provenance>), Option<String>>;

/// Properties of [`ExportMenu`].
#[derive(Properties, PartialEq)]
pub struct ExportMenuProps {
    /// The interface language.
    pub lang: Lang,
    /// The page's `page=` value.
    pub page: &'static str,
    /// The preset the page started from (empty: none).
    #[prop_or_default]
    pub preset: AttrValue,
    /// The run's seed, where the page has one.
    #[prop_or_default]
    pub seed: Option<u64>,
    /// The page's data as text, `None` while there is none (a run not finished).
    pub data: PageData,
    /// Compare mode's side B, exported beside side A (files named `…-side-b`).
    #[prop_or_default]
    pub data_b: Option<PageData>,
    /// Side B's preset, for its files' names (see `StormState::side_b_preset`).
    #[prop_or_default]
    pub preset_b: AttrValue,
}

/// The page's Export menu: results as JSON, data as CSV, every figure as SVG or PNG, and
/// the embed snippet.
#[component]
pub fn ExportMenu(props: &ExportMenuProps) -> Html {
    let lang = props.lang;
    let t = |k: T| lang.t(k);
    let status = use_state(String::new);
    let snippet = use_state(|| None::<String>);
    // Counts the embed button's clicks: a clipboard write answers later, and only the latest
    // click's answer may set the status (an older "copied" must not overwrite "copy by hand").
    let embed_clicks = use_mut_ref(|| 0u32);
    // (id, name) of each figure, read from the page when the menu opens.
    let figs = use_state(Vec::<(String, String)>::new);
    let ontoggle = {
        let figs = figs.clone();
        Callback::from(move |_: Event| {
            figs.set(figures().into_iter().map(|(_, id, name)| (id, name)).collect())
        })
    };
    let data = |kind: DataKind, side_b: bool| {
        let data = if side_b { props.data_b.clone() } else { Some(props.data.clone()) };
        let status = status.clone();
        Callback::from(move |_: MouseEvent| {
            let p = Rc::new(provenance(side_b.then_some("B")));
            let (ext, mime) = match kind {
                DataKind::Json => (".json", "application/json"),
                DataKind::Csv => (".csv", "text/csv"),
            };
            let msg = match data.as_ref().and_then(|d| d.emit((kind, p.clone()))) {
                None => lang.t(T::ExportNotReady).to_string(),
                Some(text) => {
                    let text =
                        if kind == DataKind::Csv { format!("{}{text}", p.csv_comments()) } else { text };
                    let file = p.file_name(side_b.then_some("side-b"), ext);
                    match download(&file, mime, text.as_bytes()) {
                        Ok(()) => lang.f(T::ExportSaved, &[("file", &file)]),
                        Err(e) => lang.f(T::ExportFailed, &[("message", &format!("{e:?}"))]),
                    }
                }
            };
            status.set(msg);
        })
    };
    let onembed = {
        let (snippet, status, clicks) = (snippet.clone(), status.clone(), embed_clicks.clone());
        let page = crate::state::app::Page::from_slug(props.page).map_or("", |p| t(p.label()));
        let title = format!("{page} · {}", t(T::AppName));
        Callback::from(move |_: MouseEvent| {
            let s = embed_snippet(&full_page_url(&browser::current_href()), &title);
            // The snippet is shown either way, so that it can be copied by hand.
            snippet.set(Some(s.clone()));
            let (status, clicks) = (status.clone(), clicks.clone());
            let this_click = {
                let mut n = clicks.borrow_mut();
                *n = n.wrapping_add(1);
                *n
            };
            browser::copy_text(&s, move |ok| {
                if *clicks.borrow() == this_click {
                    status.set(lang.t(if ok { T::EmbedCopied } else { T::EmbedCopyByHand }).to_string());
                }
            });
        })
    };
    let fig_rows: Html = figs
        .iter()
        .enumerate()
        .map(|(i, (id, name))| {
            let on = |f: Format| {
                let (status, id, name) = (status.clone(), id.clone(), name.clone());
                Callback::from(move |_: MouseEvent| {
                    // Found again at the click: the page may have redrawn since the menu opened.
                    let Some((svg, id, name)) = figures().into_iter().find(|(_, i2, n2)| *i2 == id && *n2 == name)
                    else {
                        return;
                    };
                    let status = status.clone();
                    wasm_bindgen_futures::spawn_local(async move {
                        status.set(export_figure(lang, svg, id, name, f).await);
                    });
                })
            };
            html! {
                <li><span class="fig-name">{ name }</span>{ format_buttons(lang, name, &format!("export-fig-{i}"), on) }</li>
            }
        })
        .collect();
    html! {
        <details class="export-menu" id="export" data-page={props.page} data-preset={props.preset.clone()} data-preset-b={props.preset_b.clone()}
            data-seed={props.seed.map(|s| s.to_string()).unwrap_or_default()} {ontoggle} onkeydown={close_on_escape()}>
            <summary id="export-toggle" title={t(T::ExportHelp)}>{ t(T::ExportMenu) }</summary>
            <div class="export-body">
                <p class="help">{ t(T::ExportHelp) }</p>
                <div class="export-row">
                    <button type="button" class="secondary small" id="export-json" title={t(T::ExportJsonHelp)} onclick={data(DataKind::Json, false)}>
                        { t(T::ExportJson) }{ if props.data_b.is_some() { " · A" } else { "" } }</button>
                    <button type="button" class="secondary small" id="export-csv" title={t(T::ExportCsvHelp)} onclick={data(DataKind::Csv, false)}>
                        { t(T::ExportCsv) }{ if props.data_b.is_some() { " · A" } else { "" } }</button>
                    if props.data_b.is_some() {
                        <button type="button" class="secondary small" id="export-json-b" title={t(T::ExportSideBHelp)} onclick={data(DataKind::Json, true)}>{ t(T::ExportJson) }{ " · B" }</button>
                        <button type="button" class="secondary small" id="export-csv-b" title={t(T::ExportSideBHelp)} onclick={data(DataKind::Csv, true)}>{ t(T::ExportCsv) }{ " · B" }</button>
                    }
                    <button type="button" class="secondary small" id="export-embed" title={t(T::EmbedHelp)} onclick={onembed}>{ t(T::EmbedCopy) }</button>
                </div>
                if let Some(s) = &*snippet {
                    <label for="embed-snippet">{ t(T::EmbedSnippet) }</label>
                    <textarea id="embed-snippet" readonly=true rows="3" value={s.clone()} />
                }
                <h3>{ t(T::ExportFigures) }</h3>
                <p class="help">{ t(T::ExportFiguresHelp) }</p>
                if figs.is_empty() {
                    <p class="help">{ t(T::ExportNoFigures) }</p>
                } else {
                    <ul class="export-figures" id="export-figures">{ fig_rows }</ul>
                }
                <p class="export-status" role="status" id="export-status">{ (*status).clone() }</p>
            </div>
        </details>
    }
}

/// A figure's own export button: a small disclosure with SVG, PNG and PNG 2×. A plain
/// function, not a component: it sits in every chart, and a component's machinery would
/// cost bundle bytes and a diff per chart per frame. Its status line is written directly
/// (Yew leaves an element's text alone when its virtual children stay empty).
pub fn figure_export(lang: Lang, figure: &str, name: &str) -> Html {
    let status_id = format!("{figure}-export-status");
    let on = |f: Format| {
        let (id, name, status_id) = (figure.to_string(), name.to_string(), status_id.clone());
        Callback::from(move |_: MouseEvent| {
            let doc = document();
            let svg = doc
                .as_ref()
                .and_then(|d| d.get_element_by_id(&id))
                .and_then(|e| e.query_selector("svg[role=img], svg[role=group]").ok().flatten());
            let Some(svg) = svg else { return };
            let (id, name, status_id) = (id.clone(), name.clone(), status_id.clone());
            wasm_bindgen_futures::spawn_local(async move {
                let msg = export_figure(lang, svg, id, name, f).await;
                if let Some(el) = document().and_then(|d| d.get_element_by_id(&status_id)) {
                    el.set_text_content(Some(&msg));
                }
            });
        })
    };
    let label = lang.f(T::ExportFigureLabel, &[("name", name)]);
    html! {
        <details class="fig-export" onkeydown={close_on_escape()} onfocusout={close_on_leaving()}>
            <summary aria-label={label.clone()} title={label}>{ "⤓" }</summary>
            <span class="fig-export-body">
                { format_buttons(lang, name, &format!("{figure}-export"), on) }
                <span class="export-status" role="status" id={status_id} />
            </span>
        </details>
    }
}

/// The export menu an event happened in, if it is open (the nearest one: not another
/// `details` the menu may sit in).
fn open_menu(target: Option<web_sys::EventTarget>) -> Option<web_sys::Element> {
    target
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .and_then(|t| t.closest("details.fig-export, details.export-menu").ok().flatten())
        .filter(|m| m.has_attribute("open"))
}

/// Escape closes the open menu it is pressed in and gives the focus back to the menu's
/// button (a figure's ⤓ menu covers the plot until it is closed), and goes no further
/// (in a lesson, Escape would leave the lesson).
fn close_on_escape() -> Callback<KeyboardEvent> {
    Callback::from(|e: KeyboardEvent| {
        if e.key() != "Escape" {
            return;
        }
        if let Some(menu) = open_menu(e.target()) {
            let _ = menu.remove_attribute("open");
            if let Some(s) = menu
                .query_selector("summary")
                .ok()
                .flatten()
                .and_then(|s| s.dyn_into::<web_sys::HtmlElement>().ok())
            {
                let _ = s.focus();
            }
            e.prevent_default();
            e.stop_propagation();
        }
    })
}

/// A figure's menu closes when the focus moves to something outside it (Tab past its last
/// button, a click on another control), as a menu drawn over the page does. Focus going
/// nowhere is left alone: some browsers give a clicked button no focus, and closing then
/// would swallow the click on the menu's own button.
fn close_on_leaving() -> Callback<FocusEvent> {
    Callback::from(|e: FocusEvent| {
        let Some(menu) = open_menu(e.target()) else { return };
        let Some(to) = e.related_target().and_then(|t| t.dyn_into::<web_sys::Node>().ok()) else { return };
        if !menu.contains(Some(&to)) {
            let _ = menu.remove_attribute("open");
        }
    })
}

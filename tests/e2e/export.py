"""End-to-end checks of export (issue 13, item 4) and compact mode (`embed=1`).

Downloads are captured in the page: `URL.createObjectURL` is wrapped to keep each Blob
and `HTMLAnchorElement.prototype.click` records an `<a download>`'s file name instead of
saving it, so the test reads exactly the bytes a user would get. The storm page's JSON
and CSV are compared byte for byte with `lab run --format json|csv`; an SVG is parsed
with xml.etree and loaded into an <img>; a PNG's tEXt chunk and size are read in Python;
the embed snippet's link opens in compact mode. Screenshots of the open menu and of
compact mode, both languages, at 1440×900 and 390×844.
"""

import base64
import csv
import html
import io
import json
import math
import os
import re
import struct
import subprocess
import time
import xml.etree.ElementTree as ET
import zlib

SVG_NS = "{http://www.w3.org/2000/svg}"

HOOK = """
if (!window.__exports) {
  window.__exports = [];
  window.__csp = [];
  document.addEventListener('securitypolicyviolation', e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));
  const blobs = new Map();
  const create = URL.createObjectURL.bind(URL);
  URL.createObjectURL = b => { const u = create(b); blobs.set(u, b); return u; };
  const click = HTMLAnchorElement.prototype.click;
  HTMLAnchorElement.prototype.click = function () {
    if (this.download) { window.__exports.push({ name: this.download, blob: blobs.get(this.href) }); return; }
    return click.call(this);
  };
}
return window.__exports.length;
"""

READ = """
const [i, done] = arguments;
const e = window.__exports[i];
e.blob.arrayBuffer().then(buf => {
  const bytes = new Uint8Array(buf);
  let s = '';
  for (let k = 0; k < bytes.length; k += 0x8000) s += String.fromCharCode.apply(null, bytes.subarray(k, k + 0x8000));
  done([e.name, e.blob.type, btoa(s)]);
});
"""

RENDER = """
const [text, done] = arguments;
const url = URL.createObjectURL(new Blob([text], { type: 'image/svg+xml' }));
const img = new Image();
img.onload = () => done([img.naturalWidth, img.naturalHeight]);
img.onerror = () => done([0, 0]);
img.src = url;
"""


def version():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Cargo.toml")
    with open(root) as f:
        return re.search(r'^version = "([^"]+)"', f.read(), re.M).group(1)


def png_chunks(data):
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "a PNG signature"
    i, out = 8, []
    while i + 12 <= len(data):
        (n,) = struct.unpack(">I", data[i:i + 4])
        kind, body = data[i + 4:i + 8], data[i + 8:i + 8 + n]
        (crc,) = struct.unpack(">I", data[i + 8 + n:i + 12 + n])
        assert zlib.crc32(kind + body) == crc, f"{kind} CRC"
        out.append((kind, body))
        i += 12 + n
    return out


def add_checks(run, chrome, base, expect, no_console_errors, artifacts, lab, wait_run):
    ver = version()

    def page(query):
        chrome.get(base + query)
        chrome.wait("#page-title")

    def cdp(cmd, **params):
        return chrome.cmd("POST", "/goog/cdp/execute", {"cmd": cmd, "params": params})

    def hook():
        return chrome.js(HOOK)

    def take(click_css, before, timeout=20.0):
        """Clicks `click_css` and returns (file name, MIME type, bytes) of the download."""
        chrome.click(click_css)
        deadline = time.time() + timeout
        while time.time() < deadline:
            if chrome.js("return window.__exports.length;") > before:
                name, mime, b64 = chrome.js_async(READ, before)
                return name, mime, base64.b64decode(b64)
            time.sleep(0.05)
        status = chrome.js("const e = document.getElementById('export-status'); return e ? e.textContent : null;")
        raise AssertionError(f"no download after clicking {click_css} (status: {status!r})")

    def open_menu():
        if not chrome.js("return document.getElementById('export').open;"):
            chrome.click("#export-toggle")
        chrome.wait("#export-figures li")

    def export_from(query):
        """Opens the page at `query`, waits for its run and opens the Export menu with the
        downloads captured; returns how many were captured before."""
        page(query)
        wait_run(chrome)
        n = hook()
        chrome.click("#export-toggle")
        return n

    def cli(preset, seed, fmt):
        return subprocess.run([lab, "run", "--preset", preset, "--seed", str(seed), "--format", fmt],
                              check=True, capture_output=True).stdout

    def no_csp():
        v = chrome.js("return window.__csp || [];")
        expect(not v, f"CSP violations while exporting: {v}")

    # ---- storm: JSON and CSV byte for byte with the CLI ----------------------------------
    def storm_json_and_csv_equal_the_cli():
        for lang, preset, seed in [("en", "chain-3x3", 7), ("zh", "big-promo-protected", 11)]:
            n = export_from(f"?page=storm&lang={lang}&preset={preset}&seed={seed}")
            name, mime, body = take("#export-json", n)
            expect(name == f"resilience-lab-{ver}-{preset}-seed{seed}.json", f"file name {name}")
            expect(mime == "application/json", f"type {mime}")
            want = cli(preset, seed, "json")
            expect(body == want, f"{preset}: exported JSON ({len(body)} B) != lab run --format json ({len(want)} B)")
            got = json.loads(body)
            expect((got["generator"], got["scenario"], got["seed"]) == (f"resilience-lab {ver}", preset, seed),
                   f"the JSON names its version, scenario and seed: {got['generator']!r}, {got['scenario']!r}, {got['seed']!r}")
            name, mime, body = take("#export-csv", n + 1)
            expect(name == f"resilience-lab-{ver}-{preset}-seed{seed}.csv", f"file name {name}")
            text = body.decode("utf-8")
            comments = [l for l in text.splitlines() if l.startswith("#")]
            expect(f"# seed: {seed}" in comments and f"# preset: {preset}" in comments, f"comments: {comments}")
            expect(any(l.startswith(f"# generator: resilience-lab {ver}") for l in comments), "version comment")
            expect(any(l.startswith("# link: ") and f"seed={seed}" in l for l in comments), "link comment")
            data = "".join(l + "\n" for l in text.splitlines() if not l.startswith("#"))
            cli_csv = cli(preset, seed, "csv").decode("utf-8")
            cli_data = "".join(l + "\n" for l in cli_csv.splitlines() if not l.startswith("#"))
            expect(data == cli_data, f"{preset}: the CSV's table is lab run --format csv")
            expect(cli_csv.splitlines()[0] in comments, f"{preset}: and its units line: {cli_csv.splitlines()[0]!r}")
            rows = list(csv.reader(io.StringIO(data)))
            buckets = json.loads(want)["series"]["buckets"]
            expect(len(rows) == buckets + 1, f"a header and a row per bucket: {len(rows)} rows, {buckets} buckets")
            expect(all(len(r) == len(rows[0]) for r in rows), "every row has every column")
            expect(chrome.text("#export-status").find(name) >= 0, "the status names the file")
            no_csp()
            no_console_errors(chrome, f"storm export ({preset})")
        # An edited run's JSON names the link that runs it again, and is what lab run
        # --link prints for it.
        page("?page=storm&lang=en&preset=chain-3x3&seed=4&l1.attempts=4")
        wait_run(chrome)
        n = hook()
        chrome.click("#export-toggle")
        _, _, body = take("#export-json", n)
        link = json.loads(body).get("link") or ""
        expect("l1.attempts=4" in link and "seed=4" in link, f"the edited run's link: {link!r}")
        want = subprocess.run([lab, "run", "--link", link, "--format", "json"], check=True, capture_output=True).stdout
        expect(body == want, f"the edited run's JSON ({len(body)} B) != lab run --link ({len(want)} B)")
        # Compare mode exports side B too, as lab run --versus prints it.
        preset, seed = "metastable-retry-storm", 3
        n = export_from(f"?page=storm&lang=en&preset={preset}&seed={seed}&compare=1")
        expect("A" in chrome.text("#export-json"), "in compare mode the side of each button is named")
        name, _, body = take("#export-json-b", n)
        expect(name == f"resilience-lab-{ver}-{preset}-seed{seed}-side-b.json", f"side B's file name {name}")
        want = subprocess.run([lab, "run", "--preset", preset, "--versus", "--seed", str(seed), "--format", "json"],
                              check=True, capture_output=True).stdout
        expect(body == want, f"side B's JSON ({len(body)} B) != lab run --versus ({len(want)} B)")
        _, _, body = take("#export-json", n + 1)
        expect(body == cli(preset, seed, "json"), "side A's JSON is still side A's")
        name, _, body = take("#export-csv-b", n + 2)
        expect(name.endswith("-side-b.csv") and b"# preset: " + preset.encode() in body, f"side B's CSV {name}")
        expect(b"# side: B of compare mode\n" in body, f"side B's CSV says whose it is: {body[:300]!r}")
        # Every figure in the list says whose it is, the two diagrams included, and an
        # exported side-B figure says so off the page.
        open_menu()
        names = chrome.js("return Array.from(document.querySelectorAll('#export-figures .fig-name')).map(e => e.textContent);")
        expect(len(names) == len(set(names)) and all(x.startswith(("A · ", "B · ")) for x in names),
               f"each figure's side named, no two alike: {names}")
        b_diagram = next(i for i, x in enumerate(names) if x.startswith("B · ") and "chain" in x.lower())
        svg = ET.fromstring(take(f"#export-fig-{b_diagram}-svg", n + 3)[2])
        desc = svg.find(SVG_NS + "desc").text
        expect("side: B of compare mode" in desc, f"the exported B diagram says so: {desc!r}")
        no_console_errors(chrome, "storm export, compare mode")

    # ---- compare mode: side B named by its own preset; a figure's band as on the page -----
    def compare_exports_name_side_b_and_keep_the_figures_words():
        preset, seed = "big-promo-protected", 1
        n = export_from(f"?page=storm&lang=en&preset={preset}&seed={seed}&compare=1&t=30000")
        # Side B is big-promo: its files had carried side A's name.
        name, _, body = take("#export-json-b", n)
        expect(name == f"resilience-lab-{ver}-big-promo-seed{seed}-side-b.json", f"side B's file name {name}")
        expect(json.loads(body).get("scenario") == "big-promo", "and it holds big-promo's run")
        open_menu()
        names = chrome.js("return Array.from(document.querySelectorAll('#export-figures .fig-name')).map(e => e.textContent);")
        got = {}
        for k, want in enumerate(["A · Outcomes over time", "A · Offered load", "B · Error budget", "A · Call chain diagram"]):
            i = next(i for i, x in enumerate(names) if x.startswith(want))
            name, _, body = take(f"#export-fig-{i}-svg", n + 1 + k)
            got[want] = (name, body.decode("utf-8"))
        expect(got["B · Error budget"][0].startswith(f"resilience-lab-{ver}-big-promo-seed{seed}-"),
               f"a side B figure's file is named by side B's preset: {got['B · Error budget'][0]}")
        # The legend's swatches are the page's colours: the degraded outcome's gold had been
        # exported as grey (its computed colour, rgb(194, 136, 0), read as transparent).
        page_colours = chrome.js("return Object.fromEntries(Array.from(document.querySelectorAll('#outcomes-a .legend-item, figure:has(#outcomes-a) .legend-item'))"
                                 ".map(i => [i.textContent.trim(), getComputedStyle(i.querySelector('.swatch')).backgroundColor]));")
        root = ET.fromstring(got["A · Outcomes over time"][1])
        band = root.find(SVG_NS + "g")
        texts = list(band.iter(SVG_NS + "text"))
        lines = list(band.iter(SVG_NS + "line"))
        exported = {t.text: l.get("stroke") for t, l in zip([t for t in texts if t.get("font-weight") != "600"], lines)}
        expect(exported.get("degraded") == page_colours.get("degraded") == "rgb(194, 136, 0)",
               f"the degraded swatch exports in its colour: {exported.get('degraded')!r}, page {page_colours.get('degraded')!r}")
        # A title longer than the figure is wide wraps inside it (it had been cut at the edge).
        widths = chrome.js("""
const svg = new DOMParser().parseFromString(arguments[0], 'image/svg+xml').documentElement;
const box = document.createElement('div'); box.style.cssText = 'position:absolute;left:0;top:0;visibility:hidden';
box.appendChild(document.importNode(svg, true)); document.body.appendChild(box);
const s = box.firstChild, vb = s.viewBox.baseVal;
const band = s.querySelector('g[font-family]');
const out = Array.from(band.querySelectorAll(':scope > text[font-weight="600"]')).map(t => [t.textContent, t.getAttribute('x') * 1 + t.getComputedTextLength(), vb.x + vb.width]);
box.remove(); return out;""", got["A · Offered load"][1])
        expect(len(widths) >= 2 and all(end <= right + 1 for _, end, right in widths),
               f"the long title wraps within the figure: {widths}")
        title = " ".join(t for t, _, _ in widths)
        expect(title.startswith("A · Offered load") and title.endswith(")"), f"the whole title: {title!r}")
        # The diagram drawn at the playhead says when, off the page (the link paused it at 30 s).
        band = ET.fromstring(got["A · Call chain diagram"][1]).find(SVG_NS + "g")
        title = " ".join(t.text or "" for t in band.iter(SVG_NS + "text") if t.get("font-weight") == "600")
        expect(title.startswith("A · The chain at the playhead") and title.endswith("· t = 30 s"),
               f"the exported diagram names its moment: {title!r}")
        # A note under the chart goes with it: the budget spent past the chart's top.
        note = chrome.text("#error-budget-off-scale-b")
        band = ET.fromstring(got["B · Error budget"][1]).find(SVG_NS + "g")
        written = " ".join(t.text or "" for t in band.iter(SVG_NS + "text"))
        expect("the chart stops at" in note and note in written,
               f"the error budget's off-scale note is in the export: {note!r}")
        no_console_errors(chrome, "compare exports")

    # ---- figures: SVG well-formed and rendering, PNG with its text chunk -----------------
    def figures_export_as_svg_and_png():
        page("?page=storm&lang=en&preset=breaker-demo&seed=3")
        wait_run(chrome)
        n = hook()
        open_menu()
        names = chrome.js("return Array.from(document.querySelectorAll('#export-figures .fig-name')).map(e => e.textContent);")
        expect(len(names) >= 6, f"every chart and the diagram are listed: {names}")
        diagram = chrome.js("return Array.from(document.querySelectorAll('#export-figures .fig-name')).findIndex(e => e.textContent === document.querySelector('svg[role=img][aria-label]').getAttribute('aria-label'));")
        expect(diagram >= 0, "the first figure on the page (the diagram) is listed")
        exported = 0
        for i in range(len(names)):
            name, mime, body = take(f"#export-fig-{i}-svg", n + exported)
            exported += 1
            expect(name.startswith(f"resilience-lab-{ver}-breaker-demo-seed3-") and name.endswith(".svg"), f"file name {name}")
            expect(mime == "image/svg+xml", f"type {mime}")
            root = ET.fromstring(body)  # raises on anything not well-formed
            expect(root.tag == SVG_NS + "svg", f"{name}: root {root.tag}")
            expect(float(root.get("width")) > 0 and float(root.get("height")) > 0 and root.get("viewBox"), f"{name}: size")
            desc = root.find(SVG_NS + "desc").text
            expect("seed: 3" in desc and "preset: breaker-demo" in desc and ver in desc, f"{name}: desc {desc!r}")
            expect(root.find(SVG_NS + "metadata") is not None, f"{name}: metadata")
            styled = [e for e in root.iter() if e.get("fill") or e.get("stroke")]
            expect(len(styled) > 5, f"{name}: computed styles inlined as attributes")
            expect(not any("class" in (e.get("style") or "") for e in root.iter()), "no style attribute needed")
            w, h = chrome.js_async(RENDER, body.decode("utf-8"))
            expect(w > 0 and h > 0, f"{name}: renders in an <img> ({w}×{h})")
            # A label's halo is a stroke in the panel's colour under its fill: without the
            # paint order the stroke covers the letters and the label exports as a smear.
            halos = [t for t in root.iter(SVG_NS + "text")
                     if t.get("stroke") not in (None, "none") and float((t.get("stroke-width") or "0").rstrip("px") or 0) > 0]
            smeared = [t.text for t in halos if not (t.get("paint-order") or "").startswith("stroke")]
            expect(not smeared, f"{name}: every haloed label keeps its paint order: {smeared[:5]}")
            if i == diagram:
                texts = list(root.iter(SVG_NS + "text"))
                covered = {id(t) for e in root.iter() if e.get("font-family") for t in e.iter(SVG_NS + "text")}
                expect(texts and all(id(t) in covered for t in texts), f"{name}: every text carries its font")
        svg = ET.fromstring(take("#export-fig-0-svg", n + exported)[2])
        exported += 1
        for fig_i, suffix, scale in [(0, "png", 1), (0, "png2x", 2), (1, "png2x", 2)]:
            if fig_i:
                svg = ET.fromstring(take(f"#export-fig-{fig_i}-svg", n + exported)[2])
                exported += 1
            name, mime, body = take(f"#export-fig-{fig_i}-{suffix}", n + exported)
            exported += 1
            expect(mime == "image/png" and name.endswith("@2x.png" if scale == 2 else ".png"), f"{name} {mime}")
            with open(os.path.join(artifacts, f"exported-{name}"), "wb") as f:
                f.write(body)  # to look at: the figure as a file shows it, off the page
            chunks = png_chunks(body)
            expect(chunks[0][0] == b"IHDR", "IHDR first")
            pw, ph = struct.unpack(">II", chunks[0][1][:8])
            expect(pw == round(float(svg.get("width")) * scale), f"{name}: {pw} px wide at {scale}× of {svg.get('width')}")
            expect(ph == round(float(svg.get("height")) * scale), f"{name}: {ph} px high")
            texts = [b.split(b"\0", 1) for k, b in chunks if k == b"tEXt"]
            expect(texts and texts[0][0] == b"Description", f"{name}: a tEXt chunk {texts}")
            body_text = texts[0][1].decode("latin-1")
            expect("seed: 3" in body_text and "preset: breaker-demo" in body_text and f"resilience-lab {ver}" in body_text, body_text)
        # A chart's own button: SVG from the figure itself.
        fig = chrome.js("const f = document.querySelector('figure.chart details.fig-export'); return f ? f.closest('figure').id : null;")
        expect(fig, "charts carry their own export button")
        chrome.click(f"#{fig} details.fig-export > summary")
        name, _, body = take(f"#{fig}-export-svg", n + exported)
        expect(name.endswith(f"-{fig}.svg"), f"the chart's file is named after it: {name}")
        root = ET.fromstring(body)
        # The fault windows are drawn on the layer over the chart: the export takes them.
        shown = chrome.js(f"return document.querySelectorAll('#{fig} .playhead-layer .fault-window').length;")
        got = [e for e in root.iter() if "fault-window" in (e.get("class") or "")]
        expect(shown > 0 and len(got) == shown, f"{name}: its {shown} fault windows exported: {len(got)}")
        no_csp()
        no_console_errors(chrome, "figure export")
        # On a projector (1,920 px wide, where the page is zoomed 1.25×) a figure exports at
        # its size in the layout's CSS px, as on a laptop, not 1.25× that with its caption
        # drawn smaller beside it.
        chrome.viewport(1920, 1080)
        try:
            page("?page=storm&lang=en&preset=breaker-demo&seed=3")
            wait_run(chrome)
            m = hook()
            open_menu()
            shown = chrome.js("const s = document.querySelector('svg[role=img][aria-label]');"
                              " return [s.getBoundingClientRect().width, s.currentCSSZoom];")
            root = ET.fromstring(take(f"#export-fig-{diagram}-svg", m)[2])
            # Rust's f64::round takes .5 away from zero; Python's round takes it to even.
            expect(shown[1] == 1.25 and float(root.get("width")) == math.floor(shown[0] / shown[1] + 0.5),
                   f"at 1920 px the diagram exports {root.get('width')} px wide, shown {shown[0]} px at zoom {shown[1]}")
        finally:
            chrome.viewport(1280, 900)


    # ---- the labs' own results -----------------------------------------------------------
    def map_done(query, total):
        """Opens the stability map at `query` and waits for its sweep of `total` cells to
        finish (by count: the map before, already finished, must not pass for it)."""
        page(query)
        deadline = time.time() + 60
        while time.time() < deadline and not chrome.js(
                "const m = document.getElementById('stability-map');"
                " return m && m.dataset.total === String(arguments[0]) && m.dataset.done === m.dataset.total"
                " && document.documentElement.lang.startsWith(arguments[1]);", total, "zh" if "lang=zh" in query else "en"):
            time.sleep(0.1)
        done = chrome.js("const m = document.getElementById('stability-map'); return m ? [m.dataset.done, m.dataset.total] : null;")
        expect(done == [str(total), str(total)], f"{query}: the sweep of {total} cells finished within 60 s: {done}")

    def labs_export_their_results():
        page("?page=admission&lang=en&preset=source-003")
        n = hook()
        chrome.click("#export-toggle")
        # The bucket's entry keeps its name while the animation plays (its accessible name
        # says the level, which had made the list's entry change under the reader's eyes).
        figs = lambda: chrome.js("return Array.from(document.querySelectorAll('#export-figures .fig-name')).map(e => e.textContent);")
        deadline = time.time() + 5
        while not figs() and time.time() < deadline:
            time.sleep(0.05)
        before = figs()
        time.sleep(1.2)
        expect("Token bucket" in before and figs() == before, f"the export list names the bucket, steadily: {before} then {figs()}")
        name, _, body = take("#export-json", n)
        expect(name == f"resilience-lab-{ver}-admission-source-003-seed1.json" or name.startswith(f"resilience-lab-{ver}-admission-source-003-seed"), name)
        j = json.loads(body)
        res = j["result"]
        expect(res["admitted"] == 5 and j["page"] == "admission", f"admission JSON: {res.get('admitted')}")
        expect(res["rejected"] == {"concurrency_limit": 0, "rate_limit": 3, "cost_exceeds_capacity": 0}, f"named: {res['rejected']}")
        expect([a["arrival"] for a in res["arrivals"]] == list(range(1, len(res["arrivals"]) + 1)), "arrivals numbered from 1")
        _, _, body = take("#export-csv", n + 1)
        rows = [r for r in csv.reader(io.StringIO(body.decode())) if r and not r[0].startswith("#")]
        expect(len(rows) == len(res["steps"]) + 1, "a row per step")
        expect(sum(1 for r in rows if r[3] == "rejected" and r[4] == "rate_limit") == 3, "3 × 429")
        # The two files say the same, column by column (numbered from 1, as the page).
        head = rows[0]
        for row, step in zip(rows[1:], res["steps"]):
            as_json = ["" if step[k] is None else str(step[k]).lower() if isinstance(step[k], bool) else str(step[k]) for k in head]
            expect([c if not c.replace(".", "", 1).isdigit() else str(float(c)) for c in row]
                   == [c if not c.replace(".", "", 1).isdigit() else str(float(c)) for c in as_json], f"CSV {row} vs JSON {step}")

        page("?page=breaker&lang=en&preset=source-003")
        n = hook()
        chrome.click("#export-toggle")
        _, _, body = take("#export-json", n)
        res = json.loads(body)["result"]
        calls = res["calls"]
        _, _, body = take("#export-csv", n + 1)
        rows = [r for r in csv.reader(io.StringIO(body.decode())) if r and not r[0].startswith("#")]
        expect(len(rows) == len(calls) + 1, f"a row per call: {len(rows)} vs {len(calls)}")
        expect([c["call"] for c in calls] == [int(r[0]) for r in rows[1:]] == list(range(1, len(calls) + 1)), "calls numbered from 1 in both")
        expect(all(1 <= k <= len(calls) for k in res["recorded_order"]) and res["changes"][0]["cause"] == "rates",
               f"recorded calls by number, causes named: {res['changes'][:1]}")

        page("?page=queue&lang=en&preset=source-002")
        deadline = time.time() + 60
        while time.time() < deadline and not chrome.js("return !!document.querySelector('#q-rho-sim[data-value]') && !document.querySelector('#queue .progress');"):
            time.sleep(0.1)
        n = hook()
        chrome.click("#export-toggle")
        _, _, body = take("#export-json", n)
        j = json.loads(body)
        expect(j["result"]["closed"]["pool"]["workers"] == 8, f"source 002's 8 workers: {j['result']['closed']['pool']}")
        # The curve as drawn: the closed-form line and each simulated dot with its ρ.
        sims = j["result"]["simulated"]
        expect([round(p["rho"], 2) for p in sims] == [0.6, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95]
               and sims[0]["figures"]["time_ms"] > 40, f"the dots with their ρ: {[p['rho'] for p in sims]}")
        expect(len(j["result"]["line"]) == 60 and j["result"]["closed"]["model"] == "mmc", "the line and its model")
        buckets = j["result"]["report"]["series"]["buckets"]
        _, _, body = take("#export-csv", n + 1)
        rows = [r for r in csv.reader(io.StringIO(body.decode())) if r and not r[0].startswith("#")]
        expect(len(rows) == buckets + 1, f"a row per bucket: {len(rows)} vs {buckets}")

        page("?page=calculator&lang=zh")
        n = hook()
        chrome.click("#export-toggle")
        name, _, body = take("#export-json", n)
        expect(name == f"resilience-lab-{ver}-calculator.json", name)
        expect(json.loads(body)["result"]["output"]["worst_attempts_per_s"] == 4500, "the calculator's figures")

        # The stability map: its CSV is lab sweep's, byte for byte.
        x, y = "utilisation=0.2..0.8/4", "trigger_ms=100..900/3"
        map_done("?page=stability&lang=en&x=utilisation%3D0.2..0.8%2F4&y=trigger_ms%3D100..900%2F3", 12)
        n = hook()
        chrome.click("#export-toggle")
        _, _, body = take("#export-json", n)
        cells = json.loads(body)["result"]["cells"]
        expect(len(cells) == 12 and all(c["outcome"] in ("recovered", "draining", "stuck", "overloaded") for c in cells), f"12 judged cells: {cells[:2]}")
        _, _, body = take("#export-csv", n + 1)
        want = subprocess.run([lab, "sweep", "--x", x, "--y", y, "--format", "csv"], capture_output=True, text=True, check=True).stdout
        got = body.decode().splitlines()
        rows_of = lambda lines: [l for l in lines if not l.startswith("#")]
        expect(rows_of(got) == rows_of(want.splitlines()) and want.splitlines()[0] in got,
               f"the map's CSV is lab sweep's (below the provenance):\n{body.decode()[:600]}\nvs\n{want[:300]}")
        # The map as a figure for a slide: named by its protection, with the section's legend
        # and the stuck cells counted both ways under its title.
        map_done("?page=stability&lang=zh&protect=cancel&x=utilisation%3D0.2..0.8%2F4&y=trigger_ms%3D100..900%2F3", 24)
        n = hook()
        chrome.click("#export-toggle")
        # The menu lists the figures as it opens: wait for the map's (CI on 7c4e089 read the
        # list before it held it).
        deadline = time.time() + 15
        names = []
        while time.time() < deadline and not any(nm.startswith("稳定性地图") for nm in names):
            names = chrome.js("return Array.from(document.querySelectorAll('#export-figures .fig-name')).map(e => e.textContent);")
            time.sleep(0.1)
        i = next((k for k, nm in enumerate(names) if nm.startswith("稳定性地图")), None)
        expect(i is not None, f"the export menu lists the stability map: {names}")
        if i is None:
            return
        name, _, body = take(f"#export-fig-{i}-svg", n)
        expect(name.endswith("-stability-map-cancel.svg"), f"the map's file names its protection: {name}")
        words = " ".join(t.text or "" for t in ET.fromstring(body).iter(SVG_NS + "text"))
        legend = chrome.js("return Array.from(document.querySelectorAll('#stability-map .legend .legend-item')).map(e => e.textContent.trim());")
        count = chrome.text("#stab-stuck-count")
        expect(legend and all(item in words for item in legend), f"{name}: the map's legend {legend} in {words[:400]!r}")
        expect(count.split("，")[0] in words, f"{name}: the stuck cells counted ({count!r})")
        no_csp()
        no_console_errors(chrome, "lab export")

    # ---- embed snippet and compact mode --------------------------------------------------
    def embed_opens_in_compact_mode():
        page("?page=storm&lang=en&preset=chain-3x3&seed=5")
        wait_run(chrome)
        chrome.click("#export-toggle")
        # A clipboard that says "written" only after 400 ms, as a busy browser may.
        chrome.js("Object.defineProperty(navigator, 'clipboard', {value: {writeText: t => new Promise(r => setTimeout(r, 400))}, configurable: true});")
        chrome.click("#export-embed")
        snippet = chrome.js("return document.getElementById('embed-snippet').value;")
        # The first click's clipboard write answers when it likes (at once, late, or never in
        # a headless browser); the second click's answer must win however late the first is.
        # Without a clipboard (a page served over plain http from another machine) the snippet
        # is still there to copy by hand, and the status says so instead of "copied".
        chrome.js("Object.defineProperty(navigator, 'clipboard', {value: undefined, configurable: true});")
        chrome.js("document.getElementById('export-embed').click();")
        deadline = time.time() + 5
        while "Ctrl+C" not in chrome.text("#export-status") and time.time() < deadline:
            time.sleep(0.05)
        time.sleep(0.6)  # past the first click's late answer
        expect("Ctrl+C" in chrome.text("#export-status"), f"the status says to copy by hand: {chrome.text('#export-status')!r}")
        expect(chrome.js("return document.getElementById('embed-snippet').value;") == snippet, "the snippet to copy by hand")
        m = re.match(r'<iframe src="([^"]+)" title="([^"]+)"', snippet)
        expect(m, f"an iframe: {snippet}")
        src = html.unescape(m.group(1))
        expect("embed=1" in src and "seed=5" in src and "preset=chain-3x3" in src, src)
        chrome.get(src)
        wait_run(chrome)
        visible = "return Array.from(document.querySelectorAll(arguments[0])).some(e => e.offsetParent !== null);"
        expect(chrome.js("return document.querySelector('.app.embed') !== null;"), "compact mode")
        expect(not chrome.js(visible, ".controls-wrap, form.panel.inputs, #export, nav"), "no control panel, menu or navigation")
        expect(chrome.js("return document.querySelectorAll('#main svg[role=img]').length;") >= 5, "the figures stay")
        full = chrome.js("return document.getElementById('open-full').href;")
        expect("embed" not in full and "seed=5" in full, f"the full page link: {full}")
        expect("embed=1" in chrome.url(), "the link keeps compact mode")
        for q in ["?page=breaker&lang=zh&preset=flapping&embed=1", "?page=admission&embed=1", "?page=queue&embed=1", "?page=calculator&embed=1"]:
            page(q)
            expect(not chrome.js(visible, "form.panel.inputs, #export"), f"{q}: no control panel")
            expect(chrome.js("return document.querySelectorAll('#main svg[role=img]').length;") >= 1, f"{q}: figures")
        page("?page=storm&embed=yes")
        note = chrome.text("#link-notice")
        expect("embed" in note and "yes" in note, f"a bad embed value is named: {note!r}")
        no_console_errors(chrome, "compact mode")

    # ---- screenshots ---------------------------------------------------------------------
    def screenshots_of_menu_and_compact_mode():
        for lang in ["en", "zh"]:
            for w, h in [(1440, 900), (390, 844)]:
                page(f"?page=storm&lang={lang}&preset=breaker-demo&seed=3")
                cdp("Emulation.setDeviceMetricsOverride", width=w, height=h, deviceScaleFactor=1, mobile=w < 600)
                wait_run(chrome)
                chrome.js("const s = document.getElementById('scrub'); s.value = 1000; s.dispatchEvent(new Event('input', {bubbles: true}));")
                open_menu()
                chrome.click("#export-embed")
                chrome.js("document.getElementById('export').scrollIntoView();")
                time.sleep(0.3)
                expect(chrome.js("return document.documentElement.scrollWidth <= window.innerWidth + 1"), f"menu at {w}: no sideways scrolling")
                chrome.screenshot(os.path.join(artifacts, f"export-menu-{lang}-{w}.png"))
                fig = chrome.js("return document.querySelector('figure.chart details.fig-export').closest('figure').id;")
                chrome.js("document.getElementById(arguments[0]).scrollIntoView({block: 'center'});", fig)
                chrome.click(f"#{fig} details.fig-export > summary")
                time.sleep(0.2)
                chrome.screenshot(os.path.join(artifacts, f"export-figure-{lang}-{w}.png"))
                page(f"?page=storm&lang={lang}&preset=breaker-demo&seed=3&embed=1")
                wait_run(chrome)
                chrome.js("const s = document.getElementById('scrub'); s.value = 1000; s.dispatchEvent(new Event('input', {bubbles: true}));")
                time.sleep(0.3)
                expect(chrome.js("return document.documentElement.scrollWidth <= window.innerWidth + 1"), f"compact at {w}: no sideways scrolling")
                chrome.screenshot(os.path.join(artifacts, f"embed-{lang}-{w}.png"))
                page(f"?page=breaker&lang={lang}&preset=source-003&embed=1")
                time.sleep(0.3)
                chrome.screenshot(os.path.join(artifacts, f"embed-breaker-{lang}-{w}.png"))
                cdp("Emulation.clearDeviceMetricsOverride")
        chrome.cmd("POST", "/window/rect", {"width": 1280, "height": 900})
        no_console_errors(chrome, "export screenshots")

    # ---- accessibility: axe with the menus open and in compact mode; the keyboard -------
    def menus_are_accessible():
        import a11y
        from webdriver import ENTER, TAB
        for lang in ["en", "zh"]:
            for q in [f"?page=storm&lang={lang}&preset=breaker-demo", f"?page=admission&lang={lang}"]:
                page(q)
                chrome.js("const p = document.getElementById('play'); if (p && p.dataset.playing === 'true') p.click();")
                if "storm" in q:
                    wait_run(chrome)
                else:
                    # At the end of the run: rows after the playhead are faded on purpose.
                    chrome.js("const s = document.getElementById('scrub'); s.value = s.max; s.dispatchEvent(new Event('input', {bubbles: true}));")
                open_menu()
                chrome.click("#export-embed")
                chrome.js("document.querySelectorAll('details.fig-export').forEach(d => d.open = true);")
                bad = [v for v in a11y.axe_violations(chrome) if v[1] in ("serious", "critical")]
                expect(not bad, f"{q} with the menus open: {bad}")
            page(f"?page=storm&lang={lang}&preset=chain-3x3&embed=1")
            wait_run(chrome)
            bad = [v for v in a11y.axe_violations(chrome) if v[1] in ("serious", "critical")]
            expect(not bad, f"compact mode ({lang}): {bad}")
        # The keyboard reaches the menu and its buttons, and Enter exports.
        page("?page=calculator&lang=en")
        n = hook()
        chrome.js("document.getElementById('page-title').setAttribute('tabindex', '-1'); document.getElementById('page-title').focus();")
        chrome.press(TAB)
        expect(chrome.focused_id() == "export-toggle", f"Tab from the title reaches the menu: {chrome.focused_id()}")
        chrome.press(ENTER, TAB, TAB)
        expect(chrome.focused_id() == "export-csv", f"then its buttons: {chrome.focused_id()}")
        chrome.press(ENTER)
        deadline = time.time() + 10
        while time.time() < deadline and chrome.js("return window.__exports.length;") <= n:
            time.sleep(0.05)
        expect(chrome.js("return window.__exports.length;") == n + 1, "Enter on a button exports")
        no_console_errors(chrome, "export menus, keyboard")

    def labs_figures_export_offline():
        # Each lab's own charts as SVG and PNG, with the network switched off once the site
        # has loaded (the second lab opens in place, as the site's own links do): nothing an
        # export does needs a server.
        chrome.get(base + "?page=queue&lang=en&preset=source-002")
        chrome.wait("#q-rho-sim[data-value]", timeout=30)
        cdp("Network.enable")
        cdp("Network.emulateNetworkConditions", offline=True, latency=0, downloadThroughput=-1, uploadThroughput=-1)
        try:
            for query, fig, preset in [("?page=queue&lang=en&preset=source-002", "q-curve", "source-002"),
                                       ("?page=admission&lang=zh&preset=source-003", "adm-tokens", "source-003")]:
                if "admission" in query:
                    chrome.js("history.pushState(null, '', arguments[0]); window.dispatchEvent(new PopStateEvent('popstate'));", query)
                chrome.wait(f"#{fig} details.fig-export")
                time.sleep(1.0)
                n = hook()
                chrome.click(f"#{fig} details.fig-export > summary")
                name, mime, body = take(f"#{fig}-export-svg", n)
                root = ET.fromstring(body)
                expect(root.tag == SVG_NS + "svg" and mime == "image/svg+xml", f"{name}: an SVG")
                desc = root.find(SVG_NS + "desc").text
                expect(f"preset: {preset}" in desc and ver in desc, f"{name}: its provenance {desc!r}")
                w, h = chrome.js_async(RENDER, body.decode("utf-8"))
                expect(w > 0 and h > 0, f"{name}: renders ({w}×{h})")
                # Off the page the chart keeps its title and the legend the lab writes under it.
                words = " ".join(t.text or "" for t in root.iter(SVG_NS + "text"))
                title = chrome.js("return document.querySelector(`#${arguments[0]} figcaption`).firstChild.textContent.trim();", fig)
                legend = chrome.js("const l = document.querySelector(`#${arguments[0]} + .legend`); return l ? Array.from(l.querySelectorAll('.legend-item')).map(e => e.textContent.trim()) : [];", fig)
                expect(title and title in words, f"{name}: its title {title!r}")
                expect(all(item in words for item in legend), f"{name}: its legend {legend} in {words[:300]!r}")
                name, mime, body = take(f"#{fig}-export-png", n + 1)
                chunks = png_chunks(body)
                expect(mime == "image/png" and chunks[0][0] == b"IHDR", f"{name}: a PNG")
                texts = [b.split(b"\0", 1)[1].decode("latin-1") for k, b in chunks if k == b"tEXt"]
                expect(texts and f"preset: {preset}" in texts[0], f"{name}: its provenance {texts}")
            # The breaker lab's figures have no caption: each is titled by its name, and the
            # cells keep the legend under them (its glyphs drawn as on the page).
            chrome.js("history.pushState(null, '', arguments[0]); window.dispatchEvent(new PopStateEvent('popstate'));",
                      "?page=breaker&lang=en&preset=source-001")
            chrome.wait("#breaker-band svg")
            time.sleep(1.0)
            n = hook()
            open_menu()
            names = chrome.js("return Array.from(document.querySelectorAll('#export-figures .fig-name')).map(e => e.textContent);")
            legend = chrome.js("return Array.from(document.querySelectorAll('.breaker .legend .legend-item')).map(e => e.textContent.trim());")
            expect(len(names) >= 2 and legend, f"the breaker lab's figures {names} and legend {legend}")
            for i, fig_name in enumerate(names):
                name, mime, body = take(f"#export-fig-{i}-svg", n + i)
                root = ET.fromstring(body)
                words = " ".join(t.text or "" for t in root.iter(SVG_NS + "text"))
                expect(fig_name in words, f"{name}: titled {fig_name!r}")
                if i == 1:  # the calls under the band, with the legend after them
                    expect(all(item in words for item in legend), f"{name}: its legend {legend}")
                    expect(len(list(root.iter(SVG_NS + "svg"))) >= 1 + len(legend), f"{name}: the legend's glyphs")
            no_csp()
            no_console_errors(chrome, "labs' figures offline")
        finally:
            cdp("Network.emulateNetworkConditions", offline=False, latency=0, downloadThroughput=-1, uploadThroughput=-1)

    run("export: the storm page's JSON and CSV are lab run's bytes", storm_json_and_csv_equal_the_cli)
    run("export: the labs' charts as SVG and PNG with their provenance, offline", labs_figures_export_offline)
    run("export: every figure as well-formed, rendering SVG; PNG at 1× and 2× with its tEXt chunk", figures_export_as_svg_and_png)
    run("export: compare mode names side B's files by its preset; a figure's band keeps its colours, title and notes", compare_exports_name_side_b_and_keep_the_figures_words)
    run("export: the labs and the calculator export their own results", labs_export_their_results)
    run("export: the embed snippet opens in compact mode on every page", embed_opens_in_compact_mode)
    run("export: axe finds nothing serious with the menus open or in compact mode; the keyboard exports", menus_are_accessible)
    run("export: screenshots of the menu and compact mode, both languages, 1440 and 390 px", screenshots_of_menu_and_compact_mode)

"""Everyone can use it: axe-core on every page in both languages, keyboard-only use, and the
phone layout. axe-core comes from npm (scripts/install-tools.sh puts it in .tools/axe/) and
is injected by WebDriver, which the page's Content-Security-Policy does not govern.
"""

import os
import time

from webdriver import ARROW_LEFT, ARROW_RIGHT, ENTER, ESCAPE, TAB

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
AXE = os.path.join(ROOT, ".tools", "axe", "node_modules", "axe-core", "axe.min.js")

# Pages in the states a learner sees them: each with a finished run.
PAGES = [
    "?page=storm&preset=lab11-unprotected",
    "?page=storm&preset=big-promo",
    "?page=storm&preset=breaker-demo",
    "?page=storm&preset=bulkhead-shared-vs-isolated&compare=1",
    "?page=storm&preset=big-promo-protected&compare=1&overlay=1",
    "?page=storm&preset=lab11-unprotected&compare=1&request=3",
    "?page=calculator",
    "?page=lessons",
    "?lesson=interview&step=3",
    "?lesson=interview&step=2&interview=1",
    "?page=stability",
    # A changed lab (its story marked as the preset's), a refused value, the slots' caption.
    "?page=admission&preset=source-002&limit=2&b=-1",
    "?page=breaker&preset=source-003&rate=5000",
    # The queue lab as it opens, and with the log-normal p99 below its median (its error).
    "?page=queue",
    "?page=queue&preset=long-tail&p99=10",
]

# Every chart with a y-axis strip, scrolled to its right end: [id, the scroller's left, the
# strip's left and width, the chart's left, the strip's labels, whether it scrolls].
STRIPS_WHEN_SCROLLED = """
return Array.from(document.querySelectorAll('figure.chart')).filter(f => f.querySelector('svg.y-strip')).map(f => {
  const sc = f.closest('.chart-wrap') || f;
  sc.scrollLeft = sc.scrollWidth;
  const strip = f.querySelector('svg.y-strip').getBoundingClientRect(), chart = f.querySelector('svg[role]').getBoundingClientRect();
  return [f.id, sc.getBoundingClientRect().left, strip.left, strip.width, chart.left,
          f.querySelectorAll('svg.y-strip text').length, sc.scrollWidth > sc.clientWidth];
});
"""

# Every chart drawn to its figure's width (`.fits`: the time charts, the labs' x-y charts):
# [id, its view box width, its drawn width, whether its scroller scrolls, whether it has a
# y-axis strip].
TIME_CHARTS_FIT = """
return Array.from(document.querySelectorAll('figure.chart.fits')).map(f => {
  const sc = f.closest('.chart-wrap') || f, svg = f.querySelector('svg[role]');
  return [f.id, svg.viewBox.baseVal.width, svg.getBoundingClientRect().width, sc.scrollWidth > sc.clientWidth + 1,
          !!f.querySelector('svg.y-strip')];
});
"""

RUN_AXE = """
const done = arguments[arguments.length - 1];
axe.run(document, { resultTypes: ['violations'] }).then(r => done(r.violations.map(v =>
  [v.id, v.impact, v.nodes.length, v.nodes.slice(0, 3).map(n => n.target.join(' ') + ' :: ' + (n.failureSummary || '').slice(0, 160))])));
"""


def settle(chrome):
    deadline = time.time() + 30
    while time.time() < deadline:
        if chrome.js(
            "const s = document.getElementById('storm'); if (s) return !!s.getAttribute('data-run');"
            # The queue lab: its runs finished, or a field refused (then it keeps the last run).
            "const q = document.getElementById('queue'); if (q) return !q.querySelector('.progress')"
            " && !!q.querySelector('#q-rho-sim[data-value], [aria-invalid=true]');"
            "return !!document.getElementById('page-title');"):
            return
        time.sleep(0.05)
    raise AssertionError("the page did not settle")


# Every field (a slider, a number, a select, a text field) points at help on screen
# (`aria-describedby`): a tooltip never shows on a touch screen, and a screen reader reads
# the description with the field. Checkboxes and buttons say what they do in their label.
FIELDS_WITHOUT_HELP = """
const out = [];
for (const e of document.querySelectorAll('input, select, textarea')) {
  if (['hidden', 'checkbox', 'radio'].includes(e.type) || e.getClientRects().length === 0) continue;
  const ids = (e.getAttribute('aria-describedby') || '').split(/\\s+/).filter(Boolean);
  const shown = ids.map(i => document.getElementById(i))
    .filter(d => d && d.textContent.trim() && d.getClientRects().length > 0 && !d.classList.contains('sr-only'));
  if (shown.length === 0) out.push(e.id || e.name || e.tagName);
}
return out;
"""


def axe_violations(chrome):
    with open(AXE, encoding="utf-8") as f:
        chrome.js(f.read() + "\nreturn true;")
    chrome.cmd("POST", "/timeouts", {"script": 60000})
    return chrome.js_async(RUN_AXE)


def add_checks(run, chrome, base, measurements, expect, no_console_errors, artifacts):

    def axe_every_page():
        expect(os.path.exists(AXE), f"axe-core is installed at {AXE} (scripts/install-tools.sh --browser)")
        found, no_help = {}, {}
        for lang in ["en", "zh"]:
            for query in PAGES:
                chrome.get(f"{base}{query}&lang={lang}")
                settle(chrome)
                # Stop playback so the page holds still while it is checked.
                chrome.js("const p = document.getElementById('play'); if (p && p.dataset.playing === 'true') p.click();")
                # Moderate too: landmarks named alike (compare mode's two sides, a region
                # inside a section of the same name) and headings that skip a level.
                bad = [v for v in axe_violations(chrome) if v[1] in ("moderate", "serious", "critical")]
                if bad:
                    found[f"{query} ({lang})"] = bad
                bare = chrome.js(FIELDS_WITHOUT_HELP)
                if bare:
                    no_help[f"{query} ({lang})"] = bare
                no_console_errors(chrome, f"axe {query}")
        measurements["axe_moderate_or_worse"] = sum(len(v) for v in found.values())
        expect(not found, "axe-core found moderate, serious or critical violations:\n" +
               "\n".join(f"  {page}: {v}" for page, vs in found.items() for v in vs))
        expect(not no_help, f"every field's help on screen (aria-describedby): {no_help}")
        print(f"     axe-core {measurements.get('axe_version', '')}: 0 moderate, serious or critical violations on {len(PAGES) * 2} page states")

    def tab_from_the_top(to, most):
        """Loads the storm page, presses Tab from its top until `to` has the focus (at most
        `most` times); returns the ids (or classes) passed."""
        chrome.get(base + "?page=storm&lang=en&preset=chain-3x3")
        settle(chrome)
        chrome.js("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0);")
        stops = []
        for _ in range(most):
            chrome.press(TAB)
            stops.append(chrome.focused_id() or chrome.js("return document.activeElement.className"))
            if stops[-1] == to:
                break
        return stops

    def keyboard_only():
        # The skip links come first: the second jumps to playback.
        stops = tab_from_the_top("skip-play", 4)
        expect("skip-play" in stops, f"a skip link to playback within 4 tab stops: {stops}")
        chrome.press(ENTER)
        expect(chrome.focused_id() == "play", f"the skip link puts the focus on Play: {chrome.focused_id()}")
        # The third skip link reaches the controls, which come after the figures in tab order.
        stops = tab_from_the_top("skip-controls", 5)
        expect("skip-controls" in stops, f"a skip link to the controls within 5 tab stops: {stops}")
        chrome.press(ENTER)
        expect(chrome.focused_id() == "preset", f"the skip link puts the focus on the preset: {chrome.focused_id()}")
        # A slider moves one stop per arrow key and says its value with its unit.
        slider = "k-l1-attempts-slider"
        chrome.js(f"document.getElementById('{slider}').focus();")
        before = chrome.js(f"const s = document.getElementById('{slider}'); return [Number(s.value), s.getAttribute('aria-valuetext')];")
        run = chrome.js("return document.getElementById('storm').getAttribute('data-run');")
        chrome.press(ARROW_RIGHT)
        deadline = time.time() + 10
        while time.time() < deadline and chrome.js("return document.getElementById('storm').getAttribute('data-run');") == run:
            time.sleep(0.05)
        after = chrome.js(f"const s = document.getElementById('{slider}'); return [Number(s.value), s.getAttribute('aria-valuetext')];")
        expect(after[0] == before[0] + 1, f"one stop per arrow key: {before} -> {after}")
        expect(after[1] and "4" in after[1] and "attempt" in after[1], f"the announced value has its unit: {after[1]!r}")
        expect(chrome.js("return Number(document.getElementById('h-a-amplification').dataset.value)") == 36.0, "4 × 3 × 3 ran")
        chrome.press(ARROW_LEFT)
        # A control focused while it lies under the sticky header is scrolled out from
        # under it (the browser leaves a control it can partly see where it is).
        chrome.js("const p = document.getElementById('play');"
                  " window.scrollTo(0, p.getBoundingClientRect().top + window.scrollY - 20);")
        time.sleep(0.2)
        # Under the header before the focus, or the check would test nothing.
        under = chrome.js("return [document.getElementById('play').getBoundingClientRect().top,"
                          " document.querySelector('header.top').getBoundingClientRect().bottom,"
                          " getComputedStyle(document.documentElement).getPropertyValue('--header-h')];")
        expect(under[0] < under[1] and under[2].strip() not in ("", "0px"), f"Play starts under the sticky header: {under}")
        chrome.js("document.getElementById('play').focus({preventScroll: true});")
        time.sleep(0.3)
        top, header = chrome.js("return [document.getElementById('play').getBoundingClientRect().top,"
                                " document.querySelector('header.top').getBoundingClientRect().bottom];")
        expect(top >= header, f"the focused control is clear of the header: its top {top} px, the header's bottom {header} px")
        # A figure's export menu, drawn over the plot, closes with Escape (the focus back on
        # its button) and when the focus leaves it.
        menu = "#load-a .fig-export"
        chrome.js(f"document.querySelector('{menu} summary').focus();")
        chrome.press(ENTER)
        opened = chrome.js(f"return document.querySelector('{menu}').open;")
        chrome.press(ESCAPE)
        closed = chrome.js(f"return [document.querySelector('{menu}').open, document.activeElement === document.querySelector('{menu} summary')];")
        expect(opened and closed == [False, True], f"Escape closes the figure's menu and gives its button the focus: {opened} {closed}")
        chrome.press(ENTER)
        chrome.js("document.getElementById('preset').focus();")
        expect(not chrome.js(f"return document.querySelector('{menu}').open;"), "the menu closes when the focus leaves it")
        no_console_errors(chrome, "keyboard")

    READ_SLIDER = ("const s = document.getElementById(arguments[0]);"
                   " return [Number(s.value), Number(s.max), s.getAttribute('aria-valuetext') || ''];")

    def every_slider_moves_one_stop():
        # Every slider of every page with settings (the storm page's lesson knobs, each lab's
        # knobs): an arrow key moves it exactly one stop, the page keeps it there (no snap
        # back), and the new value is said in words.
        for query in ["?page=storm&preset=chain-3x3", "?page=calculator", "?page=admission", "?page=queue",
                      "?page=breaker", "?page=admission&lang=zh"]:
            chrome.get(base + query + ("" if "lang=" in query else "&lang=en"))
            settle(chrome)
            ids = chrome.js("return Array.from(document.querySelectorAll('details.controls-wrap input[type=range]'))"
                            ".filter(s => s.offsetParent && s.id && !s.disabled).map(s => s.id);")
            expect(len(ids) >= 3, f"{query}: sliders found: {ids}")
            for sid in ids:
                before = chrome.js(READ_SLIDER, sid)
                up = before[0] < before[1]
                chrome.js("document.getElementById(arguments[0]).focus();", sid)
                chrome.press(ARROW_RIGHT if up else ARROW_LEFT)
                want = before[0] + (1 if up else -1)
                deadline = time.time() + 5
                after = chrome.js(READ_SLIDER, sid)
                while time.time() < deadline and after[0] != want:
                    time.sleep(0.05)
                    after = chrome.js(READ_SLIDER, sid)
                time.sleep(0.15)
                after = chrome.js(READ_SLIDER, sid)
                expect(after[0] == want, f"{query} {sid}: one stop per arrow key and it stays: {before} -> {after}")
                expect(after[2].strip() and after[2] != before[2],
                       f"{query} {sid}: the new value is said in words: {before[2]!r} -> {after[2]!r}")
            no_console_errors(chrome, f"sliders {query}")

    # The smallest text of the page's figures as drawn on screen (CSS px): SVG text by its font
    # size times the drawing's scale.
    SMALLEST_FIGURE_TEXT = """
    let low = [1e9, ''];
    for (const t of document.querySelectorAll('svg text')) {
      const b = t.getBoundingClientRect(); if (!b.width || !t.textContent.trim()) continue;
      if (t.closest('.playhead-layer, [aria-hidden=true]' + (arguments[0] ? ', ' + arguments[0] : ''))) continue;
      const m = t.getScreenCTM(); const px = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
      if (px < low[0]) low = [px, (t.closest('[id]') || {}).id + ': ' + t.textContent.slice(0, 30)];
    }
    return low;
    """

    # The chain diagram's text that runs past its hop's box or out of the drawing.
    DIAGRAM_SPILL = """
    const out = [];
    for (const svg of document.querySelectorAll('figure.diagram svg')) {
      const r = svg.getBoundingClientRect();
      for (const t of svg.querySelectorAll('text')) {
        const b = t.getBoundingClientRect(); if (!b.width) continue;
        const box = t.closest('g.hop, g.pool'); const rb = box ? box.querySelector('rect.pool-box, g.hop > rect').getBoundingClientRect() : r;
        if (b.left < r.left - 0.5 || b.right > r.right + 0.5 || b.right > rb.right + 1)
          out.push([svg.closest('[id]').id, t.textContent.slice(0, 30), Math.round(b.right - rb.right)]);
      }
    }
    return out.slice(0, 5);
    """

    def figures_legible():
        # A phone; an upright and a landscape tablet (a 1,280 px laptop at 125 % is 1,024 CSS
        # px too). Figures drawn in their own units had shrunk their text into a tablet's
        # column: the chain diagram to 6 px, the tokens chart to 6.5 px, the calculator's
        # chain to 7 px, the breaker lab's state band to 9.2 px (until session 44).
        low = {}
        storm = ["?page=storm&preset=chain-3x3", "?page=storm&preset=chain-3x4", "?page=storm&preset=big-promo-protected&t=500",
                 "?page=storm&preset=big-promo&t=15000"]
        try:
            # (The labs' 480-unit charts fill a 768 px tablet's column at 10 px less a hair.)
            for (w, h, least) in [(390, 844, 10.0), (768, 1024, 9.5), (1024, 768, 10.0)]:
                chrome.viewport(w, h)
                for lang in ["en", "zh"]:
                    for query in storm + ["?page=calculator", "?page=queue", "?page=admission&preset=cost-above-b", "?page=breaker"]:
                        chrome.get(f"{base}{query}&lang={lang}")
                        settle(chrome)
                        time.sleep(0.5)
                        px, where = chrome.js(SMALLEST_FIGURE_TEXT)
                        low[w] = min(low.get(w, px), px)
                        expect(px >= least, f"{query} ({lang}) at {w} px: figure text {px:.1f} px < {least} px ({where})")
                        wide = chrome.js("return document.documentElement.scrollWidth;")
                        expect(wide <= w + 2, f"{query} ({lang}) at {w} px: figures scroll in their own box, the page not: {wide} px")
                        if "storm" in query:
                            spill = chrome.js(DIAGRAM_SPILL)
                            expect(not spill, f"{query} ({lang}) at {w} px: diagram text past its box: {spill}")
                        if "calculator" in query and w == 1024:
                            # The in-flight table's verdicts in view beside the settings (its
                            # headers had kept to one line and pushed them out of the column).
                            fits = chrome.js("const t = document.querySelector('#calculator .table-scroll, .table-scroll'); return [t.scrollWidth, t.clientWidth];")
                            expect(fits[0] <= fits[1] + 1, f"{query} ({lang}) at {w} px: the in-flight table fits its column: {fits}")
                        if "chain-3x4" in query and w >= 768:
                            # The retry-storm lesson's four hops, the ×64 payment last, whole in view.
                            fits = chrome.js("const d = document.querySelector('#diagram-a .diagram-scroll'); return [d.scrollWidth, d.clientWidth];")
                            expect(fits[0] <= fits[1] + 1, f"{query} ({lang}) at {w} px: the chain fits without scrolling: {fits}")
            measurements["min_figure_text_px"] = {str(w): round(px, 1) for w, px in low.items()}
            # Compare mode's halves on a 1,440 px laptop: every figure drawn to its half's
            # width at its own text size (they were 640-unit pictures scaled to 7.3 px), but
            # the request flow, whose picture keeps its layout and is told as a list beside
            # it (its labels 8.4 px).
            chrome.viewport(1440, 900)
            for lang in ["en", "zh"]:
                for query in ["?page=storm&preset=big-promo&compare=1", "?page=storm&preset=bulkhead-shared-vs-isolated&compare=1"]:
                    chrome.get(f"{base}{query}&lang={lang}")
                    settle(chrome)
                    time.sleep(0.5)
                    lists = chrome.js("return [...document.querySelectorAll('.bd-flow')].map(f => getComputedStyle(f.querySelector('.bd-flow-list')).display);")
                    expect(lists == ["block", "block"], f"{query} ({lang}) at 1440 px: both sides' flows told as lists: {lists}")
                    px, where = chrome.js(SMALLEST_FIGURE_TEXT, ".bd-flow svg")
                    low["1440 compare"] = min(low.get("1440 compare", px), px)
                    expect(px >= 10.0, f"{query} ({lang}) at 1440 px: figure text {px:.1f} px < 10 px ({where})")
            measurements["min_figure_text_px"]["1440 compare"] = round(low["1440 compare"], 1)
            chrome.viewport(390, 844)
            for lang in ["en", "zh"]:
                for query in ["?page=storm&preset=chain-3x3", "?page=calculator", "?page=queue", "?page=admission&preset=cost-above-b"]:
                    chrome.get(f"{base}{query}&lang={lang}")
                    settle(chrome)
                    time.sleep(0.5)
                    # Scrolled to its right end, each chart keeps its y axis in view: the
                    # strip at the scroller's left edge, the chart's own axis gone under it.
                    strips = chrome.js(STRIPS_WHEN_SCROLLED)
                    for fig, sc_left, strip_left, strip_w, chart_left, labels, scrolls in strips:
                        expect(scrolls and strip_w > 40 and labels >= 2 and abs(strip_left - sc_left) < 1.5
                               and chart_left < sc_left - 100,
                               f"{query} ({lang}) {fig}: the y axis stays at the left edge when scrolled: "
                               f"{[sc_left, strip_left, strip_w, chart_left, labels, scrolls]}")
                    fitting = chrome.js(TIME_CHARTS_FIT)
                    # The labs' x-y charts too, since session 44 (a 480-unit picture had
                    # scrolled, its axis cut at "1,00").
                    for xy in [("queue", "q-curve"), ("admission", "adm-tokens")]:
                        if xy[0] in query:
                            expect(any(f[0] == xy[1] for f in fitting), f"{query} ({lang}): {xy[1]} drawn to fit: {fitting}")
                    # A time chart is drawn at its figure's width, one unit a CSS px: its
                    # whole run in view, its text at its own size, nothing to scroll.
                    for fig, view_w, shown_w, scrolls, strip in fitting:
                        expect(abs(view_w - shown_w) <= 8.5 and view_w < 640 and not scrolls and not strip,
                               f"{query} ({lang}) {fig}: drawn at its width, whole in view: {[view_w, shown_w, scrolls, strip]}")
                    if "storm" in query or "queue" in query:
                        least = 4 if "storm" in query else 1
                        expect(len(fitting) >= least, f"{query} ({lang}): time charts drawn to fit: {len(fitting)}")
            chrome.get(f"{base}?page=queue&lang=en")
            settle(chrome)
            chrome.js("document.querySelectorAll('figure.chart').forEach(f => (f.closest('.chart-wrap') || f).scrollLeft = 400);")
            time.sleep(0.3)
            chrome.js("document.getElementById('q-curve').scrollIntoView();")
            chrome.screenshot(os.path.join(artifacts, "queue-phone-scrolled-en.png"))
        finally:
            chrome.cmd("POST", "/window/rect", {"width": 1280, "height": 900})

    def said_at_the_foot(lang, pg, knob, figures):
        """A knob moved screens below the figures (`knob`, a range input): what it changed is
        held at the screen's foot, with the way back up to `figures` (an id); nothing on
        screen had changed."""
        chrome.js("const i = document.querySelector(arguments[0]); i.scrollIntoView({block: 'center'}); i.focus();", knob)
        chrome.press(ARROW_RIGHT)
        deadline, bar = time.time() + 10, None
        while time.time() < deadline:
            bar = chrome.js("const b = document.getElementById('run-said-bar'); if (!b) return null; const r = b.getBoundingClientRect();"
                            "return [b.textContent.length, r.height > 0 && r.top >= 0 && r.bottom <= innerHeight + 1];")
            if bar and bar[0] > 10 and bar[1]:
                break
            time.sleep(0.1)
        expect(bar and bar[0] > 10 and bar[1], f"({lang}) {pg}: a knob's change said in view at the settings: {bar}")
        chrome.click("#to-figures")
        time.sleep(0.6)
        top = chrome.js("return document.getElementById(arguments[0]).getBoundingClientRect().top;", figures)
        expect(abs(top) < 200, f"({lang}) {pg}: the bar's link goes back to the figures: their top at {top} px")

    def phone_layout():
        chrome.viewport(390, 844)
        try:
            for lang in ["en", "zh"]:
                chrome.get(base + f"?page=storm&lang={lang}&preset=big-promo")
                settle(chrome)
                top = chrome.js("const e = document.getElementById('headline'); return e.getBoundingClientRect().top + window.scrollY;")
                inner = chrome.js("return window.innerHeight;")
                expect(top < inner, f"({lang}) the headline figures start within the first screen: {top} px of {inner}")
                # The settings, folded below every figure, are one tap away from the intro.
                chrome.click("#to-settings")
                deadline, got = time.time() + 5, None
                while time.time() < deadline:
                    got = chrome.js("const d = document.querySelector('details.controls-wrap'), r = document.getElementById('controls-toggle').getBoundingClientRect();"
                                    "return [d.open, r.top >= 0 && r.bottom <= innerHeight, document.activeElement && document.activeElement.id];")
                    if got[0] and got[1]:
                        break
                    time.sleep(0.1)
                expect(got == [True, True, "controls-toggle"], f"({lang}) the intro's link opens the settings and goes there: {got}")
                chrome.get(base + f"?page=storm&lang={lang}&preset=big-promo")
                settle(chrome)
                # The first row of headline figures whole on the first screen, not only begun.
                first_row = chrome.js(
                    "const cs = Array.from(document.querySelectorAll('#headline [data-value]'));"
                    "const t0 = Math.min(...cs.map(c => c.getBoundingClientRect().top));"
                    "return Math.max(...cs.filter(c => c.getBoundingClientRect().top - t0 < 5)"
                    ".map(c => c.getBoundingClientRect().bottom)) + window.scrollY;")
                expect(first_row <= inner, f"({lang}) the first row of headline figures ends on the first screen: {first_row} of {inner}")
                wide = chrome.js("return document.documentElement.scrollWidth;")
                expect(wide <= 392, f"({lang}) nothing overflows sideways: {wide} px")
                chrome.screenshot(os.path.join(artifacts, f"storm-big-promo-phone-{lang}.png"))
                # The controls wait folded below the figures; their summary opens them.
                expect(chrome.js("return document.querySelector('details.controls-wrap').open") is False,
                       f"({lang}) the control panel starts folded on a phone")
                chrome.click("#controls-toggle")
                expect(chrome.js("return document.querySelector('details.controls-wrap').open") is True
                       and chrome.js("return document.getElementById('preset').offsetParent !== null"),
                       f"({lang}) one tap opens the controls")
                small = chrome.js(
                    "return Array.from(document.querySelectorAll('button, select, input, summary, a.button'))"
                    ".filter(e => e.offsetParent && !e.closest('.sr-only')).map(e => { const r = e.getBoundingClientRect();"
                    " return [e.id || e.className || e.tagName, Math.round(r.width), Math.round(r.height)]; })"
                    ".filter(x => x[1] < 24 || x[2] < 24);")
                expect(not small, f"({lang}) storm: touch targets at least 24 x 24 px: {small[:5]}")
                said_at_the_foot(lang, "storm", ".controls-panel input[type=range]", "storm-figures")
                # Every other page with settings: its figures first, on the first screen; its
                # settings folded after them, one tap away.
                for pg in ["calculator", "admission", "queue", "breaker", "stability"]:
                    chrome.get(base + f"?page={pg}&lang={lang}")
                    settle(chrome)
                    # The first figure with a value whole on the first screen (the stability
                    # map has none: its map begins there with room to read; a note that
                    # carries the value a lesson quotes, `p.help`, is not a figure).
                    kind, fig_top, fig_bottom = chrome.js(
                        "const o = document.querySelector('.two-col > .outputs');"
                        "const v = o.querySelector('[data-value]:not(p.help)'); const f = v || o.querySelector('svg');"
                        "const r = f.getBoundingClientRect();"
                        "return [v ? 'value' : 'chart', r.top + window.scrollY, r.bottom + window.scrollY];")
                    ok = fig_bottom <= inner if kind == "value" else fig_top < inner - 100
                    expect(ok, f"({lang}) {pg}: the first {kind} is on the first screen: {fig_top}–{fig_bottom} px of {inner}")
                    folded = chrome.js("const d = document.querySelector('.two-col > details.controls-wrap');"
                                       " return [!!d, d && d.open, d && d.getBoundingClientRect().top > document.querySelector('.two-col > .outputs').getBoundingClientRect().top];")
                    expect(folded == [True, False, True], f"({lang}) {pg}: the settings start folded, after the figures: {folded}")
                    if pg == "stability":
                        # The tap waits for the sweep to end: while its status lines grow, the
                        # summary can move between the tap's aim and its landing (twice in a
                        # full run the tap opened nothing: [False, True] below).
                        deadline = time.time() + 30
                        while time.time() < deadline and not chrome.js(
                                "const m = document.getElementById('stability-map');"
                                " return m && m.dataset.done === m.dataset.total;"):
                            time.sleep(0.2)
                        time.sleep(0.3)
                    chrome.click("#controls-toggle")
                    # Read until it settles (up to 2 s): the stability map streams its cells in
                    # while the tap lands, and once CI read it mid-update ([False, True]); a
                    # panel that closed again would still fail here.
                    deadline = time.time() + 2
                    while True:
                        opened = chrome.js("const d = document.querySelector('.two-col > details.controls-wrap');"
                                           " const c = d.querySelector('input, select'); return [d.open, !!c && c.offsetParent !== null];")
                        if opened == [True, True] or time.time() > deadline:
                            break
                        time.sleep(0.2)
                    expect(opened == [True, True], f"({lang}) {pg}: one tap opens the settings: {opened}")
                    # The intro ends with the way to the folded settings, as the storm page's.
                    link = chrome.js("const e = document.querySelector('.intro > #to-settings'); return !!e && e.getBoundingClientRect().height > 0;")
                    expect(link, f"({lang}) {pg}: the intro links to the folded settings")
                    # A table shown as cards (the admission lab's steps) or one whose causes
                    # wrap (the breaker lab's changes) fits its box: nothing past a sideways scroll.
                    if pg in ("admission", "breaker"):
                        tid = "adm-steps" if pg == "admission" else "breaker-changes"
                        fits = chrome.js("const t = document.getElementById(arguments[0]), p = t.parentElement, s = getComputedStyle(p);"
                                         " return [t.scrollWidth, p.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight)];", tid)
                        expect(fits[0] <= fits[1] + 1, f"({lang}) {pg}: #{tid} fits its box on a phone: {fits}")
                    if pg in ("calculator", "admission", "queue", "breaker"):
                        said_at_the_foot(lang, pg, ".two-col > details.controls-wrap input[type=range]", "lab-figures")
                    # Every control a finger can hit is at least 24 x 24 px (WCAG 2.2 target size).
                    small = chrome.js(
                        "return Array.from(document.querySelectorAll('button, select, input, summary, a.button'))"
                        ".filter(e => e.offsetParent && !e.closest('.sr-only')).map(e => { const r = e.getBoundingClientRect();"
                        " return [e.id || e.className || e.tagName, Math.round(r.width), Math.round(r.height)]; })"
                        ".filter(x => x[1] < 24 || x[2] < 24);")
                    expect(not small, f"({lang}) {pg}: touch targets at least 24 x 24 px: {small[:5]}")
                    wide = chrome.js("return document.documentElement.scrollWidth;")
                    expect(wide <= 392, f"({lang}) {pg}: nothing overflows sideways: {wide} px")
                    # Nor out of its panel: a table too wide for a phone scrolls in its own box.
                    spill = chrome.js(
                        "return Array.from(document.querySelectorAll('.outputs table')).filter(t => t.offsetParent"
                        " && !t.closest('.table-scroll, .fig-scroll')).map(t => [t.id || t.className,"
                        " t.getBoundingClientRect().right - t.closest('.panel').getBoundingClientRect().right]).filter(x => x[1] > 1);")
                    expect(not spill, f"({lang}) {pg}: tables spill out of their panels: {spill}")
                    measurements.setdefault("phone_first_figure_top_px", {})[f"{pg}-{lang}"] = round(fig_top)
                    chrome.js("window.scrollTo(0, 0);")
                    chrome.screenshot(os.path.join(artifacts, f"{pg}-phone-{lang}.png"))
        finally:
            chrome.cmd("POST", "/window/rect", {"width": 1280, "height": 900})


    def cdp(cmd, **params):
        return chrome.cmd("POST", "/goog/cdp/execute", {"cmd": cmd, "params": params})

    def low_vision():
        """A low-vision learner: 400 % zoom (320 CSS px), 200 % on a laptop (a short window),
        the dark theme's contrast, and a forced-colours (high-contrast) theme."""
        # Nothing sticks out of the settings at 320 px, in the storm panel, the labs and a
        # lesson's card, with every fold open.
        spill_js = (
            "document.querySelectorAll('details').forEach(d => d.open = true);"
            "const out = [];"
            "for (const box of document.querySelectorAll(arguments[0])) { const b = box.getBoundingClientRect();"
            " for (const e of box.querySelectorAll('input, select, button, label, .unit')) {"
            "  const r = e.getBoundingClientRect(); if (!r.width || e.closest('.sr-only')) continue;"
            # A wide table scrolling in its own box is reached by scrolling it.
            "  let sc = false; for (let a = e.parentElement; a && a !== box; a = a.parentElement)"
            "   if (/auto|scroll/.test(getComputedStyle(a).overflowX)) sc = true; if (sc) continue;"
            "  if (r.right > b.right + 1) out.push([e.id || e.className || e.tagName, (e.textContent || '').slice(0, 30), Math.round(r.right - b.right)]); } }"
            "return [out.slice(0, 6), document.documentElement.scrollWidth, innerWidth];")
        chrome.viewport(320, 800)
        try:
            for lang in ["en", "zh"]:
                for query, box in [("?page=storm", ".controls-panel"), ("?page=calculator", ".controls-wrap"),
                                   ("?page=admission", ".controls-wrap"), ("?page=breaker", ".controls-wrap"),
                                   ("?lesson=retry-storm&step=2", ".lesson-card")]:
                    chrome.get(f"{base}{query}&lang={lang}")
                    settle(chrome)
                    time.sleep(0.3)
                    out, wide, inner = chrome.js(spill_js, box)
                    time.sleep(0.3)
                    out, wide, inner = chrome.js(spill_js, box)
                    expect(not out, f"({lang}) {query} at 320 px: controls past their box's right edge: {out}")
                    expect(wide <= inner, f"({lang}) {query} at 320 px: the page scrolls sideways ({wide} > {inner})")
                # The sampled request's buttons stay within the caption's visible width.
                chrome.get(f"{base}?page=storm&lang={lang}&preset=chain-3x3")
                settle(chrome)
                past = chrome.js(
                    "const f = document.getElementById('chart-timeline'); const sc = f.closest('.chart-wrap') || f; const b = sc.getBoundingClientRect();"
                    "return ['trace-prev', 'trace-next', 'trace-tree'].map(id => document.getElementById(id)).filter(e => e)"
                    ".map(e => [e.id, Math.round(e.getBoundingClientRect().right - b.right)]).filter(x => x[1] > 1);")
                expect(not past, f"({lang}) at 320 px the sampled request's buttons are out of reach: {past}")
                # And the previous and next buttons keep to either side of the label, level
                # with each other ("›" had dropped under "‹").
                rows = chrome.js("return ['trace-prev', 'trace-label', 'trace-next'].map(id => document.getElementById(id).getBoundingClientRect())"
                                 ".map(r => [Math.round(r.left), Math.round(r.top + r.height / 2)]);")
                expect(rows[0][0] < rows[1][0] < rows[2][0] and abs(rows[0][1] - rows[2][1]) <= 2,
                       f"({lang}) at 320 px the request's ‹ label › are not in one row: {rows}")
            # 200 % zoom on a 1440 x 800 laptop: a 720 x 400 window. The header scrolls away
            # rather than keep most of the screen.
            chrome.viewport(720, 400)
            chrome.get(f"{base}?page=storm&lang=en")
            settle(chrome)
            chrome.js("window.scrollTo(0, 600);")
            time.sleep(0.2)
            top = chrome.js("return document.querySelector('header.top').getBoundingClientRect().bottom;")
            expect(top <= 0, f"at 720 x 400 the header scrolls away: its bottom at {top} px")
            # A 1920 x 1080 screen at 175 % zoom: a lesson's stability map keeps its size
            # (it had shrunk with the window's height in CSS px, its labels to 7 px).
            chrome.viewport(1100, 560)
            chrome.get(f"{base}?lesson=metastable&step=7&lang=en")
            chrome.wait("svg.stab-map", timeout=30)
            time.sleep(0.5)
            h = chrome.js("return document.querySelector('svg.stab-map').getBoundingClientRect().height;")
            expect(h >= 419, f"a lesson's map at a high zoom keeps 420 px: {h}")
        finally:
            chrome.viewport(1280, 900)
        # The dark theme: axe's colour contrast on pages with accent buttons.
        cdp("Emulation.setEmulatedMedia", features=[{"name": "prefers-color-scheme", "value": "dark"}])
        try:
            for query in ["?page=storm&preset=chain-3x3", "?lesson=interview&step=3", "?page=breaker", "?page=stability"]:
                chrome.get(f"{base}{query}&lang=en")
                settle(chrome)
                chrome.js("const p = document.getElementById('play'); if (p && p.dataset.playing === 'true') p.click();")
                bad = [v for v in axe_violations(chrome) if v[0] == "color-contrast"]
                expect(not bad, f"dark theme {query}: {bad}")
            # Forced colours: every legend key keeps a colour of its own, not the page's.
            cdp("Emulation.setEmulatedMedia", features=[{"name": "forced-colors", "value": "active"}])
            for query in ["?page=storm&preset=chain-3x3", "?page=stability", "?page=queue"]:
                chrome.get(f"{base}{query}&lang=en")
                settle(chrome)
                blank = chrome.js(
                    "const bg = getComputedStyle(document.body).backgroundColor;"
                    "return Array.from(document.querySelectorAll('.legend .swatch, .legend [class*=\"-swatch\"]')).filter(e => e.offsetParent)"
                    ".filter(e => { const st = getComputedStyle(e); return st.backgroundImage === 'none' && st.borderTopStyle === 'none' && st.outlineStyle === 'none'"
                    " && (st.backgroundColor === bg || st.backgroundColor === 'rgba(0, 0, 0, 0)'); }).map(e => e.className);")
                keys = chrome.js("return document.querySelectorAll('.legend .swatch').length;")
                expect(keys > 0 and not blank, f"forced colours {query}: {len(blank)} of {keys} legend keys lose their colour: {blank[:5]}")
        finally:
            cdp("Emulation.setEmulatedMedia", features=[])

    run("axe-core: no moderate, serious or critical violation on any page, both languages; every field's help on screen", axe_every_page)
    run("keyboard only: skip links reach Play and the controls, sliders move one stop per arrow key", keyboard_only)
    run("keyboard only: every slider on every page moves one stop per arrow key and says its value", every_slider_moves_one_stop)
    run("phone (390 × 844): figures within the first screen, nothing overflows", phone_layout)
    run("figures legible on a phone and a tablet: text at least 10 px at 390 and 1,024 px, 9.5 px at 768 px, each figure scrolling in its own box; 10 px in compare mode at 1,440 px", figures_legible)
    run("low vision: nothing past its box at 320 px (400 % zoom), the header away in a short window, dark-theme contrast, forced colours' keys", low_vision)

#!/usr/bin/env python3
"""End-to-end test of the release site in headless Chromium, driven through WebDriver.

    python3 tests/e2e/run.py DIST_DIR ARTIFACTS_DIR LAB_BINARY

The site is copied under a sub-path (/some/sub/path/) and served by `python3 -m
http.server`, exactly as a static host would, so relative asset URLs are exercised.
Screenshots go to ARTIFACTS_DIR (left for inspection, not committed); measured figures
go to ARTIFACTS_DIR/measurements.json. Exit status 0 only if every check passed.

For developers: E2E_ONLY="part|part" runs the checks whose names contain a part;
E2E_CPU_SLOWDOWN=N slows the page's CPU N times (DevTools' CPU throttling, set at every
page load), to look for races a slower machine than this one would meet.
"""

import json
import re
import os
import shutil
import subprocess
import sys
import tempfile
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from webdriver import Chrome, StaticServer  # noqa: E402
import links  # noqa: E402
import a11y  # noqa: E402
import labs_aq  # noqa: E402

SUB_PATH = "some/sub/path"


class Checks:
    def __init__(self):
        self.failures = []
        self.passed = 0

    def run(self, name, fn):
        # A developer's filter: run the checks whose name contains one of its |-separated parts.
        only = os.environ.get("E2E_ONLY")
        if only and not any(part in name for part in only.split("|")):
            return
        t0 = time.time()
        try:
            fn()
            self.passed += 1
            print(f"ok   {name} ({time.time() - t0:.1f}s)")
        except Exception as e:  # report every failing check, not just the first
            self.failures.append(name)
            print(f"FAIL {name}: {e}")
            traceback.print_exc()


def expect(cond, msg):
    if not cond:
        raise AssertionError(msg)


HEADLINE_FIELDS = {
    "original_requests": lambda r: r["summary"]["original_requests"],
    "downstream_attempts": lambda r: r["summary"]["downstream_attempts"],
    "amplification": lambda r: r["summary"]["amplification"],
    "succeeded": lambda r: r["summary"]["succeeded"],
    "degraded": lambda r: r["summary"]["degraded"],
    "failed": lambda r: r["summary"]["failed"],
    "admission_rejected": lambda r: r["summary"]["admission_rejected"],
    "core_success_rate": lambda r: r["summary"]["core_success_rate"],
    "latency_p50": lambda r: r["summary"]["latency_ms"]["p50"],
    "latency_p99": lambda r: r["summary"]["latency_ms"]["p99"],
    "latency_max": lambda r: r["summary"]["latency_ms"]["max"],
    "retries": lambda r: r["summary"]["retries"],
    "timeouts": lambda r: r["summary"]["timeouts"],
    "retry_budget_denied": lambda r: r["summary"]["retry_budget_denied"],
    "budget_exhausted": lambda r: r["summary"]["budget_exhausted"],
    "breaker_rejected": lambda r: r["summary"]["breaker_rejected"],
    "bulkhead_rejected": lambda r: r["summary"]["bulkhead_rejected"],
    "abandoned_work": lambda r: sum(h["abandoned_work"] for h in r["hops"]),
}


def cli_report(lab, preset, seed, versus=False):
    args = [lab, "run", "--preset", preset, "--seed", str(seed), "--format", "json"] + (["--versus"] if versus else [])
    return json.loads(subprocess.run(args, check=True, capture_output=True, text=True).stdout)


def page_headlines(chrome, side="a"):
    return chrome.js(
        "const out = {}; document.querySelectorAll('[id^=\"h-%s-\"]').forEach(e => "
        "{ out[e.id.slice(4)] = Number(e.dataset.value); }); return out;" % side
    )


def wait_run(chrome, after=None, timeout=30.0):
    """Waits until a run finished after run number `after`; returns its number."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        run = chrome.js("const e = document.getElementById('storm'); return e && e.getAttribute('data-redraw-ms') !== null ? e.getAttribute('data-run') : null;")
        if run is not None and (after is None or int(run) > int(after)):
            return run
        time.sleep(0.02)
    state = chrome.js("const e = document.getElementById('storm'); return e ? [e.getAttribute('data-run'), e.getAttribute('data-redraw-ms')] : null;")
    raise AssertionError(f"no finished run after {after} within {timeout}s (page: {state}, {chrome.url()})")


def no_console_errors(chrome, where):
    errors = chrome.console_errors()
    expect(not errors, f"console errors on {where}: {errors}")


def main():
    # The command line's tables and messages in English, whatever this machine's locale.
    os.environ["LAB_LANG"] = "en"
    if len(sys.argv) != 4:
        print(__doc__)
        return 2
    dist, artifacts, lab = sys.argv[1], sys.argv[2], sys.argv[3]
    presets = [line.split()[0] for line in subprocess.run([lab, "presets"], check=True, capture_output=True, text=True).stdout.splitlines() if line.strip()]
    os.makedirs(artifacts, exist_ok=True)
    www = tempfile.mkdtemp(prefix="e2e-www-")
    shutil.copytree(dist, os.path.join(www, SUB_PATH))
    server = StaticServer(www)
    base = f"http://127.0.0.1:{server.port}/{SUB_PATH}/"
    chrome = Chrome()
    checks = Checks()
    measurements = {}

    def page(query):
        chrome.get(base + query)

    # ---- the bundle ------------------------------------------------------------------
    def bundle_carries_only_the_pages_texts():
        # The page's wasm and JS, gzipped as a static host sends them (the README's figure).
        import glob
        files = [glob.glob(os.path.join(dist, pattern))[0] for pattern in ("*_bg.wasm", "resilience-lab-*.js")]
        # `gzip -9`, as scripts/build-site.sh measures it.
        measurements["bundle_gzip_bytes"] = sum(
            len(subprocess.run(["gzip", "-9c", f], check=True, capture_output=True).stdout) for f in files)
        wasm = open(files[0], "rb").read()
        # The command line's texts are a table of their own that the page never uses
        # (src/i18n/cli.rs): none of its words ride in the page's download.
        usage = subprocess.run([lab, "--help"], capture_output=True, text=True).stdout
        line = next(l for l in usage.splitlines() if "--max-calls refuses" in l).strip()
        expect(line.encode() not in wasm, f"the CLI's help is not in the page's wasm: {line!r}")
        zh = subprocess.run([lab, "--help", "--lang", "zh"], capture_output=True, text=True).stdout
        zh_line = next(l for l in zh.splitlines() if "拒绝预计调用次数" in l).strip()
        expect(zh_line.encode() not in wasm, f"nor its Chinese: {zh_line!r}")
        # A text the page does show is there (the check can fail).
        expect("Retry amplification and in-flight calculator".encode() in wasm, "the page's own texts are in its wasm")

    # ---- calculator ------------------------------------------------------------------
    def calculator_english():
        page("?page=calculator&lang=en")
        chrome.wait_text("#out-worst .value", "4,500")
        expect(chrome.text("#page-title") == "Retry amplification and in-flight calculator", "English title")
        expect(chrome.text("#out-avg .value") == "100", "average 100 req/s")
        expect(chrome.text("#out-peak .value") == "500", "peak 500 req/s")
        expect(chrome.text("#inflight-normal-before .value") == "50", "in-flight 50")
        expect(chrome.text("#inflight-normal-after .value") == "450", "in-flight 450")
        expect(chrome.text("#inflight-degraded-after .value") == "3,600", "in-flight 3,600")
        expect(chrome.text("#out-payload .value") == "4.10", "payload 4.10 MB/s")
        # The bars' numbers are as exact as the cards (their caption says exact), a product of
        # rounded operands says ≈, and a screen reader hears the card's figure.
        page("?page=calculator&lang=en&rpd=1000000&peak=3&layers=3&attempts=4,4,4")
        chrome.wait_text("#out-worst .value", "2,222.22")
        bars = chrome.js("return [...document.querySelectorAll('.chain-picture .bar-value')].map(t => t.textContent)")
        expect(bars == ["34.72", "138.89", "555.56", "2,222.22"], f"the bars' exact numbers: {bars}")
        peak = chrome.js("return document.querySelector('#out-peak .formula, #out-peak code, #out-peak').textContent")
        expect("11.57 × 3 ≈ 34.72" in peak, f"rounded operands: ≈ {peak!r}")
        expect("2,222.22" in chrome.js("return document.getElementById('calc-announce').textContent"), "the announcement's worst case")
        page("?page=calculator&lang=en")
        chrome.wait_text("#out-worst .value", "4,500")
        expect("virtual-time model" in chrome.text("#footer-model"), "footer states the model")
        chrome.full_screenshot(os.path.join(artifacts, "calculator-en.png"))
        no_console_errors(chrome, "calculator (en)")

    def calculator_chinese():
        page("?page=calculator&lang=zh")
        chrome.wait_text("#page-title", "重试放大与在途量计算器")
        expect(chrome.text("#out-worst .value") == "4,500", "same figures in Chinese")
        expect(chrome.js("return document.documentElement.lang") == "zh-CN", "<html lang> follows")
        chrome.full_screenshot(os.path.join(artifacts, "calculator-zh.png"))
        no_console_errors(chrome, "calculator (zh)")

    def calculator_attempts_change_the_worst_case():
        page("?page=calculator&lang=en")
        chrome.wait_text("#out-worst .value", "4,500")
        chrome.type("#f-attempts-1", "4")
        chrome.wait_text("#out-worst .value", "6,000")
        expect("attempts=3,4" in chrome.url(), f"the URL records the change: {chrome.url()}")
        chrome.type("#f-layers", "3")
        chrome.wait_text("#out-worst .value", "24,000")
        expect(chrome.text("#out-amplification .value") == "48", "3 × 4 × 4 = 48")
        # Eight layers of ten tries at 10¹² a day: the bars' exact values (up to 18 digits)
        # each within its own space, none over its neighbour or off the picture.
        page("?page=calculator&lang=en&layers=8&attempts=10,10,10,10,10,10,10,10&rpd=1000000000000&peak=100")
        chrome.wait(".chain-picture .bar-value")
        boxes = chrome.js("""const svg = document.querySelector('.chain-picture').getBoundingClientRect();
            return [...document.querySelectorAll('.chain-picture .bar-value')].map(t => { const r = t.getBoundingClientRect();
            return [r.left, r.right, svg.left, svg.right, t.textContent]; });""")
        expect(len(boxes) == 9 and boxes[-1][4] == "115,740,740,740,740,768", f"nine bars, the last exact: {boxes}")
        apart = all(a[1] <= b[0] + 0.5 for a, b in zip(boxes, boxes[1:]))
        inside = all(b[0] >= b[2] - 0.5 and b[1] <= b[3] + 0.5 for b in boxes)
        expect(apart and inside, f"the values apart and on the picture: {[(round(b[0]), round(b[1])) for b in boxes]}")
        no_console_errors(chrome, "calculator edits")

    def calculator_on_a_phone():
        # The chain picture as rows on a phone: shown instead of the wide one, nothing wider
        # than the screen, its text at the page's size, the "×n" clear of the level's name
        # and every value on the picture (eight layers of ten tries: 18 digits).
        chrome.viewport(390, 844)
        try:
            for lang in ["en", "zh"]:
                page(f"?page=calculator&lang={lang}&layers=8&attempts=10,10,10,10,10,10,10,10&rpd=1000000000000&peak=100")
                chrome.wait("svg.chain-rows .bar-value")
                time.sleep(0.2)
                got = chrome.js("""const rows = document.querySelector('svg.chain-rows'), wide = document.querySelector('svg.chain-picture');
                    const box = e => e.getBoundingClientRect(), r = box(rows);
                    const overlap = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
                    const hops = [...rows.querySelectorAll('.hop text')].map(box), labels = [...rows.querySelectorAll('.bar-label')].map(box);
                    const values = [...rows.querySelectorAll('.bar-value')].map(box);
                    return {rows: r.width, wide: box(wide).width, page: document.documentElement.scrollWidth,
                        px: Math.min(...labels.map(b => b.height), ...values.map(b => b.height)),
                        clash: hops.some(h => labels.some(l => overlap(h, l))),
                        off: values.filter(v => v.right > r.right + 0.5 || v.left < r.left).length,
                        n: values.length, note: box(document.querySelector('.note.phone-only')).height > 0 && box(document.getElementById('calc-log-note')).height == 0};""")
                expect(got["rows"] > 0 and got["wide"] == 0 and got["note"], f"{lang}: the rows and their note shown instead of the wide picture: {got}")
                expect(got["page"] <= 390, f"{lang}: nothing wider than the phone: {got['page']} px")
                expect(got["px"] >= 12, f"{lang}: the rows' text at the page's size (line boxes of {got['px']:.1f} px)")
                expect(got["n"] == 9 and got["off"] == 0 and not got["clash"], f"{lang}: nine values on the picture, the ×n clear of the names: {got}")
                # The in-flight table one card a row: every value and verdict within the
                # screen, each beside its column's name, no sideways scroll needed.
                cards = chrome.js("""const t = document.getElementById('inflight');
                    const cells = [...t.querySelectorAll('tbody td')];
                    return [cells.length, cells.filter(c => c.getBoundingClientRect().right > innerWidth + 0.5).length,
                            cells.every(c => getComputedStyle(c, '::before').content.length > 2),
                            t.closest('.table-scroll').scrollWidth <= t.closest('.table-scroll').clientWidth + 1];""")
                expect(cards == [20, 0, True, True], f"{lang}: the in-flight table's cells within the screen, named: {cards}")
                chrome.full_screenshot(os.path.join(artifacts, f"calculator-{lang}-390.png"), width=390)
                no_console_errors(chrome, f"calculator on a phone ({lang})")
        finally:
            chrome.cmd("POST", "/window/rect", {"width": 1280, "height": 900})

    def calculator_url_out_of_range_shows_the_field_error():
        page("?page=calculator&lang=en&layers=2&attempts=3,99&peak=2")
        err = chrome.text("#f-attempts-1-error")
        expect("99" in err and "10" in err, f"error names the value and range: {err!r}")
        expect(chrome.text("#out-worst .value") == "1,800", "100 × 2 × 3 × 3: the bad field alone fell back")
        chrome.full_screenshot(os.path.join(artifacts, "calculator-bad-url.png"))
        no_console_errors(chrome, "calculator bad URL")

    def language_choice_survives_reload():
        page("?page=calculator")
        chrome.wait("#out-worst")
        chrome.click("#lang-zh")
        chrome.wait_text("#page-title", "重试放大与在途量计算器")
        expect("lang=zh" in chrome.url(), "the URL carries the language")
        chrome.refresh()
        chrome.wait_text("#page-title", "重试放大与在途量计算器")
        page("?page=calculator")  # no lang in the link: the saved choice wins over the browser's
        chrome.wait_text("#page-title", "重试放大与在途量计算器")
        chrome.click("#lang-en")
        chrome.wait_text("#page-title", "Retry amplification and in-flight calculator")
        no_console_errors(chrome, "language switch")

    # ---- retry storm -----------------------------------------------------------------
    def storm_matches_the_cli_for_every_preset():
        for lang in ["en", "zh"]:
            for p in presets:
                seed = 7
                page(f"?page=storm&lang={lang}&preset={p}&seed={seed}")
                wait_run(chrome)
                got = page_headlines(chrome)
                want = cli_report(lab, p, seed)
                for key, f in HEADLINE_FIELDS.items():
                    expect(key in got, f"{p}: headline {key} missing")
                    expect(got[key] == float(f(want)), f"{p} ({lang}): {key} page {got[key]} != CLI {f(want)}")
                # Byte for byte: the report the worker computed has the native report's digest.
                native = subprocess.run([lab, "run", "--preset", p, "--seed", str(seed), "--format", "digest"],
                                        check=True, capture_output=True, text=True).stdout.strip()
                in_page = chrome.js("return document.getElementById('storm').getAttribute('data-digest')")
                expect(in_page == native, f"{p}: the worker's report digest {in_page} != native {native}")
                expect(chrome.js("return document.getElementById('storm').getAttribute('data-in-worker')") == "1", "runs happen in the worker")
                # The cards say they add up the whole run, to the report's last event.
                span = chrome.text("#headline-span")
                end = want['summary']['end_ms'] / 1000
                end_s = f"{end:,.{2 if end < 10 else 1}f}".rstrip("0").rstrip(".")
                expect(f"0 – {end_s} s" in span, f"{p} ({lang}): the cards' span {span!r} names the run's end {end_s} s")
                # Show the end state for the screenshot.
                chrome.js("const s = document.getElementById('scrub'); s.value = 1000; s.dispatchEvent(new Event('input', {bubbles: true}));")
                chrome.full_screenshot(os.path.join(artifacts, f"storm-{p}-{lang}.png"), width=1400)
                chrome.cmd("POST", "/window/rect", {"width": 1280, "height": 900})
                no_console_errors(chrome, f"storm {p} ({lang})")

    def storm_playback_runs_to_the_end():
        page("?page=storm&lang=en&preset=lab11-unprotected")
        wait_run(chrome)
        chrome.js("const s = document.getElementById('speed'); s.value = '16'; s.dispatchEvent(new Event('change', {bubbles: true}));")
        chrome.js("const s = document.getElementById('scrub'); s.value = 0; s.dispatchEvent(new Event('input', {bubbles: true}));")
        expect(chrome.js("return Number(document.getElementById('storm').dataset.playhead)") == 0.0, "scrubbed to the start")
        # The arrows carry the calls per call made so far, not the policy's ×3 (the badges).
        arrows = "return ['ratio-a-0', 'ratio-a-1'].map(i => document.getElementById(i).childNodes[1].textContent)"
        expect(chrome.js(arrows) == ["×1", "×1"], f"at the start one call per call: {chrome.js(arrows)}")
        chrome.click("#play")
        deadline = time.time() + 20
        while time.time() < deadline:
            at, end = chrome.js("const e = document.getElementById('storm').dataset; return [Number(e.playhead), Number(e.end)];")
            if at >= end:
                break
            time.sleep(0.1)
        expect(at >= end and end > 0, f"playback reached {at} of {end}")
        expect(chrome.js(arrows) == ["×3", "×3"], f"at the end 300 of 100 and 900 of 300: {chrome.js(arrows)}")
        expect(chrome.text("#play") == "Play", "stopped at the end")
        no_console_errors(chrome, "playback")

    def storm_sliders_change_the_run():
        page("?page=storm&lang=en&preset=chain-3x3")
        run = wait_run(chrome)
        expect(chrome.js("return Number(document.getElementById('h-a-amplification').dataset.value)") == 27.0, "27x")
        # Every request takes 270 ms: its latency bar says so, not "up to 269.8 ms" (the
        # histogram's lowest value sits below the true one).
        bars = chrome.js("return [...document.querySelectorAll('#chart-latency rect.pick title')].map(t => t.textContent)")
        expect(bars and all(" up to 270 ms" in b for b in bars), f"the latency bar's bound is the requests' latency: {bars}")
        first = chrome.js("return document.getElementById('run-announce').textContent")
        expect(first.startswith("Run finished: Amplification 27×, Failed ") and ", Core success " in first and "Timeouts" not in first,
               f"the first run reads its three lead figures, in the cards' order: {first}")
        success = chrome.js("return document.getElementById('h-a-core_success_rate').dataset.value")
        expect(chrome.find("#story-as-loaded") is None, "the preset's story is not marked before a change")
        chrome.type("#k-l1-attempts", "4")
        wait_run(chrome, run)
        expect(chrome.js("return Number(document.getElementById('h-a-amplification').dataset.value)") == 36.0, "4 x 3 x 3")
        expect(chrome.find("#story-as-loaded") is not None, "after a change the story is marked as the preset's")
        # The live region then reads only what the move changed.
        said = chrome.js("return document.getElementById('run-announce').textContent")
        expect(said.startswith("Run finished, changed: Amplification 27× → 36×") and "Leaf attempts " in said, f"the change is read, its lead figures first: {said}")
        same = success == chrome.js("return document.getElementById('h-a-core_success_rate').dataset.value")
        expect(("Core success" in said) != same, f"core success is read only if it changed ({success}): {said}")
        expect("l1.attempts=4" in chrome.url(), f"the change is in the link: {chrome.url()}")
        no_console_errors(chrome, "slider change")

    def storm_pin_as_b_compares_against_the_learners_own_settings():
        # A practitioner compares 4 attempts at the entry against 2: pin one, change A.
        page("?page=storm&lang=en&preset=chain-3x3&l1.attempts=4")
        run = wait_run(chrome)
        chrome.click("#pin-b")
        run = wait_run(chrome, run)
        expect(chrome.find("#h-b-amplification") is not None, "pinning shows side B")
        title = chrome.text("#side-b-title")
        expect("settings you pinned" in title, f"side B is named as pinned: {title!r}")
        expect(chrome.js("return document.activeElement && document.activeElement.id") == "pin-b", "the focus stays on the button")
        chrome.type("#k-l1-attempts", "2")
        wait_run(chrome, run)
        amp = lambda side: chrome.js(f"return Number(document.getElementById('h-{side}-amplification').dataset.value)")
        expect((amp("a"), amp("b")) == (18.0, 36.0), f"A changed, B as pinned: {(amp('a'), amp('b'))}")
        chrome.click("#view-overlay")
        chrome.wait("#overlay-load")
        legend = chrome.text("#overlay-load")
        expect("B: your pinned settings" in legend and "A: your scenario · " in legend,
               f"the overlay names B as pinned and A, changed since, as yours: {legend!r}")
        chrome.click("#view-sides")
        link = chrome.url()
        expect("pin=" in link and "compare=1" in link, f"the link carries the pin: {link}")
        # The same link, loaded: the same two sides; the CLI's --versus runs the pinned B.
        page("?" + link.split("?", 1)[1])
        wait_run(chrome)
        expect((amp("a"), amp("b")) == (18.0, 36.0), f"reloaded: {(amp('a'), amp('b'))}")
        out = subprocess.run([lab, "run", "--link", link, "--versus", "--format", "json"], check=True, capture_output=True, text=True).stdout
        expect(json.loads(out)["summary"]["amplification"] == 36.0, "lab run --link … --versus runs the pinned side B")
        # Side A moved to another preset: B stays the settings pinned on chain-3x3 (it had
        # been swapped for the new preset's comparison without a word).
        run = wait_run(chrome)
        chrome.js("const s = document.getElementById('preset'); s.value = 'chain-3x4'; s.dispatchEvent(new Event('change', {bubbles: true}));")
        run = wait_run(chrome, run)
        title = chrome.text("#side-b-title")
        expect(amp("b") == 36.0 and "settings you pinned" in title and "3 layers × 3 attempts" in title,
               f"another preset keeps the pinned B: {amp('b')}, {title!r}")
        expect("preset=chain-3x4" in chrome.url() and "preset%3Dchain-3x3" in chrome.url(), f"and its link says whose: {chrome.url()}")
        chrome.click("#pin-b")
        for _ in range(100):
            if chrome.find("#h-b-amplification") is None:
                break
            time.sleep(0.05)
        expect("pin=" not in chrome.url() and "compare=1" not in chrome.url() and chrome.find("#h-b-amplification") is None,
               f"unpinned: side B goes with the pin: {chrome.url()}")
        no_console_errors(chrome, "pin as B")

    def storm_compare_shows_both_sides():
        page("?page=storm&lang=en&preset=bulkhead-shared-vs-isolated&seed=3")
        run = wait_run(chrome)
        chrome.click("#compare")
        wait_run(chrome, run)
        said = chrome.js("return document.getElementById('run-announce').textContent")
        expect("B Core success" in said and "no figure changed" not in said, f"side B's figures are read when it appears: {said!r}")
        b = page_headlines(chrome, "b")
        want_b = cli_report(lab, "bulkhead-shared-vs-isolated", 3, versus=True)
        expect(b.get("core_success_rate") == want_b["summary"]["core_success_rate"], f"side B matches the CLI's --versus: {b}")
        expect(chrome.find("#h-d-core_success_rate") is not None, "differences shown")
        title = chrome.text("#side-b-title")
        expect(title == "B: Bulkheads, isolated: recommendations 10 threads, order core 4", f"side B is named: {title!r}")
        span = chrome.text("#headline-span")
        want_a = cli_report(lab, "bulkhead-shared-vs-isolated", 3)
        for side, rep in [("A", want_a), ("B", want_b)]:
            end_s = f"{side} 0 – " + f"{rep['summary']['end_ms'] / 1000:,.1f}".rstrip("0").rstrip(".") + " s"
            expect(end_s in span, f"compare: the cards' span {span!r} names {end_s}")
        expect("compare=1" in chrome.url(), "compare is in the link")
        # The in-flight charts share their axes only when both show the same pool.
        same_pool = chrome.text("#inflight-a figcaption") == chrome.text("#inflight-b figcaption")
        for chart in ["load", "outcomes"] + (["inflight"] if same_pool else []):
            axes = chrome.js("return ['a', 'b'].map(s => { const f = document.getElementById(arguments[0] + '-' + s); "
                             "return f && [f.dataset.xEnd, f.dataset.yMax]; });", chart)
            expect(axes[0] is not None and axes[0] == axes[1], f"{chart}: A and B share their axes: {axes}")
            # And as drawn: the same tick labels at the same places on both charts' axes.
            drawn = chrome.js(
                "return ['a', 'b'].map(s => { const f = document.getElementById(arguments[0] + '-' + s);"
                " return f && Array.from(f.querySelectorAll('svg[role] .axis text'))"
                "  .map(t => [t.textContent, t.getAttribute('x'), t.getAttribute('y')].join('@')); });", chart)
            expect(drawn[0] and drawn[0] == drawn[1], f"{chart}: the drawn axes of A and B agree: {drawn}")
        expect(chrome.find("#chart-timeline-b") is not None and chrome.find("#chart-latency-b") is not None,
               "B's request timeline and latency distribution are drawn too")
        expect("degraded" in chrome.text("#h-note-core_success_rate"), "core success says it counts degraded answers")
        chrome.full_screenshot(os.path.join(artifacts, "storm-compare-en.png"), width=1400)
        chrome.click("#view-overlay")
        chrome.wait("#overlay")
        expect("overlay=1" in chrome.url(), f"the overlay view is in the link: {chrome.url()}")
        expect(chrome.find("#load-a") is None, "overlay replaces the side-by-side charts")
        legend = chrome.text("#overlay-load")
        expect("A:" in legend and "B:" in legend, f"both sides on one chart: {legend!r}")
        expect(f"{title} · " in legend, f"the legend names side B as its heading does ({title!r}): {legend!r}")
        expect("A: Bulkheads: shared vs isolated · " in legend,
               f"and side A by its preset, as its heading does, not 'your scenario': {legend!r}")
        # A solid, B dashed, in the same colour: each pair of series as the browser draws it.
        styles = chrome.js(
            "return ['overlay-load', 'overlay-outcomes', 'overlay-inflight'].map(id => Array.from("
            " document.querySelectorAll('#' + id + ' path.series')).map(p => { const c = getComputedStyle(p);"
            " return [c.stroke, c.strokeDasharray]; }));")
        for chart, paths in zip(["load", "outcomes", "in system"], styles):
            expect(len(paths) >= 2 and len(paths) % 2 == 0, f"overlay {chart}: A and B series drawn: {paths}")
            for a_, b_ in zip(paths[0::2], paths[1::2]):
                expect(a_[1] == "none" and b_[1] not in ("none", "") and a_[0] == b_[0],
                       f"overlay {chart}: A solid and B dashed in one colour: A {a_}, B {b_}")
        chrome.full_screenshot(os.path.join(artifacts, "storm-compare-overlay-en.png"), width=1400)
        chrome.click("#view-sides")
        chrome.wait("#load-b")
        # big-promo against its protected side: A's chart shows the shared pool (30,000 queued),
        # B's the order core's pool of 4; each keeps its own scale, or B's reads a flat 0.
        page("?page=storm&lang=en&preset=big-promo&compare=1")
        wait_run(chrome)
        chrome.wait("#inflight-b")
        tops = chrome.js("return ['a', 'b'].map(s => Number(document.getElementById('inflight-' + s).dataset.yMax));")
        expect(tops[1] < tops[0] / 100, f"big-promo compare: B's pool chart on its own scale: {tops}")
        # The metastable preset against its budget: B's run ends long before A's; with the
        # playhead past it, B's chain says it shows its last bucket (it read as still busy).
        page("?page=storm&lang=en&preset=metastable-retry-storm&compare=1")
        wait_run(chrome)
        chrome.wait("#diagram-b")
        # Each chain's caption leads with its side: stacked, side B's heading is off screen
        # while its drawing is not.
        lead = chrome.js("return ['a', 'b'].map(s => getComputedStyle(document.getElementById('diagram-title-' + s), '::before').content);")
        expect(lead == ['"A ·"', '"B ·"'], f"each chain's caption names its side: {lead}")
        chrome.js("const s = document.getElementById('scrub'); s.value = s.max; s.dispatchEvent(new Event('input', {bubbles: true}));")
        time.sleep(0.3)
        ended = chrome.js("return ['a', 'b'].map(s => { const e = document.getElementById('diagram-ended-' + s); return e && e.textContent; });")
        expect(ended[0] is None and ended[1] and ended[1].startswith("This run ended at"),
               f"past B's end, only B's chain says its run is over: {ended}")
        # At the end the playhead's label says the last event's time, as the caption does.
        last = float(chrome.js("return document.getElementById('headline-span').dataset.value")) / 1000
        label = chrome.text("#playhead-label")
        expect(label.endswith(f"{last:,.2f}".rstrip("0").rstrip(".") + " s"), f"the playhead at the end says {last} s: {label!r}")
        chrome.cmd("POST", "/window/rect", {"width": 1280, "height": 900})
        no_console_errors(chrome, "compare")

    def storm_share_link_round_trips():
        page("?page=storm&lang=zh&preset=metastable-retry-storm&seed=11")
        run = wait_run(chrome)
        chrome.click("#k-l1-budget")  # focus; choose via the select's value below
        chrome.js("const s = document.getElementById('k-l1-budget'); s.value = 'ratio'; s.dispatchEvent(new Event('change', {bubbles: true}));")
        run = wait_run(chrome, run)
        chrome.click("#all-knobs")  # the leaf's workers are not one of this lesson's knobs
        chrome.type("#k-leaf-workers", "6")
        wait_run(chrome, run)
        link = chrome.url()
        before = page_headlines(chrome)
        expect("l1.budget=ratio" in link and "leaf.workers=6" in link and "seed=11" in link, link)
        chrome.get("about:blank")
        chrome.get(link)
        wait_run(chrome)
        expect(page_headlines(chrome) == before, "the link reproduces the run")
        expect(chrome.js("return document.getElementById('k-leaf-workers').value") == "6", "and the controls")
        expect(chrome.js("return document.documentElement.lang") == "zh-CN", "and the language")
        no_console_errors(chrome, "share link")

    def storm_bad_link_names_the_field():
        page("?page=storm&lang=en&preset=chain-3x3&l1.attempts=99&l2.attempts=4")
        wait_run(chrome)
        err = chrome.text("#k-l1-attempts-error")
        expect("l1.attempts" in err and "99" in err and "10" in err, f"error names field, value and range: {err!r}")
        expect(chrome.js("return Number(document.getElementById('h-a-amplification').dataset.value)") == 36.0,
               "only the bad field fell back: 3 x 4 x 3")
        chrome.full_screenshot(os.path.join(artifacts, "storm-bad-link-en.png"), width=1400)
        chrome.cmd("POST", "/window/rect", {"width": 1280, "height": 900})
        # A rule that is not a range is said in the page's language (4xx + 5xx above 1).
        page("?page=storm&lang=zh&preset=big-promo&leaf.error=0.8&leaf.client_error=0.5")
        wait_run(chrome)
        err = chrome.text("#k-leaf-client_error-error")
        expect("0.5" in err and "之和不得超过 1" in err and "must not" not in err, f"the rule in Chinese: {err!r}")
        no_console_errors(chrome, "bad link")

    def storm_too_much_work_is_refused_with_a_message():
        page("?page=storm&lang=zh&preset=chain-3x4&rate=100000&duration=600000")
        msg = chrome.text("#run-error")
        expect("调用" in msg and "20,000,000" in msg, f"a clear message: {msg!r}")
        # The estimate without the float's noise, and a batch's own settings to lower.
        page("?page=storm&lang=en&preset=recommendation-500rps&rate=10000000&duration=1000000000")
        msg = chrome.text("#run-error")
        expect(re.search(r"up to \d{1,3}(,000)+ calls", msg) and "duration" in msg, f"a round estimate: {msg!r}")
        page("?page=storm&lang=en&preset=lab11-unprotected&requests=2000000")
        msg = chrome.text("#run-error")
        expect("number of requests" in msg and "duration" not in msg, f"a batch names its requests: {msg!r}")
        no_console_errors(chrome, "too much work")

    def storm_pressed_controls_keep_the_focus():
        # Enter on a control that changes the panel leaves the focus on it, or on what took
        # its place: "+" of the fault windows moved it to layer 1's side dependencies (a
        # second Enter added one), the knob views' buttons and a "−" at its bound dropped it.
        def enter_on(id_):
            chrome.js("document.getElementById(arguments[0]).focus();", id_)
            chrome.press("\ue007")
            time.sleep(0.4)
            return chrome.js("return document.activeElement && document.activeElement.id;")
        page("?page=storm&lang=en&preset=chain-3x3&knobs=all")
        wait_run(chrome)
        got = enter_on("faults-plus")
        expect(got == "faults-plus" and "l1.sides" not in chrome.url(), f"+ of the fault windows keeps the focus: {got} ({chrome.url()})")
        page("?page=storm&lang=en&preset=chain-3x3&knobs=all&layers=2")
        wait_run(chrome)
        got = enter_on("layers-minus")
        expect(got == "layers-plus", f"− at its bound hands the focus to +: {got}")
        page("?page=storm&lang=en&preset=lab11-unprotected")
        wait_run(chrome)
        got = enter_on("all-knobs")
        expect(got == "lesson-only", f"All knobs hands the focus to its counterpart: {got}")
        got = enter_on("lesson-only")
        expect(got == "all-knobs", f"and back: {got}")

    def storm_speed_survives_a_reload():
        # The viewer's playback speed is kept for the tab (it went back to 1× on a reload).
        page("?page=storm&lang=en&preset=chain-3x3")
        wait_run(chrome)
        chrome.js("const s = document.getElementById('speed'); s.value = '0.5'; s.dispatchEvent(new Event('change', {bubbles: true}));")
        time.sleep(0.2)
        chrome.refresh()
        wait_run(chrome)
        got = chrome.js("return document.getElementById('speed').value;")
        chrome.js("const s = document.getElementById('speed'); s.value = '1'; s.dispatchEvent(new Event('change', {bubbles: true}));")
        expect(got == "0.5", f"the speed kept through a reload: {got}")

    def storm_slider_move_leaves_the_document_alone():
        # A slider move changes the run and the link, not the document's language or title:
        # setting `lang` on <html>, even to its own value, restyles the whole page (≈ 15 ms).
        page("?page=storm&lang=en&preset=chain-3x3&knobs=all")
        run = wait_run(chrome)
        chrome.js("window.__rootMut = []; new MutationObserver(l => { for (const m of l) window.__rootMut.push(m.attributeName || m.type); })"
                  ".observe(document.documentElement, {attributes: true});"
                  "new MutationObserver(l => window.__rootMut.push('title')).observe(document.querySelector('title'), {childList: true, characterData: true, subtree: true});")
        chrome.js("const s = document.getElementById('k-l1-attempts-slider'); s.value = 0;"
                  "s.dispatchEvent(new Event('input', {bubbles: true}));")
        wait_run(chrome, run)
        touched = chrome.js("return window.__rootMut;")
        expect(touched == [], f"the root element and the title untouched by a slider move: {touched}")
        expect("l1.attempts=1" in chrome.url(), f"the link follows the move: {chrome.url()}")

    def storm_slider_move_redraws_the_panel_alone_until_its_run_is_in():
        # Until the new run is in, the figures, the diagram and the formulas go on showing
        # the run they came from (the diagram had drawn the new tries over the old figures,
        # redrawing the whole column twice), and the "Simulating…" line floats over them
        # instead of pushing them down and back up.
        # The worker's reply is held back while the page is looked at: a quick run had
        # come back before the look five times in a row on a fast machine.
        held = chrome.hold_worker_replies(False)
        try:
            page("?page=storm&lang=en&preset=chain-3x4&knobs=all")
            run = wait_run(chrome)
            chrome.js("const b = document.getElementById('play'); if (b.dataset.playing === 'true') b.click();")
            got = chrome.js_async("""
const done = arguments[arguments.length - 1];
const main = document.querySelector('.storm-main'), storm = document.getElementById('storm');
const top = () => Math.round(document.getElementById('headline').getBoundingClientRect().top);
const before = {top: top(), run: storm.dataset.run, badge: document.getElementById('diagram-a').textContent};
const seen = new MutationObserver(() => {}); seen.observe(main, {subtree: true, childList: true, attributes: true, characterData: true});
window.__hold = true;
const s = document.getElementById('k-l1-attempts-slider'); s.value = s.value === '0' ? 3 : 0;
s.dispatchEvent(new Event('input', {bubbles: true}));
// The look waits for the worker's reply, held, so it is the moment just before the run is in
// (a slow machine's reply had not come back one task later).
const t0 = performance.now();
const look = () => {
  if (window.__held.length === 0 && performance.now() - t0 < 5000) { setTimeout(look, 5); return; }
  const recs = seen.takeRecords(); seen.disconnect();
  const where = n => { const e = n.nodeType === 1 ? n : n.parentElement; return e.closest('.progress') ? 'progress' : (e.id || e.className.baseVal || e.className || e.tagName); };
  const outside = recs.filter(r => !(r.type === 'childList' && [...r.addedNodes, ...r.removedNodes].every(n => n.nodeType === 1 && n.classList.contains('progress'))) && where(r.target) !== 'progress').map(r => r.type + ' ' + where(r.target));
  const p = main.querySelector('.progress');
  const got = {outside, top: top(), before, progress: p ? getComputedStyle(p).position : null,
               over: p ? p.offsetParent === main : null, badge: document.getElementById('diagram-a').textContent};
  requestAnimationFrame(() => setTimeout(() => done({...got, run: storm.dataset.run, held: window.__held.length}), 0));
};
setTimeout(look, 0);""")
            expect(got["held"] > 0, f"the run's reply was held back: {got['held']}")
            chrome.js("window.__release(); return true;")
        finally:
            chrome.release_worker_script(held)
        expect(got["run"] == got["before"]["run"], f"the page looked at before the run came back: {got}")
        expect(got["outside"] == [], f"nothing but the progress line changed under the figures before the run came: {got['outside'][:8]}")
        expect(got["badge"] == got["before"]["badge"], f"the diagram still shows the run on screen: {got['badge']!r}")
        expect(got["progress"] == "absolute" and got["over"], f"the progress line floats over the figures: {got['progress']}, {got['over']}")
        expect(got["top"] == got["before"]["top"], f"the figures kept their place: {got['before']['top']} -> {got['top']}")
        run = wait_run(chrome, run)
        after = chrome.js("return document.getElementById('diagram-a').textContent")
        expect(after != got["before"]["badge"], f"the run in, the diagram shows its tries: {got['before']['badge']!r} -> {after!r}")
        # On a phone or tablet too the line floats over the figures, not over the header.
        chrome.viewport(390, 844)
        try:
            pos = chrome.js("return getComputedStyle(document.querySelector('.storm-main')).position")
            expect(pos == "relative", f"the figures' column holds the floating line at 390 px: {pos}")
        finally:
            chrome.cmd("POST", "/window/rect", {"width": 1280, "height": 900})
        no_console_errors(chrome, "panel-only redraw")

    def storm_redraw_latency_per_preset():
        def measure(p):
            page(f"?page=storm&lang=en&preset={p}&knobs=all")
            run = wait_run(chrome)
            chrome.js("const b = document.getElementById('play'); if (b.dataset.playing === 'true') b.click();")
            samples, run_ms = [], []
            # Alternate between the preset's position and 1 attempt (or 2, if it has 1), so
            # that every move changes the scenario.
            start_pos = chrome.js("return Number(document.getElementById('k-l1-attempts-slider').value)")
            other = 0 if start_pos > 0 else 111
            for i in range(6):
                pos = other if i % 2 == 0 else start_pos
                chrome.js(
                    "const s = document.getElementById('k-l1-attempts-slider'); s.value = arguments[0];"
                    "s.dispatchEvent(new Event('input', {bubbles: true}));", pos)
                run = wait_run(chrome, run)
                samples.append(float(chrome.js("return document.getElementById('storm').dataset.redrawMs")))
                run_ms.append(float(chrome.js("return document.getElementById('storm').dataset.runMs")))
            samples.sort()
            run_ms.sort()
            median, run_median = samples[len(samples) // 2], run_ms[len(run_ms) // 2]
            expect(0.0 < run_median <= median, f"{p}: the run ({run_median} ms) is part of the redraw ({median} ms)")
            measurements.setdefault("redraw_ms", {})[p] = {"median": median, "max": samples[-1], "samples": samples,
                                                           "run_median": run_median, "run_samples": run_ms}
            print(f"     {p}: rerun + redraw median {median:.1f} ms, max {samples[-1]:.1f} ms; "
                  f"of it the run in the worker {run_median:.1f} ms")
            return median

        medians = {p: measure(p) for p in presets}
        # A preset over the bound is measured once again and the second measure decides, as
        # the heavy links are: on this 2-core VM a busy minute made every preset 2-3x slower,
        # its run in the worker too, which no page code touches (big-promo's 35 -> 86 ms).
        # A page that is slow stays slow the second time.
        again = [p for p, m in medians.items() if m > 100.0]
        for p in again:
            print(f"     {p}: over 100 ms, measured once again")
            medians[p] = measure(p)
        measurements["redraw_measured_again"] = again
        worst = max(medians.values())
        measurements["redraw_ms_worst_median"] = worst
        expect(worst <= 100.0, f"rerun + redraw took {worst:.1f} ms (median) on the slowest preset")
        no_console_errors(chrome, "redraw timing")

    def storm_diagram_points_at_the_shared_pool():
        page("?page=storm&lang=en&preset=big-promo")
        wait_run(chrome)
        chrome.js("const s = document.getElementById('scrub'); s.value = 300; s.dispatchEvent(new Event('input', {bubbles: true}));")
        pools = chrome.js("return Array.from(document.querySelectorAll('.diagram g.pool')).map(g => [g.id, g.dataset.size, Number(g.dataset.busy), Number(g.dataset.queue), g.textContent]);")
        expect(len(pools) == 1, f"one shared pool drawn: {pools}")
        _, size, busy, queue, text = pools[0]
        expect(size == "8" and busy == 8 and queue > 1000, f"the pool of 8 is full with a long queue at the playhead: {pools[0]}")
        expect(f"{queue:,}" in text, f"the queue length is written in the pool: {text!r}")
        # An arrow from the pool to every call that takes a worker from it: product's calls
        # to its next hop and to recommendations (`lab show --preset big-promo`).
        shown = json.loads(subprocess.run([lab, "show", "--preset", "big-promo"], check=True, capture_output=True,
                                          text=True).stdout)
        users = sum(1 for layer in shown["layers"] for c in [layer["client"]] + [d["client"] for d in layer.get("side_deps", [])]
                    if c.get("use_shared_pool"))
        arrows = chrome.js("return document.querySelectorAll('#diagram-a .pool-link').length")
        expect(users == 2 and arrows == users, f"one arrow per call path that uses the pool: {arrows} of {users}")
        # A hop's own worker pool and queue against their real limits.
        page("?page=storm&lang=en&preset=chain-3x3&leaf.workers=4&leaf.queue=10")
        wait_run(chrome)
        chrome.js("const s = document.getElementById('scrub'); s.value = 300; s.dispatchEvent(new Event('input', {bubbles: true}));")
        busy = chrome.text("#hop-busy-a-3")
        expect(re.search(r"busy \d+/4 · queue \d+/10", busy) is not None, f"the leaf's 4 workers and queue of 10: {busy!r}")
        expect(chrome.find("#hop-a-3 .queue-bar") is not None, "the queue's fill is drawn")
        page("?page=storm&lang=en&preset=chain-3x3&leaf.workers=4")
        wait_run(chrome)
        expect("queue" in chrome.text("#hop-busy-a-3") and "/∞" in chrome.text("#hop-busy-a-3"),
               f"an unbounded queue says so: {chrome.text('#hop-busy-a-3')!r}")
        no_console_errors(chrome, "big-promo diagram")

    def storm_layers_from_the_page():
        page("?page=storm&lang=en&preset=chain-3x3&layers=5")
        run = wait_run(chrome)
        expect(chrome.js("return Number(document.getElementById('h-a-amplification').dataset.value)") == 243.0, "3^5 = 243")
        bound = chrome.text("#formula-bound")
        expect("3 × 3 × 3 × 3 × 3" in bound and "243" in bound.replace(",", ""),
               f"the closed form follows the shape: {bound!r}")
        five = chrome.js("return document.getElementById('storm').getAttribute('data-digest')")
        # The same link through the command line: the same run, byte for byte.
        native = subprocess.run([lab, "run", "--link", "?page=storm&preset=chain-3x3&layers=5", "--format", "digest"],
                                check=True, capture_output=True, text=True).stdout.strip()
        expect(five == native, f"layers=5: the page's digest {five} equals lab run --link's {native}")
        chrome.click("#layers-minus")
        run = wait_run(chrome, run)
        expect(chrome.js("return Number(document.getElementById('h-a-amplification').dataset.value)") == 81.0, "3^4 = 81")
        expect("layers=4" in chrome.url(), f"the shape is in the link: {chrome.url()}")
        chrome.click("#layers-plus")
        wait_run(chrome, run)
        expect(chrome.js("return document.getElementById('storm').getAttribute('data-digest')") == five,
               "removing a layer and adding it back gives the same run")
        no_console_errors(chrome, "layers stepper")

        # Requests all at once (lab 11, a deadline cutting the calls): the panel counts per
        # request and takes no rate, whose value would be the bucket width's.
        page("?page=storm&lang=en&preset=lab11-unprotected&l1.attempts=4&l2.attempts=4&l1.deadline=250")
        wait_run(chrome)
        per = chrome.js("""return [document.getElementById('formula-bound').textContent, !!document.getElementById('formula-sim-peak'),
            !!document.getElementById('formula-little'), Number(document.getElementById('formula-sim-per-request').textContent),
            Number(document.getElementById('h-a-amplification').dataset.value)];""")
        expect(per[0].startswith("4 × 4 = 16") and not per[1] and not per[2] and abs(per[3] - per[4]) < 0.01,
               f"batch load: 16 per request, simulated per request = amplification, no rate and no Little's law: {per}")
        # The deadline stops the retries: the arrows say how many calls per call got through,
        # the policy's 4 is in the badge and the tooltip.
        chrome.js("const s = document.getElementById('scrub'); s.value = 1000; s.dispatchEvent(new Event('input', {bubbles: true}));")
        ratios = chrome.js("""return ['ratio-a-0', 'ratio-a-1'].map(i => { const e = document.getElementById(i);
            return [e.childNodes[1].textContent, e.querySelector('title').textContent]; })""")
        expect(all(r[0] != "×4" and "up to 4 times" in r[1] for r in ratios), f"a deadline keeps the arrows under the policy's ×4: {ratios}")

    def storm_slo_and_error_budget():
        for p, met in [("big-promo", "false"), ("big-promo-protected", "true")]:
            page(f"?page=storm&lang=en&preset={p}&seed=7&knobs=all")
            run = wait_run(chrome)
            want = cli_report(lab, p, 7)["summary"]
            allowed = (want["original_requests"] - want["admission_rejected"]) * (1 - 0.999)
            got = chrome.js("return Number(document.getElementById('h-a-error_budget_spent').dataset.value)")
            expect(abs(got - want["failed"] / allowed) <= 1e-9 * max(1.0, got), f"{p}: budget spent {got} != failed/allowed")
            expect(chrome.js("return document.getElementById('slo-status-a').dataset.met") == met, f"{p}: SLO met = {met}")
            expect(chrome.js("return document.querySelectorAll('#outcomes-a path.c-slo').length") == 1, f"{p}: the target line is drawn")
            expect(chrome.js("return document.querySelectorAll('#error-budget-a .limit line').length") == 1, f"{p}: the budget's 100 % line")
            # A budget spent many times over: the scale stops at 400 % and a note gives the peak.
            off = chrome.js("const e = document.getElementById('error-budget-off-scale-a'); return e && Number(e.dataset.value);")
            ticks = chrome.js("return Array.from(document.querySelectorAll('#error-budget-a text')).map(t => Number(t.textContent.replace(/,/g, ''))).filter(v => !isNaN(v));")
            expect(max(ticks) <= 400, f"{p}: the error budget's scale stops at 400 %: {ticks}")
            expect((off is not None and off >= 100 * got - 1e-6) if got > 4 else off is None,
                   f"{p}: spent {100 * got:.0f} %, off-scale note {off}")
            apart = chrome.js("const e = document.getElementById('slo-apart'); return e && e.textContent;")
            if want["admission_rejected"]:
                expect(apart and f"{want['admission_rejected']:,}" in apart and "429" in apart,
                       f"{p}: the SLO line says the {want['admission_rejected']} refused at admission are counted apart: {apart}")
            else:
                expect(apart is None, f"{p}: nothing refused at admission, no note: {apart}")
        # Moving the objective redraws without a rerun: the objective judges the run.
        chrome.js("const i = document.getElementById('k-slo'); i.value = '50'; i.dispatchEvent(new Event('change', {bubbles: true}));")
        half = (want["original_requests"] - want["admission_rejected"]) * 0.5
        admitted = want["original_requests"] - want["admission_rejected"]
        chrome.wait_text("#slo-status-a", f"SLO 50 % met: {want['failed']} failed of {half:,.0f} allowed (50 % of {admitted:,} admitted)")
        time.sleep(0.3)
        expect(chrome.js("return document.getElementById('storm').getAttribute('data-run')") == run, "no rerun for the SLO")
        expect("slo=50" in chrome.url(), f"the objective is in the link: {chrome.url()}")
        no_console_errors(chrome, "SLO")

    def storm_hops_open_their_labs():
        for preset, kind, hop, wait_css in [("big-promo-protected", "admission", 0, "#admission"),
                                            ("breaker-demo", "breaker", "c0", "#breaker-passed[data-value]"),
                                            ("big-promo-protected", "breaker", "c2", "#breaker-passed[data-value]"),
                                            ("metastable-retry-storm", "queue", 1, "#q-rho-sim[data-value]")]:
            page(f"?page=storm&lang=zh&preset={preset}")
            wait_run(chrome)
            links = chrome.js("return Array.from(document.querySelectorAll('#storm .lab-link')).map(a => a.id);")
            want = f"lab-link-a-{hop}-{kind}"
            expect(want in links, f"{preset}: a link to the {kind} lab from hop {hop}: {links}")
            chrome.click(f"#{want}")
            chrome.wait(wait_css, timeout=20)
            expect(f"page={kind}" in chrome.url(), f"the lab opened: {chrome.url()}")
            expect(chrome.js("return document.documentElement.lang").startswith("zh"), "the language carries over")
            # It says whose settings it shows, in place of the preset's story, and its
            # preset list has them selected; picking a preset leaves them.
            origin = chrome.text("#lab-origin")
            expect(origin.startswith("从重试风暴页打开") and "from=" in chrome.url(),
                   f"{preset} → {kind}: the lab names where its settings came from: {origin} ({chrome.url()})")
            if preset == "breaker-demo":
                # The demo's inventory is down from 3 to 8 s of a 15 s load: the lab's phases.
                expect("phase_ms=3000,5000,7000" in chrome.url() and "phase_fail=1,100,1" in chrome.url(),
                       f"the breaker lab replays the storm's outage: {chrome.url()}")
            select = "#f-preset" if kind == "breaker" else "#preset"
            expect(chrome.js(f"return document.querySelector('{select}').value") == "",
                   f"{preset} → {kind}: the storm's settings, not a preset, are selected")
            chrome.js(f"const s = document.querySelector('{select}'); s.value = 'source-002'; s.dispatchEvent(new Event('change', {{bubbles: true}}));")
            chrome.wait("#preset-story")
            time.sleep(0.3)
            expect(not chrome.js("return !!document.getElementById('lab-origin')") and "from=" not in chrome.url(),
                   f"{preset} → {kind}: a preset picked leaves the storm's settings: {chrome.url()}")
            no_console_errors(chrome, f"{preset} → {kind} lab")
        # A badge opens its lab too (a mouse's way in).
        page("?page=storm&lang=en&preset=breaker-demo")
        wait_run(chrome)
        chrome.js("document.querySelector('#hop-a-0 g.badge.b-breaker').dispatchEvent(new MouseEvent('click', {bubbles: true}))")
        chrome.wait("#breaker-passed[data-value]", timeout=20)
        expect("page=breaker" in chrome.url(), f"the breaker badge opened the lab: {chrome.url()}")
        # The preset list shows whose settings these are: the call's name whole, on a laptop
        # and a phone (a select cannot wrap; the long English lead had cut the name off).
        page("?page=storm&lang=en&preset=big-promo-protected")
        wait_run(chrome)
        chrome.click("#lab-link-a-c2-breaker")
        chrome.wait("#breaker-passed[data-value]", timeout=20)
        for width in [1280, 390]:
            chrome.viewport(width, 844)
            fit = chrome.js("""const s = document.getElementById('f-preset'), cs = getComputedStyle(s);
                const ctx = document.createElement('canvas').getContext('2d'); ctx.font = cs.font;
                const text = s.options[s.selectedIndex].text, name = 'product → recommendations';
                // Less the padding and the arrow's room (about 1.5 em). On a phone the
                // tail saying where it came from may be cut: the story under it says so.
                const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 1.5 * parseFloat(cs.fontSize);
                return [text, text.startsWith(name), Math.ceil(ctx.measureText(name).width), Math.floor(room)];""")
            expect(fit[1] and fit[2] <= fit[3], f"at {width} px the origin's option shows the call whole: {fit}")
        chrome.viewport(1280, 900)
        page("?page=storm&lang=en&preset=big-promo-protected")
        wait_run(chrome)
        chrome.js("document.querySelector('#hop-a-0 g.badge.b-admission').dispatchEvent(new MouseEvent('click', {bubbles: true}))")
        chrome.wait("#admission", timeout=20)
        expect("page=admission" in chrome.url(), f"the admission badge opened the lab: {chrome.url()}")
        # A hop's worker pool line opens the queue lab with that pool.
        page("?page=storm&lang=en&preset=metastable-retry-storm")
        wait_run(chrome)
        chrome.js("document.getElementById('hop-busy-a-1').dispatchEvent(new MouseEvent('click', {bubbles: true}))")
        chrome.wait("#q-rho-sim[data-value]", timeout=30)
        expect("page=queue" in chrome.url() and "workers=5" in chrome.url(), f"the worker pool opened the queue lab: {chrome.url()}")
        # At the server's rate before the trigger (the preset's 450/s), not the run's mean,
        # which counts the storm's retries.
        rate = float(chrome.url().split("rate=")[1].split("&")[0])
        expect(440 <= rate <= 460, f"at the load the server sees before its fault: {chrome.url()}")

    def storm_lesson_knobs_first():
        page("?page=storm&lang=en&preset=chain-3x3")
        wait_run(chrome)
        shown = chrome.js("return Array.from(document.querySelectorAll('#lesson-knobs .control')).map(c => c.id || (c.querySelector('input,select') || {}).id);")
        expect(len(shown) == 5, f"layers and four knobs in the lesson view: {shown}")
        expect(chrome.js("return document.querySelectorAll('details.target').length") == 0, "the other controls wait behind 'All knobs'")
        chrome.click("#all-knobs")
        chrome.wait("details.target")
        expect("knobs=all" in chrome.url(), f"the choice is in the link: {chrome.url()}")
        chrome.click("#lesson-only")
        chrome.wait("#lesson-knobs")
        # A link's change outside the lesson stays visible, and so does a refused value.
        page("?page=storm&lang=en&preset=chain-3x3&l1.deadline=500&leaf.ms=-4")
        wait_run(chrome)
        expect(chrome.js("return !!document.querySelector('#lesson-knobs #k-l1-deadline')"), "a changed knob joins the lesson view")
        expect(chrome.js("return !!document.querySelector('#lesson-knobs .field-error')"), "a refused value shows its error")
        no_console_errors(chrome, "lesson knobs")

    def storm_breaker_badge_says_why():
        page("?page=storm&lang=en&preset=breaker-demo")
        wait_run(chrome)
        chrome.js("const s = document.getElementById('scrub'); s.value = 0; s.dispatchEvent(new Event('input', {bubbles: true}));")
        state = chrome.js("return document.getElementById('breaker-a-0').textContent")
        rule = chrome.js("return document.getElementById('breaker-rule-a-0').textContent")
        expect(state == "CLOSED · opens at ≥ 50 % failed", f"closed, with the rule it opens by: {state!r}")
        expect(re.match(r"window \d+ calls \(min \d+\) · [\d.]+ % failed$", rule), f"the window it judges: {rule!r}")
        seen = None
        for v in range(0, 1001, 10):
            chrome.js("const s = document.getElementById('scrub'); s.value = arguments[0]; s.dispatchEvent(new Event('input', {bubbles: true}));", v)
            seen = chrome.js("const t = document.getElementById('breaker-a-0'); return t && t.classList.contains('open') ? t.textContent : null;")
            if seen:
                break
        expect(seen is not None and "s to a probe" in seen, f"an open breaker says when it probes: {seen!r}")
        rule = chrome.js("return document.getElementById('breaker-rule-a-0').textContent")
        m = re.match(r"opened on (\d+) calls, ([\d.]+) % failed ≥ 50 %", rule)
        expect(m and float(m.group(2)) >= 50, f"it says what it opened on: {rule!r}")
        # Drawn over the boxes, not under them: the texts are the topmost element where they are.
        hidden = chrome.js(
            "document.getElementById('breaker-rule-a-0').scrollIntoView({block: 'center'});"
            "const t = document.getElementById('breaker-rule-a-0').getBoundingClientRect();"
            "const e = document.elementFromPoint(t.left + 4, t.top + t.height / 2);"
            "return e && e.closest('.breaker-lines') ? null : (e ? e.tagName + '.' + e.getAttribute('class') : 'nothing');")
        expect(hidden is None, f"the breaker's text is on top: {hidden}")
        # At the moments of its moves (the promo with protections half-opens and reopens
        # within one 500 ms bucket): the state and the tally of each move, from the CLI's.
        want = cli_report(lab, "big-promo-protected", 1)
        moves = [t for t in want["breaker_transitions"] if t["instance"] == 0]
        half, reopened = moves[1], moves[2]
        page("?page=storm&lang=en&preset=big-promo-protected")
        wait_run(chrome)
        end = chrome.js("return Number(document.getElementById('storm').dataset.end)")
        def lines_at(ms):
            chrome.js("const s = document.getElementById('scrub'); s.value = arguments[0]; s.dispatchEvent(new Event('input', {bubbles: true}));",
                      round(ms / end * 1000))
            at = chrome.js("return Number(document.getElementById('storm').dataset.playhead)")
            return at, [chrome.js(f"return document.getElementById('breaker{k}-a-{half['client']}').textContent") for k in ["", "-rule"]]
        at, got = lines_at((half["t_ms"] + reopened["t_ms"]) / 2)
        expect(half["t_ms"] <= at < reopened["t_ms"] and got == ["HALF-OPEN", "probing: 3 trial calls decide"],
               f"half-open from {half['t_ms']} to {reopened['t_ms']} ms: {got} at {at} ms")
        at, got = lines_at(reopened["t_ms"] + 40)
        d = reopened["decided"]
        expect(at >= reopened["t_ms"] and got[1] == f"reopened: {d['calls']} probes, {100 * d['failures'] // d['calls']} % failed",
               f"reopened at {reopened['t_ms']} ms, on its {d}: {got} at {at} ms")
        no_console_errors(chrome, "breaker badge")

    def storm_no_clipped_labels():
        # Every label of every figure lies inside its drawing (an SVG clips what overflows),
        # at a laptop's width and on a phone, in both languages.
        clipped_js = (
            "const out = []; for (const svg of document.querySelectorAll('#storm svg[role]')) {"
            " const b = svg.getBoundingClientRect(); if (b.width === 0) continue;"
            " for (const t of svg.querySelectorAll('text')) { const r = t.getBoundingClientRect();"
            "  if (r.width === 0) continue;"
            "  if (r.left < b.left - 1 || r.right > b.right + 1 || r.top < b.top - 1 || r.bottom > b.bottom + 1)"
            "   out.push((svg.closest('figure') || svg).id + ': ' + t.textContent.slice(0, 40)); } } return out;")
        def product_names_its_call(w, lang, with_bulkhead):
            # product calls order-core on the main path and recommendations at its side: its
            # badges are the call to order-core's, and a line says so, clear of the others and
            # inside the box; with protections, above that call's bulkhead line.
            product = chrome.js("""const g = document.getElementById('hop-a-1'), line = g.querySelector('.called-by');
                const bulkhead = g.querySelector(':scope > text.pool-text:not(.called-by)');
                const box = g.querySelector(':scope > rect').getBoundingClientRect();
                const boxes = [...g.querySelectorAll(':scope > text, :scope > g.badge')].map(t => t.getBoundingClientRect());
                let overlaps = 0; boxes.forEach((r, i) => boxes.slice(i + 1).forEach(q => {
                    if (r.left < q.right - 1 && q.left < r.right - 1 && r.top < q.bottom - 2 && q.top < r.bottom - 2) overlaps++; }));
                const outside = boxes.filter(r => r.bottom > box.bottom + 1 || r.right > box.right + 1).length;
                return [line && line.textContent, document.querySelector('#hop-a-2 .hop-name').textContent, overlaps, outside,
                        bulkhead && bulkhead.textContent, !!(line && bulkhead && line.getBoundingClientRect().bottom <= bulkhead.getBoundingClientRect().top + 2)];""")
            said, callee = product[0] or "", product[1]
            want = f"calls {callee} with:" if lang == "en" else f"调用{callee}时："
            expect(said == want and product[2:4] == [0, 0], f"{w} px ({lang}): product's badges say which call they are: {product}")
            if with_bulkhead:
                expect(product[4] and product[4].startswith("bulkhead" if lang == "en" else "舱壁") and product[5],
                       f"{w} px ({lang}): the call's bulkhead line under it: {product}")

        def leaf_text_overlaps(w):
            leaf = chrome.js("""const name = document.querySelector('#hop-a-3 .hop-name'), fault = document.getElementById('fault-now-a-3');
                const boxes = [...document.querySelectorAll('#hop-a-3 > text')].map(t => [t.getAttribute('class'), t.getBoundingClientRect()]);
                const overlaps = []; boxes.forEach(([a, r], i) => boxes.slice(i + 1).forEach(([b, q]) => {
                    if (r.left < q.right - 1 && q.left < r.right - 1 && r.top < q.bottom - 2 && q.top < r.bottom - 2) overlaps.push(a + ' / ' + b); }));
                return [name.textContent, name.getAttribute('textLength'), fault && fault.textContent, overlaps];""")
            expect(leaf[0] == "recommendations" and leaf[2] and "slower" in leaf[2], f"the leaf and its fault at 20 s: {leaf}")
            expect(not leaf[3], f"{w} px: no two lines of the leaf's box over each other: {leaf}")
            # A phone's box is too narrow for the name alone; a laptop's holds it whole.
            expect(w < 1000 or leaf[1] is None, f"{w} px: the leaf's name unsqueezed: {leaf}")
            product_names_its_call(w, "en", False)

        # Each text a service's box holds (its name, calls, workers, and the breaker's two
        # lines drawn in the caller's box) ends inside that box.
        overrun_js = (
            "const out = []; const boxes = [...document.querySelectorAll('#storm g.hop > rect')].map(r => r.getBoundingClientRect());"
            "const texts = [...document.querySelectorAll('#storm g.hop > text, #storm .breaker-lines text[text-anchor=start]')];"
            "for (const t of texts) { const r = t.getBoundingClientRect(); if (r.width === 0) continue;"
            " const box = boxes.find(b => r.left >= b.left - 1 && r.left <= b.right && r.top + r.height / 2 >= b.top && r.top + r.height / 2 <= b.bottom);"
            " if (box && r.right > box.right + 1) out.push((t.id || t.getAttribute('class')) + ': ' + t.textContent.slice(0, 40) + ' by ' + Math.round(r.right - box.right) + ' px'); }"
            "return out;")
        try:
            for w, h in [(1440, 900), (390, 844)]:
                chrome.viewport(w, h)
                for query in ["preset=big-promo-protected", "preset=breaker-demo", "preset=lab11-unprotected&compare=1"]:
                    for lang in ["en", "zh"]:
                        page(f"?page=storm&lang={lang}&{query}&knobs=all")
                        wait_run(chrome)
                        clipped = chrome.js(clipped_js)
                        expect(not clipped, f"{query} ({lang}, {w} px): labels cut at their figure's edge: {clipped[:6]}")
                        overrun = chrome.js(overrun_js)
                        expect(not overrun, f"{query} ({lang}, {w} px): a diagram's text runs over its box: {overrun[:6]}")
                        if query == "preset=big-promo-protected":
                            product_names_its_call(w, lang, True)
                        if "compare" in query and w == 1440:
                            # A laptop shows both chains whole (in half its width they scrolled).
                            fits = chrome.js("return ['a', 'b'].map(s => { const f = document.getElementById('diagram-' + s);"
                                             " return f && f.scrollWidth <= f.clientWidth + 1; });")
                            expect(fits == [True, True], f"compare ({lang}, 1440 px): each chain diagram fits its width: {fits}")
            # A narrow box: a long name and the fault in force both legible, the fault moved
            # to a line with room rather than the name squeezed to half (a laptop), and no
            # two lines over each other (a phone too).
            for w, h in [(1024, 768), (390, 844)]:
                chrome.viewport(w, h)
                page("?page=storm&lang=en&preset=big-promo&t=20000")
                wait_run(chrome)
                leaf_text_overlaps(w)

        finally:
            chrome.cmd("POST", "/window/rect", {"width": 1280, "height": 900})
        # Series named beside themselves, not by colour alone: every series of the load
        # chart carries its legend's name.
        page("?page=storm&lang=en&preset=chain-3x3")
        wait_run(chrome)
        legend = chrome.js("return Array.from(document.querySelectorAll('#load-a .legend-item')).map(e => e.textContent.trim());")
        labels = chrome.js("return Array.from(document.querySelectorAll('#load-a text.direct-label')).map(e => e.textContent.replace('━', '').trim());")
        expect(len(legend) == 5 and sorted(labels) == sorted(legend), f"a direct label per series: {labels} vs {legend}")
        # Each label beside its own line: no two labels overlap, and where the hops peak
        # together (the jitter and retry-budget steps) no other series runs through one,
        # except a label whose line is drawn exactly over another's (offered and client
        # there), which has no place of its own. The text's box less 2 units each way: its
        # line spacing, not its letters.
        covered_js = (
            "const svg = document.querySelector('#load-a svg'); const out = [];"
            "const labels = [...svg.querySelectorAll('text.direct-label')];"
            "const boxes = labels.map(t => t.getBBox());"
            "const own = t => [...t.classList].find(c => c.startsWith('c-'));"
            "boxes.forEach((a, i) => boxes.slice(i + 1).forEach((b, k) => {"
            "  if (a.x < b.x + b.width && b.x < a.x + a.width && a.y + 2 < b.y + b.height - 2 && b.y + 2 < a.y + a.height - 2)"
            "    out.push('overlap ' + labels[i].textContent + ' / ' + labels[i + 1 + k].textContent); }));"
            "const paths = [...svg.querySelectorAll('path.series')];"
            "const shared = t => { const p = paths.find(p => p.classList.contains(own(t)));"
            "  return paths.some(q => q !== p && q.getAttribute('d') === p.getAttribute('d')); };"
            "if (arguments[0]) labels.forEach((t, i) => { const b = boxes[i]; if (shared(t)) return;"
            "  for (const p of svg.querySelectorAll('path.series')) {"
            "    if (p.classList.contains(own(t))) continue; const pt = svg.createSVGPoint(); let hit = false;"
            "    for (let x = b.x + 2; x < b.x + b.width - 2 && !hit; x += 1)"
            "      for (let y = b.y + 2; y < b.y + b.height - 2 && !hit; y += 1) { pt.x = x; pt.y = y; hit = p.isPointInStroke(pt); }"
            "    if (hit) out.push(t.textContent + ' over ' + p.getAttribute('class')); } });"
            "return out;")
        for link, lines_too in [("?lesson=retry-storm&step=3&lang=en", True), ("?lesson=retry-storm&step=4&lang=en", True),
                                ("?page=storm&lang=en&preset=chain-3x3", False)]:
            page(link)
            wait_run(chrome)
            covered = chrome.js(covered_js, lines_too)
            expect(not covered, f"{link}: direct labels clear of each other{' and of the other lines' if lines_too else ''}: {covered}")
        # And of the fault windows' labels along the chart's top (the playhead layer's): an
        # "offered" label over "fault 1" had read "fault 1d".
        over_faults_js = (
            "const out = [];"
            "for (const fig of document.querySelectorAll('figure.chart')) {"
            " const faults = [...fig.querySelectorAll('text.fault-label')].map(t => [t.textContent, t.getBoundingClientRect()]);"
            " for (const t of fig.querySelectorAll('text.direct-label')) { const a = t.getBoundingClientRect();"
            "  for (const [name, b] of faults) if (a.left < b.right && b.left < a.right && a.top + 2 < b.bottom - 2 && b.top + 2 < a.bottom - 2)"
            "   out.push(fig.id + ': ' + t.textContent + ' over ' + name); } }"
            "return [out, document.querySelectorAll('text.fault-label').length];")
        for lang in ["en", "zh"]:
            for preset in ["big-promo-protected", "big-promo", "metastable-retry-storm", "breaker-demo"]:
                page(f"?page=storm&lang={lang}&preset={preset}")
                wait_run(chrome)
                time.sleep(0.3)
                out, n = chrome.js(over_faults_js)
                expect(n > 0 and not out, f"{preset} ({lang}): direct labels clear of the {n} fault labels: {out}")
        # And of a lesson step's named moment (metastable 3 shades 5–12 s, over the storm's
        # top lines), which keeps clear of the fault labels in turn.
        over_moment_js = over_faults_js.replace("text.fault-label", "text.step-moment-label")
        for lang in ["en", "zh"]:
            page(f"?lesson=metastable&step=3&lang={lang}")
            wait_run(chrome)
            time.sleep(0.5)
            out, n = chrome.js(over_moment_js)
            expect(n >= 3 and not out, f"metastable 3 ({lang}): direct labels clear of the {n} moment labels: {out}")
            out, _ = chrome.js(over_faults_js.replace("text.direct-label", "text.step-moment-label"))
            expect(not out, f"metastable 3 ({lang}): moment labels clear of the fault labels: {out}")

    def storm_pool_full_under_a_tall_queue():
        # Metastable: a pool of 5 under a queue of thousands draws as a line at 0; the chart
        # says when all 5 were busy, and the diagram that its figures are bucket peaks.
        page("?page=storm&lang=en&preset=metastable-retry-storm")
        wait_run(chrome)
        note = chrome.text("#pool-full-a")
        m = re.match(r"From ([\d.]+) s to ([\d.]+) s all 5 workers were busy at some moment of every 200 ms", note)
        expect(m and float(m.group(1)) < float(m.group(2)), f"the pool's full stretch is said: {note!r}")
        # Full to the end of the run: to its last event (48.24 s), not its last bucket's end.
        want = cli_report(lab, "metastable-retry-storm", 1)
        end_s = f"{want['summary']['end_ms'] / 1000:.2f}".rstrip("0").rstrip(".")
        expect(m and m.group(2) == end_s, f"the stretch ends with the run at {end_s} s: {note!r}")
        # Where the simulation passes the closed forms it says why: the peak above the bound
        # (random arrivals), an L above the pool (the queue is in W).
        expect(chrome.find("#formula-peak-above") is not None and chrome.find("#formula-little-over") is not None,
               "the panel says why the peak passes the bound and L the pool")
        # λ × S at the busiest bucket is the workers the rate asks for, not Little's law's L
        # (whose W would include the queue, and which needs a steady state an overload lacks).
        panel = chrome.text("#formulas")
        expect("Workers" in panel and "offered load λ × S" in panel and "Little's law at" not in panel
               and "no steady state" in chrome.text("#formula-little-over"),
               f"λ × S named as the workers asked for, the overload's missing steady state said: {panel[:400]!r}")
        # The SLO row reads as the CLI's table writes it.
        row = next(l for l in subprocess.run([lab, "run", "--preset", "metastable-retry-storm", "--format", "table"], check=True,
                                             capture_output=True, text=True).stdout.splitlines() if l.startswith("slo"))
        allowed = re.search(r"of ([\d.,]+) allowed", row).group(1)
        page_row = chrome.text("#slo-status-a")
        expect(f"of {allowed} allowed" in page_row, f"the page's SLO row and the CLI's agree: {page_row!r} / {row!r}")
        # In compare mode the panel's figures are side A's, and it says so.
        page("?page=storm&lang=en&preset=metastable-retry-storm&compare=1")
        wait_run(chrome)
        expect(chrome.text("#formula-side") == "(A: your scenario)", "the closed-form panel names its side")
        expect("the most at once" in chrome.text("#diagram-peak-a"), "the diagram says its busy and queue are bucket peaks")
        # The trigger is marked on every time chart: the scenario's window, labelled.
        marks = chrome.js("""return [...document.querySelectorAll('#chart-load-a .fault-window, #chart-inflight-a .fault-window, #chart-outcomes-a .fault-window')]
            .map(g => [g.dataset.fromMs, g.dataset.toMs, g.textContent]);""")
        expect(marks == [["4000", "5000", "fault 1"]] * 3, f"fault 1 (4–5 s) marked on the load, in-flight and outcome charts: {marks}")
        # The same pool with a trigger too small to start a storm: its queue stays within
        # ten pools, the busy line shows by itself, and no note is needed.
        page("?page=storm&lang=en&preset=metastable-retry-storm&f1.factor=1.01")
        wait_run(chrome)
        limit = chrome.js("const t = document.querySelector('#inflight-a .limit text'); return t && t.textContent;")
        y_max = float(chrome.js("return document.getElementById('inflight-a').dataset.yMax"))
        expect(limit == "pool limit 5" and y_max <= 50, f"the pool is drawn, on a scale within ten pools: {limit!r}, {y_max}")
        expect(not chrome.js("return !!document.getElementById('pool-full-a')"), "no note where the busy line shows by itself")

    def storm_hop_focus():
        page("?page=storm&lang=en&preset=chain-3x3")
        wait_run(chrome)
        opacity = "return Number(getComputedStyle(document.querySelector('#load-a path.hop-' + arguments[0])).opacity)"
        chrome.click("#focus-a-1")
        expect(chrome.js("return document.querySelector('.run-view').classList.contains('focus-hop-1')"), "the hop is picked")
        expect(chrome.js(opacity, 0) < 0.5 and chrome.js(opacity, 1) == 1.0, "its series stands out, the others fade")
        expect(chrome.js("return document.getElementById('focus-a-1').getAttribute('aria-pressed')") == "true", "the button says so")
        chrome.click("#focus-a-1")
        expect(chrome.js(opacity, 0) == 1.0, "picked again: all alike")
        chrome.js("document.getElementById('hop-a-2').dispatchEvent(new MouseEvent('click', {bubbles: true}))")
        expect(chrome.js("return document.querySelector('.run-view').classList.contains('focus-hop-2')"), "a click on a hop's box picks it")
        # With breakers and budgets, a hop's series are in several charts: the picked hop's
        # stay in every one of them, the other hops' fade.
        page("?page=storm&lang=en&preset=big-promo-protected")
        wait_run(chrome)
        per_chart = ("return Array.from(document.querySelectorAll('.run-view figure.chart')).map(f => [f.id,"
                     " Array.from(f.querySelectorAll('path.hop-line')).map(p => [Array.from(p.classList).find(c => /^hop-\\d+$/.test(c)),"
                     "  Number(getComputedStyle(p).opacity)])]).filter(([, ps]) => ps.length > 0);")
        charts = chrome.js(per_chart)
        outside_load = [h for fid, ps in charts if not fid.startswith("load") for h, _ in ps]
        expect(outside_load, f"per-hop series outside the load chart: {charts}")
        hop = outside_load[0]
        chrome.click(f"#focus-a-{hop.split('-')[1]}")
        time.sleep(0.3)
        charts = chrome.js(per_chart)
        expect(len(charts) >= 2, f"per-hop series in more than one chart: {[fid for fid, _ in charts]}")
        for fid, paths in charts:
            expect(all((op == 1.0) if h == hop else (op < 0.5) for h, op in paths), f"{fid}: only {hop}'s series stand out: {paths}")
        no_console_errors(chrome, "hop focus")

    def storm_screenshots_at_three_sizes():
        try:
            for query, name in [("preset=big-promo", "big-promo"), ("preset=breaker-demo", "breaker-demo"),
                                ("preset=big-promo-protected", "big-promo-protected"),
                                ("preset=lab11-unprotected&compare=1", "compare")]:
                for lang in ["en", "zh"]:
                    for w, h in [(390, 844), (1440, 900), (1920, 1080)]:
                        chrome.viewport(w, h)
                        page(f"?page=storm&lang={lang}&{query}")
                        wait_run(chrome)
                        chrome.js("const s = document.getElementById('scrub'); s.value = 600; s.dispatchEvent(new Event('input', {bubbles: true}));")
                        time.sleep(0.2)
                        chrome.screenshot(os.path.join(artifacts, f"storm-{name}-{lang}-{w}x{h}.png"))
                        if w == 1440:
                            chrome.js("document.querySelector('.diagram').scrollIntoView()")
                            chrome.screenshot(os.path.join(artifacts, f"storm-{name}-{lang}-{w}x{h}-diagram.png"))
                        wide = chrome.js("return document.documentElement.scrollWidth")
                        expect(wide <= w, f"{name} {lang} at {w}: nothing overflows sideways ({wide} px)")
                        if w == 1920:
                            # A projector: the page is drawn larger, not a laptop's column between margins.
                            fill = chrome.js("return document.querySelector('main').getBoundingClientRect().width / innerWidth")
                            expect(fill >= 0.9, f"{name} {lang} at 1920: the page fills the projector ({fill:.2f} of the width)")
                            # Lengths taken from the window are not scaled twice: the sticky
                            # controls stay below the header and end inside the window.
                            panel = chrome.js("""scrollTo(0, 600); const p = document.querySelector('.controls-panel').getBoundingClientRect();
                                return [Math.round(p.top), Math.round(p.bottom), Math.round(document.querySelector('header.top').getBoundingClientRect().bottom), innerHeight];""")
                            expect(panel[2] <= panel[0] <= panel[2] + 20 and panel[1] <= panel[3],
                                   f"{name} {lang} at 1920: the controls between the header and the window's foot: {panel}")
        finally:
            # The checks after this one expect the usual window, whatever happened here.
            chrome.cmd("POST", "/window/rect", {"width": 1280, "height": 900})
        no_console_errors(chrome, "screenshots")

    def pages_load_without_console_messages():
        # Not even a warning: Trunk's `integrity` on the wasm preload had given one on every
        # load ("ignored for preload destinations that do not support subresource integrity").
        chrome.cmd("POST", "/se/log", {"type": "browser"})
        for query in ["?page=storm", "?page=calculator", "?page=admission", "?page=queue", "?page=breaker",
                      "?page=stability", "?page=lessons", "?lesson=metastable&step=3"]:
            chrome.get(base + query)
            chrome.wait("#page-title")
            time.sleep(1.5)
            entries = chrome.cmd("POST", "/se/log", {"type": "browser"})
            expect(not entries, f"{query}: console messages on load: {[(e.get('level'), e.get('message', '')[:200]) for e in entries]}")

    # Every chart drawn to a phone's width (the time charts, the sampled request's timeline):
    # [chart id, text over text (a direct label over another, a fault window's or the step's
    # moment's label; a time tick's label over another), whether its box scrolls, its time
    # ticks, the step's moment's name if any].
    phone_chart_texts_js = """
    return Array.from(document.querySelectorAll('figure.chart.fits')).map(f => {
      const boxes = sel => [...f.querySelectorAll(sel)].map(t => [t.textContent.slice(0, 24), t.getBoundingClientRect()]).filter(([, r]) => r.width > 0);
      const direct = boxes('text.direct-label'), others = boxes('text.fault-label, text.step-moment-label');
      const meet = (r, q) => r.left < q.right - 2 && q.left < r.right - 2 && r.top < q.bottom - 2 && q.top < r.bottom - 2;
      const over = [];
      direct.forEach(([a, r], i) => { direct.slice(i + 1).concat(others).forEach(([b, q]) => { if (meet(r, q)) over.push(a + ' / ' + b); }); });
      const sc = f.closest('.chart-wrap') || f, moment = f.querySelector('text.step-moment-label');
      const ticks = boxes('.axis.x text:not(.axis-label)');
      ticks.forEach(([a, r], i) => { ticks.slice(i + 1).forEach(([b, q]) => { if (meet(r, q)) over.push(a + ' / ' + b); }); });
      return [f.id, over, sc.scrollWidth > sc.clientWidth + 1, ticks.length, moment && moment.textContent];
    });"""

    def phone_time_charts_keep_their_texts_apart():
        try:
            for w, h in [(390, 844), (360, 780)]:
                chrome.viewport(w, h)
                for query in ["?page=storm&preset=big-promo&compare=1", "?page=storm&preset=big-promo-protected",
                              "?page=storm&preset=metastable-retry-storm&compare=1", "?page=storm&preset=breaker-demo&compare=1",
                              "?lesson=metastable&step=3", "?lesson=field-guide&step=1",
                              # A 1,000 ms request: its timeline's "500" and "1,000 ms" met at 360 px.
                              "?page=storm&preset=lab11-unprotected"]:
                    for lang in ["en", "zh"]:
                        page(f"{query}&lang={lang}")
                        wait_run(chrome)
                        time.sleep(0.5)
                        charts = chrome.js(phone_chart_texts_js)
                        least = 2 if "lab11" in query else 4
                        expect(len(charts) >= least, f"{query} ({lang}, {w} px): time charts drawn to fit: {charts}")
                        for fig, over, scrolls, ticks, moment in charts:
                            expect(not over, f"{query} ({lang}, {w} px) {fig}: text over text: {over}")
                            expect(not scrolls, f"{query} ({lang}, {w} px) {fig}: a chart drawn to fit scrolls sideways")
                            # The sampled request's plot is 130 units on a phone: two labels
                            # where a third would meet them.
                            expect(ticks >= (2 if fig.startswith("chart-timeline") else 3), f"{query} ({lang}, {w} px) {fig}: time ticks: {ticks}")
                            if "lesson" in query and fig.endswith("-a"):
                                expect(moment, f"{query} ({lang}, {w} px) {fig}: the step's moment is named")
        finally:
            chrome.cmd("POST", "/window/rect", {"width": 1280, "height": 900})

    for name, fn in [
        ("every page loads with nothing in the console, not even a warning", pages_load_without_console_messages),
        ("time charts on a phone: whole, no text over text, the step's moment named, at least 3 time ticks", phone_time_charts_keep_their_texts_apart),
        ("a picked hop stands out in every chart", storm_hop_focus),
        ("a full pool under a tall queue is said in words", storm_pool_full_under_a_tall_queue),
        ("no label is cut at its figure's edge, 1440 and 390 px, both languages; direct labels clear of each other, of other lines and of the fault labels", storm_no_clipped_labels),
        ("big-promo, breaker-demo and compare mode at 390, 1440 and 1920 px, both languages", storm_screenshots_at_three_sizes),
        ("the diagram's breaker: the rule it opens by and the time left open", storm_breaker_badge_says_why),
        ("the lesson view: the preset's few knobs, all knobs one click away", storm_lesson_knobs_first),
        ("a hop's admission and worker pool open their labs", storm_hops_open_their_labs),
        ("the SLO: its target line, the error budget spent, met or breached as source 003 says", storm_slo_and_error_budget),
        ("the big-promo diagram shows its shared pool of 8 and the queue", storm_diagram_points_at_the_shared_pool),
        ("layers: 5 from a link, one removed and added back", storm_layers_from_the_page),
        ("every preset's headline figures and report digest equal the CLI's, in both languages", storm_matches_the_cli_for_every_preset),
        ("playback runs to the end", storm_playback_runs_to_the_end),
        ("sliders change the run", storm_sliders_change_the_run),
        ("compare mode shows both sides", storm_compare_shows_both_sides),
        ("Pin as B: side B keeps the learner's settings while A changes; the link and the CLI carry it", storm_pin_as_b_compares_against_the_learners_own_settings),
        ("a share link round-trips", storm_share_link_round_trips),
        ("a bad link names the field and falls back for it only; a rule in the page's language", storm_bad_link_names_the_field),
        ("a scenario too large for the browser is refused with a message", storm_too_much_work_is_refused_with_a_message),
        ("a slider move leaves <html lang> and the title alone", storm_slider_move_leaves_the_document_alone),
        ("the playback speed survives a reload", storm_speed_survives_a_reload),
        ("keyboard: a pressed control of the storm panel keeps the focus", storm_pressed_controls_keep_the_focus),
        ("a slider move redraws the panel alone until its run is in; the progress line floats", storm_slider_move_redraws_the_panel_alone_until_its_run_is_in),
        ("rerun + redraw within 100 ms for every preset", storm_redraw_latency_per_preset),
        ("the page's bundle carries the page's texts, not the command line's", bundle_carries_only_the_pages_texts),
        ("calculator in English", calculator_english),
        ("calculator in Chinese", calculator_chinese),
        ("attempts per layer change the worst case", calculator_attempts_change_the_worst_case),
        ("an out-of-range URL value shows the field's error", calculator_url_out_of_range_shows_the_field_error),
        ("calculator on a phone: the chain picture as rows, nothing wider than the screen", calculator_on_a_phone),
        ("the language choice survives a reload", language_choice_survives_reload),
    ]:
        checks.run(name, fn)
    links.add_checks(checks.run, chrome, base, measurements, expect, no_console_errors)
    a11y.add_checks(checks.run, chrome, base, measurements, expect, no_console_errors, artifacts)
    labs_aq.add_checks(checks.run, chrome, base, expect, no_console_errors, artifacts)
    __import__("labs_breaker").add_checks(checks.run, chrome, base, measurements, expect, no_console_errors)
    __import__("stability").add_checks(checks.run, chrome, base, lab, expect, no_console_errors, artifacts, measurements)
    __import__("lessons").add_checks(checks.run, chrome, base, expect, no_console_errors, artifacts, measurements)
    __import__("tree").add_checks(checks.run, chrome, base, lab, expect, no_console_errors, wait_run, cli_report, artifacts)
    __import__("export").add_checks(checks.run, chrome, base, expect, no_console_errors, artifacts, lab, wait_run)
    __import__("breakdown").add_checks(checks.run, chrome, base, lab, expect, no_console_errors, artifacts, wait_run, cli_report, measurements)
    __import__("navigation").add_checks(checks.run, chrome, base, expect, no_console_errors, wait_run, measurements)
    __import__("chart_table").add_checks(checks.run, chrome, base, lab, expect, no_console_errors, wait_run, cli_report, a11y.axe_violations)
    __import__("fallback").add_checks(checks.run, chrome, base, expect, no_console_errors, wait_run)
    __import__("walkthrough").add_checks(checks.run, chrome, base, expect, no_console_errors, wait_run)

    chrome.close()
    server.close()
    shutil.rmtree(www, ignore_errors=True)
    with open(os.path.join(artifacts, "measurements.json"), "w") as f:
        json.dump(measurements, f, indent=2)
    print(f"\n{checks.passed} passed, {len(checks.failures)} failed; screenshots in {artifacts}")
    return 1 if checks.failures else 0


if __name__ == "__main__":
    sys.exit(main())

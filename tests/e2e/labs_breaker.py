"""The breaker lab (?page=breaker) end to end, in both languages.

Each preset's link must show the transitions and counts the native tests pin
(tests/breaker_lab.rs) as data-value attributes; playback must step one call at a time;
a bad value must show its field's error while the rest of the link applies.
"""

import os
import sys
import time

# preset: (let through, rejected fast, probes, [(ms, state) of every transition])
PRESETS = {
    "source-003": (194, 100, 6, [(5950, "Open"), (11000, "HalfOpen"), (11250, "Open"), (16300, "HalfOpen"), (16550, "Closed")]),
    "source-001": (594, 1200, 6, [(18020, "Open"), (48050, "HalfOpen"), (48170, "Open"), (78200, "HalfOpen"), (78320, "Closed")]),
    "source-002": (198, 600, 2, [(14950, "Open"), (44950, "HalfOpen"), (45050, "Open"), (75050, "HalfOpen"), (75150, "Closed")]),
    "flapping": (91, 60, 9, [(2450, "Open"), (4500, "HalfOpen"), (4750, "Open"), (6800, "HalfOpen"), (7050, "Closed"),
                             (8050, "Open"), (10100, "HalfOpen"), (10350, "Closed")]),
    "slow": (130, 114, 6, [(7400, "Open"), (12400, "HalfOpen"), (14100, "Open"), (19100, "HalfOpen"), (19350, "Closed")]),
}

TITLES = {"en": "Circuit breaker lab", "zh": "熔断器实验"}


def add_checks(run, chrome, base, measurements, expect, no_console_errors):
    artifacts = sys.argv[2] if len(sys.argv) > 2 else "e2e-artifacts"  # run.py DIST ARTIFACTS LAB

    def data(css, attr="data-value"):
        return chrome.js("const e = document.querySelector(arguments[0]); return e && e.getAttribute(arguments[1]);", css, attr)

    def load(query):
        chrome.get(base + query)
        chrome.wait("#breaker")

    def counts():
        return tuple(int(data(f"#breaker-{k}", "data-total")) for k in ["passed", "rejected", "probes"])

    def changes():
        return chrome.js(
            "return Array.from(document.querySelectorAll('#breaker-changes tbody tr'))"
            ".map(r => [Number(r.dataset.atMs), r.dataset.to]);")

    def shot(file, width, height, full=False):
        """A screenshot at a window size (the whole page's height if `full`), then back
        to the size the other checks expect."""
        chrome.viewport(width, height)
        if full:
            h = chrome.js("return Math.min(8000, document.documentElement.scrollHeight);")
            chrome.cmd("POST", "/window/rect", {"width": width, "height": int(h) + 40})
            time.sleep(0.2)
        chrome.screenshot(os.path.join(artifacts, file))
        chrome.cmd("POST", "/window/rect", {"width": 1280, "height": 900})

    def presets_in_both_languages():
        for lang in ["en", "zh"]:
            for name, (passed, rejected, probes, path) in PRESETS.items():
                load(f"?page=breaker&lang={lang}&preset={name}")
                chrome.wait_text("#page-title", TITLES[lang])
                expect(counts() == (passed, rejected, probes), f"{name} ({lang}): counts {counts()}")
                expect(int(data("#breaker-transitions", "data-total")) == len(path), f"{name}: transitions")
                # The page opens at the end of the run: every transition is listed.
                got = [(round(ms), to) for ms, to in changes()]
                expect(got == path, f"{name} ({lang}): transitions {got} != {path}")
                expect(f"preset={name}" in chrome.url() and f"lang={lang}" in chrome.url(), chrome.url())
                shot(f"breaker-{name}-{lang}-1440x900.png", 1440, 900)
                no_console_errors(chrome, f"breaker {name} ({lang})")
        measurements["breaker_presets"] = len(PRESETS)

    def playback_steps():
        load("?page=breaker&lang=en&preset=source-003")
        n = int(data("#breaker", "data-n"))
        expect(n == 300 and int(data("#breaker", "data-pos")) == n, "opens at the end of 300 calls")
        chrome.js("const s = document.getElementById('scrub'); s.value = 0; s.dispatchEvent(new Event('input', {bubbles: true}));")
        chrome.wait_text("#playhead-label", "call 1 of 300 · t = 0 s")
        expect(data("#breaker-passed") == "1" and data("#breaker-transitions") == "0", "call 0 let through, nothing changed yet")
        # Step to call 60, the first after the opening at 5.95 s: rejected.
        chrome.js("const s = document.getElementById('scrub'); s.value = 59; s.dispatchEvent(new Event('input', {bubbles: true}));")
        chrome.click("#step")
        chrome.wait_text("#playhead-label", "call 61 of 300 · t = 6 s")
        expect(data("#breaker", "data-state") == "Open", "open at call 60")
        expect((data("#breaker-passed"), data("#breaker-rejected"), data("#breaker-transitions")) == ("60", "1", "1"),
               "60 let through, 1 rejected, 1 transition")
        expect(data("#breaker-window", "data-calls") == "20" and data("#breaker-window", "data-failures") == "10",
               "the window that opened it: 10 of 20")
        expect(float(data("#breaker-failure-rate")) == 50.0, "50 %")
        # A screen reader hears the step: the call and the state it left the breaker in.
        said = chrome.js("const e = document.getElementById('breaker-announce'); return e ? e.textContent : '';")
        expect("call 61 of 300" in said and "OPEN" in said, f"the step said in words: {said!r}")
        # Keyboard: the scrubber moves one call per arrow key.
        chrome.js("document.getElementById('scrub').focus()")
        chrome.cmd("POST", f"/element/{chrome.find('#scrub')}/value", {"text": "\ue014"})  # ArrowRight
        chrome.wait_text("#playhead-label", "call 62 of 300 · t = 6.1 s")
        # Play runs to the end (10 s of real time for the whole run).
        chrome.front()
        chrome.click("#play")
        deadline = time.time() + 40  # 10 s, with room for a machine busy building
        start, nudged = int(data("#breaker", "data-pos")), False
        # In play the slider keeps its length and the panels under the latest calls keep
        # their place (the label's digits and the strip's rows had moved them).
        layout = "return [Math.round(document.getElementById('scrub').getBoundingClientRect().width), Math.round(document.getElementById('breaker-window').getBoundingClientRect().top + scrollY)];"
        seen = set()
        while time.time() < deadline and int(data("#breaker", "data-pos")) < n:
            time.sleep(0.1)
            seen.add(tuple(chrome.js(layout)))
            if not nudged and time.time() > deadline - 35 and int(data("#breaker", "data-pos")) == start:
                # No animation frame in 5 s: the browser has put the tab in the background
                # (seen after many window resizes in one long session). Say so and bring it
                # back; a stall in the page itself would not move after this either.
                print("     (no animation frame in 5 s; visibility:",
                      chrome.js("return document.visibilityState + ', focus ' + document.hasFocus();"), ")")
                chrome.front()
                chrome.js("window.focus();")
                nudged = True
        pos = int(data("#breaker", "data-pos"))
        expect(pos == n, f"playback reached the end: at {pos} of {n} after 40 s, {chrome.text('#play')!r}")
        expect(chrome.text("#play") == "Play", "and stopped")
        seen.add(tuple(chrome.js(layout)))
        expect(len(seen) == 1, f"the slider's width and the window panel's top held through play: {sorted(seen)}")
        # At the end the label says so in words, as the calls before it do.
        expect(chrome.text("#playhead-label").startswith(f"all {n} calls · "), f"the end's label: {chrome.text('#playhead-label')!r}")
        no_console_errors(chrome, "breaker playback")

    def bad_value_shows_its_field_error():
        load("?page=breaker&lang=en&preset=source-003&failure_pct=150&open_ms=2000&zzz=1")
        err = chrome.text("#f-failure_pct-error")
        expect("failure_pct" in err and "150" in err and "100" in err, f"field, value and range: {err!r}")
        expect("zzz" in chrome.text("#unknown-params"), "unknown keys are listed")
        # open_ms=2000 still applies: the half-open comes 2 s after 5.95 s, at 8.0 s.
        got = changes()
        expect(round(got[1][0]) == 8000 and got[1][1] == "HalfOpen", f"the good field applied: {got}")
        shot("breaker-bad-link-en-1440x900.png", 1440, 900)
        load("?page=breaker&lang=zh&preset=source-003&rate=800")
        err = chrome.text("#f-rate-error")
        expect("rate" in err and "800" in err and "666.66" in err, f"the call bound, in Chinese: {err!r}")
        # The figures keep the last valid settings, and say so above them.
        expect("上一次有效" in chrome.text("#bl-stale") if chrome.find("#bl-stale") else False,
               f"the figures are said to be the last valid settings': {chrome.find('#bl-stale') and chrome.text('#bl-stale')!r}")
        no_console_errors(chrome, "breaker bad link")

    def editing_rewrites_the_link():
        load("?page=breaker&lang=en&preset=source-003")
        chrome.type("#f-open_ms", "10000")
        # Open 10 s from 5.95 s: the first call at or after 15.95 s, at 16 s, half-opens.
        chrome.wait_text("#breaker-changes tbody tr:nth-child(2) td", "16")
        expect("open_ms=10000" in chrome.url(), chrome.url())
        chrome.js("const s = document.getElementById('f-window_kind'); s.value = 'time'; s.dispatchEvent(new Event('change', {bubbles: true}));")
        chrome.wait_text("#f-window ~ .unit, #f-window + .unit", "s")
        expect("window_kind=time" in chrome.url(), chrome.url())
        no_console_errors(chrome, "breaker edits")

    def screenshots_at_three_sizes():
        for lang, name in [("en", "source-003"), ("zh", "flapping")]:
            load(f"?page=breaker&lang={lang}&preset={name}")
            chrome.wait_text("#page-title", TITLES[lang])
            # Mid-run, so the strip shows calls of every kind and the window is filling.
            k = {"source-003": 118, "flapping": 47}[name]
            chrome.js("const s = document.getElementById('scrub'); s.value = arguments[0];"
                      "s.dispatchEvent(new Event('input', {bubbles: true}));", k)
            deadline = time.time() + 10
            while time.time() < deadline and data("#breaker", "data-pos") != str(k):
                time.sleep(0.05)
            expect(data("#breaker", "data-pos") == str(k), f"scrubbed to call {k}")
            for w, h in [(1440, 900), (1920, 1080), (390, 844)]:
                shot(f"breaker-{name}-{lang}-mid-{w}x{h}.png", w, h)
            shot(f"breaker-{name}-{lang}-mid-1440-full.png", 1440, 900, full=True)
            shot(f"breaker-{name}-{lang}-mid-390-full.png", 390, 844, full=True)
            # Nothing wider than a phone's screen, but the tables that scroll inside their box.
            chrome.viewport(390, 844)
            time.sleep(0.2)
            wide = chrome.js("return document.documentElement.scrollWidth;")
            chrome.cmd("POST", "/window/rect", {"width": 1280, "height": 900})
            expect(wide <= 390, f"{name} ({lang}) at 390 px: the page is {wide} px wide")
            no_console_errors(chrome, f"breaker screenshots {name} ({lang})")

    def phone_sees_the_whole_band():
        # A teacher's keyboard walk on a phone: the band had been drawn 560 units wide in a
        # 289 px box, so stepping to 15 s left the playhead out of sight and scrolling
        # sideways took the row labels away; the strip's cells were 5.7 px.
        chrome.viewport(390, 844)
        try:
            for lang in ["zh", "en"]:
                load(f"?page=breaker&lang={lang}&preset=source-003&at=150")
                chrome.wait("#breaker-band svg")
                time.sleep(0.3)
                got = chrome.js("""const box = document.getElementById('breaker-band'), svg = box.querySelector('svg.band');
                    const b = box.getBoundingClientRect(), p = svg.querySelector('.playhead').getBoundingClientRect();
                    const cell = document.querySelector('svg.cells:not([aria-hidden]) rect').getBoundingClientRect();
                    return [box.scrollWidth - box.clientWidth, p.left >= b.left && p.right <= b.right + 0.5, cell.width];""")
                expect(got[0] <= 1 and got[1] and got[2] >= 10,
                       f"({lang}) at 390 px the whole band, its playhead in view, cells >= 10 px: [overflow, playhead shown, cell px] {got}")
            no_console_errors(chrome, "breaker band on a phone")
        finally:
            chrome.viewport(1280, 900)

    run("breaker lab: screenshots at 1440x900, 1920x1080 and 390x844", screenshots_at_three_sizes)
    run("breaker lab: on a phone the state band shows the whole run and its playhead, the cells at 10 px at least", phone_sees_the_whole_band)
    run("breaker lab: each preset's transitions and counts, both languages", presets_in_both_languages)
    run("breaker lab: playback steps one call at a time", playback_steps)
    run("breaker lab: a bad value shows its field's error; the rest applies", bad_value_shows_its_field_error)
    run("breaker lab: edits rewrite the link", editing_rewrites_the_link)

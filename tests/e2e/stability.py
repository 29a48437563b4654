"""The stability map (issue 16) end to end: the default 20 x 20 map in Web Workers within
10 s with the main thread free (longest task, animation frame gaps); the page's grid equal
to `lab sweep`'s; a protection shrinking the stuck region; cancel; a cell opening its run;
the hysteresis branches; bad links; screenshots.
"""

import os
import re
import subprocess
import time

PROBE = """
window.__stab = { tasks: [], frames: [], t0: performance.now() };
new PerformanceObserver(l => { for (const e of l.getEntries()) window.__stab.tasks.push([e.startTime, e.duration]); })
  .observe({ type: 'longtask', buffered: true });
(function frame(t) { window.__stab.frames.push(t); if (window.__stab.frames.length < 20000) requestAnimationFrame(frame); })(performance.now());
"""


def add_checks(run, chrome, base, lab, expect, no_console_errors, artifacts, measurements):
    def map_attr(name):
        return chrome.js("const m = document.getElementById('stability-map'); return m && m.getAttribute(arguments[0]);", name)

    def wait_done(timeout=90):
        deadline = time.time() + timeout
        while time.time() < deadline:
            done, total = map_attr("data-done"), map_attr("data-total")
            if done is not None and total not in (None, "0") and done == total:
                return int(total)
            time.sleep(0.05)
        raise AssertionError(f"the map did not finish: {map_attr('data-done')} of {map_attr('data-total')}")

    def cells():
        return chrome.js(
            "return Array.from(document.querySelectorAll('#stability-map rect.cell'))"
            ".map(r => [Number(r.id.slice(5)), r.dataset.outcome, r.dataset.after]);")

    def default_map_in_workers():
        chrome.cmd("POST", "/goog/cdp/execute", {"cmd": "Page.addScriptToEvaluateOnNewDocument", "params": {"source": PROBE}})
        chrome.get(base + "?page=stability&lang=en")
        chrome.wait("#stability-map")
        started = chrome.js("return performance.now();")
        total = wait_done()
        expect(total == 400, f"20 x 20 cells: {total}")
        elapsed = float(map_attr("data-elapsed-ms"))
        workers = int(map_attr("data-workers"))
        probe = chrome.js("return window.__stab;")
        during = [d for (t, d) in probe["tasks"] if t >= started - 50]
        frames = [t for t in probe["frames"] if t >= started]
        gaps = [b - a for a, b in zip(frames, frames[1:])]
        measurements["stability_map"] = {
            "cells": total, "elapsed_ms": round(elapsed), "workers": workers,
            "longest_task_ms": round(max(during, default=0.0), 1),
            "max_frame_gap_ms": round(max(gaps, default=0.0), 1), "frames": len(frames),
        }
        print("      stability map:", measurements["stability_map"], "long tasks:", [(round(t - started), round(d)) for t, d in probe["tasks"] if t >= started - 50])
        expect(workers >= 1, "the sweep ran in Web Workers")
        expect(elapsed <= 10000, f"the default map in {elapsed:.0f} ms (target 10 s)")
        expect(max(during, default=0.0) < 100, f"longest main-thread task {max(during, default=0.0):.0f} ms")
        expect(len(frames) > 20 and max(gaps, default=0.0) < 100, f"animation frames kept coming: {len(frames)} frames, max gap {max(gaps, default=0):.0f} ms")
        no_console_errors(chrome, "stability map")

    def grid_equals_lab_sweep():
        def same(query, args, n):
            chrome.get(base + "?page=stability&lang=en" + query)
            wait_done()
            page = {i: (o, a) for i, o, a in cells()}
            out = subprocess.run([lab, "sweep", "--format", "csv"] + args, capture_output=True, text=True, check=True).stdout
            rows = [l.split(",") for l in [l for l in out.splitlines() if not l.startswith("#")][1:]]
            expect(len(rows) == n == len(page), f"{len(rows)} CLI rows, {len(page)} page cells")
            diff = [(int(r[0]), page.get(int(r[0])), (r[5], r[6])) for r in rows if page.get(int(r[0])) != (r[5], r[6])]
            expect(not diff, f"cells differ from lab sweep {args}: {diff[:5]}")
            return [o for o, _ in page.values()]
        same("", [], 400)
        # The page's recovery bands and the text map's are the same bands.
        legend = chrome.js("return [...document.querySelectorAll('.legend .legend-item')].slice(0, 4).map(e => e.textContent)")
        text = subprocess.run([lab, "sweep"], capture_output=True, text=True, check=True).stdout
        for mark, item in zip(". : +".split(), legend[:3]):
            limit = item.replace("recovered ", "")
            expect(f"{mark} recovered {limit}" in text, f"the page's band {item!r} is the text map's {mark!r}: {text.splitlines()[1]!r}")
        expect(legend[3] == "later" and "o recovered later" in text, f"the last band: {legend}")
        # Near capacity with one attempt a cell is still draining when its run ends: every
        # outcome travels from the workers as itself (draining once arrived as recovered).
        outcomes = same("&x=l1.attempts%3D1..3%2F3&y=utilisation%3D0.8..1%2F5",
                        ["--x", "l1.attempts=1..3/3", "--y", "utilisation=0.8..1/5"], 15)
        expect("draining" in outcomes, f"a draining cell to compare: {outcomes}")

    def a_protection_switched_keeps_the_plain_cells():
        # Switching the overlay on, to another protection or off runs only the protected
        # cells: the plain map does not depend on it (it had been wiped and run again, 24 s
        # a switch on a 40 x 40 map).
        chrome.get(base + "?page=stability&lang=en&x=utilisation%3D0.1..1%2F10&y=trigger_ms%3D100..1000%2F10")
        expect(wait_done() == 100, "10 x 10 without a protection")
        before = cells()
        def protect(slug):
            want = "100" if slug == "none" else "200"
            chrome.js("const s = document.getElementById('stab-protect'); s.value = arguments[0]; s.dispatchEvent(new Event('change', {bubbles: true}));", slug)
            deadline = time.time() + 5
            while time.time() < deadline and map_attr("data-total") != want:
                time.sleep(0.02)
        protect("budget")
        got = [map_attr("data-done"), map_attr("data-total")]
        expect(got[1] == "200" and int(got[0]) >= 100, f"the budget's overlay starts from the plain map done: {got}")
        expect(wait_done() == 200, "and runs its 100 protected cells")
        protect("cancel")
        got = [map_attr("data-done"), map_attr("data-total")]
        expect(got[1] == "200" and int(got[0]) >= 100, f"another protection keeps the plain map: {got}")
        expect(wait_done() == 200, "cancel's 100 cells")
        protect("none")
        got = [map_attr("data-done"), map_attr("data-total"), chrome.text("#stab-status")]
        expect(got[:2] == ["100", "100"] and "100 cells in" in got[2], f"switched off, the plain map is whole at once: {got}")
        expect(cells() == before, "the same cells as the sweep's own")
        # Back from a cell's run comes back to that map whole, not to a sweep from nothing.
        # (A click as a mouse's: cancelable, so the app follows it in place.)
        chrome.js("document.querySelector('#cell-55').parentElement.dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true}));")
        chrome.wait("#storm")
        chrome.js("history.back();")
        chrome.wait("#stability-map")
        first = [map_attr("data-done"), map_attr("data-total")]
        expect(first == ["100", "100"], f"Back shows the map done at once: {first}")
        no_console_errors(chrome, "protection switched")

    def protection_shrinks_and_cells_open_their_run():
        q = "?page=stability&lang=en&protect=budget&x=utilisation%3D0.1..1%2F10&y=trigger_ms%3D100..1000%2F10"
        chrome.get(base + q)
        expect(wait_done() == 200, "10 x 10 twice")
        status = chrome.text(".stab-status")
        expect("two sweeps of 100 cells" in status, f"the status says the 200 cells are two sweeps of the map's 100: {status!r}")
        plain, prot = int(map_attr("data-stuck")), int(map_attr("data-stuck-protected"))
        # The metastable lesson's claim: with the budget no cell stays stuck (near capacity the
        # backlog is still draining when the run ends), so its boundary has no edge to draw.
        expect(prot == 0 < plain, f"the retry budget leaves no stuck cell: {plain} -> {prot}")
        d = chrome.js("return document.getElementById('stab-boundary-protected').getAttribute('d');")
        expect(not d, f"no protected boundary with nothing stuck: {d!r}")
        expect(str(plain) in chrome.text("#stab-stuck-count"), "and counted in words")
        # Every cell the budget gets out is marked, so the region's shrinking shows with no
        # boundary to draw; the legend says what the mark means.
        saved = chrome.js("const g = document.getElementById('stab-saved'); return g ? [Number(g.dataset.count), g.querySelectorAll('circle').length] : null;")
        expect(saved == [plain, plain], f"each stuck cell the budget gets out is marked: {saved} of {plain}")
        expect("gets out with it" in chrome.text("#stability-map"), "the mark in the legend")
        # Cancel on timeout shrinks the region without emptying it: its boundary is drawn dashed.
        chrome.get(base + q.replace("protect=budget", "protect=cancel"))
        expect(wait_done() == 200, "10 x 10 twice, with cancel")
        plain_c, prot_c = int(map_attr("data-stuck")), int(map_attr("data-stuck-protected"))
        expect(0 < prot_c < plain_c, f"cancel on timeout shrinks the stuck region: {plain_c} -> {prot_c}")
        saved_c = chrome.js("return Number(document.getElementById('stab-saved').dataset.count);")
        expect(0 < saved_c <= plain_c, f"the cells cancelling gets out are marked: {saved_c} of {plain_c}")
        d = chrome.js("return document.getElementById('stab-boundary-protected').getAttribute('d');")
        expect(d and d.startswith("M"), "the protected boundary is drawn")
        chrome.get(base + q)
        expect(wait_done() == 200, "10 x 10 twice, again")
        href = chrome.js("return document.querySelector('#cell-55').parentElement.getAttribute('href');")
        expect("page=storm" in href and "rate=" in href and "f1.end=" in href, f"a cell links to its storm run: {href}")
        # The picked cell opens with the protection too: the same run plus its keys.
        plain_open = chrome.js("return document.getElementById('stab-open').getAttribute('href');")
        prot_open = chrome.js("const a = document.getElementById('stab-open-protected'); return a && a.getAttribute('href');")
        expect(prot_open is not None and "l1.budget=ratio" in prot_open and "l1.budget" not in plain_open
               and all(k in prot_open for k in plain_open.lstrip("?").split("&")),
               f"'Open with the retry budget' is the cell's run with the budget: {prot_open} vs {plain_open}")
        chrome.js("window.scrollTo(0, 520);")
        time.sleep(0.3)
        y = chrome.js("return window.scrollY;")
        chrome.js("document.querySelector('#cell-55').parentElement.dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true}));")
        chrome.wait("#storm")
        expect("rate=" in chrome.url(), f"the storm page opened that run: {chrome.url()}")
        # Back comes to the map where it was left: its first frame had lacked the status line
        # and the restored scroll landed 30 px off.
        chrome.js("history.back();")
        chrome.wait("#stability-map")
        time.sleep(1.0)
        back_y = chrome.js("return window.scrollY;")
        expect(map_attr("data-done") == "200" and abs(back_y - y) <= 1,
               f"Back from a cell's run comes back to the same place on the map: {y} -> {back_y}")
        # On a touch screen a tap picks the cell instead: outlined, its verdict said in words
        # under the map (a touch has no tooltip), its run one tap on Open away.
        def cdp(cmd, **params):
            return chrome.cmd("POST", "/goog/cdp/execute", {"cmd": cmd, "params": params})
        cdp("Emulation.setTouchEmulationEnabled", enabled=True, maxTouchPoints=5)
        cdp("Emulation.setEmulatedMedia", features=[{"name": "pointer", "value": "coarse"}])
        try:
            for lang in ["en", "zh"]:
                chrome.get(base + q.replace("lang=en", f"lang={lang}"))
                expect(wait_done() == 200, f"({lang}) 10 x 10 twice, touch")
                chrome.js("document.querySelector('#cell-55').parentElement.dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true}));")
                time.sleep(0.5)
                got = chrome.js(
                    "return [location.search.includes('page=stability'), document.getElementById('stab-open-x').value,"
                    " document.getElementById('stab-open-y').value,"
                    " (() => { const o = document.getElementById('stab-picked'), c = document.getElementById('cell-55');"
                    "  return !!o && o.getAttribute('x') === c.getAttribute('x') && o.getAttribute('y') === c.getAttribute('y')"
                    "   && o.parentNode.lastElementChild === o && getComputedStyle(o).stroke !== getComputedStyle(c).stroke; })(),"
                    " document.querySelectorAll('#stab-picked').length, document.getElementById('stab-cell-verdict').textContent,"
                    " document.getElementById('cell-55').querySelector('title').textContent];")
                stays, col, row, picked, n_picked, said, tip = got
                expect(stays and (col, row) == ("6", "6") and picked and n_picked == 1,
                       f"({lang}) a tap picks cell 55 (column 6, row 6) and stays on the map: {got[:5]}")
                verdict = tip.split("：" if lang == "zh" else ": ", 1)[-1]
                expect(verdict and verdict in said and ("with" in said or "加上" in said),
                       f"({lang}) the picked cell's verdict, with and without the budget, in words: {said!r} (tooltip {tip!r})")
                chrome.click("#stab-open")
                chrome.wait("#storm")
                expect("rate=" in chrome.url(), f"({lang}) Open opens the picked cell's run: {chrome.url()}")
        finally:
            cdp("Emulation.setEmulatedMedia", features=[])
            cdp("Emulation.setTouchEmulationEnabled", enabled=False)

    def a_long_sweep_says_how_long_it_has_left():
        # 40 x 40 with the protection: 3,200 cells, a minute or more on this machine. Once
        # enough cells are back, the progress line says the time still to go, at their pace.
        chrome.get(base + "?page=stability&lang=en&protect=budget&x=utilisation%3D0.1..1%2F40&y=trigger_ms%3D100..2000%2F40")
        deadline, got = time.time() + 30, None
        while time.time() < deadline:
            got = chrome.js("const m = document.getElementById('stability-map');"
                            "return m && [m.getAttribute('data-left-ms'), '',"
                            " m.textContent.match(/about [0-9,]+ (s|min) left/) ? m.textContent.match(/about [0-9,]+ (s|min) left/)[0] : null,"
                            " m.getAttribute('data-done'), m.getAttribute('data-total')];")
            if got and got[2]:
                break
            time.sleep(0.2)
        print(f"     3,200-cell sweep: {got}")
        expect(got and got[2] and got[0] and int(got[0]) >= 3000 and got[4] == "3200",
               f"the progress line says the time left: {got}")
        chrome.js("document.getElementById('stab-cancel').click();")
        no_console_errors(chrome, "stability time left")

    def cancel_stops_the_sweep():
        chrome.get(base + "?page=stability&lang=zh")
        chrome.wait("#stab-cancel")
        chrome.js("document.getElementById('stab-cancel').click();")
        time.sleep(1.0)
        done = int(map_attr("data-done"))
        time.sleep(1.0)
        expect(int(map_attr("data-done")) == done and done < 400, f"no cell after cancel: {done}")
        chrome.wait("#stab-rerun")
        chrome.click("#stab-rerun")
        expect(wait_done() == 400, "run again completes")
        no_console_errors(chrome, "stability cancel")

    def hysteresis_branches():
        chrome.get(base + "?page=stability&lang=en")
        chrome.wait("#hyst-down")
        pts = chrome.js(
            "const r = id => Object.fromEntries(document.getElementById(id).dataset.points.split(' ')"
            ".map(p => p.split(':').map(Number)).map(([u, g]) => [u.toFixed(1), g]));"
            "return [r('hyst-up'), r('hyst-down')];")
        up, down = pts
        expect(up.get("0.9", 0) - down.get("0.9", 1) > 0.3,
               f"at 90 % load, rising serves far more than falling (hysteresis): {up.get('0.9')} vs {down.get('0.9')}")
        # The reference, one attempt a call, drawn from its own run in the worker: its way
        # down gets back to serving the load, and the sentence under the chart says where.
        chrome.wait("#hyst-down-noretry")
        once = chrome.js(
            "return Object.fromEntries(document.getElementById('hyst-down-noretry').dataset.points.split(' ')"
            ".map(p => p.split(':').map(Number)).map(([u, g]) => [u.toFixed(1), g]));")
        expect(once.get("0.5", 0) >= 0.45 > down.get("0.5", 1),
               f"at 50 % on the way down, one attempt a call serves the load and three do not: {once} vs {down}")
        said = chrome.text("#stab-hyst-served")
        expect("not even at 50 % load as the preset stands" in said
               and re.search(r"back at \d+ % load with one attempt", said), said)

    def bad_links_and_screenshots():
        chrome.get(base + "?page=stability&lang=en&x=nonsense&protect=helmet&y=trigger_ms%3D1..2%2F99")
        chrome.wait("#stab-x-error")
        for sel, word in [("#stab-x-error", "x"), ("#stab-protect-error", "helmet"), ("#stab-y-error", "steps")]:
            expect(word in chrome.text(sel), f"{sel} names {word}: {chrome.text(sel)}")
        # Whole tries in 40 steps from 1 to 5 ask for 1.1 tries: refused by its first such
        # value before any run (it drew 800 refused cells in a colour the legend lacks).
        chrome.get(base + "?page=stability&lang=en&y=l1.attempts%3D1..5%2F40")
        chrome.wait("#stab-y-error")
        expect("Attempts (l1.attempts) = 1.102564103" in chrome.text("#stab-y-error"), f"the first refused value, by the knob's name: {chrome.text('#stab-y-error')}")
        # A range broken at a typed end is named by that end, as the axis says it (not by
        # the fault's end the page derives from it), in both languages.
        for lang in ["en", "zh"]:
            chrome.get(base + f"?page=stability&lang={lang}&y=trigger_ms%3D50..-5%2F20")
            chrome.wait("#stab-y-error")
            said = chrome.text("#stab-y-error")
            expect("= -5 " in said and "f1.end" not in said and "999,996,000 ms" in said, f"the typed end and its range ({lang}): {said}")
        # Picking a knob for an axis starts it from that knob's own range, which runs.
        chrome.get(base + "?page=stability&lang=en")
        chrome.wait("#stab-y-key")
        chrome.js("const s = document.getElementById('stab-y-key'); s.value = 'l1.attempts'; s.dispatchEvent(new Event('change', {bubbles: true}));")
        deadline = time.time() + 10
        while time.time() < deadline:
            got = chrome.js("return ['from', 'to', 'n'].map(p => document.getElementById('stab-y-' + p).value);")
            if got == ["1", "5", "5"]:
                break
            time.sleep(0.05)
        expect(got == ["1", "5", "5"] and chrome.find("#stab-y-error") is None, f"tries 1 to 5, one by one: {got}")
        wait_done()
        expect("y=l1.attempts%3D1..5%2F5" in chrome.url(), f"and the link says so: {chrome.url()}")
        for lang in ["en", "zh"]:
            for (w, h) in [(1440, 900), (1920, 1080), (390, 844)]:
                chrome.viewport(w, h)
                chrome.get(base + f"?page=stability&lang={lang}")
                wait_done()
                chrome.js("document.getElementById('stability-map').scrollIntoView();")
                chrome.screenshot(os.path.join(artifacts, f"stability-{lang}-{w}.png"))
                # Scrolled to its right end, each picture keeps its y axis in view on a phone
                # (the strip at the scroller's left edge, the picture's own axis gone under
                # it); wider, the picture fits and the strip is not drawn.
                chrome.wait("#hyst-down")
                axes = chrome.js(
                    "return Array.from(document.querySelectorAll('.stab-scroll')).map(sc => {"
                    " sc.scrollLeft = sc.scrollWidth;"
                    " const strip = sc.querySelector('.stab-yaxis'), pic = sc.querySelector('svg[role]');"
                    " return [sc.getBoundingClientRect().left, strip.getBoundingClientRect().left,"
                    "  strip.getBoundingClientRect().width, pic.getBoundingClientRect().left,"
                    "  strip.querySelectorAll('text').length, sc.scrollWidth > sc.clientWidth]; });")
                for sc_left, strip_left, strip_w, pic_left, labels, scrolls in axes:
                    if w == 390:
                        expect(scrolls and strip_w > 40 and labels >= 4 and abs(strip_left - sc_left) < 1.5
                               and pic_left < sc_left - 100,
                               f"phone, {lang}: the y axis stays at the left edge when scrolled: {axes}")
                    else:
                        expect(strip_w == 0 and not scrolls, f"{w} px, {lang}: no strip, no scrolling: {axes}")
                chrome.js("document.querySelectorAll('.stab-scroll').forEach(sc => sc.scrollLeft = 0);")
        chrome.cmd("POST", "/window/rect", {"width": 1280, "height": 900})

    def a_cell_picked_on_a_phone_comes_into_view():
        # A cell picked from the keyboard (the column picker's arrow keys) had stayed out of
        # sight in the map's sideways scroll while the words under the map spoke of it.
        chrome.viewport(390, 844)
        try:
            chrome.get(base + "?page=stability&lang=zh")
            wait_done()
            chrome.js("document.getElementById('stab-open-x').focus();")
            for _ in range(12):
                chrome.press("\ue015")  # ArrowDown
            deadline = time.time() + 5
            while time.time() < deadline and "col=13" not in chrome.url():
                time.sleep(0.1)
            time.sleep(0.4)
            got = chrome.js("""const sc = document.querySelector('.stab-map-wrap'), strip = sc.querySelector('.stab-yaxis');
                const o = document.getElementById('stab-picked').getBoundingClientRect(), b = sc.getBoundingClientRect();
                return [Math.round(o.left), Math.round(o.right), Math.round(b.left + strip.getBoundingClientRect().width), Math.round(b.right), sc.scrollLeft];""")
            expect("col=13" in chrome.url() and got[0] >= got[2] - 1 and got[1] <= got[3] + 1 and got[4] > 0,
                   f"the picked cell in view beside the y axis: [left, right, view from, view to, scrolled] {got}; {chrome.url()}")
            # And a reader who scrolls the map back is left there as the page redraws.
            chrome.js("document.querySelector('.stab-map-wrap').scrollLeft = 0;")
            time.sleep(0.5)
            expect(chrome.js("return document.querySelector('.stab-map-wrap').scrollLeft;") == 0, "the map stays where the reader put it")
            no_console_errors(chrome, "stability pick on a phone")
        finally:
            chrome.viewport(1280, 900)

    def a_phone_opens_the_pictures_where_they_turn():
        # At 390 px the map and the hysteresis chart scroll sideways and had opened at their
        # left edges, the lowest loads: the boundary and the rising branch's break, what the
        # metastable lesson's last steps ask about, were off to the right.
        chrome.viewport(390, 844)
        try:
            chrome.get(base + "?lesson=metastable&step=8&lang=zh")
            wait_done()
            chrome.wait("#hyst-up")
            time.sleep(0.5)
            got = chrome.js("""const seen = (sc, els) => {
                    const b = sc.getBoundingClientRect(), from = b.left + sc.querySelector('.stab-yaxis').getBoundingClientRect().width;
                    const rs = els.map(e => e.getBoundingClientRect()).filter(r => r.width > 0 || r.height > 0);
                    const mid = (Math.min(...rs.map(r => r.left)) + Math.max(...rs.map(r => r.right))) / 2;
                    return [Math.round(from), Math.round(mid), Math.round(b.right), sc.scrollLeft]; };
                const map = document.querySelector('.stab-map-wrap'), hyst = document.querySelector('#stability-hysteresis .stab-scroll');
                const dots = [...hyst.querySelectorAll('circle.hyst-dot.up:not(.protected)')];
                const peak = dots.reduce((a, d) => d.getBoundingClientRect().top < a.getBoundingClientRect().top ? d : a);
                return [seen(map, [...map.querySelectorAll('path.boundary')]), seen(hyst, [peak])];""")
            for what, (start, mid, end, scrolled) in zip(["the map's boundary", "the rising branch's peak"], got):
                expect(scrolled > 0 and start + 20 <= mid <= end - 20,
                       f"phone: {what} mid-way in view: [view from, its middle, view to, scrolled] {got}")
            no_console_errors(chrome, "stability pictures on a phone")
        finally:
            chrome.viewport(1280, 900)

    for name, fn in [
        ("stability: the default 20x20 map in Web Workers within 10 s, main thread free", default_map_in_workers),
        ("stability: on a phone the map opens at its boundary, the hysteresis chart at its break", a_phone_opens_the_pictures_where_they_turn),
        ("stability: on a phone a cell picked from the keyboard scrolls into the map's view", a_cell_picked_on_a_phone_comes_into_view),
        ("stability: the page's grid equals lab sweep's", grid_equals_lab_sweep),
        ("stability: a protection switched on, changed or off runs only the protected cells", a_protection_switched_keeps_the_plain_cells),
        ("stability: a retry budget empties the stuck region, cancel shrinks it; a click opens a cell's run, a tap picks the cell and says its verdict", protection_shrinks_and_cells_open_their_run),
        ("stability: cancel stops the sweep, run again finishes it", cancel_stops_the_sweep),
        ("stability: a 3,200-cell sweep says how long it has left", a_long_sweep_says_how_long_it_has_left),
        ("stability: the hysteresis run's two branches", hysteresis_branches),
        ("stability: bad links named, screenshots, the y axes kept in view on a phone", bad_links_and_screenshots),
    ]:
        run(name, fn)

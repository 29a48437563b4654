"""End-to-end checks of the admission lab (?page=admission) and the queue lab (?page=queue).

Each page is opened from a link with its parameters in both languages and from the
navigation; the figures are read from `data-value`s (source 003's 5 admitted and 3
rejected, source 002's admission example, ρ and Erlang C's P(wait) and mean wait beside
their simulated values); playback steps one event at a time; the controls answer the
keyboard; screenshots at 1440×900, 1920×1080 and 390×844 go to the artifacts directory.
"""

import os
import re
import time

SIZES = [(1440, 900), (1920, 1080), (390, 844)]
TAB = "\ue004"
ENTER = "\ue007"


def add_checks(run, chrome, base, expect, no_console_errors, artifacts):
    def page(query):
        chrome.get(base + query)
        chrome.wait("#page-title")

    def value(css, attr="data-value"):
        v = chrome.js("const e = document.querySelector(arguments[0]); return e ? e.getAttribute(arguments[1]) : null;", css, attr)
        expect(v is not None, f"{css} has a {attr}")
        return float(v)

    def total(css):
        """A count of the whole run, on a card that counts up to the playhead (`data-value`)."""
        return value(css, "data-total")

    def wait_queue_run(timeout=60.0):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if chrome.js("return !!document.querySelector('#q-rho-sim[data-value]') && !document.querySelector('#queue .progress');"):
                return
            time.sleep(0.05)
        raise AssertionError(f"the queue lab's runs did not finish within {timeout}s ({chrome.url()})")

    def wait_contains(css, want, timeout=15.0):
        deadline = time.time() + timeout
        got = None
        while time.time() < deadline:
            got = chrome.js("const e = document.querySelector(arguments[0]); return e ? e.textContent : null;", css)
            if got is not None and want in got:
                return got
            time.sleep(0.05)
        raise AssertionError(f"{css}: wanted text containing {want!r}, last saw {got!r}")

    def press(*keys):
        actions = []
        for k in keys:
            actions += [{"type": "keyDown", "value": k}, {"type": "keyUp", "value": k}]
        chrome.cmd("POST", "/actions", {"actions": [{"type": "key", "id": "keyboard", "actions": actions}]})

    def cdp(cmd, **params):
        return chrome.cmd("POST", "/goog/cdp/execute", {"cmd": cmd, "params": params})

    def shots(name):
        """The whole page at 1440 wide, then the first screen at each size (the viewport set
        exactly with DevTools' device metrics, so browser chrome does not eat into it)."""
        chrome.full_screenshot(os.path.join(artifacts, f"{name}-full.png"), width=1440)
        chrome.cmd("POST", "/window/rect", {"width": 1280, "height": 900})
        for w, h in SIZES:
            cdp("Emulation.setDeviceMetricsOverride", width=w, height=h, deviceScaleFactor=1, mobile=w < 600)
            time.sleep(0.3)
            expect(chrome.js("return document.documentElement.scrollWidth <= window.innerWidth + 1"),
                   f"{name} at {w}×{h}: no sideways scrolling "
                   f"({chrome.js('return document.documentElement.scrollWidth')} > {w})")
            chrome.screenshot(os.path.join(artifacts, f"{name}-{w}x{h}.png"))
        cdp("Emulation.clearDeviceMetricsOverride")

    # ---- admission ---------------------------------------------------------------------
    def admission_source_003_both_languages():
        for lang, title in [("en", "Admission lab"), ("zh", "准入实验")]:
            page(f"?page=admission&lang={lang}&preset=source-003")
            expect(title in chrome.text("#page-title"), f"{lang} title: {chrome.text('#page-title')!r}")
            admitted = chrome.js("return Array.from(document.querySelectorAll('[id*=admitted][data-total]')).map(e => Number(e.dataset.total));")
            rejected = chrome.js("return Array.from(document.querySelectorAll('[id*=rejected][data-total]')).map(e => Number(e.dataset.total));")
            expect(admitted == [5.0], f"admitted 5: {admitted}")
            expect(rejected == [3.0], f"rejected 3: {rejected}")
            # Every rejection tells the client when to come back: 1,000 ms at 1 token/s.
            chrome.js("const s = document.getElementById('scrub'); s.value = s.max; s.dispatchEvent(new Event('input', {bubbles: true}));")
            rows = chrome.js("return Array.from(document.querySelectorAll('#adm-steps tbody tr.rejected')).map(r => r.cells[8].textContent);")
            expect(rows == ["1,000 ms"] * 3, f"3 × 429 with Retry-After 1,000 ms (grouped like every figure): {rows}")
            expect(chrome.js("return document.documentElement.lang") == ("zh-CN" if lang == "zh" else "en"), "<html lang> follows")
            # The side note: what Go's limiter and Envoy's would do with the same settings.
            go, envoy = chrome.text("#adm-note-go"), chrome.text("#adm-note-envoy")
            expect(all(w in go for w in ["Allow()", "Wait()", "Reserve()"]), f"Go's Allow, Wait and Reserve: {go!r}")
            expect(all(w in envoy for w in ["local_ratelimit", "max_tokens", "tokens_per_fill", "fill_interval"]),
                   f"Envoy's settings: {envoy!r}")
            # The step table fits its panel at a laptop's and a tablet's width: its Retry-After
            # column in view. Its layout follows its box, which beside the settings column is
            # narrower at 1,024 px than on a tablet (a phone shows its rows as cards: see
            # a11y.py; so does a box under 560 px, as at 660 px).
            for w, h in [(1366, 768), (1280, 800), (1024, 768), (768, 1024), (660, 900)]:
                chrome.viewport(w, h)
                fits = chrome.js("const t = document.getElementById('adm-steps'); return [t.scrollWidth, t.parentElement.clientWidth];")
                expect(fits[0] <= fits[1] + 1, f"({lang}) the step table fits at {w} px: {fits}")
                # And where its box is as wide as its widest preset (800 px, at 1,366), each
                # decision keeps one line (allowed to wrap there, it had taken two lines a row).
                if w >= 1366:
                    lines = chrome.js("return Array.from(document.querySelectorAll('#adm-steps tbody td:nth-child(7)')).map(td => {"
                                      " const r = document.createRange(); r.selectNodeContents(td);"
                                      " return new Set(Array.from(r.getClientRects()).map(x => Math.round(x.top))).size; });")
                    expect(max(lines) <= 1, f"({lang}) every decision on one line at {w} px: {lines}")
            chrome.viewport(1280, 900)
            shots(f"admission-source-003-{lang}")
            no_console_errors(chrome, f"admission source-003 ({lang})")

    def admission_source_002_steps_through_the_boundary():
        page("?page=admission&lang=en&preset=source-002")
        # Its widest table (cost_exceeds_capacity, 1.4 (1,400) tokens) fits a laptop's panel:
        # the identifier breaks after an underscore, and at 1,024 px the cells wrap too.
        for w in [1366, 1024]:
            chrome.viewport(w, 800)
            fits = chrome.js("const t = document.getElementById('adm-steps'); return [t.scrollWidth, t.parentElement.clientWidth];")
            expect(fits[0] <= fits[1] + 1, f"source-002's step table fits at {w} px: {fits}")
        chrome.viewport(1280, 900)
        # Stop the autoplay and start from the first event.
        chrome.js("const s = document.getElementById('scrub'); s.value = 0; s.dispatchEvent(new Event('input', {bubbles: true}));")
        expect(chrome.js("return document.getElementById('play').dataset.playing") == "false", "scrubbing pauses")
        expect(chrome.js("return document.getElementById('play').getAttribute('aria-pressed')") is None, "the Play button's label says its state; no aria-pressed besides")
        # The cards count up to the playhead, of the whole run's: before the first event,
        # nothing admitted or rejected yet.
        chrome.wait("#admission[data-step='0']")
        # One voice a move: the slider says where it is, so the live line is quiet after a
        # scrub, and the label beside the slider is not live.
        said = chrome.js("return [document.getElementById('adm-announce').textContent, document.getElementById('playhead-label').getAttribute('aria-live')];")
        expect(said == ["", None], f"after a scrub only the slider speaks: {said}")
        got = [value("#adm-admitted"), value("#adm-rejected"), total("#adm-admitted"), total("#adm-rejected")]
        expect(got == [0, 0, 3, 3], f"at step 0: 0 / 3 admitted, 0 / 3 rejected: {got}")
        steps = int(chrome.js("return document.getElementById('admission').dataset.steps"))
        expect(steps == 10, f"six arrivals, three completions and the refill to full after the last: {steps}")
        seen = []
        for k in range(1, steps + 1):
            chrome.click("#step")
            chrome.wait(f"#adm-step-{k}.current")
            if k in (2, 4):
                said = chrome.js("return document.getElementById('adm-announce').textContent")
                want = {2: "step 2 of 10 · t = 0 ms: arrival #2, cost 1, rejected (HTTP\u00a0429): concurrency_limit.",
                        4: "step 4 of 10 · t = 500 ms: #1 completes."}[k]
                expect(said == want, f"step {k}: the live line says the step and its event: {said!r}")
            said = chrome.js("return Array.from(document.querySelectorAll('#adm-steps tr[aria-current=step]')).map(r => r.id);")
            expect(said == [f"adm-step-{k}"], f"step {k}: the row shown is the step a screen reader is told: {said}")
            seen.append(chrome.js("const r = document.querySelector('#adm-steps tr.current').cells; return [r[1].textContent, r[3].textContent, r[4].textContent, r[6].textContent, r[7].textContent, r[2].textContent];"))
            # The bucket moves in step with the table: its level is the row's tokens after
            # (the credits in brackets), and the event drops in or bounces off.
            level = chrome.js("return document.getElementById('adm-bucket').dataset.level")
            after = seen[-1][2].split("(")[-1].rstrip(")").replace(",", "")
            expect(level == after, f"step {k}: the bucket holds {level} credits, the table says {seen[-1][2]!r}")
            drop = chrome.js("const g = document.querySelector('#adm-bucket g.drop'); return g && g.getAttribute('class');")
            want = ("drop full" if "refilled" in seen[-1][5] else "drop done") if seen[-1][3] == "" else \
                ("drop in" if seen[-1][3].startswith("admitted") else "drop off")
            expect(drop == want, f"step {k}: the bucket shows {drop}, the table {seen[-1][3]!r}")
        # The tokens chart marks every arrival: admitted as dots, refused as crosses.
        dots = chrome.js("return [document.querySelectorAll('#adm-tokens .mark-ok').length, document.querySelectorAll('#adm-tokens .mark-no').length];")
        expect(dots == [total("#adm-admitted"), total("#adm-rejected")], f"the chart's marks: {dots}")
        expect([value("#adm-admitted"), value("#adm-rejected")] == dots, "at the end the cards count the whole run")
        # At 500 ms the completion comes first and frees the slot for the arrival.
        expect(seen[3][0] == "500" and seen[3][3] == "", f"step 4 is #1's completion at 500 ms: {seen[3]}")
        expect(seen[4][0] == "500" and seen[4][3].startswith("admitted"), f"step 5 admits #4 at 500 ms: {seen[4]}")
        expect(seen[1][4] == "concurrency_limit" and seen[2][4] == "cost_exceeds_capacity" and seen[6][4] == "rate_limit",
               f"the three reasons: {[s[4] for s in seen]}")
        expect(seen[6][1] == "0.6 (600)", f"tokens with exact credits: {seen[6][1]!r}")
        expect(seen[9][0] == "2,000" and "refilled to B since 1,100 ms" in seen[9][5] and seen[9][2].startswith("2 "),
               f"the last row: the bucket full again at 2,000 ms: {seen[9]}")
        expect(int(chrome.js("return document.getElementById('admission').dataset.step")) == steps, "stepped to the end")
        # Play from the start runs to the end on its own.
        chrome.click("#play")
        expect(chrome.js("return document.getElementById('play').dataset.playing") == "true", "playing")
        expect(chrome.js("return document.getElementById('adm-announce').textContent") == "", "quiet while playing")
        deadline = time.time() + 15
        while time.time() < deadline and chrome.js("return document.getElementById('admission').dataset.step") != str(steps):
            time.sleep(0.1)
        expect(chrome.js("return document.getElementById('admission').dataset.step") == str(steps), "playback reached the end")
        no_console_errors(chrome, "admission playback")

    def admission_table_edit_and_generators():
        page("?page=admission&lang=en&preset=source-002")
        chrome.type("#f-row_hold-0", "501")
        # #1 now holds the slot until 501 ms: #4 at 500 ms meets the concurrency limit.
        wait_contains("#adm-reasons", "concurrency_limit 2, rate_limit 0")
        # The cards' "2 / 3 requests": the note says what the two numbers are (the breaker lab's does).
        expect(chrome.text("#adm-reasons").startswith("Before the slash: up to the playhead; after it: the whole run."),
               f"the cards' two numbers explained: {chrome.text('#adm-reasons')!r}")
        expect("arrivals=0:1:501" in chrome.url(), f"the table is in the link: {chrome.url()}")
        # A refused cell is named by the table's row and column, with the unit.
        chrome.type("#f-row_hold-2", "-5")
        wait_contains("#f-row_hold-2-error", "Row 3, hold = -5 is not accepted")
        expect(" ms" in chrome.text("#f-row_hold-2-error"), chrome.text("#f-row_hold-2-error"))
        # The figures above keep the last valid table, and say so (on a phone the error is
        # in the folded settings below them).
        wait_contains("#adm-stale", "The figures below still show the last valid input.")
        chrome.type("#f-row_hold-2", "100")
        deadline = time.time() + 10
        while time.time() < deadline and chrome.find("#adm-stale") is not None:
            time.sleep(0.1)
        expect(chrome.find("#adm-stale") is None, "valid again: the note goes")
        # Keyboard: Tab from the preset select reaches the capacity field; Enter in it applies.
        chrome.js("document.getElementById('preset').focus();")
        press(TAB)
        focused = chrome.js("return document.activeElement && document.activeElement.id")
        expect(focused is not None and focused != "preset", f"Tab moves on from the preset: {focused}")
        chrome.js("const s = document.getElementById('f-gen'); s.value = 'poisson'; s.dispatchEvent(new Event('change', {bubbles: true}));")
        chrome.wait("#f-seed")
        expect("gen=poisson" in chrome.url(), chrome.url())
        a = total("#adm-admitted") + total("#adm-rejected")
        expect(a == 6.0, f"six generated arrivals: {a}")
        page("?page=admission&lang=en&preset=source-003&b=-1&arrivals=0:1:5,x:1:2&zzz=1")
        err = chrome.text("#f-b-error") if chrome.find("#f-b-error") else ""
        said = chrome.js("return Array.from(document.querySelectorAll('.field-error')).map(e => e.textContent).join(' | ');")
        expect("Bucket capacity B (b) = -1" in said and "tokens" in said, f"the bad capacity is named, with its unit: {said!r} {err!r}")
        # A link's bad item is skipped (it is in no table row): named by the link's list, from 1.
        item = [e for e in said.split(" | ") if "The link's arrivals item 2, time = x" in e]
        expect(len(item) == 1 and " ms" in item[0],
               f"the link's bad item is named, by its part's label and unit: {said!r}")
        expect("zzz" in chrome.text("#unknown-params"), "unknown keys listed")
        # A refill rate finer than one credit a second is refused in words, not rounded away.
        page("?page=admission&lang=zh&preset=source-002&r=0.0005")
        said = chrome.js("return Array.from(document.querySelectorAll('.field-error')).map(e => e.textContent).join(' | ');")
        expect("= 0.0005" in said and "最多 3 位小数" in said, f"the fine rate is named, in Chinese: {said!r}")
        no_console_errors(chrome, "admission edits")

    # ---- queue -------------------------------------------------------------------------
    def queue_figures_both_languages():
        for lang, title in [("en", "Queue lab"), ("zh", "排队实验")]:
            page(f"?page=queue&lang={lang}")
            expect(title in chrome.text("#page-title"), f"{lang} title")
            wait_queue_run()
            rho, pwait, wait = value("#q-rho"), value("#q-pwait"), value("#q-wait")
            expect(abs(rho - 0.6) < 1e-12, f"ρ 60 %: {rho}")
            expect(abs(pwait - 0.13954) < 5e-5, f"Erlang C(8, 4.8) ≈ 0.1395: {pwait}")
            expect(abs(wait - 1.7443) < 1e-3, f"Wq = C/(cμ − λ) ≈ 1.744 ms: {wait}")
            srho, spwait = value("#q-rho-sim"), value("#q-pwait-sim")
            expect(abs(srho - rho) < 0.03 and abs(spwait - pwait) < 0.03, f"simulated beside closed form: {srho}, {spwait}")
            # L = λW on the run: the pool's time average (its entries and exits) against
            # λ × W from the calls' own times, and the table's simulated L is the former.
            lw, l_avg = chrome.js("const e = document.getElementById('q-little'); return e ? [+e.dataset.lw, +e.dataset.l] : [0, -1];")
            expect(abs(l_avg - lw) <= 1e-9 * lw and abs(value("#q-l-sim") - l_avg) < 1e-12,
                   f"Little's law checked on the run: L {l_avg} vs λW {lw}")
            expect(("Little" in chrome.text("#q-little")) and abs(l_avg - 4.8) < 0.3, f"L ≈ 4.8 in words: {chrome.text('#q-little')!r}")
            cap = [value(f"#cap-{k}") for k in ["admit", "headroom", "margin", "min-workers", "busy", "in-system"]]
            expect(cap == [150.0, 50.0, 30.0, 7.0, 4.8, 12.0], f"source 002's capacity table: {cap}")
            dots = chrome.js("return document.querySelectorAll('#q-curve .sim-dot').length")
            expect(dots == 11, f"ten sweep points and this setting's run: {dots}")
            expect(chrome.find("#q-queue-chart") is not None, "queue length over time drawn")
            # The busy workers' peaks run along the pool's limit at ρ = 60 %: the run's mean,
            # ρ × c from its own busy time, is drawn flat beside them, at its height on the y
            # axis (read off two of the axis' ticks), named in the legend without its number.
            got = chrome.js("""const c = document.getElementById('q-queue-chart');
                const paths = Array.from(c.querySelectorAll('path.series'));
                const flat = paths.filter(p => p.classList.contains('dash2'));
                const ys = flat.length ? Array.from(flat[0].getAttribute('d').matchAll(/[ML]\\s*[-\\d.]+[ ,]([-\\d.]+)/g)).map(m => +m[1]) : [];
                const ticks = Array.from(c.querySelectorAll('.axis.y g')).map(g => [Number(g.querySelector('text').textContent.replace(/,/g, '')), Number(g.querySelector('line').getAttribute('y1'))]);
                const [[v0, y0], [v1, y1]] = [ticks[0], ticks[ticks.length - 1]];
                const at = ys.length ? v0 + (ys[0] - y0) * (v1 - v0) / (y1 - y0) : null;
                return [paths.length, flat.length, ys.length > 1 && ys.every(y => y === ys[0]), at,
                        Array.from(c.querySelectorAll('.legend-item')).map(e => e.textContent)];""")
            mean = srho * 8
            # (Four lines: the peaks of the busy workers and the queue, then their means.)
            expect(got[:3] == [4, 2, True] and got[3] is not None and abs(got[3] - mean) < 0.05,
                   f"the busy workers' mean over the run ({mean:.3f}) drawn flat at its height: {got}")
            expect(not any(ch.isdigit() for ch in got[4][-1]), f"its legend names it without the number (capacity 1 veils the chart, not its caption): {got[4]}")
            shots(f"queue-source-002-{lang}")
            expect(chrome.find("#q-unfinished") is None, "a run that drained says nothing of unfinished requests")
            no_console_errors(chrome, f"queue ({lang})")
        # One worker, a second a call at 1,000 req/s: the run ends with most requests still in
        # the pool, and says so rather than show its figures as if it had drained.
        for lang, word in [("en", "still waiting"), ("zh", "仍有")]:
            page(f"?page=queue&lang={lang}&rate=1000&ms=1000&workers=1&queue=1000000")
            wait_queue_run()
            chrome.wait("#q-unfinished")
            expect(word in chrome.text("#q-unfinished"), f"the unfinished requests named ({lang}): {chrome.text('#q-unfinished')!r}")

    def queue_approximation_is_named_and_edits_rerun():
        page("?page=queue&lang=en&preset=long-tail")
        wait_queue_run()
        note = chrome.text("#q-assumes")
        expect("Allen–Cunneen" in note, f"the approximation is named: {note!r}")
        expect(chrome.text("#q-p99") == "—", "no p99 closed form off M/M/c")
        # Each capacity figure is what its formula's shown operands give, or is marked ≈
        # (163.394 − 122.545 had read "= 40.848").
        for query in ["preset=long-tail&queue=20&rate=200", "preset=source-002", "preset=long-tail", "rate=1&workers=1"]:
            page(f"?page=queue&lang=en&{query}")
            wait_queue_run()
            rows = chrome.js("""return ['headroom', 'margin', 'in-system'].map(id => {
                const v = document.getElementById('cap-' + id); return v && [v.previousElementSibling.textContent, v.textContent]; });""")
            for row in rows:
                if not row:
                    continue
                formula, shown = row
                if not re.search(r"\d", shown):
                    continue  # no figure (past capacity L = λW has none)
                nums = [float(x.replace(",", "")) for x in re.findall(r"-?[\d,]+(?:\.\d+)?", formula)]
                # (The page writes a negative value with a minus sign, U+2212.)
                got = float(re.search(r"-?[\d,]+(?:\.\d+)?", shown.replace("\u2212", "-")).group().replace(",", ""))
                want = nums[0] - nums[1] if "−" in formula else nums[0] * nums[1] / 1000
                expect("≈" in shown or abs(round(want, 3) - got) < 1e-9, f"{query}: {formula} = {shown} (the operands give {want:.4f})")
        # A phone: the figures one card a row, the simulated column within the screen.
        chrome.viewport(390, 844)
        try:
            for lang in ["en", "zh"]:
                page(f"?page=queue&lang={lang}&preset=source-002")
                wait_queue_run()
                cards = chrome.js("""const t = document.getElementById('q-figures');
                    const cells = [...t.querySelectorAll('tbody td')];
                    return [cells.length, cells.filter(c => c.getBoundingClientRect().right > innerWidth + 0.5).length,
                            cells.every(c => getComputedStyle(c, '::before').content.length > 2),
                            document.getElementById('q-rho-sim').getBoundingClientRect().top < innerHeight * 2];""")
                expect(cards[0] >= 18 and cards[1:] == [0, True, True], f"queue on a phone ({lang}): every figure within the screen, named: {cards}")
        finally:
            chrome.cmd("POST", "/window/rect", {"width": 1280, "height": 900})
        page("?page=queue&lang=en&preset=source-002")
        wait_queue_run()
        chrome.type("#f-workers", "0")
        wait_contains("#q-stale", "still show the last valid input")
        chrome.type("#f-workers", "7")
        chrome.wait("#q-rho[data-value^='0.68']")
        wait_queue_run()
        expect("workers=7" in chrome.url(), f"the change is in the link: {chrome.url()}")
        said = chrome.js("return document.getElementById('q-announce').textContent")
        expect(said.startswith("Run finished, changed: Utilisation ρ 60 % → 68.57 %, Mean time in system W "),
               f"the live region reads what the move changed, not the whole panel: {said}")
        expect(chrome.find(".outputs[aria-live]") is None, "the outputs themselves are not a live region")
        page("?page=queue&lang=en&workers=0&service=weird&foo=1")
        said = chrome.js("return Array.from(document.querySelectorAll('.field-error')).map(e => e.textContent).join(' | ');")
        expect("Workers (workers) = 0" in said and "service" in said and "foo" in said, f"bad values named: {said!r}")
        page("?page=queue&lang=en&preset=overload")
        wait_queue_run()
        expect("M/M/c/K" in chrome.text("#q-assumes"), "overload's queue limit: M/M/c/K's exact forms")
        blocked, blocked_sim = value("#q-blocked"), value("#q-blocked-sim")
        expect(abs(blocked - blocked_sim) < 0.01, f"turned away, closed form beside the run: {blocked}, {blocked_sim}")
        expect(chrome.find("#q-no-steady-state") is None, "a bounded queue has a steady state: the line goes on")
        # Its queue's peaks sit at the limit of 50; its mean (the story's "two-thirds full")
        # is drawn beside them, from the run's L less its busy workers.
        chrome.js("const d = document.querySelector('#q-queue-chart details.chart-data'); d.open = true; d.dispatchEvent(new Event('toggle'));")
        chrome.wait("#q-queue-chart-table")
        cols = chrome.js("""const t = document.getElementById('q-queue-chart-table');
            const names = [...t.querySelectorAll('thead th')].map(h => h.textContent);
            const i = names.indexOf('queue, mean over the whole run');
            return [i, i < 0 ? null : t.querySelector('tbody tr').children[i].textContent];""")
        mean_q = float(cols[1]) if cols[0] > 0 else -1
        expect(25 <= mean_q <= 42, f"the queue's mean, about two-thirds of 50: {cols}")
        # Its announcement names the figure as the table does: the busy share (99.6 %), not ρ
        # (105 % in the capacity table).
        said = chrome.js("return document.getElementById('q-announce').textContent")
        expect("Busy share (utilisation carried)" in said and "Utilisation ρ" not in said, f"the busy share is named: {said!r}")
        shots("queue-overload-en")
        no_console_errors(chrome, "queue edits")
        # Settings within every knob's range whose curve asks for rates the engine refuses:
        # the curve's points out of its range are not run and the page says so; nothing fails.
        for q, skipped in [("workers=10000&ms=1", False), ("workers=10000&ms=0.001", True),
                           ("service=log_normal&ms=1&p99=1000000", True)]:
            page(f"?page=queue&lang=en&{q}")
            wait_queue_run()
            expect(chrome.find("#run-error") is None, f"{q}: no run fails: {chrome.text('#run-error') if chrome.find('#run-error') else ''}")
            note = chrome.text("#q-not-run") if chrome.find("#q-not-run") else ""
            expect(bool(note) == skipped and (not skipped or "10 of the curve's 10" in note),
                   f"{q}: the points not run are said: {note!r}")
            # μ of a mean service time of hours keeps its digits in the formula (not "× 0").
            if "p99" in q:
                rho = chrome.text("#q-figures tbody tr")
                expect("× 0)" not in rho and "0.0000" in rho, f"{q}: μ keeps its digits: {rho!r}")
        no_console_errors(chrome, "queue lab with points out of the engine's range")
        # Evenly spaced arrivals: Takács' exact D/M/c (P(wait) 2.76 %), not Erlang C's 13.95 %.
        page("?page=queue&lang=en&arrivals=even")
        wait_queue_run()
        expect("D/M/c" in chrome.text("#q-assumes") and "Takács" in chrome.text("#q-figures"),
               f"D/M/c named: {chrome.text('#q-assumes')!r}")
        expect(abs(value("#q-pwait") - 0.02755) < 1e-4, f"D/M/8's P(wait): {value('#q-pwait')}")
        expect(chrome.text("#q-p99") != "—", "D/M/c has a p99")
        # A queue limit off M/M/c/K (constant service): a steady state, but no closed form
        # past 100 %; neither "no steady state" nor "see the M/M/c/K figures".
        page("?page=queue&lang=en&preset=overload&service=constant")
        wait_queue_run()
        notes = " ".join(chrome.text(f"#q-{n}") for n in ["no-steady-state", "cap-bounded", "assumes", "cap-note"])
        expect("no steady state" not in notes and "queue grows" not in notes and "see the M/M/c/K" not in notes
               and "steady state at any load" in notes and "a steady state, but no closed form" in notes,
               f"the notes say what the page has: {notes!r}")
        expect("Allen–Cunneen" in chrome.text("#q-limit-note"), f"the line named as drawn: {chrome.text('#q-limit-note')!r}")
        # Past capacity without a limit, λ/(cμ) (105 %) is not called a utilisation beside the
        # run's busy share (99.9 %).
        page("?page=queue&lang=en&preset=overload&queue=0")
        wait_queue_run()
        first = chrome.text("#q-figures tbody tr th")
        expect(first.startswith("Offered load per worker"), f"the first row's name past capacity: {first!r}")
        # Beside it the run's own offered load (its arrivals ÷ cμ), not its busy share, which
        # has a row of its own and stops at 100 %.
        offered, seen, busy, busy_seen = (value(f"#q-{k}") for k in ["rho", "rho-sim", "busy", "busy-sim"])
        expect(abs(offered - 1.05) < 1e-9 and abs(seen - offered) < 0.03, f"offered 105 %, the run's {seen}")
        expect(busy == 1.0 and 0.95 < busy_seen <= 1.0, f"busy share: {busy} closed, {busy_seen} run")

    def labs_from_the_navigation():
        page("?page=storm&lang=zh")
        chrome.click("#nav-admission")
        chrome.wait_text("#page-title", "准入实验：令牌桶与并发上限")
        chrome.click("#nav-queue")
        chrome.wait("#queue")
        expect("page=queue" in chrome.url() and "lang=zh" in chrome.url(), chrome.url())
        no_console_errors(chrome, "navigation to the labs")

    for name, fn in [
        ("labs-aq admission: source-003 shows 5 admitted and 3 rejected, in both languages", admission_source_003_both_languages),
        ("labs-aq admission: source-002 steps through the 500 ms boundary, and plays", admission_source_002_steps_through_the_boundary),
        ("labs-aq admission: table edits, generators, keyboard and bad links", admission_table_edit_and_generators),
        ("labs-aq queue: ρ, Erlang C and mean wait beside the simulation, in both languages", queue_figures_both_languages),
        ("labs-aq queue: approximations named, edits rerun, bad links named", queue_approximation_is_named_and_edits_rerun),
        ("labs-aq: both labs from the navigation", labs_from_the_navigation),
    ]:
        run(name, fn)

"""The storm page's attempt tree (issue 13) end to end, in both languages.

A request asked for by link or by a finder button is traced whole: chain-3x3 failing
everywhere makes 27 leaf calls; lab 11 with a 150 ms budget cuts the profile retry at the
deadline; the finder buttons name the CLI report's examples; a bad number names its field.
"""

import json
import os
import subprocess
import time


def add_checks(run, chrome, base, lab, expect, no_console_errors, wait_run, cli_report, artifacts):
    def load(query):
        chrome.get(base + query)
        return wait_run(chrome)

    def attr(css, name):
        return chrome.js(
            "const e = document.querySelector(arguments[0]); return e && e.getAttribute(arguments[1]);", css, name)

    def rows():
        return chrome.js("return document.querySelectorAll('#chart-tree g.span').length;")

    def stops():
        return chrome.js(
            "return Array.from(document.querySelectorAll('#tree-stops li'))"
            ".map(li => [li.dataset.cause, Number(li.dataset.callee), Number(li.dataset.tries)]);")

    def chain_3x3_has_27_leaf_calls():
        for lang in ["en", "zh"]:
            load(f"?page=storm&lang={lang}&preset=chain-3x3&request=5")
            expect(attr("#tree-summary", "data-request") == "5", "the asked-for request is shown")
            expect(attr("#tree-summary", "data-leaf-calls") == "27", f"27 leaf calls: {attr('#tree-summary', 'data-leaf-calls')}")
            expect(attr("#tree-summary", "data-calls") == "40", "1 + 3 + 9 + 27 calls")
            expect(rows() == 40, f"40 rows drawn, got {rows()}")
            causes = {c for c, _, _ in stops()}
            expect(causes == {"AttemptsExhausted"}, f"every branch exhausted its attempts: {causes}")
            expect(len(stops()) == 13, "1 + 3 + 9 callers gave up")
            chrome.click("#tree-collapse-1")
            expect(rows() == 4, f"collapsing below the gateway leaves the client and 3 gateway calls: {rows()}")
            chrome.click("#tree-collapse-1")
            expect(rows() == 40, "and expanding brings them back")
            no_console_errors(chrome, f"tree {lang}")

    def lab11_budget_150_cut_by_the_deadline():
        load("?page=storm&lang=en&preset=lab11-budget-150&request=3")
        expect(stops() == [["AttemptsExhausted", 1, 1], ["Deadline", 2, 1]],
               f"page gave up after its one try; recommendation was cut by the deadline after one: {stops()}")
        expect(attr("#tree-summary", "data-outcome") == "degraded", "degraded, not failed")

    def finders_name_the_cli_examples():
        seed = 3
        rep = cli_report(lab, "big-promo-protected", seed)
        ex = rep["examples"]
        load(f"?page=storm&lang=en&preset=big-promo-protected&seed={seed}")
        expect(chrome.js("return document.getElementById('chart-tree');") is None, "the tree starts folded")
        chrome.click("#tree-fold > summary")
        chrome.wait("#tree-find-failed")
        pairs = {"failed": ex["failed"], "degraded": ex["degraded"], "rejected": ex["rejected"], "slowest": ex["slowest"],
                 "breaker": ex["by_cause"]["breaker_rejected"], "bulkhead": ex["by_cause"]["bulkhead_rejected"]}
        for k, want in pairs.items():
            got = attr(f"#tree-find-{k}", "data-request")
            expect(got == ("" if want is None else str(want)), f"{k}: page {got!r}, CLI {want!r}")
            expect((attr(f"#tree-find-{k}", "disabled") is not None) == (want is None), f"{k} enabled only with an example")
        n = ex["by_cause"]["breaker_rejected"]
        expect(n is not None, "big-promo-protected has a request cut by the breaker")
        before = wait_run(chrome)
        chrome.click("#tree-find-breaker")
        wait_run(chrome, before)
        expect(f"request={n}" in chrome.url(), f"the link keeps the request: {chrome.url()}")
        expect(attr("#tree-summary", "data-request") == str(n), "its tree is shown")
        expect(any(c == "BreakerOpen" for c, _, _ in stops()), f"a branch the breaker stopped: {stops()}")
        # Back to the sampled request: the tree the learner is looking at stays open.
        chrome.click("#tree-find-sampled")
        chrome.wait("#tree-find-sampled[aria-pressed=true]")
        wait_run(chrome)
        time.sleep(0.2)
        expect(chrome.js("return document.getElementById('tree-fold').open;"), "the sampled one keeps the tree open")
        chrome.click("#tree-find-breaker")
        wait_run(chrome)
        # The same request from its link alone.
        link = chrome.url()
        chrome.get("about:blank")
        chrome.get(link)
        wait_run(chrome)
        expect(attr("#tree-summary", "data-request") == str(n), "the link reproduces the tree")

    def a_bad_request_number_names_the_field():
        load("?page=storm&lang=en&preset=chain-3x3&request=abc")
        err = chrome.text("#tree-request-error")
        expect("request" in err and "abc" in err, f"error names field and value: {err!r}")
        load("?page=storm&lang=en&preset=lab11-unprotected&request=150")
        expect("100" in chrome.text("#tree-missing"), "a request past the run's end says how many there are")
        chrome.js("document.getElementById('tree-request').value = '';")
        chrome.type("#tree-request", "7")
        wait_run(chrome)
        chrome.wait("#tree-summary")
        expect(attr("#tree-summary", "data-request") == "7", "typing a number and Enter shows it")

    def a_latency_bar_shows_a_request_from_it():
        before = load("?page=storm&lang=en&preset=recommendation-500rps&seed=2")
        bars = chrome.js(
            "return Array.from(document.querySelectorAll('#chart-latency rect.pick'))"
            ".map(r => [r.getAttribute('class'), r.dataset.request]);")
        expect(len(bars) >= 2, f"pickable bars: {bars}")
        cls, n = bars[-1]
        chrome.click(f"#chart-latency rect.pick[data-request='{n}']")
        wait_run(chrome, before)
        expect(attr("#tree-summary", "data-request") == n, f"the bar's request {n} is shown")
        outcome = cls.split()[0].removeprefix("o-")
        expect(attr("#tree-summary", "data-outcome") == outcome, f"with the bar's outcome {outcome}")
        expect(f"request={n}" in chrome.url(), "and kept in the link")
        # The timeline above the tree shows the same request (it had stayed on #0).
        label = chrome.text("#trace-label")
        expect(f"#{n}:" in label, f"the timeline shows the picked request {n} too: {label!r}")
        # The keyboard does the same.
        before = wait_run(chrome)
        m = next(r for _, r in bars if r != n)
        chrome.js("document.querySelector(`#chart-latency rect.pick[data-request='${arguments[0]}']`).focus();", m)
        chrome.press("\ue007")  # Enter
        wait_run(chrome, before)
        expect(attr("#tree-summary", "data-request") == m, f"Enter on a focused bar shows request {m}")
        # The bars are one Tab stop, the arrow keys move among them (dozens of stops had
        # stood between the figures and the settings).
        stops = chrome.js("return Array.from(document.querySelectorAll('#chart-latency rect.pick')).map(r => r.getAttribute('tabindex'));")
        expect(stops.count("0") == 1 and stops[0] == "0", f"one Tab stop, the first bar: {stops}")
        chrome.js("document.querySelector('#chart-latency rect.pick').focus();")
        where = "const r = document.activeElement; return [r.matches('#chart-latency rect.pick'), [...document.querySelectorAll('#chart-latency rect.pick')].indexOf(r)];"
        chrome.press("\ue014")  # ArrowRight
        expect(chrome.js(where) == [True, 1], f"an arrow on: the second bar has the focus: {chrome.js(where)}")
        # Its focus shows however thin the bar (one request among thousands is a fraction of
        # a pixel tall): a ring round it, as every other control has, besides its stroke.
        ring = chrome.js("const s = getComputedStyle(document.activeElement); return [s.outlineStyle, parseFloat(s.outlineWidth), parseFloat(s.outlineOffset)];")
        expect(ring[0] == "solid" and ring[1] >= 3 and ring[2] >= 3, f"a focused bar has a ring round it: {ring}")
        chrome.press("\ue012", "\ue012")  # ArrowLeft twice: it stops at the first
        expect(chrome.js(where) == [True, 0], f"back to the first and no further: {chrome.js(where)}")
        chrome.press("\ue010")  # End
        expect(chrome.js(where) == [True, len(stops) - 1], f"End: the last of {len(stops)} bars: {chrome.js(where)}")
        before = wait_run(chrome)
        chrome.press("\ue007")  # Enter
        wait_run(chrome, before)
        expect(attr("#tree-summary", "data-request") == bars[-1][1], f"Enter on the last bar shows its request: {attr('#tree-summary', 'data-request')}")

    def the_timeline_opens_its_request_tree():
        before = load("?page=storm&lang=zh&preset=lab11-unprotected")
        chrome.click("#trace-next")
        chrome.click("#trace-next")
        n = attr("#trace-tree", "data-request")
        expect(n is not None and n in chrome.text("#trace-label"), f"the button names the request shown: {n}")
        chrome.click("#trace-tree")
        wait_run(chrome, before)
        expect(attr("#tree-summary", "data-request") == n, f"its tree is open: {attr('#tree-summary', 'data-request')} vs {n}")
        expect(attr("#tree-summary", "data-leaf-calls") == "9", "lab 11 unprotected: 9 profile calls")
        no_console_errors(chrome, "timeline to tree")

    def compare_mode_shows_side_bs_tree():
        load("?page=storm&lang=en&preset=lab11-unprotected&compare=1&request=3")
        chrome.wait("#tree-summary-b")
        expect(attr("#tree-summary", "data-leaf-calls") == "9", f"side A: 9 profile calls: {attr('#tree-summary', 'data-leaf-calls')}")
        expect(attr("#tree-summary-b", "data-request") == "3", "side B shows the same request")
        expect(attr("#tree-summary-b", "data-leaf-calls") == "2",
               f"side B (protected: one retry layer, 2 attempts): 2 profile calls: {attr('#tree-summary-b', 'data-leaf-calls')}")
        expect(chrome.js("return document.querySelectorAll('#tree-request').length") == 1, "one request finder, side A's")
        spans = [float(attr(f"#tree-summary{x}", "data-span-ms")) for x in ["", "-b"]]
        expect(spans[0] == spans[1] and spans[0] >= 1020, f"both trees on one time span, the longer (1,020 ms): {spans}")
        # Where one side's request lasts over ten times the other's (big-promo's request 609:
        # seconds against milliseconds), each tree keeps its own span: on the longer one's
        # axis the shorter was a line at 0.
        load("?page=storm&lang=en&preset=big-promo&compare=1&request=609")
        chrome.wait("#tree-summary-b")
        far = [float(attr(f"#tree-summary{x}", "data-span-ms")) for x in ["", "-b"]]
        expect(max(far) > 10 * min(far) > 0, f"each tree on its own span: {far}")
        load("?page=storm&lang=en&preset=lab11-unprotected&compare=1&request=3")
        chrome.wait("#tree-summary-b")
        # Side B's own bars and timeline pick a request too, for both trees.
        n = chrome.js("const r = document.querySelector('#chart-latency-b rect.pick'); return r && r.dataset.request;")
        expect(n is not None, "side B's latency bars can be picked")
        before = wait_run(chrome)
        chrome.js("document.getElementById('chart-latency-b').scrollIntoView({block: 'center'});")
        chrome.click(f"#chart-latency-b rect.pick[data-request='{n}']")
        wait_run(chrome, before)
        got = [attr(f"#tree-summary{x}", "data-request") for x in ["", "-b"]]
        expect(got == [n, n], f"side B's bar {n} shows in both trees: {got}")
        m = attr("#trace-tree-b", "data-request")
        expect(m is not None, "side B's timeline has its tree button")
        before = wait_run(chrome)
        chrome.js("document.getElementById('trace-tree-b').scrollIntoView({block: 'center'});")
        chrome.click("#trace-tree-b")
        if m != n:
            wait_run(chrome, before)
        got = [attr(f"#tree-summary{x}", "data-request") for x in ["", "-b"]]
        expect(got == [m, m], f"side B's timeline request {m} shows in both trees: {got}")
        no_console_errors(chrome, "tree in compare mode")

    def screenshots():
        for lang in ["en", "zh"]:
            for (w, h) in [(1440, 900), (1920, 1080), (390, 844)]:
                chrome.viewport(w, h)
                load(f"?page=storm&lang={lang}&preset=lab11-budget-150&request=3")
                chrome.js("document.getElementById('chart-tree').scrollIntoView();")
                chrome.screenshot(os.path.join(artifacts, f"tree-{lang}-{w}.png"))
        chrome.cmd("POST", "/window/rect", {"width": 1280, "height": 900})

    def cli_link(query):
        out = subprocess.run([lab, "run", "--link", query, "--format", "json"], check=True, capture_output=True, text=True)
        return json.loads(out.stdout)

    def every_stop_and_call_as_the_cli_traced_it():
        # For a request cut by each mechanism the runs have (the CLI's example of that
        # cause), the page's tree: the stop it names, and every call with its hop, attempt,
        # start, end and result exactly as the CLI traced the same request.
        seeded = "?page=storm&preset=big-promo-protected&seed=3"
        budget = "?page=storm&preset=metastable-retry-storm&l1.budget=ratio"
        ex = cli_link(seeded)["examples"]
        ex_budget = cli_link(budget)["examples"]
        # A 4xx from the leaf, set on the page's own knob: never retried.
        client = "?page=storm&preset=chain-3x3&leaf.error=0.5&leaf.client_error=0.3"
        ex_client = cli_link(client)["examples"]
        cases = [
            (seeded, ex["by_cause"]["bulkhead_rejected"], "BulkheadFull", None),
            (seeded, ex["by_cause"]["breaker_rejected"], "BreakerOpen", None),
            (seeded, ex["by_cause"]["timeout"], None, ".mark.timeout"),
            # Turned away at the entry's admission: its one call, refused with the reason.
            (seeded, ex["rejected"], None, "g.span[data-result=overload]"),
            (budget, ex_budget["by_cause"]["retry_budget_denied"], "RetryBudget", None),
            (client, ex_client["by_cause"]["client_error"], "NotRetryable", "g.span[data-result=client_error]"),
        ]
        for query, n, cause, css in cases:
            expect(n is not None, f"{query}: the CLI has an example for {cause or css}")
            load(f"{query}&request={n}&lang=en")
            chrome.wait("#chart-tree")
            if cause:
                expect(any(c == cause for c, _, _ in stops()), f"request {n}: a branch stopped by {cause}: {stops()}")
            if css:
                expect(chrome.find(f"#chart-tree {css}") is not None, f"request {n}: the tree shows {css}")
            if "overload" in (css or ""):
                tip = chrome.js("return document.querySelector('#chart-tree g.span[data-result=overload] title').textContent")
                expect("rate limit" in tip.lower(), f"request {n}: the admission's reason is named: {tip!r}")
            page = sorted(chrome.js(
                "return Array.from(document.querySelectorAll('#chart-tree g.span')).map(g => [Number(g.dataset.hop),"
                " Number(g.dataset.attempt), Number(g.dataset.startMs), Number(g.dataset.endMs), g.dataset.result]);"))
            trace = next(t for t in cli_link(f"{query}&request={n}")["traces"] if t["request"] == n)
            want = sorted([sp["hop"], sp["attempt"], sp["start_ms"], sp["end_ms"], sp["result"]] for sp in trace["spans"])
            expect(page == want, f"request {n}: the page's calls {page[:4]}… equal the CLI's trace {want[:4]}…")
        no_console_errors(chrome, "tree causes")

    for name, fn in [
        ("attempt tree: each cause's example stops where the CLI says, every call as traced", every_stop_and_call_as_the_cli_traced_it),
        ("attempt tree: chain-3x3 failing everywhere makes 27 leaf calls, collapsible by hop", chain_3x3_has_27_leaf_calls),
        ("attempt tree: lab11-budget-150's retry is cut by the deadline", lab11_budget_150_cut_by_the_deadline),
        ("attempt tree: the finder buttons are the CLI report's examples, and a link keeps the pick", finders_name_the_cli_examples),
        ("attempt tree: a bad request number names the field", a_bad_request_number_names_the_field),
        ("attempt tree: a latency bar shows a request from it, by mouse and keyboard", a_latency_bar_shows_a_request_from_it),
        ("attempt tree: the sampled timeline opens its request's tree", the_timeline_opens_its_request_tree),
        ("attempt tree: compare mode shows the same request in side B's run", compare_mode_shows_side_bs_tree),
        ("attempt tree: screenshots in both languages at three sizes", screenshots),
    ]:
        run(name, fn)

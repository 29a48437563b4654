"""End-to-end checks of the storm page's cause breakdown and retry timing (issue 13, items 2
and 3).

The breakdown's every count (the request flow's boxes, each hop's results, each caller's
refusals) carries its exact value in `data-value`; they must equal the CLI's report for
the same preset and seed. The retry timing section starts folded; opened, it draws one
histogram per attempt number within the policy's bounds and the four jitter modes.
Screenshots of both, in English and Chinese, at 1440 × 900 and 390 × 844.
"""

import os
import time

SIZES = [(1440, 900), (390, 844)]


def expected_breakdown(r):
    """The page ids (without the `bd-a-` prefix) and the counts they must carry."""
    s = r["summary"]
    want = {
        "requests": s["original_requests"],
        "succeeded": s["succeeded"],
        "degraded": s["degraded"],
        "failed": s["failed"] - s["unfinished"],
        "unfinished": s["unfinished"],
        "rejected": s["admission_rejected"],
    }
    for cause, n in s["failed_by_cause"].items():
        want[f"failed-{cause}"] = n
    for cause, n in s["degraded_by_cause"].items():
        want[f"degraded-{cause}"] = n
    for reason in ["rate_limit", "concurrency_limit", "queue_full", "queue_timeout"]:
        want[f"rejected-{reason}"] = r["hops"][0]["refused"][reason]
    for i, h in enumerate(r["hops"]):
        res, ref = h["results"], h["refused"]
        want[f"hop{i}"] = h["calls"]
        for k in ["ok", "error", "budget_exhausted", "cancelled", "unfinished"]:
            want[f"hop{i}-{k}"] = res[k]
        for k in ["rate_limit", "concurrency_limit", "queue_full", "queue_timeout", "cost_exceeds_capacity"]:
            want[f"hop{i}-{k}"] = ref[k]
        want[f"hop{i}-client_error"] = res["client_error"] - ref["cost_exceeds_capacity"]
        want[f"hop{i}-abandoned"] = h["abandoned_work"]
    for ci, c in enumerate(r["clients"]):
        parts = [c["attempts"], c["breaker_rejected"], c["bulkhead_rejected"], c["budget_exhausted"], c["retry_budget_denied"]]
        want[f"c{ci}"] = sum(parts)
        for k, v in zip(["sent", "breaker_rejected", "bulkhead_rejected", "budget_exhausted", "retry_budget_denied"], parts):
            want[f"c{ci}-{k}"] = v
        want[f"c{ci}-timeouts"] = c["timeouts"]
    return want


def add_checks(run, chrome, base, lab, expect, no_console_errors, artifacts, wait_run, cli_report, measurements):
    def page(query):
        chrome.get(base + query)
        return wait_run(chrome)

    def on_page(side="a"):
        return chrome.js(
            "const out = {}; document.querySelectorAll('[id^=\"bd-%s-\"][data-value]').forEach(e => "
            "{ out[e.id.slice(5)] = Number(e.getAttribute('data-value')); }); return out;" % side
        )

    def breakdown_matches_the_cli():
        for preset, lang in [("big-promo-protected", "en"), ("lab11-protected", "zh"), ("breaker-demo", "en"),
                             ("big-promo", "en"), ("chain-3x3", "zh"), ("metastable-retry-storm", "en")]:
            seed = 7
            page(f"?page=storm&lang={lang}&preset={preset}&seed={seed}")
            got = on_page()
            want = expected_breakdown(cli_report(lab, preset, seed))
            for key, v in want.items():
                if v != 0:
                    expect(key in got, f"{preset}: {key} = {v} is not on the page")
                if key in got:
                    expect(got[key] == v, f"{preset} ({lang}): {key} page {got[key]} != CLI {v}")
            extra = sorted(set(got) - set(want))
            expect(not extra, f"{preset}: page figures the check does not know: {extra}")
            # The flow adds up to the headline figures on the same page.
            heads = chrome.js("const o = {}; document.querySelectorAll('[id^=\"h-a-\"]').forEach(e => "
                              "{ o[e.id.slice(4)] = Number(e.dataset.value); }); return o;")
            expect(got["requests"] == heads["original_requests"], f"{preset}: requests = the headline")
            expect(got.get("failed", 0) + got.get("unfinished", 0) == heads["failed"], f"{preset}: failed = the headline")
            no_console_errors(chrome, f"breakdown {preset}")

    def retry_timing_renders():
        # The preset with jitter: the app retries once after full jitter on 100 ms (cap 1 s).
        page("?page=storm&lang=en&preset=big-promo-protected")
        expect(chrome.find("#rt-body-a") is None, "folded, nothing sampled")
        chrome.click("#retry-timing-a > summary")
        chrome.wait("#rt-body-a")
        figs = chrome.js("return Array.from(document.querySelectorAll('#rt-body-a figure.rt-hist:not(.rt-mode)')).map(f => [f.id, Number(f.dataset.min), Number(f.dataset.max)]);")
        expect(len(figs) == 1 and figs[0][0] == "rt-a-a2", f"one retry, one histogram: {figs}")
        expect(0 <= figs[0][1] < 5 and 95 < figs[0][2] <= 100, f"full jitter over [0, 100 ms]: {figs[0]}")
        expect("full" in chrome.text("#rt-policy-a"), chrome.text("#rt-policy-a"))
        modes = chrome.js("return Array.from(document.querySelectorAll('#rt-body-a .rt-mode')).map(f => f.id);")
        expect(modes == [f"rt-cmp-a-{m}" for m in ["none", "full", "equal", "decorrelated"]], f"four modes: {modes}")
        # Equal jitter on 50 ms doubling, capped at 300 ms, five attempts: within [t/2, t].
        page("?page=storm&lang=en&preset=chain-3x3&l1.attempts=5&l1.backoff=exponential&l1.backoff_ms=50"
             "&l1.backoff_cap=300&l1.jitter=equal")
        chrome.click("#retry-timing-a > summary")
        chrome.wait("#rt-body-a")
        took = float(chrome.js("return document.getElementById('rt-body-a').dataset.sampleMs"))
        measurements["retry_timing_sample_ms"] = took
        print(f"     sampling 5 × 10,000 sequences of 4 retries in wasm: {took:.1f} ms")
        expect(took < 250, f"sampling took {took} ms")
        figs = chrome.js("return Array.from(document.querySelectorAll('#rt-body-a figure.rt-hist:not(.rt-mode)')).map(f => [f.id, Number(f.dataset.min), Number(f.dataset.max)]);")
        expect([f[0] for f in figs] == [f"rt-a-a{n}" for n in range(2, 6)], f"attempts 2..5: {figs}")
        for (fid, lo, hi), t in zip(figs, [50, 100, 200, 300]):
            expect(t / 2 <= lo and hi <= t and hi - lo > t / 4, f"{fid}: [{lo}, {hi}] within [{t / 2}, {t}] and spread")
        # Another caller from the picker (the gateway retries at once).
        chrome.js("const s = document.getElementById('rt-client-a'); s.value = '1'; s.dispatchEvent(new Event('change', {bubbles: true}));")
        chrome.wait("#rt-at-once-a")
        no_console_errors(chrome, "retry timing")

    def screenshots():
        shots = [("breakdown", "?page=storm&preset=big-promo-protected&seed=7", "#breakdown-a"),
                 ("breakdown-hops", "?page=storm&preset=big-promo-protected&seed=7", "#breakdown-a .bd-hops"),
                 ("retry-timing", "?page=storm&preset=chain-3x3&l1.attempts=5&l1.backoff=exponential&l1.backoff_ms=50"
                  "&l1.backoff_cap=300&l1.jitter=decorrelated", "#retry-timing-a")]
        for lang in ["en", "zh"]:
            for w, h in SIZES:
                chrome.viewport(w, h)
                for name, query, css in shots:
                    page(f"{query}&lang={lang}")
                    if name == "retry-timing":
                        chrome.click("#retry-timing-a > summary")
                        chrome.wait("#rt-body-a")
                    chrome.js("document.querySelector(arguments[0]).scrollIntoView({block: 'start'}); window.scrollBy(0, -84);", css)
                    time.sleep(0.2)
                    chrome.screenshot(os.path.join(artifacts, f"{name}-{lang}-{w}x{h}.png"))
                    wide = chrome.js("return document.documentElement.scrollWidth")
                    expect(wide <= w, f"{name} {lang} at {w}: nothing overflows sideways ({wide} px)")
        chrome.cmd("POST", "/window/rect", {"width": 1280, "height": 900})
        no_console_errors(chrome, "breakdown screenshots")

    run("the cause breakdown's figures equal the CLI's report", breakdown_matches_the_cli)
    run("retry timing: folded until opened, then per attempt within the policy's bounds", retry_timing_renders)
    run("the cause breakdown and retry timing at 1440 and 390 px, both languages", screenshots)

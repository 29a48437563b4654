"""A time chart's data table: what a screen reader (or anyone) reads instead of the picture.
Opened under the load chart, its peak row equals the native report's series for the same
preset and seed (the highest bucket, per second, and when it came), its columns are the
chart's legend, and the page stays clean under axe with the table open."""

SEED = 7


def add_checks(run, chrome, base, lab, expect, no_console_errors, wait_run, cli_report, axe_violations):

    def peak_text(counts, bucket_ms, lang):
        per_s = [c * 1000.0 / bucket_ms for c in counts]
        top = max(per_s)
        i = per_s.index(top)
        t = f"{i * bucket_ms / 1000.0:.2f}".rstrip("0").rstrip(".")
        v = f"{top:,.0f}" if top == int(top) else f"{top:,.1f}"
        return f"{v} at {t} s" if lang == "en" else f"{v}（{t} s 时）"

    def load_chart_table():
        preset = "lab11-unprotected"
        report = cli_report(lab, preset, SEED)
        s = report["series"]
        for lang in ["en", "zh"]:
            chrome.get(base + f"?page=storm&lang={lang}&preset={preset}&seed={SEED}")
            wait_run(chrome)
            chrome.js("const p = document.getElementById('play'); if (p && p.dataset.playing === 'true') p.click();")
            expect(chrome.js("return document.getElementById('load-a-table')") is None, "the table is built only when opened")
            chrome.js("document.querySelector('#load-a details.chart-data > summary').click();")
            chrome.wait("#load-a-table")
            got = chrome.js("""const t = document.getElementById('load-a-table');
                return [Array.from(t.tHead.rows[0].cells).map(c => c.textContent),
                        Array.from(t.tBodies[0].rows).map(r => Array.from(r.cells).map(c => c.textContent)),
                        Array.from(document.querySelectorAll('#load-a .legend .legend-item')).map(e => e.textContent)];""")
            head, rows, legend = got
            expect(head[1:] == legend, f"{lang}: the columns are the chart's series: {head} vs {legend}")
            want_rows = min(20, s["buckets"]) + 1
            expect(len(rows) == want_rows, f"{lang}: {want_rows - 1} times and the peak: {len(rows)} rows")
            series = [s["offered"]] + s["attempts"]
            want = [peak_text(c, s["bucket_ms"], lang) for c in series]
            expect(rows[-1][1:] == want, f"{lang}: each series' peak as the native report has it: {rows[-1]} vs {want}")
            # Every row: the highest bucket of its span of the run, per second.
            n = s["buckets"]
            k = min(20, n)
            spans = [(j * n // k, (j + 1) * n // k) for j in range(k)]
            fmt = lambda v: f"{v:,.0f}" if v == int(v) else f"{v:,.1f}"
            want_rows = [[fmt(max(c[a:b]) * 1000.0 / s["bucket_ms"]) for c in series] for a, b in spans]
            expect([r[1:] for r in rows[:-1]] == want_rows, f"{lang}: each span's highest bucket: {rows[:3]} vs {want_rows[:3]}")
            expect(rows[0][0] == "0", f"{lang}: the first span from 0 s: {rows[0]}")
            bad = [v for v in axe_violations(chrome) if v[1] in ("moderate", "serious", "critical")]
            expect(not bad, f"{lang}: axe with the table open: {bad}")
            no_console_errors(chrome, f"chart table {lang}")

    run("charts: a time chart's data table (opened on demand) has the native report's peaks, axe-clean", load_chart_table)

"""A Web Worker the browser refuses to start. A tab has room for a bounded number of wasm
memories (about 120 in Chromium: each reserves 8 GiB of address space), and the pages a
tab has left hold theirs until they are collected: CI saw `WebAssembly.instantiate(): Out
of memory` in a worker after some hundred page loads. The page must then run its work
itself (src/ui/runs.rs), with the same results, and nothing in the console.

The check takes the tab's room for wasm memories itself (page JS holding memories), then
opens the storm page and the stability map in place, so that the held memories stay held.
"""

import time

EXHAUST = """window.__heldMemories = [];
try { for (let i = 0; i < 1000; i++) window.__heldMemories.push(new WebAssembly.Memory({ initial: 1 })); }
catch (e) {}
return window.__heldMemories.length;"""

STORM = "const e = document.getElementById('storm'); return e && e.getAttribute('data-redraw-ms') !== null ? [e.getAttribute('data-digest'), e.getAttribute('data-in-worker')] : null;"


def add_checks(run, chrome, base, expect, no_console_errors, wait_run):
    def map_attr(name):
        return chrome.js("const m = document.getElementById('stability-map'); return m && m.getAttribute(arguments[0]);", name)

    def map_cells(timeout=60):
        chrome.wait("#stability-map")
        deadline = time.time() + timeout
        while time.time() < deadline:
            done, total = map_attr("data-done"), map_attr("data-total")
            if total not in (None, "0") and done == total:
                return chrome.js("return Array.from(document.querySelectorAll('#stability-map rect.cell'))"
                                 ".map(r => [r.id, r.dataset.outcome, r.dataset.after]);")
            time.sleep(0.05)
        raise AssertionError(f"the map did not finish: {map_attr('data-done')} of {map_attr('data-total')}")

    def storm_run():
        wait_run(chrome)
        return chrome.js(STORM)

    def refused_worker_runs_on_the_page():
        # The results in workers first, to compare with.
        chrome.get(base + "?page=stability&lang=en")
        in_workers = map_cells()
        expect(int(map_attr("data-workers")) >= 1, "the reference map ran in workers")
        chrome.click("#nav-storm")
        digest, where = storm_run()
        expect(where == "1", "the reference run ran in a worker")
        no_console_errors(chrome, "before the worker is refused")

        chrome.get(base + "?page=calculator&lang=en")
        chrome.wait("#calc-announce")
        held = chrome.js(EXHAUST)
        expect(held > 0, "page JS took the tab's room for wasm memories")
        try:
            chrome.click("#nav-storm")
            got, where = storm_run()
            expect(where == "0", f"the storm page says its run was on the page: data-in-worker={where}")
            expect(got == digest, f"the run on the page has the worker's digest: {got} != {digest}")
            chrome.click("#nav-stability")
            on_page = map_cells()
            expect(map_attr("data-workers") == "0", f"the map says it ran on the page: {map_attr('data-workers')} workers")
            status = chrome.text("#stab-status")
            expect("on the page" in status, f"the status says where the map ran: {status!r}")
            expect(on_page == in_workers, "the map's cells on the page equal the workers' cells")
            no_console_errors(chrome, "a refused worker")
        finally:
            chrome.js("window.__heldMemories = null;")
            chrome.collect_garbage()
        # With the room back, the next page's worker starts again.
        chrome.click("#nav-storm")
        got, where = storm_run()
        expect(where == "1" and got == digest, f"a worker again once there is room: in worker {where}, digest {got}")

    run("a Web Worker the browser refuses to start: the page runs its work itself, same results, nothing in the console",
        refused_worker_runs_on_the_page)

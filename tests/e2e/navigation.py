"""Links inside the app (`ui::links`): they open without reloading the module, each adds a
history entry, and Back and Forward return to the state each page had.

A marker set on `window` survives only if the document was not reloaded; the time from a
click to the opened page's figure is recorded beside the time a reload of the same link
takes.
"""

import time

STAY = "window.__labStay = 'kept'; return true;"
STAYED = "return window.__labStay === 'kept';"


def add_checks(run, chrome, base, expect, no_console_errors, wait_run, measurements):
    def click_until(css, ready, timeout=20):
        """Clicks `css`; returns ms until `ready` (a selector) is on the page."""
        t0 = time.time()
        chrome.js("document.querySelector(arguments[0]).dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true, button: 0}));", css)
        chrome.wait(ready, timeout=timeout)
        return (time.time() - t0) * 1000

    def back(ready):
        chrome.js("history.back();")
        chrome.wait(ready, timeout=20)

    def lab_links_back_and_forward():
        chrome.get(base + "?page=storm&lang=en&preset=breaker-demo&seed=5")
        wait_run(chrome)
        chrome.js(STAY)
        ms = click_until("#lab-link-a-c0-breaker", "#breaker-passed[data-value]")
        expect(chrome.js(STAYED), "the breaker lab opened without reloading the page")
        expect("page=breaker" in chrome.url(), f"its link is in the address bar: {chrome.url()}")
        back("#storm")
        wait_run(chrome)
        expect("preset=breaker-demo" in chrome.url() and "seed=5" in chrome.url(),
               f"Back returns to the storm page as it was: {chrome.url()}")
        expect(chrome.js(STAYED), "Back does not reload either")
        chrome.js("history.forward();")
        chrome.wait("#breaker-passed[data-value]", timeout=20)
        expect("page=breaker" in chrome.url(), f"Forward opens the lab again: {chrome.url()}")
        # The same link loaded by the browser, for comparison.
        href = chrome.url()
        chrome.collect_garbage()
        t0 = time.time()
        chrome.get(href, collect=False)
        chrome.wait("#breaker-passed[data-value]", timeout=20)
        reload_ms = (time.time() - t0) * 1000
        measurements["in_app_link_ms"] = round(ms)
        measurements["same_link_reloaded_ms"] = round(reload_ms)
        no_console_errors(chrome, "lab link, Back, Forward")

    def nav_and_cells_and_lessons():
        chrome.get(base + "?page=storm&lang=zh&preset=chain-3x3&l1.attempts=2")
        wait_run(chrome)
        # The presets' services are named in the page's language: the diagram, the focus
        # buttons and the charts' legends (the report and the link keep the scenario's names).
        names = chrome.js("return [0, 1, 2, 3].map(i => document.querySelector('#hop-a-' + i + ' .hop-name').textContent)")
        expect(names == ["客户端", "网关", "订单服务", "支付服务"], f"the chain's services in Chinese: {names}")
        focus = chrome.js("return document.getElementById('focus-a-3').textContent")
        expect(focus == "支付服务", f"the focus button names the leaf in Chinese: {focus}")
        chrome.js(STAY)
        chrome.click("#nav-calculator")
        chrome.wait("#calc-announce")
        back("#storm")
        wait_run(chrome)
        expect("l1.attempts=2" in chrome.url() and "lang=zh" in chrome.url(),
               f"Back from the navigation restores the storm page's setting: {chrome.url()}")
        # Forward restarts the app on the calculator's entry; the storm page, which that URL
        # does not name, is still as the learner left it.
        chrome.js("history.forward();")
        chrome.wait("#calc-announce", timeout=20)
        chrome.click("#nav-storm")
        wait_run(chrome)
        expect("l1.attempts=2" in chrome.url(), f"after Back and Forward the header's link keeps the storm page's setting: {chrome.url()}")
        # A link is one page's state: the queue lab's rate and seed stay the queue lab's.
        chrome.get(base + "?page=queue&lang=en&rate=150&seed=7&workers=3")
        chrome.wait("#q-curve")
        for page, ready in [("breaker", "#scrub"), ("storm", "#storm")]:
            chrome.click(f"#nav-{page}")
            chrome.wait(ready)
            time.sleep(0.3)
            expect("seed=7" not in chrome.url() and "rate=150" not in chrome.url(),
                   f"the {page} page starts from its own defaults, not the queue link's: {chrome.url()}")
        # A stability cell opens its run.
        chrome.get(base + "?page=stability&lang=en&x=utilisation%3D0.5..1%2F3&y=trigger_ms%3D200..1000%2F3")
        chrome.wait("#stability-map[data-done='9']")
        chrome.js(STAY)
        click_until("#cell-4", "#storm")
        wait_run(chrome)
        expect(chrome.js(STAYED) and "rate=" in chrome.url(), f"the cell's run opened in place: {chrome.url()}")
        back("#stability-map")
        expect("x=utilisation" in chrome.url(), f"Back returns to the map's axes: {chrome.url()}")
        done = chrome.js("return document.getElementById('stability-map').getAttribute('data-done');")
        expect(done == "9", f"the finished map is shown at once, not computed again: {done} of 9 cells at first sight")
        # A map left before it finished keeps its cells and runs only the rest on Back (a
        # 3,200-cell map started again from 0).
        big = "?page=stability&lang=en&x=utilisation%3D0.5..1.2%2F40&y=trigger_ms%3D50..1000%2F40&protect=budget"
        chrome.get(base + big)
        deadline = time.time() + 30
        left = 0
        while time.time() < deadline and left < 40:
            left = int(chrome.js("return document.getElementById('stability-map').getAttribute('data-done');") or 0)
            time.sleep(0.1)
        chrome.js(STAY)
        click_until("#nav-calculator", "#calc-announce")
        back("#stability-map")
        again = int(chrome.js("return document.getElementById('stability-map').getAttribute('data-done');") or 0)
        total = int(chrome.js("return document.getElementById('stability-map').getAttribute('data-total');") or 0)
        expect(again >= left > 0 and total == 3200, f"Back shows the {left} cells done before and goes on: {again} of {total}")
        # The keyboard's way to a cell: the column and row picked are in the link, and Back
        # from the run finds them again.
        pick = ("const s = document.getElementById(arguments[0]); s.value = arguments[1];"
                " s.dispatchEvent(new Event('change', {bubbles: true}));")
        chrome.js(pick, "stab-open-x", "2")
        chrome.js(pick, "stab-open-y", "3")
        time.sleep(0.3)
        expect("col=2" in chrome.url() and "row=3" in chrome.url(), f"the picked cell is in the link: {chrome.url()}")
        click_until("#stab-open", "#storm")
        wait_run(chrome)
        back("#stab-open-x")
        picked = chrome.js("return [document.getElementById('stab-open-x').value, document.getElementById('stab-open-y').value];")
        expect(picked == ["2", "3"], f"Back from the cell's run keeps the picked cell: {picked}")
        # A lesson from the index.
        chrome.get(base + "?page=lessons&lang=en")
        chrome.js(STAY)
        click_until("#lesson-capacity-start", "#lesson-card")
        expect(chrome.js(STAYED) and "lesson=capacity" in chrome.url(), f"the lesson started in place: {chrome.url()}")
        # A modified click is the browser's (a new tab): the page stays.
        chrome.js("document.querySelector('#lesson-index-link').dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true, ctrlKey: true}));")
        time.sleep(0.3)
        expect(chrome.js("return !!document.getElementById('lesson-card');"), "a ctrl-click does not navigate this tab")
        # The browser opened it in a new tab: close it, or this tab stays in the background
        # (where a window resize never reaches its page).
        here = chrome.cmd("GET", "/window")
        for handle in chrome.cmd("GET", "/window/handles"):
            if handle != here:
                chrome.cmd("POST", "/window", {"handle": handle})
                chrome.cmd("DELETE", "/window")
        chrome.cmd("POST", "/window", {"handle": here})
        # A map cell's run, clicked during a lesson, opens in a new tab: this tab keeps the
        # lesson (and the presenter's stage) in front of the class.
        chrome.get(base + "?lesson=metastable&step=7&present=1&lang=en")
        chrome.wait("#lesson-card")
        chrome.wait("a.cell-link")
        tabs = len(chrome.cmd("GET", "/window/handles"))
        chrome.js("document.querySelector('a.cell-link rect').dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true}));")
        time.sleep(0.5)
        handles = chrome.cmd("GET", "/window/handles")
        expect(len(handles) == tabs + 1, f"the cell's run opened in a new tab: {len(handles)} tabs, {tabs} before")
        expect("lesson=metastable" in chrome.url() and chrome.js("return !!document.getElementById('lesson-card');"),
               f"this tab stays in the lesson: {chrome.url()}")
        # The lesson moves on; the run's tab, outside any lesson, does not follow it.
        chrome.js("document.getElementById('lesson-next').click();")
        chrome.wait("#lesson-card[data-step='8']")
        time.sleep(0.5)
        for handle in handles:
            if handle != here:
                chrome.cmd("POST", "/window", {"handle": handle})
                opened = chrome.url()
                in_lesson = chrome.js("return !!document.getElementById('lesson-card');")
                chrome.cmd("DELETE", "/window")
                expect("page=storm" in opened and "lesson=" not in opened and not in_lesson,
                       f"the new tab shows the cell's run and stays there: {opened}")
        chrome.cmd("POST", "/window", {"handle": here})
        no_console_errors(chrome, "navigation, cells, lessons")

    def settled():
        """Waits until the page stops scrolling: a step scrolls its figure into view for a
        moment after it is drawn, and the sticky card (and its Next) moves with the page
        until it sticks, so a click computed before the scroll could land beside it."""
        last, still = None, 0
        deadline = time.time() + 5
        while still < 3 and time.time() < deadline:
            y = chrome.js("return window.scrollY;")
            still = still + 1 if y == last else 0
            last = y
            time.sleep(0.12)

    def lesson_steps_in_history_focus_and_scroll():
        chrome.get(base + "?lesson=retry-storm&step=1&lang=en")
        chrome.wait("#lesson-card")
        settled()
        chrome.click("#lesson-next")
        chrome.wait("#lesson-card[data-step='2']")
        expect(chrome.js("return document.activeElement && document.activeElement.id") == "lesson-step-title",
               "after Next the focus is on the new step's title, not lost to the page")
        settled()
        chrome.click("#lesson-next")
        chrome.wait("#lesson-card[data-step='3']")
        back("#lesson-card[data-step='2']")
        expect("step=2" in chrome.url(), f"Back returns to the step before: {chrome.url()}")
        if chrome.js("return !!document.getElementById('lesson-reveal')"):
            chrome.click("#lesson-reveal")
            chrome.wait("#lesson-answer")
            expect(chrome.js("return document.activeElement && document.activeElement.id") == "lesson-answer",
                   "a revealed answer takes the focus from the button that went away")
        # The header opens a page at its top; Back returns to where the page was scrolled.
        chrome.get(base + "?page=calculator&lang=en")
        chrome.wait("#calc-announce")
        chrome.js("window.scrollTo(0, 600);")
        y0 = chrome.js("return window.scrollY;")
        expect(y0 > 100, f"the calculator scrolls: {y0}")
        chrome.click("#nav-queue")
        chrome.wait("#q-rho-sim[data-value]")
        expect(chrome.js("return window.scrollY;") == 0, "the queue lab opens at its top")
        back("#calc-announce")
        time.sleep(0.5)
        expect(abs(chrome.js("return window.scrollY;") - y0) < 2, f"Back scrolls the calculator to {y0} again")
        # Back keeps the language last chosen.
        chrome.get(base + "?page=storm&lang=en&preset=chain-2x3")
        wait_run(chrome)
        chrome.click("#nav-calculator")
        chrome.wait("#calc-announce")
        chrome.click("#lang-zh")
        chrome.wait("html[lang='zh-CN']")
        back("#storm")
        expect("lang=zh" in chrome.url() and chrome.js("return document.documentElement.lang") == "zh-CN",
               f"Back after switching to Chinese stays in Chinese: {chrome.url()}")
        chrome.click("#lang-en")
        no_console_errors(chrome, "lesson history, focus, scroll")

    def phone_header_shows_every_page():
        try:
            chrome.viewport(390, 844)
            for lang in ["en", "zh"]:
                chrome.get(base + f"?page=storm&lang={lang}&preset=chain-3x3")
                chrome.wait("#nav-stability")
                out = chrome.js(
                    "return Array.from(document.querySelectorAll('.nav-link')).filter(a => {"
                    " const r = a.getBoundingClientRect(); return r.left < 0 || r.right > window.innerWidth || r.height < 24; })"
                    ".map(a => a.id);")
                expect(out == [], f"{lang}: every page's link in sight and tappable at 390 px, not: {out}")
        finally:
            chrome.cmd("POST", "/window/rect", {"width": 1280, "height": 900})


    def a_reload_keeps_the_place_on_the_page():
        # A student on a phone opens the settings, scrolls to a knob and reloads: the
        # settings are open again and the page where it was (it had opened folded, at the top).
        for page, ready in [("storm&preset=chain-3x3", "#storm"), ("admission", "#adm-steps")]:
            chrome.viewport(390, 844)
            try:
                chrome.get(base + f"?page={page}&lang=zh")
                chrome.wait(ready, timeout=30)
                if page.startswith("storm"):
                    wait_run(chrome)
                chrome.click("#controls-toggle")
                time.sleep(0.5)
                chrome.js("const i = document.querySelector('details.controls-wrap input[type=range]'); i.scrollIntoView({block: 'center'});")
                time.sleep(0.5)
                before = chrome.js("return [document.querySelector('details.controls-wrap').open, Math.round(scrollY)];")
                chrome.refresh()
                chrome.wait(ready, timeout=30)
                deadline, after = time.time() + 8, None
                while time.time() < deadline:
                    after = chrome.js("return [document.querySelector('details.controls-wrap').open, Math.round(scrollY)];")
                    if after[0] and abs(after[1] - before[1]) <= 2:
                        break
                    time.sleep(0.2)
                expect(before[0] and before[1] > 1000 and after[0] and abs(after[1] - before[1]) <= 2,
                       f"{page}: a reload keeps the settings open and the place: {before} → {after}")
                # A link opened afresh starts at the top, settings folded.
                chrome.get(base + f"?page={page}&lang=zh&seed=2")
                chrome.wait(ready, timeout=30)
                time.sleep(1.0)
                fresh = chrome.js("return [document.querySelector('details.controls-wrap').open, Math.round(scrollY)];")
                expect(fresh == [False, 0], f"{page}: a link opened starts at the top, settings folded: {fresh}")
            finally:
                chrome.viewport(1280, 900)

    def a_reload_keeps_every_page_and_links_say_what_they_dropped():
        # A teacher sets up the queue lab, goes to the storm page and reloads it: the queue
        # lab, opened from the header, is as it was left (the tab's session storage).
        chrome.get(base + "?page=queue&lang=en&workers=3")
        chrome.wait("#q-rho-sim[data-value]", timeout=30)
        chrome.get(base + "?page=storm&lang=en&preset=chain-3x3")
        wait_run(chrome)
        chrome.refresh()
        wait_run(chrome)
        click_until("#nav-queue", "#q-rho-sim[data-value]")
        expect("workers=3" in chrome.url(), f"the queue lab as it was left, after a reload: {chrome.url()}")
        # The storm page paused at a moment, a hop picked: the link keeps both, and a reload
        # opens there, paused, the same hop picked.
        chrome.get(base + "?page=storm&lang=en&preset=breaker-demo&seed=5")
        wait_run(chrome)
        chrome.js("document.getElementById('scrub').value = 300; document.getElementById('scrub').dispatchEvent(new Event('input', {bubbles: true}));")
        chrome.click("#focus-a-1")
        deadline = time.time() + 5
        while time.time() < deadline and not ("t=" in chrome.url() and "focus=1" in chrome.url()):
            time.sleep(0.1)
        url = chrome.url()
        at = chrome.js("return document.getElementById('storm').dataset.playhead;")
        expect("t=" in url and "focus=1" in url, f"the paused moment and the hop in the link: {url}")
        chrome.refresh()
        wait_run(chrome)
        time.sleep(0.5)
        again = chrome.js("const s = document.getElementById('storm'); return [s.dataset.playhead, document.getElementById('play').dataset.playing,"
                          " document.getElementById('focus-a-1').getAttribute('aria-pressed')];")
        expect(abs(float(again[0]) - float(at)) < 0.2 and again[1:] == ["false", "true"],
               f"a reload opens paused at {at} ms with the hop picked: {again}")
        # At the run's end (played or scrubbed there), a lab opened from the diagram and
        # Back return to the end state being explained, not to a replay from 0.
        chrome.js("const s = document.getElementById('scrub'); s.value = s.max; s.dispatchEvent(new Event('input', {bubbles: true}));")
        deadline = time.time() + 5
        while time.time() < deadline and "t=" not in chrome.url():
            time.sleep(0.1)
        end = chrome.js("return document.getElementById('storm').dataset.playhead;")
        expect("t=" in chrome.url(), f"the end is kept in the link: {chrome.url()}")
        click_until("#lab-link-a-c0-breaker", "#breaker-passed[data-value]")
        chrome.js("history.back()")
        wait_run(chrome)
        time.sleep(0.5)
        back = chrome.js("const s = document.getElementById('storm'); return [s.dataset.playhead, document.getElementById('play').dataset.playing];")
        expect(abs(float(back[0]) - float(end)) < 0.2 and back[1] == "false",
               f"Back from the lab returns to the run's end at {end} ms, paused: {back}")
        # The breaker and admission labs paused partway: a reload opens at the same call or
        # arrival, paused, the counts as they were.
        for q, fig in [("?page=breaker&lang=en&preset=flapping", "#breaker-passed"),
                       ("?page=admission&lang=en&preset=source-003&b=7&r=2.5&gen=poisson", "#adm-admitted")]:
            chrome.get(base + q)
            chrome.wait(fig + "[data-value]", timeout=20)
            time.sleep(0.3)
            chrome.js("const s = document.getElementById('scrub'); s.value = Math.floor(Number(s.max) / 3);"
                      " s.dispatchEvent(new Event('input', {bubbles: true}));")
            deadline = time.time() + 5
            while time.time() < deadline and "at=" not in chrome.url():
                time.sleep(0.1)
            before = [chrome.js("return document.getElementById('scrub').value;"), chrome.text(fig)]
            expect("at=" in chrome.url(), f"{q}: the paused step in the link: {chrome.url()}")
            chrome.refresh()
            chrome.wait(fig + "[data-value]", timeout=20)
            time.sleep(0.5)
            after = [chrome.js("return document.getElementById('scrub').value;"), chrome.text(fig)]
            expect(after == before and chrome.js("return document.getElementById('play').dataset.playing") == "false",
                   f"{q}: a reload opens where it was paused: {before} -> {after}")
        # A refused moment, hop or playhead is said by the playback bar, naming the key.
        for q, err in [("?page=storm&lang=en&preset=chain-3x3&t=-5", "#t-error"), ("?page=storm&lang=zh&preset=chain-3x3&focus=9", "#focus-error"),
                       ("?page=breaker&lang=en&at=-1", "#at-error"), ("?page=admission&lang=zh&at=x", "#at-error")]:
            chrome.get(base + q)
            chrome.wait(err, timeout=20)
            said = chrome.text(err)
            key = err[1:-6]
            expect(key in said and any(v in said for v in ("-5", "9", "-1", "x")), f"{q}: {said!r}")
        # A key given twice with different values: the last is read, and the notice says so.
        for lang, word in [("en", "more than once"), ("zh", "不止一次")]:
            chrome.get(base + f"?page=queue&lang={lang}&workers=5&workers=4")
            chrome.wait("#link-notice", timeout=20)
            said = chrome.text("#link-notice")
            expect(word in said and "workers" in said, f"({lang}) the repeated key is named: {said!r}")
            expect("workers=4" in chrome.url(), f"({lang}) the last value is read: {chrome.url()}")
        # A lesson that does not exist opens the lesson index, saying so; an unknown page
        # lists the pages.
        chrome.get(base + "?lesson=nope&lang=en")
        chrome.wait("#link-notice", timeout=20)
        expect(chrome.js("return !!document.querySelector('#lessons .lesson-entry')"), "the lesson index, not the storm page")
        expect("nope" in chrome.text("#link-notice"), chrome.text("#link-notice"))
        chrome.get(base + "?page=nope&lang=zh")
        chrome.wait("#link-notice", timeout=20)
        said = chrome.text("#link-notice")
        expect("nope" in said and "stability" in said and "lessons" in said, f"the pages listed: {said!r}")
        # A refused number is named as typed.
        chrome.get(base + "?page=breaker&lang=en&rate=1e-9")
        chrome.wait(".field-error", timeout=20)
        said = chrome.js("return Array.from(document.querySelectorAll('.field-error')).map(e => e.textContent).join(' | ')")
        expect("1e-9" in said, f"the rate as typed: {said!r}")
        # The stability map refuses one knob on both axes, naming it.
        chrome.get(base + "?page=stability&lang=en&x=trigger_ms%3D50..1000%2F5&y=trigger_ms%3D50..1000%2F5")
        chrome.wait(".field-error", timeout=20)
        said = chrome.js("return Array.from(document.querySelectorAll('.field-error')).map(e => e.textContent).join(' | ')")
        expect("trigger_ms" in said and "other axis" in said, f"the same knob on both axes is refused: {said!r}")
        # Compact mode: a lesson step's figure opens that step in full; a map cell's run
        # stays compact in its frame.
        chrome.get(base + "?lesson=retry-storm&step=2&lang=en&embed=1")
        wait_run(chrome)
        full = chrome.js("return document.getElementById('open-full').href;")
        expect("lesson=retry-storm" in full and "step=2" in full and "embed" not in full, f"the full page is the step: {full}")
        chrome.get(base + "?page=stability&lang=en&embed=1&x=utilisation%3D0.2..0.8%2F2&y=trigger_ms%3D100..900%2F2")
        chrome.wait("#stability-map a.cell-link", timeout=30)
        hrefs = chrome.js("return Array.from(document.querySelectorAll('#stability-map a.cell-link')).map(a => a.getAttribute('href'));")
        expect(hrefs and all("embed=1" in h for h in hrefs), f"cell runs stay compact: {hrefs[:2]}")
        # Every figure in the export menu has a name, and a figure drawn for two widths
        # (the calculator's chain) is listed once.
        for q in ["?page=stability&lang=en&x=utilisation%3D0.2..0.8%2F2&y=trigger_ms%3D100..900%2F2", "?page=calculator&lang=zh"]:
            chrome.get(base + q)
            chrome.wait("#export-toggle", timeout=30)
            time.sleep(0.5)
            chrome.click("#export-toggle")
            time.sleep(0.3)
            names = chrome.js("return Array.from(document.querySelectorAll('#export .fig-name')).map(e => e.textContent);")
            expect(names and all(n.strip() for n in names) and len(set(names)) == len(names), f"{q}: figure names {names}")
        no_console_errors(chrome, "reload, repeated keys, bad links, embed")

    def back_gives_the_focus_back():
        # A keyboard's reader follows a diagram link to a lab and comes Back: the focus is on
        # that link again, not the page's top (the next Tab had gone to the skip link). A
        # link without an id (a stability cell's Open) is found by its href.
        chrome.get(base + "?page=storm&lang=zh&preset=big-promo-protected")
        wait_run(chrome)
        link = chrome.js("const a = document.querySelector('a[id^=\"lab-link-a-\"]'); a.focus(); return a.id;")
        chrome.press("\ue007")  # Enter
        chrome.wait("#page-title", timeout=20)
        expect("page=storm" not in chrome.url(), f"the link opened its lab: {chrome.url()}")
        back("#storm")
        deadline = time.time() + 5
        while time.time() < deadline and chrome.focused_id() != link:
            time.sleep(0.1)
        expect(chrome.focused_id() == link, f"Back: the focus on {link} again, not {chrome.focused_id()!r}")
        chrome.get(base + "?page=stability&lang=en&col=13&row=9")
        chrome.wait("#stab-open")
        href = chrome.js("const a = document.getElementById('stab-open'); a.removeAttribute('id'); a.focus(); return a.getAttribute('href');")
        chrome.press("\ue007")
        chrome.wait("#storm", timeout=20)
        back("#stability-map")
        deadline = time.time() + 5
        got = None
        while time.time() < deadline:
            got = chrome.js("const a = document.activeElement; return a && a.getAttribute('href');")
            if got == href:
                break
            time.sleep(0.1)
        expect(got == href, f"Back to the map: the focus on its Open link ({href}) again, not {got!r}")
        no_console_errors(chrome, "Back gives the focus back")

    for name, fn in [
        ("navigation: lab links open in place; Back and Forward restore each page", lab_links_back_and_forward),
        ("navigation: Back gives the focus back to the link followed", back_gives_the_focus_back),
        ("navigation: the header, stability cells and lessons open in place", nav_and_cells_and_lessons),
        ("navigation: on a phone the header shows every page's link", phone_header_shows_every_page),
        ("navigation: lesson steps in the history, the focus after Next and Reveal, scroll on Back", lesson_steps_in_history_focus_and_scroll),
        ("navigation: on a phone a reload keeps the settings open and the place on the page", a_reload_keeps_the_place_on_the_page),
        ("navigation: a reload keeps every page; repeated keys, unknown lessons and pages, refused numbers, one knob on both axes, compact links", a_reload_keeps_every_page_and_links_say_what_they_dropped),
    ]:
        run(name, fn)

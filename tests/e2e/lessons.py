"""Guided lessons (issue 15) end to end: every step of every lesson from its link in both
languages, each quoted number held against the page's own figure; every lesson walked with
a clicker's keys in presenter mode; text size on the presenter's stage at 1920 x 1080; the
speaker-notes window kept in step; interview mode and the candidate's link; bad links.
"""

import contextlib
import os
import time

ARROW_RIGHT, ARROW_LEFT, ARROW_DOWN = "\ue014", "\ue012", "\ue015"
PAGE_DOWN, PAGE_UP, SPACE, ESCAPE = "\ue00f", "\ue00e", "\ue00d", "\ue00c"

# Every quoted figure: its id, the value quoted, and the page's own value for that id
# (`data-total` on the breaker lab, whose counts move with the playhead, else `data-value`).
# An arithmetic of figures (`= a * 1000 / b`) is held against the same arithmetic of the
# page's own values (`page_value`).
FIGS = """
const page = id => { const el = document.getElementById(id);
  const v = el ? (el.getAttribute('data-total') ?? el.getAttribute('data-value')) : null; return v === null ? null : Number(v); };
const out = [];
for (const f of document.querySelectorAll('#lesson-card .fig, #lesson-notes-view .fig')) {
  const id = f.dataset.figure || f.textContent;
  const quoted = f.dataset.value === undefined ? null : Number(f.dataset.value);
  if (id.startsWith('=')) {
    const toks = id.slice(1).trim().split(/\\s+/);
    out.push([id, quoted, toks.map(t => /^[-+*\\/()]$/.test(t) || !isNaN(Number(t)) ? t : page(t))]);
  } else out.push([id, quoted, page(id)]);
}
return out;
"""


def page_value(want):
    """The page's value of a figure: a number, or an arithmetic of tokens (numbers, operators,
    brackets, and the page's values of the figures it names, None where one is missing)."""
    if not isinstance(want, list):
        return want
    if any(t is None for t in want):
        return None
    toks = [str(t) for t in want]
    at = [0]

    def operand():
        t = toks[at[0]]; at[0] += 1
        if t == "(":
            v = total(); at[0] += 1
            return v
        return float(t)

    def product():
        v = operand()
        while at[0] < len(toks) and toks[at[0]] in "*/":
            op = toks[at[0]]; at[0] += 1
            r = operand()
            v = v * r if op == "*" else v / r
        return v

    def total():
        v = product()
        while at[0] < len(toks) and toks[at[0]] in "+-":
            op = toks[at[0]]; at[0] += 1
            r = product()
            v = v + r if op == "+" else v - r
        return v

    return total()

# The smallest text on the presenter's stage, in CSS px on screen: SVG text by its font size
# times the drawing's scale, HTML text by its computed size.
STAGE_TEXT = """
const spot = document.querySelector('.app.present .spot'); if (!spot) return null;
const sizes = [];
for (const t of spot.querySelectorAll('text')) {
  if (t.getBoundingClientRect().width === 0) continue;
  const m = t.getScreenCTM(); sizes.push(parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b));
}
const w = document.createTreeWalker(spot, NodeFilter.SHOW_TEXT);
while (w.nextNode()) {
  const n = w.currentNode; if (!n.textContent.trim()) continue;
  const el = n.parentElement; if (el.closest('svg') || el.getBoundingClientRect().width === 0) continue;
  // Text not drawn (a veiled row's cells set at 0 px, one grey bar each) is no text to read.
  const r = document.createRange(); r.selectNodeContents(n); if (r.getBoundingClientRect().width === 0) continue;
  sizes.push(parseFloat(getComputedStyle(el).fontSize));
}
return [spot.id, Math.min(...sizes), sizes.length];
"""


def add_checks(run, chrome, base, expect, no_console_errors, artifacts, measurements):
    @contextlib.contextmanager
    def on_a_phone():
        """A 390 x 844 phone's window for the block, the desktop one after it."""
        chrome.viewport(390, 844)
        try:
            yield
        finally:
            chrome.viewport(1280, 900)

    def lessons():
        """(id, number of steps) of every lesson, read from the index page."""
        chrome.get(base + "?page=lessons&lang=en")
        chrome.wait("#lessons .lesson-entry")
        return chrome.js(
            "return Array.from(document.querySelectorAll('#lessons .lesson-entry'))"
            ".map(a => [a.id.replace(/^lesson-/, ''), a.querySelectorAll('.lesson-steps li').length]);")

    def step_at():
        return chrome.js("const c = document.querySelector('#lesson-card, #lesson-notes-view'); return c && [c.dataset.lesson, Number(c.dataset.step)];")

    def wait_step(lesson, n, timeout=15):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if step_at() == [lesson, n]:
                return
            time.sleep(0.03)
        raise AssertionError(f"not on {lesson} step {n}: {step_at()} ({chrome.url()})")

    def figures_match(where, timeout=20):
        """Every quoted figure equals the page's, once the page has drawn it."""
        deadline = time.time() + timeout
        figs = []
        while time.time() < deadline:
            figs = chrome.js(FIGS)
            figs = [(fid, quoted, page_value(want)) for fid, quoted, want in figs]
            if figs and all(quoted is not None and want is not None for _, quoted, want in figs):
                break
            time.sleep(0.05)
        for fid, quoted, want in figs:
            expect(quoted is not None and want is not None and abs(quoted - want) <= 1e-9 * max(1.0, abs(want)),
                   f"{where}: {fid} quoted {quoted}, page shows {want}")
        return len(figs)

    def reveal():
        # A script's click: the page may still be scrolling the step's figure into view.
        if chrome.js("const b = document.getElementById('lesson-reveal'); if (b) b.click(); return !!b;"):
            chrome.wait("#lesson-answer")

    def spot_in_view(where, timeout=20.0):
        # The step's figure comes into view once the page is drawn, all of it or, when it is
        # taller than the window, its top; and stays there a second later (a chart drawn late
        # must not leave it below the fold). As long a wait as figures_match's: on a loaded VM
        # the step's run, and a figure drawn from it, can come seconds after the page.
        probe = """const e = document.querySelector('.spot'); if (!e) return null;
            const r = e.getBoundingClientRect(), vh = innerHeight;
            return [e.id, Math.round(r.top), Math.round(r.bottom), vh,
                    r.top >= 0 && (r.bottom <= vh || (r.height > vh * 0.8 && r.top <= vh * 0.25)),
                    Math.round((e.querySelector('.stab-map') || e).getBoundingClientRect().height)];"""
        deadline, got, seen = time.time() + timeout, None, None
        while time.time() < deadline:
            got = chrome.js(probe)
            if got and got[4]:
                if seen and time.time() - seen >= 1.0:
                    return got
                seen = seen or time.time()
            else:
                seen = None
            time.sleep(0.25)
        expect(False, f"{where}: the step's figure is in view and stays: {got}")

    def every_step_from_its_link():
        quoted, tall = 0, []
        for lesson, n in lessons():
            expect(n >= 4, f"{lesson} has {n} steps")
            for lang in ["en", "zh"]:
                for step in range(1, n + 1):
                    chrome.get(base + f"?lesson={lesson}&step={step}&lang={lang}")
                    wait_step(lesson, step)
                    got = spot_in_view(f"{lesson} {step} {lang}")
                    # The whole of the step's figure fits a laptop's window: what the step
                    # asks about is not below the fold of the figure it points at. (The
                    # stability map's section, with its cell picker, legend and rules, is
                    # longer than any window; its map is what fits, with its axes.)
                    if got and got[5] > got[3]:
                        tall.append(f"{lesson} {step} {lang} #{got[0]}: {got[5]} px")
                    reveal()
                    quoted += figures_match(f"{lesson} {step} {lang}")
                    knobs = chrome.js("return document.querySelectorAll('#lesson-step-knobs .control').length;")
                    expect(1 <= knobs, f"{lesson} {step}: the step offers its knobs ({knobs})")
                    # The card's knobs are copies of the page's controls: each id once on the
                    # page, and each card label names the card's own field.
                    dup = chrome.js("const c = {}; document.querySelectorAll('[id]').forEach(e => c[e.id] = (c[e.id] || 0) + 1);"
                                    " return Object.keys(c).filter(k => c[k] > 1);")
                    expect(not dup, f"{lesson} {step} {lang}: ids used twice: {dup}")
                    stray = chrome.js("return [...document.querySelectorAll('#lesson-step-knobs label[for]')]"
                                      ".filter(l => !document.getElementById(l.htmlFor) || !l.closest('#lesson-step-knobs').contains(document.getElementById(l.htmlFor)))"
                                      ".map(l => l.htmlFor);")
                    expect(not stray, f"{lesson} {step} {lang}: card labels naming a field outside the card: {stray}")
                    expect(chrome.js("return document.documentElement.lang;") == ("zh-CN" if lang == "zh" else "en")
                           or lang == "en", "the language of the link")
                    no_console_errors(chrome, f"{lesson} step {step} {lang}")
        measurements["lesson_quoted_figures_checked"] = quoted
        expect(not tall, f"every step's figure fits the window: {tall}")
        expect(quoted > 100, f"the lessons quote figures: {quoted}")

    def walk_in_presenter_mode():
        keys = [ARROW_RIGHT, PAGE_DOWN, SPACE]
        for lesson, n in lessons():
            for lang in (["en", "zh"] if lesson == "interview" else ["en"]):
                chrome.get(base + f"?lesson={lesson}&step=1&present=1&lang={lang}")
                wait_step(lesson, 1)
                expect(chrome.js("return document.querySelector('.app').classList.contains('present');"), "presenter mode")
                for step in range(1, n + 1):
                    wait_step(lesson, step)
                    # What the step veils is on its page and veiled until R (a mistyped id
                    # would veil nothing).
                    for vid in (chrome.js("return document.getElementById('lesson-card').dataset.veil;") or "").split():
                        chrome.wait(f"#{vid}")
                        deadline = time.time() + 5
                        while time.time() < deadline and not chrome.js("return document.getElementById(arguments[0]).classList.contains('veiled');", vid):
                            time.sleep(0.1)
                        expect(chrome.js("return document.getElementById(arguments[0]).classList.contains('veiled');", vid),
                               f"presenter {lesson} {step}: #{vid} is veiled before the reveal")
                    chrome.press("r")
                    figures_match(f"presenter {lesson} {step} {lang}")
                    if step < n:
                        chrome.press(keys[step % 3])
                chrome.press(PAGE_UP)
                wait_step(lesson, max(1, n - 1))
                chrome.press(ARROW_LEFT)
                wait_step(lesson, max(1, n - 2))
                chrome.press(ESCAPE)
                time.sleep(0.2)
                expect(not chrome.js("return document.querySelector('.app').classList.contains('present');"),
                       "Esc leaves presenter mode")
                expect("present" not in chrome.url(), f"and the link says so: {chrome.url()}")
                no_console_errors(chrome, f"presenter walk {lesson} {lang}")

    def the_clicker_moves_on_from_a_lessons_last_step():
        # Next on the last step follows the way on that holds Next's place: the next lesson
        # in presenter mode, or after the last lesson the index.
        order = [l for l, _ in lessons()]
        for lesson, n in lessons()[-2:]:
            chrome.get(base + f"?lesson={lesson}&step={n}&present=1&lang=en")
            wait_step(lesson, n)
            chrome.press(ARROW_RIGHT)
            following = order[order.index(lesson) + 1] if lesson != order[-1] else None
            if following:
                wait_step(following, 1)
                expect(chrome.js("return document.querySelector('.app').classList.contains('present');"),
                       f"{lesson} → {following}: still presenting")
            else:
                chrome.wait("#lessons .lesson-entry")
        no_console_errors(chrome, "the clicker past a lesson's end")

    def go_to_the_figure_on_a_phone():
        # On a phone the card is above the page; "Go to the figure" scrolls down to it and
        # stays there (followed by the browser, the fragment fired popstate, the app started
        # again from the top, and the page snapped back).
        chrome.viewport(390, 844)
        try:
            chrome.get(base + "?lesson=capacity&step=5&lang=en")
            wait_step("capacity", 5)
            time.sleep(1.0)
            chrome.click("#lesson-to-figure")
            time.sleep(1.0)
            got = chrome.js("""const s = document.querySelector('.spot').getBoundingClientRect();
                return [scrollY, s.top, s.bottom, innerHeight, location.hash, document.activeElement && document.activeElement.id];""")
            expect(got[0] > 300 and got[1] < got[3] and got[2] > 0 and got[4] == "",
                   f"the figure in view, the page still there, no fragment in the link: {got}")
        finally:
            chrome.cmd("POST", "/window/rect", {"width": 1280, "height": 900})

    def presenter_hides_all_but_the_steps_knobs_and_takes_p_and_f():
        # The step's knobs (lesson data: interview 3 turns l1/l2.attempts, capacity 1 the
        # rate and workers, interview 2 the calculator's attempts and peak) are the only
        # fields shown; playback, figure and card buttons stay.
        fields = ("return Array.from(document.querySelectorAll('input, select, textarea'))"
                  ".filter(e => e.offsetParent !== null && !e.closest('.playbar'))"
                  ".map(e => e.id);")
        for query, knobs in [("?lesson=interview&step=3", ["card-k-l1-attempts", "card-k-l2-attempts"]),
                             ("?lesson=capacity&step=1", ["card-f-rate", "card-f-workers"]),
                             ("?lesson=interview&step=2", ["card-f-attempts-0", "card-f-attempts-1", "card-f-peak"])]:
            chrome.get(base + f"{query}&present=1&lang=en")
            chrome.wait("#lesson-card")
            time.sleep(1.0)
            shown = [i for i in chrome.js(fields) if not i.endswith("-slider")]
            expect(shown == knobs, f"{query}: only the step's knobs are shown in presenter mode: {shown}")
        def before_and_after_r(query, ready, js):
            """What `js` returns on a presenter step, before R and after it."""
            chrome.get(base + query)
            chrome.wait(ready)
            time.sleep(0.8)
            before = chrome.js(js)
            chrome.press("r")
            time.sleep(0.4)
            return before, chrome.js(js)

        # A stage whose whole figure is veiled (retry storm 5's breaker band) says so until
        # the answer is revealed, rather than showing a blank screen.
        label = "return getComputedStyle(document.getElementById('veil-label')).display;"
        shown, after = before_and_after_r("?lesson=retry-storm&step=5&present=1&lang=en", "#breaker-band.veiled", label)
        expect(shown == "block" and after == "none", f"retry storm 5: the stage says it is veiled until R: {shown} → {after}")
        # The figure only the answer quotes is blurred until the answer is revealed (retry
        # storm 1 asks how many calls payment sees; the worst case is on the screen), its
        # label readable.
        blur = ("const e = document.getElementById('out-worst'); const v = e.querySelector('.figure-value') || e;"
                " const l = document.querySelector('#out-worst .figure-label');"
                " return [e.classList.contains('veiled'), getComputedStyle(v).filter, l && getComputedStyle(l).filter];")
        veiled, lifted = before_and_after_r("?lesson=retry-storm&step=1&present=1&lang=en", "#out-worst", blur)
        expect(veiled[0] and "blur" in veiled[1], f"the answer's figure is veiled before the reveal: {veiled}")
        expect(veiled[2] == "none", f"its label stays readable: {veiled[2]}")
        expect(not lifted[0] and lifted[1] == "none", f"revealing the answer lifts the veil: {lifted}")
        # Alone too (no presenter mode): the figure beside "Ask first" waits for the reveal.
        veiled, lifted = before_and_after_r("?lesson=retry-storm&step=1&lang=en", "#out-worst", blur)
        expect(veiled[0] and "blur" in veiled[1] and not lifted[0] and lifted[1] == "none",
               f"a learner alone: veiled until the reveal, then lifted: {veiled} {lifted}")
        # A veiled card says why its number is blurred (a tag from the i18n tables, in the
        # page's language), and the tag goes with the veil.
        tag = ("const e = document.querySelector(arguments[0]);"
               " return e ? getComputedStyle(e, '::after').content : 'missing';")
        for query, card, words in [("?lesson=retry-storm&step=1&lang=en", "#out-worst > .figure-label", "Hidden until the answer (R)"),
                                    ("?lesson=interview&step=1&lang=zh", ".hcard:has(> #h-a-succeeded) > .hlabel", "揭晓答案前隐藏（按 R）")]:
            chrome.get(base + query)
            chrome.wait(card)
            time.sleep(0.8)
            before = chrome.js(tag, card)
            chrome.press("r")
            time.sleep(0.4)
            after = chrome.js(tag, card)
            expect(words in before and after == "none", f"{query}: {card} says it is hidden until R: {before!r} → {after!r}")
        # On a touch-first screen (a phone, a tablet) there is no R key to press: the tag
        # says the words without it (a student on a phone read "(R)" everywhere).
        cdp = lambda cmd, **params: chrome.cmd("POST", "/goog/cdp/execute", {"cmd": cmd, "params": params})
        cdp("Emulation.setTouchEmulationEnabled", enabled=True, maxTouchPoints=5)
        try:
            chrome.get(base + "?lesson=interview&step=1&lang=zh")
            chrome.wait(".hcard:has(> #h-a-succeeded) > .hlabel")
            time.sleep(0.8)
            coarse = chrome.js("return matchMedia('(pointer: coarse)').matches;")
            touch_tag = chrome.js(tag, ".hcard:has(> #h-a-succeeded) > .hlabel")
            expect(coarse and "揭晓答案前隐藏" in touch_tag and "R" not in touch_tag,
                   f"a touch screen's veil tag names no key: coarse={coarse} {touch_tag!r}")
        finally:
            cdp("Emulation.setTouchEmulationEnabled", enabled=False)
        # A headline veiled whole (interview 3) says it once over its blurred title, and a
        # veiled table row (interview 2's in-flight rows) beside its name, which stays readable.
        whole = ("const e = document.querySelector(arguments[0]); if (!e) return 'missing';"
                 " const s = getComputedStyle(e, arguments[1]); return [s.content, s.fontSize];")
        for query, el, pseudo, words in [("?lesson=interview&step=3&lang=en", "#headline", "::before", "Hidden until the answer (R)"),
                                         ("?lesson=interview&step=2&lang=zh", "#inflight-normal-before > th", "::after", "揭晓答案前隐藏（按 R）")]:
            chrome.get(base + query)
            chrome.wait(el)
            time.sleep(0.8)
            before = chrome.js(whole, el, pseudo)
            plain = chrome.js("return getComputedStyle(document.querySelector(arguments[0])).filter;", el)
            chrome.press("r")
            time.sleep(0.4)
            after = chrome.js(whole, el, pseudo)
            expect(words in before[0] and after[0] in ("none", "normal"), f"{query}: {el} says it is hidden until R: {before!r} → {after!r}")
            expect(el != "#inflight-normal-before > th" or plain == "none", f"{query}: the row's name stays readable: {plain}")
        # On the presenter's stage at 1920 × 1080 a veiled card's tag is at the stage's smallest
        # size, and a whole headline (interview 1's 19 cards) fits the screen without scrolling.
        chrome.viewport(1920, 1080)
        chrome.get(base + "?lesson=interview&step=1&present=1&lang=en")
        chrome.wait(".app.present .spot")
        time.sleep(1.0)
        stage = chrome.js("const sp = document.querySelector('.app.present .spot');"
                          " const l = document.querySelector('.hcard:has(> #h-a-succeeded) > .hlabel');"
                          " return [sp.scrollHeight - sp.clientHeight, parseFloat(getComputedStyle(l, '::after').fontSize)];")
        chrome.cmd("POST", "/window/rect", {"width": 1280, "height": 900})
        expect(stage[0] <= 1 and stage[1] >= 18, f"interview 1 presenting: the headline fits the stage, its tag ≥ 18 px: {stage}")
        # A step's own veil: metastable 4's outcomes chart (it shows at a glance whether the
        # short trigger tips the system) is covered from where the step's playback starts
        # (3.9 s, just before the 4 s trigger), the run before it, the trigger's mark and
        # the title in view, the y axis' numbers blurred; the stage does not call the
        # whole figure hidden. Metastable 7's protected boundary, the line the class is asked
        # to predict, is hidden.
        chart = ("const e = document.getElementById('chart-outcomes-a'); const v = e.querySelector('.veil-future');"
                 " const r = v.querySelector('rect'), end = Number(e.querySelector('figure').dataset.xEnd);"
                 " const w = e.querySelector('figure svg').viewBox.baseVal.width, x = ms => 52 + (w - 14 - 52) * ms / end;"
                 " const f = e.querySelector('.fault-window');"
                 " return [e.classList.contains('veiled'), getComputedStyle(e.querySelector('figure > .plot')).filter,"
                 " getComputedStyle(e.querySelector('figcaption')).filter, getComputedStyle(v).display,"
                 " Math.abs(Number(r.getAttribute('x')) - x(3900)) < 0.5, getComputedStyle(document.getElementById('veil-label')).display,"
                 " !!f && !!(v.compareDocumentPosition(f) & Node.DOCUMENT_POSITION_FOLLOWING), getComputedStyle(e.querySelector('.axis.y text')).filter.startsWith('blur')];")
        got, after = before_and_after_r("?lesson=metastable&step=4&present=1&lang=en", "#chart-outcomes-a svg", chart)
        expect(got == [True, "none", "none", "inline", True, "none", True, True],
               f"metastable 4: covered from the playback's start, the run before it, the trigger and the title in view, the y numbers blurred: {got}")
        expect(not after[0] and after[3] == "none", f"metastable 4: R lifts the chart's veil: {after}")
        # Without a moment of its own (metastable 1), the cover starts at the playhead.
        first = ("const e = document.getElementById('chart-load-a'); const r = e.querySelector('.veil-future rect');"
                 " const p = e.querySelector('.playhead'); return [getComputedStyle(r).display, r.getAttribute('x') == p.getAttribute('x1')];")
        got, _ = before_and_after_r("?lesson=metastable&step=1&present=1&lang=en", "#chart-load-a .playhead", first)
        expect(got == ["inline", True], f"metastable 1: the load chart is covered from the playhead on: {got}")
        # Played on past the pause (scrubbed to the end), the cover stays from the pause on.
        chrome.get(base + "?lesson=metastable&step=1&lang=en")
        chrome.wait("#chart-load-a .playhead")
        time.sleep(0.8)
        chrome.js("const s = document.getElementById('scrub'); s.value = 1000; s.dispatchEvent(new Event('input', {bubbles: true}));")
        time.sleep(0.4)
        past = chrome.js("""const e = document.getElementById('chart-load-a'); const r = e.querySelector('.veil-future rect');
            const end = Number(e.querySelector('figure').dataset.xEnd), w = e.querySelector('figure svg').viewBox.baseVal.width;
            const x = 52 + (w - 14 - 52) * 3900 / end;
            return [Math.abs(Number(r.getAttribute('x')) - x) < 0.5, Number(e.querySelector('.playhead').getAttribute('x1')) > x + 100];""")
        expect(past == [True, True], f"metastable 1: playing on does not lift the cover past the step's pause: {past}")
        line = "return getComputedStyle(document.getElementById('stab-boundary-protected')).visibility;"
        hidden, shown = before_and_after_r("?lesson=metastable&step=7&present=1&lang=en", "#stab-boundary-protected", line)
        expect(hidden == "hidden", f"metastable 7: the protected boundary is hidden before the reveal: {hidden}")
        expect(shown == "visible", f"metastable 7: R shows the protected boundary: {shown}")
        # P plays and pauses the step's playback; F enters full screen and leaves it.
        chrome.get(base + "?lesson=interview&step=3&present=1&lang=en")
        chrome.wait("#play")
        # The step plays its first 50 ms (0.5 s at 1×) and pauses there: wait for the pause.
        time.sleep(1.5)
        pressed = lambda: chrome.js("return document.getElementById('play').dataset.playing;")
        was = pressed()
        chrome.press("p")
        time.sleep(0.3)
        expect(pressed() != was, f"P toggles the playback: {was} → {pressed()}")
        chrome.press("p")
        time.sleep(0.3)
        expect(pressed() == was, "P again toggles it back")
        chrome.press("f")
        time.sleep(0.5)
        expect(chrome.js("return !!document.fullscreenElement;"), "F enters full screen")
        chrome.press("f")
        time.sleep(0.5)
        expect(not chrome.js("return !!document.fullscreenElement;"), "F again leaves it")
        # A clicker's PageDown moves the step even when a slider has the focus (the slider
        # used to take the key and move silently).
        slider = chrome.js("const r = document.querySelector('#main input[type=range]');"
                           "if (!r) return null; r.focus(); return [r.id, r.value];")
        expect(slider is not None, "interview 3 has a slider")
        chrome.press(PAGE_DOWN)
        wait_step("interview", 4)
        chrome.press(PAGE_UP)
        wait_step("interview", 3)
        no_console_errors(chrome, "presenter P and F")

    def presenter_text_and_screenshots():
        steps = [("interview", 3), ("interview", 2), ("field-guide", 1)]
        smallest = None
        chrome.viewport(1920, 1080)
        try:
            for lang in ["en", "zh"]:
                for lesson, step in steps:
                    chrome.get(base + f"?lesson={lesson}&step={step}&present=1&lang={lang}")
                    wait_step(lesson, step)
                    figures_match(f"stage {lesson} {step}")
                    time.sleep(1.0)
                    got = chrome.js(STAGE_TEXT)
                    expect(got is not None and got[2] > 0, f"{lesson} {step}: the step's figure is on the stage: {got}")
                    expect(got[1] >= 18.0, f"{lesson} {step} {lang}: stage text {got[1]:.1f} px < 18 px ({got[0]})")
                    smallest = got[1] if smallest is None else min(smallest, got[1])
                    chrome.screenshot(os.path.join(artifacts, f"lesson-present-{lang}-{lesson}-{step}.png"))
            # Every other step's figure too, in English (each lesson's own index order).
            for lesson, n in lessons():
                for step in range(1, n + 1):
                    chrome.get(base + f"?lesson={lesson}&step={step}&present=1&lang=en")
                    wait_step(lesson, step)
                    # The step's figure is drawn after its run in the worker: on a busy
                    # machine a heavy preset's (metastable, interview 8) takes over a second.
                    deadline = time.time() + 15
                    got = None
                    while time.time() < deadline:
                        time.sleep(0.4)
                        got = chrome.js(STAGE_TEXT)
                        if got is not None and got[2] > 0:
                            break
                    expect(got is not None and got[2] > 0 and got[1] >= 18.0,
                           f"{lesson} {step}: the stage's smallest text is {got} (at least 18 px)")
                    smallest = min(smallest, got[1])
                    # The stage is the screen: no scroll bar over a hidden page, and no words
                    # pointing at a chain the stage does not show.
                    extra = chrome.js("""const e = document.documentElement; const c = document.querySelector('.spot .chain-below');
                        return [e.scrollHeight - e.clientHeight, !!c && c.getClientRects().length > 0];""")
                    expect(extra[0] <= 2 and not extra[1], f"{lesson} {step}: [page taller than the screen by px, 'the chain below' shown] {extra}")
            measurements["presenter_min_text_px"] = round(smallest, 1)
            # Everything within the projector's screen: a table on the stage, the card with a long
            # identifier, Back and Next at the card's foot, a headline value with its unit.
            fits = """
            const r = {}; const sp = document.querySelector('.app.present .spot');
            if (sp) r.stage_right = sp.getBoundingClientRect().right;
            const card = document.getElementById('lesson-card'); r.card_overflow = card.scrollWidth - card.clientWidth;
            r.nav_bottom = document.querySelector('.lesson-nav').getBoundingClientRect().bottom;
            r.wrapped = [...document.querySelectorAll('.app.present .spot .hvalue')].filter(v => v.getClientRects().length > 1 || v.getBoundingClientRect().height > 1.8 * parseFloat(getComputedStyle(v).fontSize)).length;
            const svg = sp && sp.querySelector('figure.chart > .plot > svg[role]');
            if (svg) { r.chart_h = svg.getBoundingClientRect().height; r.stage_bottom = sp.getBoundingClientRect().bottom; }
            const fin = document.getElementById('lesson-finish');
            r.finish = fin && [fin.textContent, fin.title, fin.previousElementSibling && fin.previousElementSibling.id];
            r.next = !!document.getElementById('lesson-next');
            r.width = document.documentElement.clientWidth; r.height = innerHeight; return r;
            """
            for lang in ["en", "zh"]:
                for lesson, step in [("capacity", 1), ("interview", 11), ("retry-storm", 1), ("retry-storm", 3), ("retry-storm", 6),
                                     ("field-guide", 8)]:
                    chrome.get(base + f"?lesson={lesson}&step={step}&present=1&lang={lang}")
                    wait_step(lesson, step)
                    time.sleep(1.0)
                    f = chrome.js(fits)
                    where = f"{lesson} {step} {lang} presenting"
                    expect(f.get("stage_right", 0) <= f["width"] + 0.5, f"{where}: the stage ends within the screen: {f}")
                    expect(f["card_overflow"] <= 0, f"{where}: the card does not scroll sideways: {f}")
                    expect(f["nav_bottom"] <= f["height"], f"{where}: Back and Next in sight: {f}")
                    expect(f["wrapped"] == 0, f"{where}: headline values keep their units on their line: {f}")
                    if (lesson, step) == ("field-guide", 8):
                        # The last step: the next lesson in Next's place, as short as Next, its
                        # title in the tooltip (a three-line link in a row of its own took a
                        # tenth of the card's height on a projector).
                        fin = f["finish"]
                        expect(bool(fin) and not f["next"] and fin[2] == "lesson-prev" and len(fin[0]) <= 14
                               and "002" in fin[1],
                               f"{where}: the next lesson in Next's place: {f}")
                    if (lesson, step) == ("retry-storm", 3):
                        # A time chart fills the stage's height too, not only its width (it was
                        # 640 × 170, 37 % of a 16:9 screen's height), and stays on the screen.
                        expect(f.get("chart_h", 0) >= 0.6 * f["height"] and f["stage_bottom"] <= f["height"] + 0.5,
                               f"{where}: the chart fills the stage's height within the screen: {f}")
            measurements["presenter_viewport"] = chrome.js("return [innerWidth, innerHeight];")
            # On a phone the card sits above the stage, each the screen's width (side by side
            # they were 90 and 260 px wide, a word to a line), and both within the screen.
            chrome.viewport(390, 844)
            phone = """
            const card = document.getElementById('lesson-card').getBoundingClientRect();
            const sp = document.querySelector('.app.present .spot').getBoundingClientRect();
            return {card_w: card.width, card_bottom: card.bottom, stage_w: sp.width, stage_top: sp.top,
                    stage_bottom: sp.bottom, width: document.documentElement.clientWidth, height: innerHeight};
            """
            for lang in ["en", "zh"]:
                for lesson, step in [("retry-storm", 2), ("capacity", 1)]:
                    chrome.get(base + f"?lesson={lesson}&step={step}&present=1&lang={lang}")
                    wait_step(lesson, step)
                    time.sleep(1.0)
                    f = chrome.js(phone)
                    where = f"{lesson} {step} {lang} presenting on a phone"
                    expect(f["card_w"] >= 0.9 * f["width"] and f["stage_w"] >= 0.9 * f["width"],
                           f"{where}: card and stage each take the screen's width: {f}")
                    expect(f["card_bottom"] <= f["stage_top"] + 0.5 and f["stage_bottom"] <= f["height"] + 0.5,
                           f"{where}: the card above the stage, both within the screen: {f}")
                    chrome.screenshot(os.path.join(artifacts, f"lesson-present-phone-{lang}-{lesson}-{step}.png"))
        finally:
            chrome.cmd("POST", "/window/rect", {"width": 1280, "height": 900})
        for lang in ["en", "zh"]:
            for (w, h) in [(1440, 900), (390, 844)]:
                chrome.viewport(w, h)
                chrome.get(base + f"?page=lessons&lang={lang}")
                chrome.wait("#lessons .lesson-entry")
                chrome.screenshot(os.path.join(artifacts, f"lessons-index-{lang}-{w}.png"))
                chrome.get(base + f"?lesson=interview&step=3&lang={lang}")
                wait_step("interview", 3)
                time.sleep(1.0)
                chrome.screenshot(os.path.join(artifacts, f"lesson-step-{lang}-{w}.png"))
        chrome.cmd("POST", "/window/rect", {"width": 1280, "height": 900})

    def notes_window_keeps_in_step():
        chrome.get(base + "?lesson=interview&step=1&present=1&lang=en")
        wait_step("interview", 1)
        main = chrome.cmd("GET", "/window")
        notes = chrome.cmd("POST", "/window/new", {"type": "window"})["handle"]
        try:
            chrome.cmd("POST", "/window", {"handle": notes})
            chrome.get(base + "?lesson=interview&step=1&notes=1&lang=en")
            wait_step("interview", 1)
            expect(chrome.js("return !!document.querySelector('#lesson-notes-view #lesson-answer');"),
                   "the notes show the answer")
            chrome.cmd("POST", "/window", {"handle": main})
            chrome.press(ARROW_RIGHT)
            wait_step("interview", 2)
            chrome.cmd("POST", "/window", {"handle": notes})
            wait_step("interview", 2)
            # The speaker keeps time from the notes too: step 2's time box, as the card says.
            box = chrome.js("const e = document.getElementById('notes-time-box'); return e && e.textContent;")
            expect(box == "8 min (minutes 5–13)", f"the notes give the step's time box: {box!r}")
            chrome.click("#lesson-next")
            wait_step("interview", 3)
            # Step 3, the follow-up question, has no box of its own: it is still in step 2's.
            box = chrome.js("const e = document.getElementById('notes-time-box'); return e && e.textContent;")
            expect(box == "still minutes 5–13", f"a follow-up step says whose time box it is in: {box!r}")
            chrome.cmd("POST", "/window", {"handle": main})
            wait_step("interview", 3)
            expect(chrome.js("return document.querySelector('.app').classList.contains('present');"),
                   "the presenting window stays in presenter mode")
            # The notes window's address follows the step it was moved to, and a reload of it
            # asks the presenting window where it is instead of taking it back.
            chrome.press(ARROW_RIGHT)
            wait_step("interview", 4)
            chrome.cmd("POST", "/window", {"handle": notes})
            wait_step("interview", 4)
            time.sleep(0.3)
            expect("step=4" in chrome.url(), f"the notes window's address follows it: {chrome.url()}")
            chrome.js("location.reload();")
            time.sleep(0.5)
            wait_step("interview", 4)
            chrome.cmd("POST", "/window", {"handle": main})
            time.sleep(0.5)
            expect(step_at() == ["interview", 4], f"reloading the notes keeps the class's step: {step_at()}")
            # A notes window opened at an older step joins the class's step, not the reverse.
            chrome.cmd("POST", "/window", {"handle": notes})
            chrome.get(base + "?lesson=interview&step=1&notes=1&lang=en")
            wait_step("interview", 4)
            chrome.cmd("POST", "/window", {"handle": main})
            time.sleep(0.5)
            expect(step_at() == ["interview", 4], f"opening the notes at step 1 keeps the class's step: {step_at()}")
            # The browser's Back in the presenting window: the notes window follows too (step
            # 3 was followed from the notes window, so its entry shows step 3).
            chrome.js("history.back();")
            wait_step("interview", 3)
            chrome.cmd("POST", "/window", {"handle": notes})
            wait_step("interview", 3)
        finally:
            chrome.cmd("POST", "/window", {"handle": notes})
            chrome.cmd("DELETE", "/window")
            chrome.cmd("POST", "/window", {"handle": main})

    def tab_stays_clear_of_the_cards_bar():
        # Tab through a step's knobs in the card: each control focused is in view above the
        # card's sticky Back/Next bar, not under it (capacity 5's refill slider was covered).
        chrome.viewport(1440, 900)
        try:
            for lesson, n in [("capacity", 5), ("metastable", 2)]:
                chrome.get(base + f"?lesson={lesson}&step={n}&lang=en")
                wait_step(lesson, n)
                time.sleep(0.5)
                chrome.js("document.getElementById('lesson-step-title').focus();")
                covered = []
                for _ in range(14):
                    chrome.press("\ue004")
                    got = chrome.js("""const a = document.activeElement, nav = document.querySelector('#lesson-card .lesson-nav');
                        if (!a || !a.closest('#lesson-card') || nav.contains(a)) return null;
                        const r = a.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
                        const top = document.elementFromPoint(x, y);
                        return [a.id || a.tagName, !!top && (top === a || a.contains(top) || top.contains(a))];""")
                    if got is None:
                        break
                    if not got[1]:
                        covered.append(got[0])
                expect(not covered, f"{lesson} {n}: focused controls covered: {covered}")
        finally:
            chrome.viewport(1280, 900)

    def late_figure_leaves_a_touched_page_alone():
        # On a slow machine a step's figure is drawn seconds after its card (its run first).
        # Untouched, the page scrolls to the figure when it comes; a reader who has already
        # turned the wheel over the card keeps the page where they put it (a scroll then
        # had moved the card under a click). The worker's replies are held back until the
        # test lets them through, so the figure comes late on any machine.
        added = chrome.hold_worker_replies(True)
        chrome.viewport(1280, 900)
        try:
            for touched in [False, True]:
                chrome.get(base + "?lesson=interview&step=8&lang=en")
                wait_step("interview", 8)
                time.sleep(0.3)
                if touched:
                    chrome.wheel_to("#lesson-step-title", 3)
                    # The wheel's own 3 px land a moment later (CI read 0, then 3): wait until
                    # the page has stopped moving before taking where the reader left it.
                    last, deadline = None, time.time() + 3
                    while time.time() < deadline:
                        time.sleep(0.15)
                        y = chrome.js("return window.scrollY;")
                        if y == last:
                            break
                        last = y
                y0 = chrome.js("return [window.scrollY, !!document.getElementById('chart-inflight-a'), window.__held.length];")
                expect(not y0[1] and y0[2] > 0, f"the figure waits for the held run: {y0}")
                chrome.js("window.__release();")
                chrome.wait("#chart-inflight-a.spot")
                time.sleep(0.8)
                y1 = chrome.js("return window.scrollY;")
                if touched:
                    expect(abs(y1 - y0[0]) < 2, f"a figure drawn after the reader's wheel scrolled the page: {y0[0]} -> {y1}")
                else:
                    expect(y1 > y0[0] + 100, f"untouched, the page scrolls to the figure drawn late: {y0[0]} -> {y1}")
        finally:
            chrome.release_worker_script(added)
            chrome.get(base + "?lang=en")

    def interview_mode_and_candidate_link():
        chrome.get(base + "?lesson=interview&step=1&interview=1&lang=en")
        wait_step("interview", 1)
        items = chrome.js("return document.querySelectorAll('#lesson-checklist li').length;")
        expect(items >= 6, f"every prompt in the checklist: {items}")
        # Every question can be read out before its step is shown: no figure left pending.
        pending = chrome.js("return document.querySelectorAll('#lesson-checklist .fig.pending, #lesson-checklist .fig.missing').length;")
        expect(pending == 0, f"the checklist's questions are filled: {pending} figures pending")
        expect(chrome.js("return document.querySelectorAll('#lesson-checklist .lesson-answer').length;") == 0,
               "answers hidden until revealed")
        # The checklist is above the card's sticky bar: a prompt's buttons are scrolled to
        # the card's middle first, with the wheel, as a reader scrolls to what they click.
        # The reader's scroll stops the step's figure being brought back into view: on a
        # slow machine, a scroll to the figure drawn late had moved the card under the click.
        def click_in_card(css):
            chrome.wheel_to(css)
            chrome.click(css)
        click_in_card("#check-3-reveal")
        chrome.wait("#check-3-answer")
        expect("900" in chrome.text("#check-3-answer"), "the 900 calls answer, from the model")
        # A ticked prompt stays ticked through Next and a reload (the tab's session).
        click_in_card("#check-1-done")
        click_in_card("#check-3-go")
        wait_step("interview", 3)
        chrome.refresh()
        wait_step("interview", 3)
        chrome.wait("#check-1-done")
        ticked = chrome.js("return [...document.querySelectorAll('#lesson-checklist input[type=checkbox]')].filter(c => c.checked).map(c => c.id);")
        expect(ticked == ["check-1-done"], f"the ticked prompt kept through a step and a reload: {ticked}")
        # The candidate link is the page as the click finds it: the language just switched
        # and both knobs just moved (read when the card was drawn, it was a change behind).
        chrome.js("Object.defineProperty(navigator, 'clipboard', {value: {writeText: t => { window.__copied = t; return Promise.resolve(); }}, configurable: true});")
        chrome.wait("#lang-zh")
        chrome.js("document.getElementById('lang-zh').click();")
        chrome.wait_text("#lesson-candidate", "复制候选人链接")
        chrome.type("#card-k-l1-attempts", "4")
        chrome.type("#card-k-l2-attempts", "2")
        time.sleep(0.05)
        click_in_card("#lesson-candidate")
        chrome.wait_text("#lesson-candidate", "候选人链接已复制")
        link = chrome.js("return window.__copied || '';")
        expect(all(p in link for p in ["lang=zh", "role=candidate", "l1.attempts=4", "l2.attempts=2", "step=3"])
               and "interview=1" not in link, f"the candidate link carries the language and both changes: {link}")
        chrome.js("document.getElementById('lang-en').click();")
        chrome.get(base + "?lesson=interview&step=3&role=candidate&lang=en")
        wait_step("interview", 3)
        for sel in ["#lesson-reveal", "#lesson-answer", "#lesson-checklist", "#lesson-notes"]:
            expect(chrome.js(f"return !document.querySelector('{sel}');"), f"the candidate sees no {sel}")
        # Step 11's "try this" says the outcome: the candidate sees it only after answering.
        chrome.get(base + "?lesson=interview&step=11&role=candidate&lang=en")
        wait_step("interview", 11)
        expect(chrome.js("return !document.getElementById('lesson-try');"), "no try-this before the candidate answers")
        chrome.click("#lesson-show-run")
        chrome.wait("#lesson-try")
        chrome.get(base + "?lesson=interview&step=3&role=candidate&lang=en")
        wait_step("interview", 3)
        # The run answers the question: it stays hidden until the candidate has answered.
        chrome.wait("#h-a-latency_max")
        hidden = "return getComputedStyle(document.getElementById('h-a-latency_max')).visibility === 'hidden';"
        expect(chrome.js(hidden), "the candidate does not see the run's figures before answering")
        expect(chrome.js("return !!document.getElementById('lesson-run-hidden');"), "and is told why")
        # The page opens where that is said, not scrolled down to the hidden figure.
        time.sleep(1.0)
        notice = chrome.js("const r = document.getElementById('lesson-run-hidden').getBoundingClientRect(); return [r.top, r.bottom, innerHeight, scrollY];")
        expect(notice[0] >= 0 and notice[1] <= notice[2], f"the notice in view when the link opens: {notice}")
        # From the keyboard: the button goes, and the focus goes on in the card to the way to
        # the run it showed (it had fallen to the page's top).
        chrome.js("document.getElementById('lesson-show-run').focus();")
        chrome.press("\ue007")
        time.sleep(0.2)
        expect(not chrome.js(hidden), "Show the run shows it")
        expect(chrome.focused_id() == "lesson-to-figure", f"the focus stays in the card: on {chrome.focused_id()!r}")
        expect(chrome.js("return !document.querySelector('#lesson-answer');"), "but not the answer")
        chrome.get(base + "?lesson=interview&step=5&role=candidate&lang=en")
        wait_step("interview", 5)
        chrome.wait("#h-a-latency_max")
        expect(chrome.js(hidden), "each step with a question hides its run again")
        chrome.press("r")
        time.sleep(0.2)
        expect(not chrome.js(hidden), "R shows the run")
        expect(chrome.js("return !document.querySelector('#lesson-answer');"), "R reveals no answer to a candidate")
        no_console_errors(chrome, "interview mode")

    def index_links_and_bad_links():
        chrome.get(base + "?page=lessons&lang=zh")
        chrome.wait("#lessons .lesson-entry")
        hrefs = chrome.js("return Array.from(document.querySelectorAll('#lessons a[href*=\"lesson=\"]')).map(a => a.getAttribute('href'));")
        expect(len(hrefs) > 20 and all(h.startswith("?lesson=") for h in hrefs), f"real links: {hrefs[:3]}")
        # Titles and summaries are filled (literals and the steps' settings), in both languages.
        for lang in ["zh", "en"]:
            chrome.get(base + f"?page=lessons&lang={lang}")
            chrome.wait("#lessons .lesson-entry")
            text = chrome.js("return document.getElementById('lessons').textContent;")
            expect("{" not in text and "}" not in text, f"the index ({lang}) shows no placeholder: {text[text.find('{') - 40:text.find('{') + 40]!r}")
            expect(lang != "en" or "Attempts at layer" not in text, "no raw knob label")
        chrome.click("#lesson-capacity-start")
        wait_step("capacity", 1)
        chrome.get(base + "?lesson=nope&lang=en")
        expect("lesson" in chrome.text("#link-notice") and "interview" in chrome.text("#link-notice"),
               "an unknown lesson is named with the lessons there are")
        chrome.get(base + "?lesson=interview&step=99&lang=en")
        wait_step("interview", 1)
        expect("step" in chrome.text("#link-notice") and "99" in chrome.text("#link-notice"), "a bad step is named")
        chrome.js("document.getElementById('lesson-leave').scrollIntoView({block: 'center'});")
        chrome.click("#lesson-leave")
        # Polled: the address is written a moment after the page (a loaded machine had not
        # written it 0.2 s later).
        def left_within(seconds):
            deadline = time.time() + seconds
            while time.time() < deadline:
                time.sleep(0.05)
                if "lesson=" not in chrome.url() and chrome.js("return !document.getElementById('lesson-card');"):
                    return True
            return False
        left = left_within(5)
        if not left:
            # Seen twice in many runs, on a loaded machine, never alone: the click landed (no
            # WebDriver error) and the lesson stayed. Said loudly, with what the page shows,
            # and Leave clicked once more: a Leave that never works still fails here.
            card = chrome.js("return !!document.getElementById('lesson-card');")
            print(f"     WARNING: the first Leave did not leave (card shown: {card}, address {chrome.url()}); clicking again")
            measurements.setdefault("warnings", []).append(f"lesson leave needed a second click: card {card}, {chrome.url()}")
            if card:
                chrome.click("#lesson-leave")
            left = left_within(5)
        expect(left, f"leaving keeps the page without the lesson: {chrome.url()}")

    def playback_cue_starts_late_and_pauses():
        # Metastable step 2 plays from 3.9 s to 5.1 s. Its run takes a while: the playback
        # must wait for it (a stand-in end of 1 ms once ended it at once, at 0 s).
        chrome.get(base + "?lesson=metastable&step=2&lang=en")
        wait_step("metastable", 2)
        deadline = time.time() + 30
        state = None
        while time.time() < deadline:
            state = chrome.js("const s = document.getElementById('storm'); const p = document.getElementById('play');"
                              "return s && p ? [parseFloat(s.dataset.playhead), p.dataset.playing] : null;")
            if state and state[0] >= 5100 and state[1] == "false":
                break
            time.sleep(0.1)
        expect(state is not None and abs(state[0] - 5100) < 1e-6 and state[1] == "false",
               f"the step's playback paused at 5.1 s: {state}")
        # The step's stretch of time is shaded on every time chart of the run.
        shaded = chrome.js("return Array.from(document.querySelectorAll('.run-view .playhead-layer rect.step-moment'))"
                           ".map(r => [Number(r.dataset.fromMs), Number(r.dataset.toMs), Number(r.getAttribute('width'))]);")
        charts = chrome.js("return document.querySelectorAll('.run-view .playhead-layer').length;")
        expect(shaded and len(shaded) == charts and all(s[:2] == [3900, 5100] and s[2] > 0 for s in shaded),
               f"3.9–5.1 s shaded on each of the {charts} time charts: {shaded}")
        # The playhead's layer lies exactly over its chart's drawing, here and on the
        # presenter's stage (a layer sized to the chart's outer box was off by its padding).
        same_box = ("return Array.from(document.querySelectorAll('.run-view .playhead-layer')).map(l => {"
                    " const c = l.parentElement.querySelector('svg[role]').getBoundingClientRect();"
                    " const o = l.getBoundingClientRect();"
                    " return [o.left - c.left, o.top - c.top, o.width - c.width, o.height - c.height].map(v => Math.abs(v)); });")
        for where, query in [("the page", None), ("the stage", "?lesson=metastable&step=2&lang=en&present=1")]:
            if query:
                chrome.get(base + query)
                wait_step("metastable", 2)
                chrome.wait(".run-view .playhead-layer")
            gaps = chrome.js(same_box)
            expect(gaps and all(max(g) < 0.5 for g in gaps), f"on {where} each playhead layer covers its chart exactly: {gaps}")
        chrome.get(base + "?page=storm&preset=metastable-retry-storm&lang=en")
        chrome.wait("#storm")
        expect(chrome.js("return document.querySelectorAll('rect.step-moment').length;") == 0, "outside a lesson nothing is shaded")

    def a_step_points_at_its_hop():
        # interview 3 points at the profile service (hop 2); step 4 points at none; Back
        # picks the profile again; metastable 1 points at its server (hop 1).
        picked = "const v = document.querySelector('.run-view'); return v ? Array.from(v.classList).filter(c => c.startsWith('focus-hop-')) : null;"
        def wait_picked(want, where):
            deadline = time.time() + 15
            got = None
            while time.time() < deadline:
                got = chrome.js(picked)
                if got == want:
                    break
                time.sleep(0.05)
            expect(got == want, f"{where}: picked {got}, want {want}")
        chrome.get(base + "?lesson=interview&step=3&lang=en")
        wait_step("interview", 3)
        wait_picked(["focus-hop-2"], "interview 3")
        expect(chrome.js("return document.getElementById('focus-a-2').getAttribute('aria-pressed')") == "true",
               "the hop's button says it is picked")
        chrome.click("#lesson-next")
        wait_step("interview", 4)
        wait_picked([], "interview 4")
        chrome.click("#lesson-prev")
        wait_step("interview", 3)
        wait_picked(["focus-hop-2"], "back on interview 3")
        chrome.get(base + "?lesson=metastable&step=1&lang=zh")
        wait_step("metastable", 1)
        wait_picked(["focus-hop-1"], "metastable 1")
        no_console_errors(chrome, "step hops")

    def presenter_stage_survives_a_knob():
        # The breaker lab draws its band again as new markup when a knob moves: the step's
        # figure must stay on the stage (it went blank), with the count of state changes the
        # step asks the class for.
        chrome.get(base + "?lesson=retry-storm&step=5&present=1&lang=en")
        wait_step("retry-storm", 5)
        chrome.wait("#breaker-band.spot")
        chrome.js("""const i = document.getElementById('card-f-open_ms');
            Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(i, '5000');
            i.dispatchEvent(new Event('input', {bubbles: true})); i.dispatchEvent(new Event('change', {bubbles: true}));""")
        time.sleep(1.0)
        got = chrome.js("""const e = document.getElementById('breaker-band'); const r = e && e.getBoundingClientRect();
            const c = document.getElementById('breaker-band-changes');
            return [!!e && e.classList.contains('spot'), r ? Math.round(r.width) : 0, document.getElementById('card-f-open_ms').value,
                    !!c && e.contains(c) && c.getBoundingClientRect().height > 0];""")
        expect(got[0] and got[1] > 300 and got[2] == "5000" and got[3],
               f"the step's figure, with its count of state changes, stays on the stage after a knob moved: {got}")
        no_console_errors(chrome, "presenter knob")

    def a_steps_runs_share_their_scales():
        # Metastable 1 with one attempt instead of three: the load falls from about 1,500/s
        # to 450/s, and the chart must show it lower, not redrawn to the same height. The
        # next step starts from its own scale.
        chrome.get(base + "?lesson=metastable&step=1&lang=en")
        wait_step("metastable", 1)
        chrome.wait("#load-a")
        y_max = "return ['load-a', 'outcomes-a'].map(i => Number(document.getElementById(i).dataset.yMax))"
        before = chrome.js(y_max)
        digest = chrome.js("return document.getElementById('storm').getAttribute('data-digest')")
        chrome.type("#card-k-l1-attempts", "1")
        deadline = time.time() + 15
        while time.time() < deadline and chrome.js("return document.getElementById('storm').getAttribute('data-digest')") == digest:
            time.sleep(0.2)
        expect(chrome.js("return document.getElementById('storm').getAttribute('data-digest')") != digest, "the step reran")
        time.sleep(0.5)
        expect(chrome.js(y_max) == before, f"one attempt drawn on the step's scale: {before} → {chrome.js(y_max)}")
        # The way back to the step's settings is in view (in the card's nav, not under its
        # fold) and takes the knob back.
        seen = chrome.js("""const b = document.getElementById('lesson-reset'); if (!b) return 'none';
            const r = b.getBoundingClientRect(); const e = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
            return r.top >= 0 && r.bottom <= innerHeight && e === b;""")
        expect(seen is True, f"'Back to the step's settings' is in view and on top after a knob moved: {seen}")
        chrome.click("#lesson-reset")
        deadline = time.time() + 10
        while time.time() < deadline and chrome.js("return document.getElementById('card-k-l1-attempts').value") != "3":
            time.sleep(0.2)
        expect(chrome.js("return document.getElementById('card-k-l1-attempts').value") == "3", "the step's 3 attempts are back")
        # Its own run, from a link, has a lower top: the scale was held, not the same anyway.
        chrome.get(base + "?page=storm&preset=metastable-retry-storm&l1.attempts=1&lang=en")
        chrome.wait("#load-a")
        time.sleep(1.0)
        own = chrome.js(y_max)
        expect(own[0] < before[0], f"alone, one attempt's load has a lower top: {own} against {before}")
        no_console_errors(chrome, "held scales")

    def alone_page_keys_scroll_and_arrows_move_the_step():
        # A student alone at a laptop: PageDown and Space read on down the page (they had
        # skipped to the next step, its answer never shown); → moves the step.
        chrome.cmd("POST", "/window/rect", {"width": 1366, "height": 768})
        try:
            chrome.get(base + "?lesson=field-guide&step=1&lang=zh")
            wait_step("field-guide", 1)
            # Once the step has pointed at its figure (which scrolls the page itself).
            chrome.wait(".spot", timeout=20)
            time.sleep(0.5)
            chrome.js("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0);")
            for key in [PAGE_DOWN, SPACE]:
                chrome.press(key)
                time.sleep(0.4)
            got = chrome.js("return [document.getElementById('lesson-card').dataset.step, Math.round(window.scrollY)];")
            expect(got[0] == "1" and got[1] > 0, f"PageDown and Space scroll the page, still step 1: {got}")
            chrome.press(ARROW_RIGHT)
            wait_step("field-guide", 2)
            chrome.press(ARROW_LEFT)
            wait_step("field-guide", 1)
            no_console_errors(chrome, "alone: page keys")
        finally:
            chrome.cmd("POST", "/window/rect", {"width": 1280, "height": 900})

    def a_focused_scroll_region_keeps_its_keys():
        # On a phone, retry storm 2's chain diagram (four hops) is wider than the screen; Tab
        # reaches its scroll box, and there → and Space scroll it instead of moving the step.
        # (Step 1's in-flight table had been the wide one; a phone now shows it as cards.)
        with on_a_phone():
            chrome.get(base + "?lesson=retry-storm&step=2&lang=en")
            wait_step("retry-storm", 2)
            chrome.wait("#diagram-a .diagram-scroll[tabindex]")
            got = chrome.js("const r = document.querySelector('#diagram-a .diagram-scroll'); r.focus();"
                            "return [r.scrollWidth > r.clientWidth, document.activeElement === r];")
            expect(got == [True, True], f"the diagram overflows and its box has the focus: {got}")
            chrome.press(ARROW_RIGHT)
            chrome.press(SPACE)
            time.sleep(0.6)
            got = chrome.js("return [document.getElementById('lesson-card').dataset.step,"
                            " (document.querySelector('#diagram-a .diagram-scroll') || {}).scrollLeft];")
            expect(got[0] == "2" and got[1] > 0, f"still step 2, the diagram scrolled: {got}")
            # Away from it, → moves the step again.
            chrome.js("document.activeElement.blur()")
            chrome.press(ARROW_RIGHT)
            wait_step("retry-storm", 3)
            no_console_errors(chrome, "scroll region keys")

    def a_phone_learner_finds_the_card_and_not_the_answer():
        with on_a_phone():
            # The calculator's chain rows (a phone's chain picture) print the leaf's rate, the
            # answer of retry storm 1: veiled with it until R.
            chrome.get(base + "?lesson=retry-storm&step=1&lang=zh")
            wait_step("retry-storm", 1)
            chrome.wait("#calc-chain-rows svg")
            deadline, got = time.time() + 5, None
            while time.time() < deadline:
                got = chrome.js("const e = document.getElementById('calc-chain-rows'); return [e.classList.contains('veiled'), e.getAttribute('aria-hidden'), e.getBoundingClientRect().height > 0];")
                if got[0]:
                    break
                time.sleep(0.1)
            expect(got == [True, "true", True], f"the chain rows are shown and veiled before R: {got}")
            chrome.press("r")
            time.sleep(0.3)
            expect(not chrome.js("return document.getElementById('calc-chain-rows').classList.contains('veiled')"), "and shown after R")
            # From the figure, a button at the screen's corner leads back to the card.
            chrome.get(base + "?lesson=field-guide&step=3&lang=zh")
            wait_step("field-guide", 3)
            # Not over the card while the card is read: it had covered "Try this".
            hidden = chrome.js("return getComputedStyle(document.getElementById('lesson-to-card')).visibility;")
            expect(hidden == "hidden", f"no corner button over the card on screen: {hidden}")
            chrome.click("#lesson-to-figure")
            # The scroll is smooth: read until it lands (up to 5 s on a busy machine).
            deadline = time.time() + 5
            while True:
                time.sleep(0.25)
                got = chrome.js("""const b = document.getElementById('lesson-to-card').getBoundingClientRect(),
                    c = document.getElementById('lesson-card').getBoundingClientRect();
                    return [Math.round(b.width), Math.round(b.height), b.bottom <= innerHeight && b.right <= innerWidth, c.bottom < 0,
                            getComputedStyle(document.getElementById('lesson-to-card')).visibility];""")
                if got[3] or time.time() > deadline:
                    break
            expect(got[0] >= 44 and got[1] >= 44 and got[2] and got[3] and got[4] == "visible",
                   f"at the figure, the card off screen and the way back at hand: {got}")
            chrome.click("#lesson-to-card")
            deadline = time.time() + 5
            while time.time() < deadline and chrome.js("return document.getElementById('lesson-card').getBoundingClientRect().top < -5"):
                time.sleep(0.1)
            expect(chrome.js("const c = document.getElementById('lesson-card').getBoundingClientRect(); return c.top >= -5 && c.top < innerHeight;"),
                   "the button brings the card back")
            expect(chrome.js("return location.search.includes('lesson=field-guide') && location.search.includes('step=3')"), f"still the same step: {chrome.url()}")
            # The lesson index fits a 360 px screen: no sideways scrolling.
            chrome.viewport(360, 740)
            chrome.get(base + "?page=lessons&lang=zh")
            chrome.wait("#lessons .lesson-entry")
            got = chrome.js("return [document.documentElement.scrollWidth, innerWidth];")
            expect(got[0] <= got[1], f"the index at 360 px: page {got[0]} px wide in a {got[1]} px window")
            no_console_errors(chrome, "phone lesson")
        # On a wide screen the card stays beside the page: no corner button.
        chrome.get(base + "?lesson=field-guide&step=3&lang=en")
        wait_step("field-guide", 3)
        expect(not chrome.js("return document.getElementById('lesson-to-card').getBoundingClientRect().width"), "no corner button on a wide screen")

    def arrow_keys_move_a_number_field_one_step():
        # Metastable step 4 asks for the fault's end 100 ms at a time, finer than its slider.
        chrome.get(base + "?lesson=metastable&step=4&lang=en")
        wait_step("metastable", 4)
        chrome.wait("#card-k-f1-end")
        chrome.js("document.getElementById('card-k-f1-end').focus()")
        def wait_value(want, timeout=5.0):
            deadline, got = time.time() + timeout, None
            while time.time() < deadline:
                got = chrome.js("return [document.getElementById('card-k-f1-end').value, location.search];")
                if got[0] == want and f"f1.end={want}" in got[1]:
                    return
                time.sleep(0.1)
            expect(False, f"the fault's end and the link at {want}: {got}")
        chrome.press("\ue013")  # ArrowUp
        wait_value("4300")
        # The card keeps the step's own setting, which its figures are for, and marks the new one.
        time.sleep(0.3)
        got = chrome.js("""const own = document.getElementById('set-f1.end'), now = document.getElementById('set-now-f1.end');
            return [own && own.dataset.value, now && now.dataset.value, now && now.textContent];""")
        expect(got[0] == "4200" and got[1] == "4300" and "4,300" in (got[2] or ""),
               f"the card's settings: the step's 4,200 ms and, marked, the page's 4,300 ms: {got}")
        chrome.press("\ue015", "\ue015")  # ArrowDown twice
        wait_value("4100")
        no_console_errors(chrome, "arrow keys")

    def the_answer_is_kept_from_readers_and_shown_where_it_is():
        """Until R, a veiled figure and what restates it in words are hidden from screen
        readers too (retry storm 1's announcement, 5's note that adds the breaker's cards up,
        metastable 8's note that says why the system stays down); R gives them back, plays
        the step on from its pause to the totals the answer quotes and outlines the answer's
        figures on the page."""
        state = ("return [arguments[0]].map(id => { const e = document.getElementById(id);"
                 " return e && [e.classList.contains('veiled'), e.getAttribute('aria-hidden')]; })[0];")
        for query, fid in [("?lesson=retry-storm&step=1&lang=en", "calc-announce"),
                           ("?lesson=retry-storm&step=5&lang=en", "breaker-figures-note"),
                           ("?lesson=retry-storm&step=5&present=1&lang=en", "breaker-figures-note"),
                           ("?lesson=metastable&step=8&lang=en", "stab-hyst-why"),
                           # Metastable 7 asks what the budget does to the map: the picked
                           # cell's line and the hysteresis chart's budget lines say it too.
                           ("?lesson=metastable&step=7&lang=en", "stab-cell-verdict"),
                           ("?lesson=metastable&step=7&lang=zh", "hyst-protected")]:
            chrome.get(base + query)
            chrome.wait("#" + fid)
            deadline = time.time() + 5
            while time.time() < deadline and chrome.js(state, fid) != [True, "true"]:
                time.sleep(0.05)
            expect(chrome.js(state, fid) == [True, "true"], f"{query}: #{fid} veiled and hidden from readers: {chrome.js(state, fid)}")
            chrome.press("r")
            time.sleep(0.4)
            expect(chrome.js(state, fid) == [False, None], f"{query}: R gives #{fid} back: {chrome.js(state, fid)}")
            if fid == "stab-hyst-why":
                # A reload keeps the answer revealed (the tab's session remembers the step);
                # the next step starts hidden.
                chrome.refresh()
                chrome.wait("#" + fid)
                time.sleep(1.0)
                expect(chrome.js(state, fid) == [False, None] and chrome.find("#lesson-answer") is not None,
                       f"{query}: still revealed after a reload: {chrome.js(state, fid)}")
                chrome.press(ARROW_LEFT)
                time.sleep(1.0)
                expect(chrome.find("#lesson-answer") is None, "the step before starts with its answer hidden")
                # Back to a step revealed in this visit keeps its answer revealed (a student
                # going back a step had found it hidden again), by the browser's Back or the
                # card's button; a link opened afresh starts hidden.
                chrome.js("history.back();")
                wait_step("metastable", 8)
                time.sleep(1.0)
                expect(chrome.find("#lesson-answer") is not None, "Back to a revealed step: still revealed")
                chrome.press(ARROW_LEFT)
                wait_step("metastable", 7)
                chrome.press(ARROW_RIGHT)
                wait_step("metastable", 8)
                time.sleep(1.0)
                expect(chrome.find("#lesson-answer") is not None, "Next to a revealed step: still revealed")
                chrome.get(base + query)
                wait_step("metastable", 8)
                time.sleep(1.0)
                expect(chrome.find("#lesson-answer") is None, "the same step's link opened afresh: hidden")
                # Likewise a lesson opened from the index, a link followed in the app (a
                # teacher who tried the first step at her desk, then starts it for the class).
                chrome.get(base + "?lesson=metastable&step=1&lang=en")
                wait_step("metastable", 1)
                chrome.press("r")
                deadline = time.time() + 5
                while time.time() < deadline and chrome.find("#lesson-answer") is None:
                    time.sleep(0.1)
                expect(chrome.find("#lesson-answer") is not None, "metastable 1 revealed")
                chrome.js("document.getElementById('nav-lessons').click();")
                chrome.wait("#lessons a.button[href*='lesson=metastable']")
                chrome.js("document.querySelector(\"#lessons a.button[href*='lesson=metastable']\").click();")
                wait_step("metastable", 1)
                time.sleep(1.0)
                expect(chrome.find("#lesson-answer") is None, "a lesson started from the index: its answers hidden")
            if fid == "calc-announce":
                # What `lesson::RESTATED` says it restates: the two cards, as they write them.
                said = chrome.js("return ['out-worst', 'out-amplification'].map(id => document.querySelector('#' + id + ' .value').textContent)"
                                 ".map(v => document.getElementById('calc-announce').textContent.includes(v));")
                expect(said == [True, True], f"the announcement restates the worst case and the amplification: {said}")
        # Interview 3 pauses at 50 ms, before the diagram counts up to the answer's 900 calls.
        chrome.get(base + "?lesson=interview&step=3&lang=en")
        chrome.wait("#play")
        time.sleep(1.5)
        at = "const s = document.getElementById('storm'); return [Number(s.dataset.playhead), Number(s.dataset.end)];"
        before = chrome.js(at)
        expect(before[0] < before[1], f"interview 3 pauses before the end: {before}")
        chrome.press("r")
        pressed = time.time()
        deadline, now = pressed + 15, before
        while time.time() < deadline:
            now = chrome.js(at)
            if now[0] >= now[1]:
                break
            time.sleep(0.1)
        took = time.time() - pressed
        measurements["interview3_play_on_s"] = round(took, 2)
        expect(now[0] >= now[1], f"interview 3: R plays on to the run's end: {before} → {now}")
        # Within `PLAY_ON_MS` (3 s) and a loaded VM's slack, not the 9.5 s of 1× speed.
        expect(took < 5.0, f"interview 3: R reaches the answer's totals within seconds: {took:.1f} s")
        outlined = chrome.js("return Array.from(document.querySelectorAll('.answered')).map(e => e.id).sort();")
        expect(outlined == ["bd-a-hop2", "h-a-latency_max"],
               f"interview 3: the answer's figures (not the step's own, the diagram) are outlined: {outlined}")
        # R again hides the answer and gives back the moment the question was asked.
        chrome.press("r")
        deadline = time.time() + 5
        while time.time() < deadline and chrome.js(at)[0] != 50.0:
            time.sleep(0.1)
        expect(chrome.js(at)[0] == 50.0, f"interview 3: R again goes back to the pause (50 ms): {chrome.js(at)}")
        # Field guide 4's answer explains its moment (the shared pool full at 9 s): R stays there.
        chrome.get(base + "?lesson=field-guide&step=4&lang=en")
        deadline = time.time() + 20
        while time.time() < deadline and chrome.js(at)[0] != 9000.0:
            time.sleep(0.2)
        paused = chrome.js(at)
        chrome.press("r")
        time.sleep(1.5)
        expect(paused[0] == 9000.0 and chrome.js(at)[0] == 9000.0,
               f"field guide 4: R stays at the moment the answer explains: {paused} → {chrome.js(at)}")
        diagram = chrome.js("const r = document.getElementById('diagram-a').getBoundingClientRect(); return r.top < innerHeight && r.bottom > 0;")
        expect(diagram, "interview 3: the page stays on the step's diagram")
        chrome.press("r")
        time.sleep(0.3)
        expect(chrome.js("return document.querySelectorAll('.answered').length;") == 0,
               "hiding the answer again takes the outlines off")
        # Leaving the lesson, veiled and revealed, leaves nothing hidden from readers nor outlined.
        for revealed in [False, True]:
            chrome.get(base + "?lesson=interview&step=3&lang=en")
            chrome.wait("#lesson-leave")
            time.sleep(1.0)
            if revealed:
                chrome.press("r")
                time.sleep(0.4)
            marked = chrome.js("return document.querySelectorAll('[data-veil-hidden], .answered, .veiled').length;")
            expect(marked > 0, f"interview 3 marks its figures ({'revealed' if revealed else 'veiled'}): {marked}")
            chrome.js("document.getElementById('lesson-leave').click();")
            time.sleep(0.6)
            left = chrome.js("return [document.getElementById('lesson-card') === null, document.querySelectorAll('[data-veil-hidden], [aria-hidden=true].figure, .answered, .veiled').length];")
            expect(left == [True, 0], f"after leaving the lesson ({'revealed' if revealed else 'veiled'}): nothing left marked: {left}")
        no_console_errors(chrome, "the answer kept from readers")
        # On a laptop (1440 x 900) the stability map a step points at fits the window with its
        # x axis, below the figure's status lines (it ran 230 px past the window's foot).
        chrome.viewport(1440, 900)
        try:
            chrome.get(base + "?lesson=metastable&step=7&lang=en")
            chrome.wait("#stability-map.spot .stab-map")
            time.sleep(1.5)
            got = chrome.js("const r = document.querySelector('.stab-map').getBoundingClientRect(); return [Math.round(r.top), Math.round(r.bottom), innerHeight];")
            expect(got[0] >= 0 and got[1] <= got[2], f"metastable 7 at 1440 x 900: the map within the window: {got}")
        finally:
            chrome.viewport(1280, 900)


    def a_teacher_presents_from_a_tablet():
        def cdp(cmd, **params):
            return chrome.cmd("POST", "/goog/cdp/execute", {"cmd": cmd, "params": params})
        chrome.viewport(768, 1024)
        cdp("Emulation.setTouchEmulationEnabled", enabled=True, maxTouchPoints=5)
        try:
            for lang in ["en", "zh"]:
                # Upright, the card spans the screen above the stage (a 23vw column was 177 px),
                # and its bar has the page's play and full screen, for a tablet without keys.
                chrome.get(base + f"?lesson=retry-storm&step=2&lang={lang}&present=1")
                wait_step("retry-storm", 2)
                chrome.wait("#lesson-play", timeout=10)
                card = chrome.js("return document.getElementById('lesson-card').getBoundingClientRect().width;")
                expect(card >= 700, f"({lang}) the presenter's card spans an upright tablet: {card} px")
                deadline = time.time() + 10
                while time.time() < deadline and chrome.js("const p = document.getElementById('play'); return !p || !p.dataset.playing;"):
                    time.sleep(0.1)
                before = chrome.js("return document.getElementById('play').dataset.playing;")
                chrome.click("#lesson-play")
                time.sleep(0.3)
                after = chrome.js("return document.getElementById('play').dataset.playing;")
                expect(before != after, f"({lang}) the card's Play / pause plays or pauses the run: {before} -> {after}")
                expect(chrome.js("return !!document.getElementById('lesson-fullscreen');"), f"({lang}) a full screen button")
                small = chrome.js(
                    "return Array.from(document.querySelectorAll('#lesson-card button')).filter(b => b.offsetParent)"
                    ".map(b => [b.id, Math.round(b.getBoundingClientRect().height)]).filter(x => x[1] < 32);")
                expect(not small, f"({lang}) the card's buttons at least 32 px tall for a finger: {small}")
            # Landscape, the card is a column beside the stage, and the bar that stays at its
            # foot holds Back, Next and Play only: with the card's other tools in it, it had
            # taken 270 of the card's 750 px, over Reveal.
            chrome.viewport(1024, 768)
            for lang in ["en", "zh"]:
                for lesson, step in [("retry-storm", 3), ("interview", 2)]:
                    chrome.get(base + f"?lesson={lesson}&step={step}&lang={lang}&present=1" + ("&interview=1" if lesson == "interview" else ""))
                    wait_step(lesson, step)
                    time.sleep(0.5)
                    bar, card, tools = chrome.js(
                        "const n = document.querySelector('#lesson-card .lesson-nav').getBoundingClientRect();"
                        "const c = document.getElementById('lesson-card');"
                        "return [Math.round(n.height), c.clientHeight,"
                        " ['lesson-fullscreen', 'lesson-present', 'lesson-notes', 'lesson-leave'].filter(id => !document.getElementById(id))];")
                    expect(bar <= card / 6, f"({lang}) {lesson} {step}: the card's sticky bar takes {bar} of its {card} px")
                    expect(not tools, f"({lang}) {lesson} {step}: the card's tools are all there: missing {tools}")
                    # Reveal, scrolled into the card's view, is not under the bar.
                    hit = chrome.js(
                        "const r = document.getElementById('lesson-reveal'); if (!r) return 'none';"
                        "r.scrollIntoView({block: 'nearest'}); const b = r.getBoundingClientRect();"
                        "const top = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);"
                        "return top === r || r.contains(top);")
                    expect(hit is True,
                           f"({lang}) {lesson} {step}: Reveal scrolled into view is not under the bar: {hit}")
            # The stage's headline answer keeps its unit on one line (次尝试/秒 had broken after
            # its slash, 秒 alone on the next line).
            chrome.get(base + "?lesson=retry-storm&step=1&lang=zh&present=1")
            wait_step("retry-storm", 1)
            chrome.js("document.getElementById('lesson-reveal').click();")
            chrome.wait("#out-worst .value", timeout=10)
            time.sleep(0.5)
            broken = chrome.js("return [...document.querySelectorAll('.unit')].filter(u => u.getClientRects().length > 1)"
                               ".map(u => u.textContent + ' in ' + (u.closest('[id]') || {}).id);")
            shown = chrome.js("const u = document.querySelector('#out-worst .unit'); return u ? u.textContent : null;")
            expect(shown == "次尝试/秒" and not broken, f"units on one line on the stage: {shown!r}, broken {broken}")
            # Interviewing, the checklist (2,500 px of it) is above the bar: scrolled down it,
            # Back and Next are still at the card's foot.
            chrome.get(base + "?lesson=interview&step=1&interview=1&present=1&lang=en")
            wait_step("interview", 1)
            time.sleep(0.5)
            seen = chrome.js("const c = document.getElementById('lesson-card'); c.scrollTop = 2000;"
                             "const n = document.getElementById('lesson-next').getBoundingClientRect(), r = c.getBoundingClientRect();"
                             "return [c.scrollTop > 0, n.top >= r.top && n.bottom <= r.bottom + 1];")
            expect(seen == [True, True], f"interviewing, Next stays in the card's view down the checklist: {seen}")
            # The admission lab's arrivals table stays in its settings column (its × buttons
            # had stuck out of a 1,024 px laptop's 345 px column).
            chrome.get(base + "?page=admission&lang=zh")
            chrome.wait("#adm-steps", timeout=20)
            time.sleep(0.3)
            out = chrome.js("const w = document.querySelector('.controls-wrap').getBoundingClientRect().right;"
                            "return [...document.querySelectorAll('.lab-table.arrivals button')].filter(b => b.getBoundingClientRect().right > w + 1).length;")
            expect(out == 0, f"the arrivals table's buttons within the settings column at 1,024 px: {out} past it")
            chrome.viewport(768, 1024)
            # Upright, the presenter's card scrolls in its own box above the stage: Back and Next
            # at its foot without scrolling it.
            chrome.get(base + "?lesson=retry-storm&step=1&present=1&lang=en")
            wait_step("retry-storm", 1)
            time.sleep(0.5)
            seen = chrome.js("const c = document.getElementById('lesson-card').getBoundingClientRect(), n = document.getElementById('lesson-next').getBoundingClientRect();"
                             "return [Math.round(c.bottom), Math.round(n.top), Math.round(n.bottom)];")
            expect(seen[2] <= seen[0] + 1 and seen[1] >= 0, f"upright, Next in view at the card's foot: card ends {seen[0]}, Next {seen[1]}–{seen[2]}")
            # Not presenting, the card is above the page: the corner button leads back to it.
            chrome.get(base + "?lesson=capacity&step=5&lang=zh")
            wait_step("capacity", 5)
            shown = chrome.js("const b = document.getElementById('lesson-to-card'); return !!b && b.getBoundingClientRect().width > 0;")
            expect(shown, "an upright tablet has the corner button back to the card")
            # Outside a lesson the header scrolls away (five rows of it at 768 px), and a
            # finger's targets are a phone's size.
            chrome.get(base + "?page=storm&lang=en&preset=chain-3x3")
            chrome.wait("#speed", timeout=20)
            chrome.js("window.scrollTo(0, 900);")
            time.sleep(0.2)
            bottom = chrome.js("return document.querySelector('header.top').getBoundingClientRect().bottom;")
            expect(bottom <= 0, f"the header scrolls away on a tablet: its bottom at {bottom} px")
            tiny = chrome.js("return ['speed', 'scrub'].map(id => [id, Math.round(document.getElementById(id).getBoundingClientRect().height)]).filter(x => x[1] < 28);")
            expect(not tiny, f"the playback's select and slider are a finger's size: {tiny}")
            # Upright, the settings are folded below every figure, screens down (4,900 px): the
            # intro's link opens them and goes there, as on a phone.
            chrome.js("window.scrollTo(0, 0);")
            chrome.click("#to-settings")
            deadline, got = time.time() + 5, None
            while time.time() < deadline:
                got = chrome.js("const d = document.querySelector('details.controls-wrap'), r = document.getElementById('controls-toggle').getBoundingClientRect();"
                                "return [d.open, r.top >= 0 && r.bottom <= innerHeight];")
                if got == [True, True]:
                    break
                time.sleep(0.1)
            expect(got == [True, True], f"an upright tablet's link to the settings opens them and goes there: {got}")
            # No such link where there are no settings to go to: a lesson, compact mode, or
            # where the settings are beside the figures.
            shown = {}
            for w, h, q in [(390, 844, "?lesson=retry-storm&step=2&lang=en"), (390, 844, "?page=storm&embed=1&lang=en"),
                            (1280, 900, "?page=storm&lang=en")]:
                chrome.viewport(w, h)
                chrome.get(base + q)
                chrome.wait("#storm", timeout=20)
                time.sleep(0.3)
                shown[f"{q} at {w}"] = chrome.js("const e = document.getElementById('to-settings'); return !!e && e.getBoundingClientRect().height > 0;")
            expect(not any(shown.values()), f"no link to settings that are not there or already in view: {shown}")
        finally:
            cdp("Emulation.setTouchEmulationEnabled", enabled=False)
            chrome.viewport(1280, 900)

    def a_laptops_card_shows_back_and_next_from_the_top():
        # At 1,366 x 768 the header's links had wrapped to two rows and pushed the card's Back
        # and Next below the window until the page was scrolled.
        try:
            for w in (1280, 1366):
                chrome.viewport(w, 768)
                for lang in ("en", "zh"):
                    chrome.get(base + f"?lesson=interview&step=1&lang={lang}")
                    wait_step("interview", 1)
                    time.sleep(0.4)
                    at = chrome.js("window.scrollTo(0, 0); const n = document.getElementById('lesson-next').getBoundingClientRect();"
                                   "return [Math.round(n.bottom), innerHeight];")
                    expect(at[0] <= at[1], f"({lang}) at {w} x 768, Next in the window at the page's top: {at}")
                # Any page: the sticky header is one row (it had wrapped to two in English).
                for page in ("storm", "admission", "stability"):
                    chrome.get(base + f"?page={page}&lang={lang}")
                    chrome.wait("header.top nav")
                    time.sleep(0.3)
                    h = chrome.js("return document.querySelector('header.top').getBoundingClientRect().height;")
                    expect(h <= 70, f"({lang}) at {w} x 768, {page}'s header is one row: {h} px")
        finally:
            chrome.viewport(1280, 900)

    def a_changed_drop_down_gives_the_clicker_back():
        # Metastable 7's try-this: overlay another protection. Changed from the keyboard, the
        # drop-down kept the clicker's arrows, which changed it again instead of the step.
        chrome.get(base + "?lesson=metastable&step=7&present=1&lang=en")
        wait_step("metastable", 7)
        chrome.wait("#card-stab-protect")
        chrome.js("document.getElementById('card-stab-protect').focus();")
        before = chrome.js("return document.getElementById('card-stab-protect').value;")
        chrome.press(ARROW_DOWN)
        time.sleep(0.4)
        after = chrome.js("return [document.getElementById('card-stab-protect').value, document.activeElement.id];")
        expect(after[0] != before and after[1] == "card-stab-protect",
               f"↓ changes the drop-down, which keeps the focus (for another ↓): {before} -> {after}")
        chrome.press(ARROW_RIGHT)
        wait_step("metastable", 8)
        # Two exchange students come in: L (or the card's button) switches the language, on the
        # same step, still presenting.
        chrome.press("l")
        time.sleep(0.6)
        wait_step("metastable", 8)
        now = chrome.js("return [document.documentElement.lang, document.querySelector('.app').classList.contains('present'),"
                        " document.getElementById('lesson-language').textContent];")
        expect(now[0].startswith("zh") and now[1] and now[2] == "English (L)", f"L: Chinese, still presenting: {now}")
        # (Below the card's sticky bar at this size: scrolled to, as a mouse user would.)
        chrome.js("const b = document.getElementById('lesson-language'); b.scrollIntoView({block: 'center'}); b.click();")
        time.sleep(0.6)
        wait_step("metastable", 8)
        expect(chrome.js("return document.documentElement.lang;") == "en", "the card's button: back to English")

    def a_step_links_to_another_lesson():
        # Interview 8 builds on the metastable lesson: its narration links to it, in a new tab
        # (the class keeps its step), in the page's language.
        for lang in ("en", "zh"):
            chrome.get(base + f"?lesson=interview&step=8&lang={lang}")
            wait_step("interview", 8)
            link = chrome.js("const a = document.querySelector('#lesson-narration a'); return a && [a.getAttribute('href'), a.target, a.textContent];")
            expect(link and link[0] == f"?lesson=metastable&lang={lang}" and link[1] == "_blank" and "[" not in link[2],
                   f"({lang}) interview 8 links to the metastable lesson: {link}")
            text = chrome.js("return document.getElementById('lesson-narration').textContent;")
            expect("](" not in text, f"no link syntax left in the words: {text}")

    for name, fn in [
        ("lessons: a step's words link to another lesson, in a new tab", a_step_links_to_another_lesson),
        ("lessons: presenting, a drop-down changed from the keyboard gives the clicker's keys back; L switches the language", a_changed_drop_down_gives_the_clicker_back),
        ("lessons: on a laptop (1,280 and 1,366 x 768) the card's Back and Next are in the window at the page's top", a_laptops_card_shows_back_and_next_from_the_top),
        ("lessons: until R a veiled figure is kept from screen readers too; R plays on to the answer's totals and outlines its figures", the_answer_is_kept_from_readers_and_shown_where_it_is),
        ("lessons: a step's runs share their scales: a knob that lowers a line shows it lower", a_steps_runs_share_their_scales),
        ("lessons: the arrow keys move a number field one step (a fault's end, 100 ms)", arrow_keys_move_a_number_field_one_step),
        ("lessons: alone at a laptop, PageDown and Space scroll the page and → and ← move the step", alone_page_keys_scroll_and_arrows_move_the_step),
        ("lessons: a focused scroll region that overflows keeps → and Space (a phone's wide chain diagram)", a_focused_scroll_region_keeps_its_keys),
        ("lessons: on a phone, the chain rows veiled with the answer, a corner button back to the card, the index within 360 px", a_phone_learner_finds_the_card_and_not_the_answer),
        ("lessons: a teacher presents from a tablet (768 x 1024 and 1024 x 768, touch): the card spans it, plays and goes full screen, its sticky bar short; the header scrolls away, a link to the folded settings", a_teacher_presents_from_a_tablet),
        ("lessons: presenter mode keeps the step's figure on the stage when a knob redraws it", presenter_stage_survives_a_knob),
        ("lessons: a step points at its hop: picked in every chart, and the next step's choice replaces it", a_step_points_at_its_hop),
        ("lessons: a step's playback waits for its run, starts at its moment and pauses at the next", playback_cue_starts_late_and_pauses),
        ("lessons: every step from its link in both languages, quoted numbers equal the page's", every_step_from_its_link),
        ("lessons: every lesson walked with a clicker's keys in presenter mode", walk_in_presenter_mode),
        ("lessons: presenter mode shows only the step's knobs; P plays and pauses, F full screen", presenter_hides_all_but_the_steps_knobs_and_takes_p_and_f),
        ("lessons: presenter stage text >= 18 px at 1920x1080, stage, card and Back/Next within the screen, screenshots", presenter_text_and_screenshots),
        ("lessons: the clicker's Next on a lesson's last step opens the next lesson, presenting", the_clicker_moves_on_from_a_lessons_last_step),
        ("lessons: Go to the figure on a phone scrolls to it and stays", go_to_the_figure_on_a_phone),
        ("lessons: the speaker-notes window follows and leads", notes_window_keeps_in_step),
        ("lessons: interview checklist and the candidate's link", interview_mode_and_candidate_link),
        ("lessons: a step's figure drawn late leaves a page the reader has scrolled where it is", late_figure_leaves_a_touched_page_alone),
        ("lessons: Tab through a step's knobs stays clear of the card's bar", tab_stays_clear_of_the_cards_bar),
        ("lessons: the index's links, bad links named, leaving a lesson", index_links_and_bad_links),
    ]:
        run(name, fn)

"""What walking the site as its users do found: an interviewer at a laptop and a projector,
a student on a phone in Chinese. One check a defect, each failing on the build before it
was fixed.
"""

import contextlib
import time

# Each word of a cell's text (split at its spaces) on one line: CJK text breaks anywhere
# unless told not to, and "打开" had been cut in two.
WORDS_SPLIT = """const bad = [];
document.querySelectorAll(arguments[0]).forEach(td => {
  const tx = td.firstChild; if (!tx || tx.nodeType !== 3) return;
  let i = 0;
  for (const w of tx.textContent.split(' ')) {
    if (w) {
      const r = document.createRange(); r.setStart(tx, i); r.setEnd(tx, i + w.length);
      if ([...r.getClientRects()].filter(x => x.width > 0).length > 1) bad.push(w);
    }
    i += w.length + 1;
  }
});
return bad;"""

# Each SVG text's drawn width against its natural width (its textLength taken off).
TEXT_SQUEEZE = """return [...document.querySelectorAll(arguments[0])].map(t => {
  const tl = t.getAttribute('textLength'); t.removeAttribute('textLength');
  const natural = t.getComputedTextLength(); if (tl) t.setAttribute('textLength', tl);
  return [t.textContent, Math.round(natural), tl ? Number(tl) : Math.round(natural)];
});"""


def add_checks(run, chrome, base, expect, no_console_errors, wait_run):
    @contextlib.contextmanager
    def at_size(width, height):
        """The window at `width` x `height` for a check, back to 1280 x 900 after it."""
        chrome.viewport(width, height)
        try:
            yield
        finally:
            chrome.viewport(1280, 900)

    def another_preset_plays_its_own_run():
        # The playhead paused on one preset had carried over to the next: a 90 s run opened
        # paused at the 0.4 s of the last, its link saying t=.
        chrome.get(base + "?page=storm&lang=en&preset=chain-3x3")
        wait_run(chrome)
        time.sleep(1.0)
        chrome.click("#play")
        deadline = time.time() + 5
        while time.time() < deadline and "&t=" not in chrome.url():
            time.sleep(0.1)
        expect("&t=" in chrome.url(), f"paused: the link has the moment: {chrome.url()}")
        run_no = wait_run(chrome)
        chrome.js("const s = document.getElementById('preset'); s.value = 'big-promo'; s.dispatchEvent(new Event('change', {bubbles: true}));")
        wait_run(chrome, run_no)
        time.sleep(1.0)
        playing = chrome.js("return document.getElementById('play').dataset.playing;")
        expect("preset=big-promo" in chrome.url() and "&t=" not in chrome.url() and playing == "true",
               f"another preset plays from its start: playing {playing}, {chrome.url()}")
        no_console_errors(chrome, "another preset")

    def phone_breaker_lab_keeps_its_words_and_its_height():
        with at_size(390, 844):
            chrome.get(base + "?page=breaker&lang=zh&preset=source-003")
            chrome.wait("#breaker-window")
            time.sleep(0.5)
            chrome.js("""window.__heights = []; const f = () => {
                const e = document.getElementById('breaker-window');
                if (e) window.__heights.push(Math.round(e.getBoundingClientRect().height));
                if (window.__heights.length < 2000) requestAnimationFrame(f); }; requestAnimationFrame(f);""")
            chrome.click("#play")
            deadline = time.time() + 40
            while time.time() < deadline and chrome.js("return document.getElementById('play').dataset.playing;") != "false":
                time.sleep(0.5)
            heights = chrome.js("return window.__heights;")
            expect(heights and max(heights) - min(heights) <= 1,
                   f"the breaker window keeps its height through the playback: {min(heights)}..{max(heights)} px")
            split = chrome.js(WORDS_SPLIT, "#breaker-changes td:nth-child(2)")
            cells = chrome.js("return document.querySelectorAll('#breaker-changes td:nth-child(2)').length;")
            expect(cells > 0 and not split, f"a change's words are whole on a phone: {cells} changes, split {split}")
            no_console_errors(chrome, "breaker lab on a phone")

    def phone_storm_page_names_and_flow():
        with at_size(390, 844):
            chrome.get(base + "?page=storm&lang=zh&preset=breaker-demo&t=5000")
            wait_run(chrome)
            time.sleep(0.5)
            for what, css in [("a service's name", "text.hop-name"), ("a fault's words", "text.fault-now")]:
                texts = chrome.js(TEXT_SQUEEZE, "#diagram-a " + css)
                worst = min((drawn / natural, text) for text, natural, drawn in texts if natural > 0)
                expect(texts and worst[0] >= 0.6, f"{what} in the diagram drawn at least 60 % of its width: {texts}")
            # The flow's note and list stay in view as its picture scrolls.
            chrome.js("const f = document.getElementById('bd-flow-a'); f.scrollLeft = f.scrollWidth;")
            time.sleep(0.3)
            got = chrome.js("""const f = document.getElementById('bd-flow-a'), left = f.getBoundingClientRect().left;
                return [f.scrollLeft, ...[...f.querySelectorAll(':scope > .note, :scope > .bd-flow-list')].map(e => Math.round(e.getBoundingClientRect().left - left))];""")
            expect(got[0] > 0 and len(got) == 3 and all(abs(x) <= 1 for x in got[1:]),
                   f"the flow's note and list held at its left edge: [scrolled, note, list] {got}")
            no_console_errors(chrome, "storm page on a phone")

    def interview_texts_read_as_they_should():
        # The try-this had said "even 1,1 attempts" (the link's form); the checklist's code
        # was 12.5 px grey among 15 px words; an answered row in a scrolling table kept one
        # dashed edge, read as a line between rows.
        chrome.get(base + "?lesson=interview&step=10&interview=1&lang=en")
        chrome.wait("#lesson-reveal")
        chrome.js("document.getElementById('lesson-reveal').click();")
        chrome.wait("#lesson-try")
        # The checklist's item for this step is the card's answer: shown with it.
        item = chrome.js("const b = document.getElementById('check-10-reveal'); return b && [b.getAttribute('aria-expanded'), b.textContent, !!document.getElementById('check-10-answer')];")
        expect(item is not None and item[0] == "true" and item[2], f"the checklist's item follows the card's reveal: {item}")
        said = chrome.text("#lesson-try")
        expect("1,1" not in said and "single attempt" in said, f"the try-this in words: {said!r}")
        sizes = chrome.js("""return [...document.querySelectorAll('.lesson-checklist code')].map(c =>
            [parseFloat(getComputedStyle(c).fontSize), parseFloat(getComputedStyle(c.parentElement).fontSize)]);""")
        expect(sizes and all(code >= 0.85 * around for code, around in sizes), f"the checklist's code grows with its words: {sizes}")
        row = chrome.js("""const r = document.querySelector('.table-scroll tr.answered');
            if (!r) return null; const box = r.closest('.table-scroll').getBoundingClientRect(), b = r.getBoundingClientRect(),
            off = parseFloat(getComputedStyle(r).outlineOffset), w = parseFloat(getComputedStyle(r).outlineWidth);
            return [Math.round(b.left - w - off - box.left), Math.round(box.right - (b.right + w + off))];""")
        expect(row is not None and min(row) >= 0, f"the answered row's outline inside its box: [left room, right room] {row}")
        no_console_errors(chrome, "interview step 10")

    def a_veiled_cards_tag_leaves_its_note_alone():
        # At 1,366 px the English tag wraps in two lines, and it had covered the first line of
        # the error budget card's note.
        with at_size(1366, 768):
            chrome.get(base + "?lesson=interview&step=1&lang=en")
            chrome.wait("#h-a-error_budget_spent.veiled")
            time.sleep(0.5)
            got = chrome.js("""return [...document.querySelectorAll('.hcard')].filter(c => c.querySelector(':scope > .hvalue.veiled') && c.querySelector(':scope > .hnote')).map(c => {
                const l = c.querySelector(':scope > .hlabel'), tag = getComputedStyle(l, '::after');
                const bottom = l.getBoundingClientRect().top + parseFloat(tag.top) + parseFloat(tag.height);
                return [c.querySelector(':scope > .hvalue').id, Math.round(bottom), Math.round(c.querySelector(':scope > .hnote').getBoundingClientRect().top)]; });""")
            expect(got and all(bottom <= note for _, bottom, note in got), f"a veiled card's tag ends above its note: [card, tag's foot, note's top] {got}")

    def a_scrolled_lessons_card_takes_the_window():
        # Held at the window's top once the page had scrolled, a tall card (the interviewer's
        # checklist) kept the header's 98 px empty under its Back and Next.
        with at_size(1366, 768):
            chrome.get(base + "?lesson=interview&step=10&interview=1&lang=en")
            chrome.wait("#lesson-checklist")
            time.sleep(1.0)
            chrome.js("window.dispatchEvent(new WheelEvent('wheel')); window.scrollTo({top: 300, behavior: 'instant'});")
            time.sleep(0.8)
            got = chrome.js("const r = document.getElementById('lesson-card').getBoundingClientRect(); return [Math.round(r.top), Math.round(r.bottom), innerHeight, scrollY];")
            expect(got[3] > 100 and got[1] >= got[2] - 20, f"the card reaches the window's foot: [top, bottom, window, scrolled] {got}")

    def presenting_with_a_clicker_after_the_mouse():
        # A teacher who had clicked Play with the mouse pressed Space for the next step and
        # played the run again; the veiled rows' tags on the stage were 11.5 px; the notes
        # window kept <html lang="en"> and the app's name alone.
        with at_size(1920, 1080):
            chrome.get(base + "?lesson=retry-storm&step=3&present=1&lang=zh")
            chrome.wait("#lesson-play")
            time.sleep(1.0)
            chrome.click("#lesson-play")
            time.sleep(0.3)
            chrome.press(" ")
            deadline = time.time() + 5
            while time.time() < deadline and "step=4" not in chrome.url():
                time.sleep(0.1)
            expect("step=4" in chrome.url(), f"Space after a mouse click moves the step: {chrome.url()}")
            # From the keyboard, a focused button keeps Space.
            chrome.press("\ue004")  # the keyboard's Tab, then Play reached by it
            chrome.js("document.getElementById('lesson-play').focus();")
            before = chrome.url()
            chrome.press(" ")
            time.sleep(0.5)
            expect("step=4" in chrome.url(), f"a button Tab reached keeps Space: {before} -> {chrome.url()}")
            chrome.get(base + "?lesson=field-guide&step=7&present=1&lang=zh")
            chrome.wait("#main tr.veiled")
            time.sleep(0.5)
            px = chrome.js("return [...document.querySelectorAll('#main tr.veiled > th')].map(th => parseFloat(getComputedStyle(th, '::after').fontSize));")
            expect(px and min(px) >= 18, f"a veiled row's tag on the stage >= 18 px: {px}")
            chrome.get(base + "?lesson=interview&step=1&notes=1&lang=zh")
            chrome.wait("#main")
            time.sleep(0.8)
            got = chrome.js("return [document.documentElement.lang, document.title];")
            expect(got[0] == "zh-CN" and got[1].startswith("讲稿"), f"the notes window's language and title: {got}")

    def veiled_rows_do_not_count_the_answer():
        # Field guide 7 asks how many get in: its veiled rows had told, the rejected ones
        # taller (their reasons wrapped under the blur) and with reason and Retry-After
        # smudges where an admitted row's cells were empty.
        for q, w, h in [("?lesson=field-guide&step=7&present=1&lang=zh", 1920, 1080), ("?lesson=field-guide&step=7&lang=en", 1440, 900)]:
            with at_size(w, h):
                chrome.get(base + q)
                chrome.wait("#main tr.veiled")
                time.sleep(1.0)
                got = chrome.js("""const rows = [...document.querySelectorAll('#main tr.veiled')];
                    return [rows.length, [...new Set(rows.map(r => Math.round(r.getBoundingClientRect().height)))],
                        [...new Set(rows.flatMap(r => [...r.querySelectorAll(':scope > td')].map(td => getComputedStyle(td, '::before').width + ' ' + td.getBoundingClientRect().height.toFixed(0))))].length,
                        rows.filter(r => r.classList.contains('rejected')).length];""")
                expect(got[0] >= 8 and len(got[1]) == 1 and got[3] > 0,
                       f"{w} px: veiled rows all of one height, rejected ones among them: [rows, heights, cell looks, rejected] {got}")

    def admission_steps_on_a_tablet_in_chinese():
        # At 768 px an arrival's event ("到达 #1，成本 1") had taken three lines, its figure
        # alone on the last, beside a decision on one; the table still fits its box there
        # and at 1,024 px, where the box beside the settings is narrower.
        try:
            for w, h in [(768, 1024), (1024, 768)]:
                chrome.viewport(w, h)
                chrome.get(base + "?page=admission&lang=zh&preset=source-002")
                chrome.wait("#adm-steps")
                time.sleep(0.5)
                got = chrome.js("""const t = document.getElementById('adm-steps');
                    const lines = [...t.querySelectorAll('tbody td:nth-child(3)')].filter(td => td.textContent.startsWith('到达')).map(td => {
                        const r = document.createRange(); r.selectNodeContents(td);
                        return new Set([...r.getClientRects()].map(x => Math.round(x.top))).size; });
                    return [t.scrollWidth, t.parentElement.clientWidth, Math.max(...lines)];""")
                expect(got[0] <= got[1] + 1, f"{w} px: the step table fits its box: {got}")
                if w == 768:
                    expect(got[2] <= 2, f"768 px: an arrival's event on at most two lines: {got}")
        finally:
            chrome.viewport(1280, 900)

    def a_touch_screen_is_told_to_tap():
        # A phone's hint under the latency chart had said to Tab to the bars and use the
        # arrow keys.
        def cdp(cmd, **params):
            return chrome.cmd("POST", "/goog/cdp/execute", {"cmd": cmd, "params": params})
        cdp("Emulation.setTouchEmulationEnabled", enabled=True, maxTouchPoints=5)
        cdp("Emulation.setEmulatedMedia", features=[{"name": "pointer", "value": "coarse"}])
        try:
            said = {}
            for lang in ["en", "zh"]:
                chrome.get(base + f"?page=storm&lang={lang}&preset=lab11-unprotected")
                wait_run(chrome)
                said[lang] = chrome.text("#latency-pick-hint")
            expect("Tap" in said["en"] and "Tab" not in said["en"] and "轻点" in said["zh"] and "Tab" not in said["zh"],
                   f"a touch screen's hint says tap: {said}")
        finally:
            cdp("Emulation.setEmulatedMedia", features=[])
            cdp("Emulation.setTouchEmulationEnabled", enabled=False)
        chrome.get(base + "?page=storm&lang=en&preset=lab11-unprotected")
        wait_run(chrome)
        expect("Tab" in chrome.text("#latency-pick-hint"), "a mouse's hint keeps the keyboard's way")

    def admission_cells_bring_up_a_number_pad():
        chrome.get(base + "?page=admission&lang=zh")
        chrome.wait("input.num.cell")
        modes = chrome.js("return [...document.querySelectorAll('input.num.cell')].map(i => i.inputMode);")
        expect(modes and all(m == "decimal" for m in modes), f"the arrival table's cells ask for a number pad: {modes}")

    def compare_halves_keep_the_flows_labels_legible():
        # Shrunk to a compare half at 1,366 px the flow's labels had been drawn at 7.7 px.
        with at_size(1366, 768):
            chrome.get(base + "?page=storm&lang=en&preset=lab11-unprotected&compare=1")
            wait_run(chrome)
            chrome.wait("#bd-flow-b")
            time.sleep(0.5)
            got = chrome.js("""return ['a', 'b'].map(s => {
                const f = document.getElementById('bd-flow-' + s);
                const px = [...f.querySelectorAll('svg text')].map(t => t.getBoundingClientRect().height);
                f.scrollLeft = f.scrollWidth;
                const held = [...f.querySelectorAll(':scope > figcaption, :scope > .note')].map(e => Math.round(e.getBoundingClientRect().left - f.getBoundingClientRect().left));
                return [Math.min(...px), held]; });""")
            expect(all(px >= 11 and all(abs(x) <= 1 for x in held) for px, held in got),
                   f"compare mode: the flow's labels >= 11 px, its caption and note in view as it scrolls: {got}")
            no_console_errors(chrome, "compare flow")

    for name, fn in [
        ("walkthrough: in compare mode on a laptop the flow's labels stay legible", compare_halves_keep_the_flows_labels_legible),
        ("walkthrough: another preset plays its own run (the last one's pause had carried over)", another_preset_plays_its_own_run),
        ("walkthrough: on a phone the breaker lab keeps its window's height and a change's words whole", phone_breaker_lab_keeps_its_words_and_its_height),
        ("walkthrough: on a phone the diagram's names stay legible and the flow's words stay in view", phone_storm_page_names_and_flow),
        ("walkthrough: interview step 10's words, the checklist's code, the answered row's outline", interview_texts_read_as_they_should),
        ("walkthrough: the admission lab's arrival cells ask for a number pad", admission_cells_bring_up_a_number_pad),
        ("walkthrough: a touch screen's latency hint says tap", a_touch_screen_is_told_to_tap),
        ("walkthrough: veiled table rows look alike (field guide 7 had shown which were refused)", veiled_rows_do_not_count_the_answer),
        ("walkthrough: presenting, Space after a mouse click moves the step; a veiled row's tag at 18 px; the notes window's language and title", presenting_with_a_clicker_after_the_mouse),
        ("walkthrough: a lesson's card held at the window's top takes the header's room", a_scrolled_lessons_card_takes_the_window),
        ("walkthrough: a veiled card's tag leaves its note in view (1,366 px, English)", a_veiled_cards_tag_leaves_its_note_alone),
        ("walkthrough: the admission lab's steps on a tablet in Chinese: an event on two lines, the table in its box", admission_steps_on_a_tablet_in_chinese),
    ]:
        run(name, fn)

"""A minimal W3C WebDriver client over the standard library, for chromedriver.

No third-party packages: the end-to-end test must run on a fresh machine with only
Python, Chromium and chromedriver from Debian.
"""

import base64
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request

ELEMENT = "element-6066-11e4-a52e-4f735466cecf"
TAB = "\ue004"
ARROW_LEFT = "\ue012"
ARROW_RIGHT = "\ue014"
ENTER = "\ue007"
ESCAPE = "\ue00c"


class WebDriverError(Exception):
    pass


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port, timeout=20.0):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise WebDriverError(f"nothing listening on port {port} after {timeout}s")


class Chrome:
    """One chromedriver process and one headless Chromium session."""

    def __init__(self, width=1280, height=900):
        self.port = free_port()
        self.profile = tempfile.mkdtemp(prefix="e2e-chrome-")
        self.driver = subprocess.Popen(
            [os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"), f"--port={self.port}"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_port(self.port)
        args = [
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
            f"--user-data-dir={self.profile}",
            f"--window-size={width},{height}",
            "--lang=en-US",
        ]
        caps = {
            "capabilities": {
                "alwaysMatch": {
                    "browserName": "chrome",
                    "goog:chromeOptions": {"args": args, "binary": "/usr/bin/chromium"},
                    "goog:loggingPrefs": {"browser": "ALL"},
                }
            }
        }
        self.session = self._call("POST", "/session", caps)["sessionId"]

    def _call(self, method, path, body=None):
        url = f"http://127.0.0.1:{self.port}{path}"
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                payload = json.loads(r.read() or b"{}")
        except urllib.error.HTTPError as e:
            raise WebDriverError(f"{method} {path}: {e.code} {e.read()[:500]!r}") from None
        return payload.get("value", payload)

    def cmd(self, method, path, body=None):
        return self._call(method, f"/session/{self.session}{path}", body)

    # -- navigation and scripts ------------------------------------------------------
    def get(self, url, collect=True):
        # The pages this tab has left hold their wasm memories until the page's isolate
        # collects them, and a tab has room for about 120: after some hundred loads a new
        # page's Web Worker could be refused one (seen in CI). The app then runs its work
        # on the page (fallback.py checks that); collecting first keeps every other check
        # measuring the worker. (`collect=False`: a timed load, collected before its clock.)
        if collect:
            self.collect_garbage()
        self.cmd("POST", "/url", {"url": url})
        self.front()

    def collect_garbage(self):
        """A full garbage collection of the page's JS heap, unreachable wasm memories
        included."""
        self.cmd("POST", "/goog/cdp/execute", {"cmd": "HeapProfiler.collectGarbage", "params": {}})

    def front(self):
        """Brings the tab to the front: after many window resizes headless Chromium can
        leave it in the background, where animation frames stop (playback would stall)."""
        self.cmd("POST", "/goog/cdp/execute", {"cmd": "Page.bringToFront", "params": {}})
        self.cmd("POST", "/goog/cdp/execute", {"cmd": "Page.setWebLifecycleState", "params": {"state": "active"}})
        if os.environ.get("E2E_CPU_SLOWDOWN"):
            self.cmd("POST", "/goog/cdp/execute", {"cmd": "Emulation.setCPUThrottlingRate", "params": {"rate": float(os.environ["E2E_CPU_SLOWDOWN"])}})

    def settle_url(self):
        """The app writes a change of its state to the URL 100 ms after it (off the redraw's
        path; src/ui/browser.rs): wait for a timer due after that one."""
        self.js_async("const done = arguments[arguments.length - 1]; setTimeout(done, 150);")

    def url(self):
        self.settle_url()
        return self.cmd("GET", "/url")

    def refresh(self):
        self.settle_url()
        self.cmd("POST", "/refresh", {})

    def js(self, script, *args):
        return self.cmd("POST", "/execute/sync", {"script": script, "args": list(args)})

    def js_async(self, script, *args):
        """Runs `script`, which calls its last argument with the result."""
        return self.cmd("POST", "/execute/async", {"script": script, "args": list(args)})

    def press(self, *keys):
        """Presses and releases each key in turn, as a keyboard would (WebDriver key codes:
        TAB, ENTER, ARROW_RIGHT ... below)."""
        actions = []
        for k in keys:
            actions += [{"type": "keyDown", "value": k}, {"type": "keyUp", "value": k}]
        self.cmd("POST", "/actions", {"actions": [{"type": "key", "id": "keyboard", "actions": actions}]})

    def focused_id(self):
        return self.js("return document.activeElement ? document.activeElement.id : null;")

    # -- elements ----------------------------------------------------------------------
    def find(self, css):
        found = self.cmd("POST", "/elements", {"using": "css selector", "value": css})
        return found[0][ELEMENT] if found else None

    def wait(self, css, timeout=15.0):
        deadline = time.time() + timeout
        while time.time() < deadline:
            el = self.find(css)
            if el:
                return el
            time.sleep(0.05)
        raise WebDriverError(f"{css} did not appear within {timeout}s at {self.url()}")

    def text(self, css, timeout=15.0):
        return self.cmd("GET", f"/element/{self.wait(css, timeout)}/text")

    def wait_text(self, css, want, timeout=15.0):
        deadline = time.time() + timeout
        got = None
        while time.time() < deadline:
            el = self.find(css)
            if el:
                try:
                    got = self.cmd("GET", f"/element/{el}/text")
                except WebDriverError:
                    got = None  # the element was replaced while we read it
                if got == want:
                    return got
            time.sleep(0.05)
        raise WebDriverError(f"{css}: wanted {want!r}, last saw {got!r}")

    def hold_worker_replies(self, held):
        """From the next page load on (until `release_worker_script`), the page's Web
        Workers' replies wait while `window.__hold` is true (`held`: from the start) and are
        delivered in order by `window.__release()`: a test can look at the page while a run
        is still out on any machine, however quick the run. Returns the script's id."""
        hold = """(() => {
            const W = window.Worker;
            window.__held = []; window.__hold = %s;
            window.Worker = class extends W {
                set onmessage(f) {
                    super.onmessage = f && (e => window.__hold ? window.__held.push(() => f.call(this, e)) : f.call(this, e));
                }
                get onmessage() { return super.onmessage; }
            };
            window.__release = () => { window.__hold = false; window.__held.splice(0).forEach(g => g()); };
        })();""" % ("true" if held else "false")
        return self.cmd("POST", "/goog/cdp/execute", {"cmd": "Page.addScriptToEvaluateOnNewDocument", "params": {"source": hold}})["identifier"]

    def release_worker_script(self, identifier):
        self.cmd("POST", "/goog/cdp/execute", {"cmd": "Page.removeScriptToEvaluateOnNewDocument", "params": {"identifier": identifier}})

    def wheel_to(self, css, delta_y=1):
        """Scrolls to the element as a reader does, with the mouse wheel (a real `wheel`
        event, which the page takes as the reader's hand: a lesson's step stops bringing its
        figure back into view). The element is brought into view first, then the wheel
        turned by `delta_y` px over it."""
        el = self.wait(css)
        self.js("arguments[0].scrollIntoView({block: 'center'});", {ELEMENT: el})
        scroll = {"type": "scroll", "x": 0, "y": 0, "deltaX": 0, "deltaY": delta_y, "origin": {ELEMENT: el}}
        self.cmd("POST", "/actions", {"actions": [{"type": "wheel", "id": "wheel", "actions": [scroll]}]})
        return el

    def click(self, css):
        self.cmd("POST", f"/element/{self.wait(css)}/click", {})

    def type(self, css, text, enter=True):
        el = self.wait(css)
        self.cmd("POST", f"/element/{el}/clear", {})
        self.cmd("POST", f"/element/{el}/value", {"text": text + (ENTER if enter else "")})

    def viewport(self, width, height):
        """Make the page itself `width` x `height` CSS px: the window's size includes the
        browser's frame, so set it, measure what the page got, and grow the window by the
        difference (a 390 x 844 window gives a headless page of about 390 x 701). A resize
        takes effect asynchronously: each measure waits until the page has seen it."""
        def inner():
            return tuple(self.js("return [window.innerWidth, window.innerHeight];"))

        def resize(w, h, before):
            self.cmd("POST", "/window/rect", {"width": w, "height": h})
            deadline = time.time() + 2.0
            while time.time() < deadline:
                time.sleep(0.05)
                if inner() != before:
                    break
            time.sleep(0.1)
            return inner()

        # A page left in full screen (presenter mode's F) keeps the window from resizing.
        self.js("if (document.fullscreenElement) document.exitFullscreen(); return true;")
        got = resize(width, height, inner())
        for _ in range(5):
            if got == (width, height):
                return
            rect = self.cmd("GET", "/window/rect")
            w, h = rect["width"] + width - got[0], rect["height"] + height - got[1]
            if w < width or h < height or w > 2 * width + 400 or h > 2 * height + 400:
                # A measure taken before the last resize landed: set the size again.
                w, h = width, height
                time.sleep(0.3)
            got = resize(w, h, got)
        raise WebDriverError(f"the page did not reach {width} x {height}: {got}, window {self.cmd('GET', '/window/rect')}")

    def screenshot(self, path):
        png = base64.b64decode(self.cmd("GET", "/screenshot"))
        with open(path, "wb") as f:
            f.write(png)

    def full_screenshot(self, path, width=1280):
        """Resizes the window to the page's height first, so the shot shows everything."""
        height = self.js("return Math.min(6000, document.documentElement.scrollHeight);")
        self.cmd("POST", "/window/rect", {"width": width, "height": int(height) + 120})
        time.sleep(0.15)
        self.screenshot(path)

    def console_errors(self):
        """Browser console entries at SEVERE level since the last call."""
        entries = self.cmd("POST", "/se/log", {"type": "browser"})
        return [e for e in entries if e.get("level") == "SEVERE"]

    def close(self):
        try:
            self.cmd("DELETE", "")
        except Exception:
            pass
        self.driver.terminate()
        try:
            self.driver.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.driver.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


class StaticServer:
    """Serves `root` on loopback with Python's http.server, as any static host would."""

    def __init__(self, root):
        self.port = free_port()
        self.proc = subprocess.Popen(
            ["python3", "-m", "http.server", str(self.port), "--bind", "127.0.0.1", "--directory", root],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_port(self.port)

    def close(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()

#!/usr/bin/env python3
"""Where a storm-page slider move's time goes, in headless Chromium.

    scripts/redraw-profile.py [--moves N] [--presets a,b] [--trace] DIST [DIST ...]

Moves the layer-1 attempts slider N times per preset with every knob shown, as the
end-to-end redraw test does, and prints each build's median rerun + redraw (the page's
`data-redraw-ms`) and its run in the worker (`data-run-ms`). Several builds are measured
in turn, preset by preset, so that a slow minute of the VM falls on all of them.

With --trace it records a DevTools trace (devtools.timeline, over the page's own DevTools
socket; the tracing itself slows the page) and splits each move's main-thread time into the input's task, the reply's task and
the frames (style, layout, pre-paint, paint), the stages a move waits through in a row.
"""
import argparse, base64, collections, json, os, shutil, socket, statistics, struct, sys, tempfile, time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "e2e"))
import webdriver  # noqa: E402
from webdriver import Chrome, StaticServer  # noqa: E402


class DevTools:
    """The smallest websocket client that speaks the DevTools protocol (no dependency)."""

    def __init__(self, ws_url):
        hostport, path = ws_url[len("ws://"):].split("/", 1)
        host, port = hostport.split(":")
        self.sock = socket.create_connection((host, int(port)))
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET /{path} HTTP/1.1\r\nHost: {hostport}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        buf = b""
        while b"\r\n\r\n" not in buf:
            buf += self.sock.recv(4096)
        self.rest = buf.split(b"\r\n\r\n", 1)[1]
        self.next_id = 0

    def _take(self, n):
        while len(self.rest) < n:
            chunk = self.sock.recv(1 << 20)
            if not chunk:
                raise EOFError("DevTools socket closed")
            self.rest += chunk
        out, self.rest = self.rest[:n], self.rest[n:]
        return out

    def recv(self):
        msg = b""
        while True:
            b0, b1 = self._take(2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._take(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._take(8))[0]
            msg += self._take(n)
            if b0 & 0x80:
                return json.loads(msg)

    def send(self, method, **params):
        self.next_id += 1
        payload = json.dumps({"id": self.next_id, "method": method, "params": params}).encode()
        mask, n = os.urandom(4), len(payload)
        head = bytes([0x81]) + (bytes([0x80 | n]) if n < 126 else
                                bytes([0x80 | 126]) + struct.pack(">H", n) if n < 65536 else
                                bytes([0x80 | 127]) + struct.pack(">Q", n))
        self.sock.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))


# The frame's stages, by their trace names.
FRAME_PARTS = {"UpdateLayoutTree": "style", "Layout": "layout", "PrePaint": "prepaint", "Paint": "paint",
               "Layerize": "layers", "Commit": "commit", "HitTest": "hittest", "IntersectionObserverController::computeIntersections": "intersections",
               "FunctionCall": "script", "FireAnimationFrame": "script"}


def split_moves(events, moves):
    """Main-thread milliseconds per kind of task within each move."""
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events if e.get("name") == "thread_name"}
    main = {k for k, v in names.items() if v == "CrRendererMain"}
    slices = sorted((e for e in events if (e.get("pid"), e.get("tid")) in main and e.get("ph") == "X"),
                    key=lambda e: e["ts"])
    tasks = [e for e in slices if e["name"] == "RunTask"]
    per_kind = collections.defaultdict(list)
    for i, t0 in enumerate(moves):
        t1 = moves[i + 1] if i + 1 < len(moves) else t0 + 300_000
        busy = collections.Counter()
        for t in tasks:
            if not t0 - 1000 <= t["ts"] < min(t1, t0 + 200_000):
                continue
            inner = {e["name"] for e in slices if t["ts"] <= e["ts"] < t["ts"] + t["dur"] and e is not t}
            if "HandlePostMessage" in inner:
                kind = "reply"
            elif inner & {"Paint", "Layout", "PrePaint"}:
                kind = "frame"
                # What a frame spent its time on: style, layout, pre-paint, paint, layers.
                for e in slices:
                    if t["ts"] <= e["ts"] < t["ts"] + t["dur"] and e["name"] in FRAME_PARTS:
                        busy["frame." + FRAME_PARTS[e["name"]]] += e.get("dur", 0) / 1000
            elif "EventDispatch" in inner:
                kind = "input"
            elif "EvaluateScript" in inner:
                kind = "webdriver"
            else:
                kind = "other"
            busy[kind] += t["dur"] / 1000
        for kind in ("input", "frame", "reply", "other", "webdriver", *sorted(set(FRAME_PARTS.values()))):
            key = kind if kind in ("input", "frame", "reply", "other", "webdriver") else "frame." + kind
            per_kind[key].append(busy[key])
    return per_kind


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dists", nargs="+")
    ap.add_argument("--moves", type=int, default=12)
    ap.add_argument("--presets", default="lab11-unprotected,chain-3x3,chain-3x4,recommendation-500rps,big-promo,metastable-retry-storm")
    ap.add_argument("--trace", action="store_true")
    args = ap.parse_args()
    caps = {}
    call = webdriver.Chrome._call

    def keep_caps(self, method, path, body=None):
        out = call(self, method, path, body)
        if method == "POST" and path == "/session":
            caps.update(out["capabilities"])
        return out

    webdriver.Chrome._call = keep_caps
    root = tempfile.mkdtemp()
    for i, d in enumerate(args.dists):
        shutil.copytree(d, os.path.join(root, f"b{i}"))
    srv = StaticServer(root)
    chrome = Chrome(1280, 900)

    def finished(after=None):
        deadline = time.time() + 30
        while time.time() < deadline:
            run = chrome.js("const s = document.getElementById('storm'); return s && s.dataset.redrawMs !== undefined ? s.dataset.run : null")
            if run is not None and run != after:
                return run
            time.sleep(0.02)
        raise SystemExit("no run finished within 30 s")

    try:
        for preset in args.presets.split(","):
            for i, d in enumerate(args.dists):
                chrome.get(f"http://127.0.0.1:{srv.port}/b{i}/index.html?page=storm&lang=en&preset={preset}&knobs=all")
                run = finished()
                chrome.js("const b = document.getElementById('play'); if (b.dataset.playing === 'true') b.click();")
                tools = None
                if args.trace:
                    targets = json.load(urllib.request.urlopen(f"http://{caps['goog:chromeOptions']['debuggerAddress']}/json"))
                    tools = DevTools([t for t in targets if t["type"] == "page"][0]["webSocketDebuggerUrl"])
                    tools.send("Tracing.start", transferMode="ReportEvents",
                               categories="devtools.timeline,disabled-by-default-devtools.timeline,v8.execute")
                    time.sleep(0.3)
                start = chrome.js("return Number(document.getElementById('k-l1-attempts-slider').value)")
                other = 0 if start > 0 else 111
                redraw, ran = [], []
                for m in range(args.moves):
                    chrome.js("console.timeStamp('move'); const s = document.getElementById('k-l1-attempts-slider');"
                              "s.value = arguments[0]; s.dispatchEvent(new Event('input', {bubbles: true}));",
                              other if m % 2 == 0 else start)
                    run = finished(run)
                    redraw.append(float(chrome.js("return document.getElementById('storm').dataset.redrawMs")))
                    ran.append(float(chrome.js("return document.getElementById('storm').dataset.runMs")))
                    if tools:
                        time.sleep(0.2)  # the move's frames, apart from the next move's
                line = (f"{preset:28s} {d:24s} redraw median {statistics.median(redraw):6.1f} ms "
                        f"(min {min(redraw):5.1f}, max {max(redraw):6.1f}), run in the worker {statistics.median(ran):5.1f} ms")
                if tools:
                    tools.send("Tracing.end")
                    events = []
                    while True:
                        msg = tools.recv()
                        if msg.get("method") == "Tracing.dataCollected":
                            events.extend(msg["params"]["value"])
                        if msg.get("method") == "Tracing.tracingComplete":
                            break
                    moves = sorted(e["ts"] for e in events if e.get("name") == "TimeStamp"
                                   and e["args"]["data"].get("message") == "move")
                    kinds = split_moves(events, moves)
                    line += "; main thread a move: " + ", ".join(
                        f"{k} {statistics.mean(v):.1f}" for k, v in kinds.items() if k != "webdriver")
                    line += f" (total {sum(statistics.mean(v) for k, v in kinds.items() if k != 'webdriver' and '.' not in k):.1f} ms)"
                print(line, flush=True)
    finally:
        chrome.close()
        srv.close()


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""End-to-end test of the release site in headless Chromium, driven through WebDriver.

    python3 tests/e2e/run.py DIST_DIR ARTIFACTS_DIR

The site is copied under a sub-path (/some/sub/path/) and served by `python3 -m
http.server`, exactly as a static host would, so relative asset URLs are exercised.
Screenshots go to ARTIFACTS_DIR (left for inspection, not committed); measured figures
go to ARTIFACTS_DIR/measurements.json. Exit status 0 only if every check passed.
"""

import json
import os
import shutil
import sys
import tempfile
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from webdriver import Chrome, StaticServer  # noqa: E402

SUB_PATH = "some/sub/path"


class Checks:
    def __init__(self):
        self.failures = []
        self.passed = 0

    def run(self, name, fn):
        t0 = time.time()
        try:
            fn()
            self.passed += 1
            print(f"ok   {name} ({time.time() - t0:.1f}s)")
        except Exception as e:  # report every failing check, not just the first
            self.failures.append(name)
            print(f"FAIL {name}: {e}")
            traceback.print_exc()


def expect(cond, msg):
    if not cond:
        raise AssertionError(msg)


def no_console_errors(chrome, where):
    errors = chrome.console_errors()
    expect(not errors, f"console errors on {where}: {errors}")


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    dist, artifacts = sys.argv[1], sys.argv[2]
    os.makedirs(artifacts, exist_ok=True)
    www = tempfile.mkdtemp(prefix="e2e-www-")
    shutil.copytree(dist, os.path.join(www, SUB_PATH))
    server = StaticServer(www)
    base = f"http://127.0.0.1:{server.port}/{SUB_PATH}/"
    chrome = Chrome()
    checks = Checks()
    measurements = {}

    def page(query):
        chrome.get(base + query)

    # ---- calculator ------------------------------------------------------------------
    def calculator_english():
        page("?page=calculator&lang=en")
        chrome.wait_text("#out-worst .value", "4,500")
        expect(chrome.text("#page-title") == "Retry amplification and in-flight calculator", "English title")
        expect(chrome.text("#out-avg .value") == "100", "average 100 req/s")
        expect(chrome.text("#out-peak .value") == "500", "peak 500 req/s")
        expect(chrome.text("#inflight-normal-before .value") == "50", "in-flight 50")
        expect(chrome.text("#inflight-normal-after .value") == "450", "in-flight 450")
        expect(chrome.text("#inflight-degraded-after .value") == "3,600", "in-flight 3,600")
        expect(chrome.text("#out-payload .value") == "4.10", "payload 4.10 MB/s")
        expect("virtual-time model" in chrome.text("#footer-model"), "footer states the model")
        chrome.full_screenshot(os.path.join(artifacts, "calculator-en.png"))
        no_console_errors(chrome, "calculator (en)")

    def calculator_chinese():
        page("?page=calculator&lang=zh")
        chrome.wait_text("#page-title", "重试放大与在途量计算器")
        expect(chrome.text("#out-worst .value") == "4,500", "same figures in Chinese")
        expect(chrome.js("return document.documentElement.lang") == "zh-CN", "<html lang> follows")
        chrome.full_screenshot(os.path.join(artifacts, "calculator-zh.png"))
        no_console_errors(chrome, "calculator (zh)")

    def calculator_attempts_change_the_worst_case():
        page("?page=calculator&lang=en")
        chrome.wait_text("#out-worst .value", "4,500")
        chrome.type("#f-attempts-1", "4")
        chrome.wait_text("#out-worst .value", "6,000")
        expect("attempts=3,4" in chrome.url(), f"the URL records the change: {chrome.url()}")
        chrome.type("#f-layers", "3")
        chrome.wait_text("#out-worst .value", "24,000")
        expect(chrome.text("#out-amplification .value") == "48", "3 × 4 × 4 = 48")
        no_console_errors(chrome, "calculator edits")

    def calculator_url_out_of_range_shows_the_field_error():
        page("?page=calculator&lang=en&layers=2&attempts=3,99&peak=2")
        err = chrome.text("#f-attempts-1-error")
        expect("99" in err and "10" in err, f"error names the value and range: {err!r}")
        expect(chrome.text("#out-worst .value") == "1,800", "100 × 2 × 3 × 3: the bad field alone fell back")
        chrome.full_screenshot(os.path.join(artifacts, "calculator-bad-url.png"))
        no_console_errors(chrome, "calculator bad URL")

    def language_choice_survives_reload():
        page("?page=calculator")
        chrome.wait("#out-worst")
        chrome.click("#lang-zh")
        chrome.wait_text("#page-title", "重试放大与在途量计算器")
        expect("lang=zh" in chrome.url(), "the URL carries the language")
        chrome.refresh()
        chrome.wait_text("#page-title", "重试放大与在途量计算器")
        page("?page=calculator")  # no lang in the link: the saved choice wins over the browser's
        chrome.wait_text("#page-title", "重试放大与在途量计算器")
        chrome.click("#lang-en")
        chrome.wait_text("#page-title", "Retry amplification and in-flight calculator")
        no_console_errors(chrome, "language switch")

    for name, fn in [
        ("calculator in English", calculator_english),
        ("calculator in Chinese", calculator_chinese),
        ("attempts per layer change the worst case", calculator_attempts_change_the_worst_case),
        ("an out-of-range URL value shows the field's error", calculator_url_out_of_range_shows_the_field_error),
        ("the language choice survives a reload", language_choice_survives_reload),
    ]:
        checks.run(name, fn)

    chrome.close()
    server.close()
    shutil.rmtree(www, ignore_errors=True)
    with open(os.path.join(artifacts, "measurements.json"), "w") as f:
        json.dump(measurements, f, indent=2)
    print(f"\n{checks.passed} passed, {len(checks.failures)} failed; screenshots in {artifacts}")
    return 1 if checks.failures else 0


if __name__ == "__main__":
    sys.exit(main())

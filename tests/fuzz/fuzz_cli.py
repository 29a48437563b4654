#!/usr/bin/env python3
"""Mutation fuzzing of the `lab` CLI with the presets' scenario files.

Each case takes a preset's scenario (`lab show --preset NAME`), applies one to three
mutations — a deleted field, a value of the wrong type, an extreme or boundary number
(written as raw JSON text, so `1e999` and `-0` reach the parser as such), an unknown key —
and runs `lab run --scenario FILE --format json`. Every case must end in one of two ways:

- exit 0 with a report whose outcomes add up to the original requests and whose latency
  percentiles are ordered (a run stopped by its budget says so in `summary.stopped`);
- exit 2 with a one-line message that names a field (`path: got VALUE, allowed ...`).

Never another exit code, never a panic, never more than 256 MB of memory (the child's
peak RSS from wait4), never more than the per-run time limit.

First, the repository's pathological scenarios (`tests/repro/patho-*.json`) run in full at
the CLI's default cap, each within the same memory bound (see `pathological`).

    python3 tests/fuzz/fuzz_cli.py target/release/lab [--seconds 120] [--seed 1]

CI runs it for a bounded time; run it longer with a larger `--seconds`. A failing case is
written to `fuzz-failures/` with the command that reproduces it.
"""

import argparse
import json
import os
import random
import re
import resource
import subprocess
import sys
import tempfile
import time

MEMORY_BOUND_KB = 256 * 1024
RUN_TIMEOUT_S = 60
# Keep each run small so many fit in the time box: the cap on implied calls (the CLI's
# --max-calls) applies to the mutated scenario as it does to any other.
MAX_CALLS = "2000000"

EXTREMES = ["-1", "0", "-0", "1e999", "-1e999", "1e308", "1e-300", "0.0000001", "18446744073709551616",
            "4294967296", "2147483648", "9007199254740993", "1", "2", "10", "100", "1000000", "86400000",
            "86400001", "1e9", "1e10", "0.5", "0.999999", "1.000001", "3.14159"]
WRONG_TYPES = ['"NaN"', '"Infinity"', '"12"', '""', "true", "false", "null", "[]", "{}", '[1, 2]',
               '{"kind": "none"}', '"中文"']
FIELD_ERROR = re.compile(r"^lab: .*: got .*, allowed .+")


def paths(node, prefix=()):
    """Every path to a value in the JSON tree."""
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from paths(v, prefix + (i,))


def get(node, path):
    for p in path:
        node = node[p]
    return node


class Raw:
    """A value written into the JSON text as it is (so `1e999` stays `1e999`)."""

    def __init__(self, text):
        self.text = text


def dump(node):
    if isinstance(node, Raw):
        return node.text
    if isinstance(node, dict):
        return "{" + ", ".join(f"{json.dumps(k)}: {dump(v)}" for k, v in node.items()) + "}"
    if isinstance(node, list):
        return "[" + ", ".join(dump(v) for v in node) + "]"
    return json.dumps(node)


def mutate(doc, rng):
    """One mutation, in place; returns what it did."""
    all_paths = [p for p in paths(doc) if p]
    path = rng.choice(all_paths)
    parent = get(doc, path[:-1])
    key = path[-1]
    kind = rng.choice(["delete", "type", "number", "number", "number", "unknown", "empty_list"])
    if kind == "delete" and isinstance(parent, dict):
        del parent[key]
        return f"delete {path}"
    if kind == "type":
        parent[key] = Raw(rng.choice(WRONG_TYPES))
        return f"type {path}"
    if kind == "number":
        numeric = [p for p in all_paths if isinstance(get(doc, p), (int, float)) and not isinstance(get(doc, p), bool)]
        if numeric:
            path = rng.choice(numeric)
            get(doc, path[:-1])[path[-1]] = Raw(rng.choice(EXTREMES))
            return f"number {path}"
    if kind == "unknown":
        objects = [p for p in paths(doc) if isinstance(get(doc, p), dict)]
        target = get(doc, rng.choice(objects))
        target["zz_" + rng.choice(["x", "kind", "中"])] = 1
        return "unknown key"
    if kind == "empty_list":
        lists = [p for p in all_paths if isinstance(get(doc, p), list)]
        if lists:
            p = rng.choice(lists)
            get(doc, p[:-1])[p[-1]] = []
            return f"empty {p}"
    parent[key] = Raw(rng.choice(EXTREMES + WRONG_TYPES))
    return f"replace {path}"


def check_report(out):
    r = json.loads(out)
    s = r["summary"]
    total = s["succeeded"] + s["degraded"] + s["failed"] + s["admission_rejected"]
    assert total == s["original_requests"], f"outcomes add up to {total}, not {s['original_requests']}"
    lat = s["latency_ms"]
    assert lat["p50"] <= lat["p99"] <= lat["max"], f"latencies out of order: {lat}"
    for d in r["latency"]:
        assert sum(b[1] for b in d["bins"]) == d["count"], f"bins of {d['outcome']} do not add up"


def run_case(lab, text, workdir):
    path = os.path.join(workdir, "case.json")
    with open(path, "w") as f:
        f.write(text)
    t0 = time.time()
    proc = subprocess.Popen([lab, "run", "--scenario", path, "--format", "json", "--max-calls", MAX_CALLS],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        out, err = proc.communicate(timeout=RUN_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        return f"took more than {RUN_TIMEOUT_S} s", 0
    # The child has been reaped by communicate(); the peak RSS of all children so far only
    # grows, so the first case that pushes it over the bound is the one that used it.
    peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    code = proc.returncode
    err = err.decode("utf-8", "replace")
    if peak_kb > MEMORY_BOUND_KB:
        return f"peak memory {peak_kb} KB above {MEMORY_BOUND_KB} KB", peak_kb
    if "panicked" in err:
        return f"panic: {err[:300]}", peak_kb
    if code == 0:
        try:
            check_report(out)
        except Exception as e:  # noqa: BLE001 - any failure is a finding
            return f"exit 0 with a bad report: {e}", peak_kb
        return "exit 0", peak_kb
    if code == 2:
        first = err.strip().splitlines()[0] if err.strip() else ""
        if not FIELD_ERROR.match(first):
            return f"exit 2 without a field message: {first[:300]!r}", peak_kb
        return "exit 2", peak_kb
    return f"exit {code}: {err[:300]}", peak_kb


REPRO = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "repro")


def pathological(lab):
    """The largest scenarios validation accepts, in full and at the CLI's default cap on
    implied calls (the fuzz's cases run under a smaller one): a batch of 10⁷ requests, an
    unbounded queue fed far above capacity, a traced request fanning out 8 layers x 10
    attempts, overlapping surges, thousands of fault windows (`tests/repro/patho-*.json`).
    Each must exit 0 with a sound report, finished or stopped by the run budget, within the
    memory bound (its own peak RSS, from wait4). Returns the failures."""
    failures = 0
    for name in sorted(f for f in os.listdir(REPRO) if f.startswith("patho-")):
        t0 = time.time()
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            proc = subprocess.Popen([lab, "run", "--scenario", os.path.join(REPRO, name), "--format", "json"],
                                    stdout=out, stderr=err)
            # Bounded like every case: polled, killed past the per-run limit.
            while True:
                pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
                if pid:
                    break
                if time.time() - t0 > RUN_TIMEOUT_S:
                    proc.kill()
                    _, status, usage = os.wait4(proc.pid, 0)
                    break
                time.sleep(0.02)
            proc.returncode = os.waitstatus_to_exitcode(status)
            out.seek(0)
            report = out.read()
        peak_kb, took = usage.ru_maxrss, time.time() - t0
        problem = None
        if took > RUN_TIMEOUT_S:
            problem = f"took more than {RUN_TIMEOUT_S} s"
        elif proc.returncode != 0:
            problem = f"exit {proc.returncode}"
        elif peak_kb > MEMORY_BOUND_KB:
            problem = f"peak memory {peak_kb} KB above {MEMORY_BOUND_KB} KB"
        else:
            try:
                check_report(report)
            except Exception as e:  # noqa: BLE001 - any failure is a finding
                problem = f"a bad report: {e}"
        if not problem and "trace-fanout" in name:
            # One traced request fanning out 8 layers x 10 attempts: the trace keeps a
            # bounded number of spans and says how many it dropped.
            trace = json.loads(report)["traces"][0]
            if not (trace["dropped"] > 0 and len(trace["spans"]) <= 4_000):
                problem = f"the trace is not capped: {len(trace['spans'])} spans, {trace['dropped']} dropped"
        stopped = json.loads(report)["summary"].get("stopped") if not problem else None
        end = f"stopped ({stopped['reason']} at {stopped['at_ms']:.0f} ms)" if stopped else "finished"
        print(f"  {name}: {'FAIL ' + problem if problem else end}, peak {peak_kb / 1024:.0f} MB, {took:.1f} s")
        failures += problem is not None
    return failures


def main():
    # The command line's messages in English, whatever this machine's locale.
    os.environ["LAB_LANG"] = "en"
    ap = argparse.ArgumentParser()
    ap.add_argument("lab")
    ap.add_argument("--seconds", type=float, default=float(os.environ.get("FUZZ_SECONDS", "120")))
    ap.add_argument("--seed", type=int, default=int(os.environ.get("FUZZ_SEED", "1")))
    ap.add_argument("--out", default="fuzz-failures")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    names = [line.split()[0] for line in subprocess.check_output([args.lab, "presets"], text=True).splitlines() if line.strip()]
    bases = {}
    for n in names:
        bases[n] = json.loads(subprocess.check_output([args.lab, "show", "--preset", n], text=True))
    print("pathological scenarios, in full at the default cap:")
    patho_failures = pathological(args.lab)
    deadline = time.time() + args.seconds
    cases = failures = 0
    ends = {"exit 0": 0, "exit 2": 0}
    peak = 0
    with tempfile.TemporaryDirectory() as workdir:
        while time.time() < deadline:
            name = rng.choice(names)
            doc = json.loads(json.dumps(bases[name]))
            what = [mutate(doc, rng) for _ in range(rng.randint(1, 3))]
            text = dump(doc)
            problem, peak_kb = run_case(args.lab, text, workdir)
            peak = max(peak, peak_kb)
            cases += 1
            if problem in ends:
                ends[problem] += 1
                continue
            failures += 1
            os.makedirs(args.out, exist_ok=True)
            fname = os.path.join(args.out, f"case-{args.seed}-{cases}.json")
            with open(fname, "w") as f:
                f.write(text)
            print(f"FAIL {fname} ({name}; {'; '.join(what)}): {problem}")
            print(f"  reproduce: {args.lab} run --scenario {fname} --format json --max-calls {MAX_CALLS}")
    print(f"fuzz: {cases} mutated scenarios in {args.seconds:.0f} s: {ends['exit 0']} ran (exit 0), "
          f"{ends['exit 2']} refused with a field message (exit 2), {failures} failures; "
          f"peak child memory {peak // 1024} MB (bound {MEMORY_BOUND_KB // 1024} MB)")
    sys.exit(1 if failures or patho_failures else 0)


if __name__ == "__main__":
    main()

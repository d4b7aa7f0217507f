#!/usr/bin/python3
"""End-to-end tests of `icnsim sweep` (scripts/sweep).

  sweep_test.py ICNSIM local   the local backend: expansion, failures, resume, bad input
  sweep_test.py ICNSIM slurm   the Slurm backend on a real single-node cluster (run under
                               tests/sweep/with_slurm): same table as the local backend

Expected values come from independent computation here (the cartesian product
counted by hand, direct `icnsim run`s of the same points), never from the sweep.
"""
import csv
import itertools
import json
import os
import shutil
import subprocess
import sys
import tempfile

ICNSIM = os.path.abspath(sys.argv[1])
MODE = sys.argv[2]
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def sweep(*args, env=None):
    proc = subprocess.run([ICNSIM, "sweep", *args], capture_output=True, text=True, env=env, timeout=900)
    return proc.returncode, proc.stdout, proc.stderr


def table(path):
    with open(path) as f:
        return list(csv.DictReader(f))


SWEEP = """\
base:
  network: {type: fattree_packet, leaves: 16}
axes:
  network.leaves: {from: 16, to: 32, times: 2}
  network.capacities: [cbft, ebft]
  traffic.collective: [broadcast, scatter, gather, multinode_broadcast, total_exchange, no_such_collective]
zip:
  - {seed: [1, 2], run.watchdog_cycles: [10000, 20000]}
filter: "collective != 'no_such_collective' or (leaves == 16 and capacities == 'cbft' and seed == 1)"
"""


def expected_points():
    pts = []
    for leaves, caps, coll, (seed, pipe) in itertools.product(
            [16, 32], ["cbft", "ebft"],
            ["broadcast", "scatter", "gather", "multinode_broadcast", "total_exchange", "no_such_collective"],
            [(1, 10000), (2, 20000)]):
        if coll != "no_such_collective" or (leaves == 16 and caps == "cbft" and seed == 1):
            pts.append((leaves, caps, coll, seed, pipe))
    return pts


def direct_cycles(tmp, leaves, caps, coll, seed, watchdog):
    out = os.path.join(tmp, "direct.json")
    subprocess.run([ICNSIM, "run", "/dev/null", "--quiet", "--json", out, "--set", "network.type=fattree_packet",
                    "--set", f"network.leaves={leaves}", "--set", f"network.capacities={caps}",
                    "--set", f"traffic.collective={coll}", "--set", f"seed={seed}",
                    "--set", f"run.watchdog_cycles={watchdog}"], check=True)
    with open(out) as f:
        return json.load(f)["result"]["cycles"]


def local(tmp):
    path = os.path.join(tmp, "grid.yaml")
    with open(path, "w") as f:
        f.write(SWEEP)
    want = expected_points()
    code, out, err = sweep(path, "--dry-run")
    check(code == 0 and len(out.splitlines()) == len(want), f"dry run lists {len(want)} points")

    code, out, err = sweep(path, "--jobs", "2")
    check(code == 1, f"a sweep with a failing point exits 1 (got {code})")
    check(f"{len(want)} points: {len(want)} ran, 0 reused, 1 failed" in err, "summary: ran / reused / failed")
    rows = table(os.path.join(tmp, "grid", "results.csv"))
    check(len(rows) == len(want), "one row per point, the failing one included")
    header = list(rows[0].keys())
    check(header[:6] == ["point", "network.leaves", "network.capacities", "traffic.collective", "seed",
                         "run.watchdog_cycles"], "the point's parameters are the first columns")
    got = {(int(r["network.leaves"]), r["network.capacities"], r["traffic.collective"], int(r["seed"]),
            int(r["run.watchdog_cycles"])): r for r in rows}
    check(set(got) == set(want), "exactly the points of the cartesian product, zip and filter")
    bad = got[(16, "cbft", "no_such_collective", 1, 10000)]
    check(bad["status"] == "failed" and bad["exit_code"] == "2" and "traffic.collective" in bad["message"],
          "the failing point is recorded with exit code 2 and icnsim's message")
    ok = [r for r in rows if r["status"] == "ok"]
    check(len(ok) == len(want) - 1 and all(r["result.verified"] == "true" for r in ok),
          "every other point ran and verified")
    for p in [(16, "cbft", "scatter", 1, 10000), (32, "ebft", "total_exchange", 2, 20000)]:
        check(int(got[p]["result.cycles"]) == direct_cycles(tmp, *p), f"point {p}: cycles equal a direct icnsim run")
    check(os.path.exists(os.path.join(tmp, "grid", "results.sqlite")), "SQLite table written")

    # Resume: everything valid is reused, the failure is retried (and fails again).
    victim = got[(32, "cbft", "gather", 2, 20000)]["point"]
    shutil.rmtree(os.path.join(tmp, "grid", "points", victim))
    with open(os.path.join(tmp, "grid", "points", got[(16, "ebft", "broadcast", 1, 10000)]["point"],
                           "result.json"), "w") as f:
        f.write("{ truncated")
    code, out, err = sweep(path)
    check(f"{len(want)} points: 3 ran, {len(want) - 3} reused, 1 failed" in err,
          "resume reruns the missing, the corrupt and the failed point only: " + err.strip().splitlines()[0])
    rows2 = table(os.path.join(tmp, "grid", "results.csv"))
    strip = lambda rs: [{k: v for k, v in r.items() if not k.startswith("sim.")} for r in rs]
    check(strip(rows2) == strip(rows), "the resumed table equals the first one (timing columns aside)")

    # Bad input: one line, exit code 2.
    for text, word in [("base: {}\naxes: {seed: []}\n", "empty"), ("axes: {seed: [1]}\n", "base"),
                       ("base: {}\nbogus: 1\n", "bogus"), ("base: {}\nzip: [{seed: [1, 2], network.leaves: [16]}]\n",
                                                           "different lengths"),
                       ("base: {}\naxes: {seed: [1]}\nfilter: 'seed ==== 1'\n", "filter")]:
        bad = os.path.join(tmp, "bad.yaml")
        with open(bad, "w") as f:
            f.write(text)
        code, out, err = sweep(bad)
        check(code == 2 and len(err.strip().splitlines()) == 1 and word in err, f"bad sweep file ({word}): {err.strip()}")
    code, out, err = sweep(path, "--backend", "cloud")
    check(code == 2 and "local, slurm" in err, "bad backend names the allowed values")
    code, out, err = sweep(path, "--out", "/proc/no/such/dir")
    check(code == 2 and len(err.strip().splitlines()) == 1, "unwritable --out: one line, exit 2")


def slurm(tmp):
    path = os.path.join(tmp, "grid.yaml")
    with open(path, "w") as f:
        f.write(SWEEP)
    want = expected_points()
    code, out, err = sweep(path, "--backend", "slurm", "--dry-run", "--points-per-task", "4")
    tasks = (len(want) + 3) // 4
    check(code == 0 and f"#SBATCH --array=0-{tasks - 1}" in out, "dry run prints the job script with the array")
    code, out, err = sweep(path, "--backend", "slurm", "--points-per-task", "4", "--out", os.path.join(tmp, "s"))
    check(code == 1 and f"{len(want)} points: {len(want)} ran, 0 reused, 1 failed" in err,
          f"slurm sweep ran every point (exit {code}): {err.strip()}")
    code, out, err = sweep(path, "--backend", "local", "--out", os.path.join(tmp, "l"))
    check(code == 1, "local sweep of the same file")
    strip = lambda rs: [{k: v for k, v in r.items() if not k.startswith("sim.")} for r in rs]
    s_rows = table(os.path.join(tmp, "s", "results.csv"))
    l_rows = table(os.path.join(tmp, "l", "results.csv"))
    check(len(s_rows) == len(want) and strip(s_rows) == strip(l_rows),
          "the Slurm table equals the local one (timing columns aside)")
    code, out, err = sweep(path, "--backend", "slurm", "--out", os.path.join(tmp, "s"))
    check(f"{len(want)} points: 1 ran, {len(want) - 1} reused, 1 failed" in err, "slurm resume reuses valid points")


with tempfile.TemporaryDirectory(prefix="icnsim-sweep-") as tmp:
    {"local": local, "slurm": slurm}[MODE](tmp)
print(f"{len(failures)} failures" if failures else "all checks passed")
sys.exit(1 if failures else 0)

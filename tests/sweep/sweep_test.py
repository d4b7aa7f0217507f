#!/usr/bin/python3
"""End-to-end tests of `icnsim sweep` (scripts/sweep).

  sweep_test.py ICNSIM local   the local backend: expansion, failures, resume, bad input,
                               the hostile inputs of issue 19 (filter escapes, unbounded
                               filters, broken files, huge products, bad options, signals)
  sweep_test.py ICNSIM slurm   the Slurm backend on a real single-node cluster (run under
                               tests/sweep/with_slurm): same table as the local backend

Expected values come from independent computation here (the cartesian product
counted by hand, direct `icnsim run`s of the same points), never from the sweep.
"""
import csv
import glob
import itertools
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import yaml

ICNSIM = os.path.abspath(sys.argv[1])
MODE = sys.argv[2]
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def sweep(*args, env=None, timeout=900):
    try:
        proc = subprocess.run([ICNSIM, "sweep", *args], capture_output=True, text=True, env=env, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "", f"(no answer within {timeout} s)"
    return proc.returncode, proc.stdout, proc.stderr


def one_line_exit_2(code, err):
    """The project's rule for bad input: one line naming the problem, exit code 2."""
    return code == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err


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

    # Another icnsim binary (a rebuilt model) reuses nothing: every point runs again.
    other = os.path.join(tmp, "rebuilt_icnsim")
    with open(other, "w") as f:
        f.write(f'#!/bin/sh\nexec {shlex.quote(ICNSIM)} "$@"\n')
    os.chmod(other, 0o755)
    code, out, err = sweep(path, "--icnsim", other)
    check(f"{len(want)} points: {len(want)} ran, 0 reused, 1 failed" in err,
          "a different icnsim binary reruns every point: " + (err.strip().splitlines() or [""])[0])
    code, out, err = sweep(path, "--icnsim", other)
    check(f"{len(want)} points: 1 ran, {len(want) - 1} reused, 1 failed" in err,
          "the same binary again reuses its own points: " + (err.strip().splitlines() or [""])[0])

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

    filter_is_not_executed(tmp)
    filter_is_bounded(tmp)
    filter_language(tmp)
    repo_filters_unchanged(tmp)
    broken_sweep_files(tmp)
    product_limit(tmp)
    command_line(tmp, path)
    for sig in (signal.SIGTERM, signal.SIGINT):
        stopped_by_signal(tmp, sig)


def write(tmp, name, text):
    path = os.path.join(tmp, name)
    with open(path, "wb") as f:
        f.write(text if isinstance(text, bytes) else text.encode())
    return path


NOT_ALLOWED = "is not allowed (allowed: numbers"


def filter_is_not_executed(tmp):
    """Issue 19: a filter reached Popen through ().__class__ and ran `touch`."""
    victim = os.path.join(tmp, "pwned")
    exploits = [
        ("[c for c in ().__class__.__base__.__subclasses__() if c.__name__ == 'Popen'][0]"
         f"(['touch', '{victim}']) and False", "subscript"),
        ("().__class__.__base__.__subclasses__()", "attribute access '.__subclasses__'"),
        (f"open('{victim}', 'w') and False", "call of open()"),
        (f"__import__('os').system('touch {victim}')", "attribute access '.system'"),
        ("__import__('os') and False", "call of __import__()"),
        ("eval('1') == 1", "call of eval()"),
        ("(lambda: 1)() == 1", "lambda"),
        ("seed[0] == 1", "subscript"),
        ("[x for x in [1]] == [1]", "list comprehension"),
        ("{'a': 1} == seed", "dict literal"),
        ("(x := 1) == 1", "assignment"),
        ("f'{seed}' == '1'", "f-string"),
        ("seed | 1", "operator |"),
        ("1 << 100000000 > 0", "operator <<"),
        ("1 if seed else 0", "conditional expression"),
        ("all(all(a < b for b in [1]) for a in [1])", "nested generator expression"),
    ]
    for text, construct in exploits:
        bad = write(tmp, "exploit.yaml", "base: {}\naxes: {seed: [1, 2]}\nfilter: " + json.dumps(text) + "\n")
        code, out, err = sweep(bad, "--dry-run", timeout=60)
        check(one_line_exit_2(code, err) and construct in err and NOT_ALLOWED in err and not os.path.exists(victim),
              f"filter construct refused ({construct}): {err.strip()[:150]}")
    bad = write(tmp, "exploit.yaml", "base: {}\naxes: {seed: [1]}\nfilter: \"os == 1\"\n")
    code, out, err = sweep(bad, "--dry-run", timeout=60)
    check(one_line_exit_2(code, err) and "name 'os' is not a point key (point keys: seed" in err,
          f"a name that is not a point key is refused: {err.strip()[:150]}")
    bad = write(tmp, "exploit.yaml", "base: {}\naxes: {network.n: [1], traffic.n: [2]}\nfilter: \"n == 1\"\n")
    code, out, err = sweep(bad, "--dry-run", timeout=60)
    check(one_line_exit_2(code, err) and "'n' is ambiguous" in err and "network_n, traffic_n" in err,
          f"an ambiguous short name is refused: {err.strip()[:150]}")


def filter_is_bounded(tmp):
    """Issue 19: `len(str(9**9**9)) > 0` never ended. Every case ends within
    seconds with one line and exit code 2."""
    for text, word in [("len(str(9**9**9)) > 0", "call of str()"),
                       ("9**9**9 > 0", "exponent beyond 64"),
                       ("seed ** 65 > 0", "exponent beyond 64"),
                       ("(seed + 99) ** 60 > 0", "result beyond 10^100"),
                       ("seed * 10**60 * 10**60 > 0", "beyond 10^100"),
                       ("seed < 1" + "0" * 120, "a number beyond 10^100"),
                       ("len('ab' * 10**9) > 0", "arithmetic is on numbers only"),
                       ("-" * 5000 + "seed", "nested more than"),
                       ("seed" + "+1" * 500 + " > 0", "nested more than"),
                       ("seed > " + "1" * 6000, "not a valid expression"),
                       ("seed == " + "'" + "x" * 20000 + "'", "longer than 10000 characters"),
                       ("1 / (seed - 1) > 0", "ZeroDivisionError")]:
        bad = write(tmp, "bounded.yaml", "base: {}\naxes: {seed: [1, 2]}\nfilter: " + json.dumps(text) + "\n")
        start = time.monotonic()
        code, out, err = sweep(bad, "--dry-run", timeout=60)
        took = time.monotonic() - start
        check(one_line_exit_2(code, err) and word in err and took < 20,
              f"filter {text[:40]!r}: refused in {took:.1f} s: {err.strip()[:150]}")
    # A filter over the evaluation budget of the whole sweep (10 million steps; `in` on a
    # list costs one step per element, so this one reaches it after 1000 of its 2000 points).
    many = "[" + ", ".join(str(i) for i in range(10000)) + "]"
    bad = write(tmp, "bounded.yaml", f"base: {{}}\naxes: {{seed: {{from: 1, to: 2000}}, big: [{many}]}}\n"
                "filter: \"-1 not in big\"\n")
    start = time.monotonic()
    code, out, err = sweep(bad, "--dry-run", timeout=120)
    took = time.monotonic() - start
    check(one_line_exit_2(code, err) and "too costly" in err and took < 60,
          f"a filter over the evaluation budget is refused ({took:.1f} s): {err.strip()[:150]}")


def filter_language(tmp):
    """What the filter language allows, against Python's own evaluation of the
    same expression here (the test's input, trusted)."""
    keys = {"network.leaves": [16, 32, 64, 128], "seed": [1, 2, 3],
            "network.bypass": [[4], [4, 8], [8, 24], None], "traffic.collective": ["broadcast", "scatter"]}
    text = ("(bypass is None or all(0 < b < leaves and b % (2 * len(bypass)) == 0 for b in bypass)) "
            "and 16 <= network_leaves * 2 ** seed < 512 and collective in ['broadcast', 'gather'] "
            "and seed not in (2,) and -seed // 2 < 0 and abs(-seed) % 3 != 0 or "
            "max(seed, 1) == 3 and min([leaves, 64]) / 2 == 32.0 and any(b > 4 for b in bypass or [5]) "
            "and not false and (seed != null) == true")
    doc = {"base": {"network": {"type": "fattree_packet"}}, "axes": keys, "filter": text}
    path = write(tmp, "language.yaml", yaml.safe_dump(doc))
    want = 0
    for leaves, seed, bypass, coll in itertools.product(*keys.values()):
        names = {"network_leaves": leaves, "leaves": leaves, "seed": seed, "network_bypass": bypass,
                 "bypass": bypass, "traffic_collective": coll, "collective": coll,
                 "true": True, "false": False, "null": None}
        want += bool(eval(text, {"__builtins__": {"all": all, "any": any, "len": len, "abs": abs, "min": min,
                                                  "max": max}, **names}))
    code, out, err = sweep(path, "--dry-run", "--out", os.path.join(tmp, "language"), timeout=60)
    check(code == 0 and 0 < want == len(out.splitlines()),
          f"filter language: {len(out.splitlines())} points, as Python counts ({want}) {err.strip()[:100]}")


def expand(spec):
    if isinstance(spec, list):
        return spec
    if isinstance(spec, dict):
        if "times" in spec:
            out, x = [], spec["from"]
            while x <= spec["to"]:
                out.append(x)
                x *= spec["times"]
            return out
        return list(range(spec["from"], spec["to"] + 1, spec.get("step", 1)))
    return [spec]


def repo_filters_unchanged(tmp):
    """The filters of testbench/sweeps/ keep their meaning (counted here with
    Python's eval of the same trusted text)."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    for path in sorted(glob.glob(os.path.join(root, "testbench", "sweeps", "*.yaml"))):
        with open(path) as f:
            doc = yaml.safe_load(f)
        if "filter" not in doc:
            continue
        groups = [[{k: v} for v in expand(spec)] for k, spec in (doc.get("axes") or {}).items()]
        for group in doc.get("zip") or []:
            lists = [expand(spec) for spec in group.values()]
            groups.append([dict(zip(group, values)) for values in zip(*lists)])
        want = 0
        for combo in itertools.product(*groups):
            params = {k: v for part in combo for k, v in part.items()}
            names = {}
            for k, v in params.items():
                names[k.replace(".", "_")] = v
                names.setdefault(k.rsplit(".", 1)[-1], v)
            want += bool(eval(doc["filter"], {"__builtins__": {"all": all, "len": len}, **names}))
        name = os.path.basename(path)
        code, out, err = sweep(path, "--dry-run", "--out", os.path.join(tmp, "repo", name), timeout=120)
        check(code == 0 and len(out.splitlines()) == want,
              f"testbench/sweeps/{name}: the filter keeps {want} points ({len(out.splitlines())}) {err.strip()[:100]}")


def broken_sweep_files(tmp):
    """Issue 19: these ended in a Python traceback (exit 1)."""
    cases = [
        ("base: {}\naxes: {seed: {from: .nan, to: 3}}\n", "finite"),
        ("base: {}\naxes: {seed: {from: 1, to: .inf}}\n", "finite"),
        ("base: {}\naxes: {seed: {from: -.inf, to: 3}}\n", "finite"),
        ("base: {}\naxes: {seed: {from: 1, to: 1" + "0" * 400 + "}}\n", "finite"),
        ("base: {}\naxes: {seed: {from: 1, to: 3, step: .nan}}\n", "step"),
        ("base: {}\naxes: {seed: {from: 1, to: 8, times: .nan}}\n", "times"),
        ("base: {}\naxes: {seed: {from: 0, to: 1.0e+300, step: 1.0e-300}}\n", "at most 100000"),
        ("base: {}\naxes: {seed: {from: 1, to: 1.0e+300, times: 1.0000001}}\n", "at most 100000"),
        ("base: {}\naxes: {seed: [1, 2]}\nset: [1, 2]\n", "set: expected a mapping"),
        ("base: {}\naxes: [1, 2]\n", "axes: expected a mapping"),
        ("base: {}\nzip: {seed: [1]}\n", "zip: expected a list"),
        ("base: {}\naxes: {seed: [1]}\nfilter: [seed]\n", "filter: expected an expression"),
        ("base: 5\naxes: {seed: [1]}\n", "base: expected"),
        (b"base: {}\naxes: {seed: [1, \"\xff\xfe\"]}\n", "not UTF-8"),
        ("base: {}\naxes: {seed: " + "[" * 3000 + "]" * 3000 + "}\n", "nested"),
        ("base: {}\naxes: {seed: [" + "[" * 100 + "]" * 100 + "]}\n", "nested more than 64"),
        ("base: {}\naxes: {seed: [2020-01-01]}\n", "date"),
        ("base: {}\naxes: {seed: [2020-13-45]}\n", "not valid YAML"),
        ("base: {}\naxes: {seed: [{1: 2}]}\n", "not a string"),
        ("base: {}\n1: 2\nx: 3\n", "unknown key"),
        ("base: {}\naxes: {seed: [1]\n", "not valid YAML"),
        ("base: {}\nset: {a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1], b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a], "
         "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b], d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c], "
         "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d], f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e], "
         "g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]}\naxes: {seed: [*g, 2]}\n", "aliases expanded"),
        (b"base: {}\n#" + b"x" * (5 << 20) + b"\n", "larger than 4 MiB"),
    ]
    for text, word in cases:
        bad = write(tmp, "broken.yaml", text)
        start = time.monotonic()
        code, out, err = sweep(bad, "--dry-run", "--out", os.path.join(tmp, "broken"), timeout=60)
        check(one_line_exit_2(code, err) and word in err and time.monotonic() - start < 30,
              f"broken sweep file ({word}): {err.strip()[:150]}")


def product_limit(tmp):
    """Issue 19: 6.4 M points reached 2.7 GB. The product is counted first."""
    bad = write(tmp, "product.yaml", "base: {}\naxes: {a: {from: 1, to: 80}, b: {from: 1, to: 80}, "
                                     "c: {from: 1, to: 1000}}\n")
    start = time.monotonic()
    code, out, err = sweep(bad, "--dry-run", "--out", os.path.join(tmp, "product"), timeout=60)
    check(one_line_exit_2(code, err) and "6400000 points" in err and "100000" in err
          and time.monotonic() - start < 10, f"a product beyond the limit is refused at once: {err.strip()}")
    bad = write(tmp, "product.yaml", "base: {}\naxes: {" + ", ".join(f"k{i}: [1, 2]" for i in range(200)) + "}\n")
    code, out, err = sweep(bad, "--dry-run", "--out", os.path.join(tmp, "product"), timeout=60)
    check(one_line_exit_2(code, err) and "limit of 100000" in err, f"2^200 points are refused: {err.strip()[:150]}")
    bad = write(tmp, "product.yaml", "base: {}\naxes: {seed: {from: 1, to: 10000}, "
                                     "traffic.pairs: [1, '" + "x" * 300_000 + "']}\n")
    code, out, err = sweep(bad, "--dry-run", "--out", os.path.join(tmp, "product"), timeout=60)
    check(one_line_exit_2(code, err) and "MiB of parameters (at most 1024 MiB)" in err,
          f"20000 points of 300 kB each are refused: {err.strip()[:150]}")


def command_line(tmp, path):
    """Issue 19: argparse printed its usage (several lines); 0 for --points-per-task passed."""
    for args, word in [(["--jobs", "abc"], "allowed values are 1..4096"),
                       (["--jobs", "0"], "allowed values are 1..4096"),
                       (["--jobs", "-2"], "allowed values are 1..4096"),
                       (["--bogus"], "unrecognized arguments: --bogus (options: "),
                       (["--points-per-task", "0", "--dry-run"], "allowed values are 1..1000000"),
                       (["--points-per-task", "0", "--dry-run", "--backend", "slurm"], "allowed values are 1..1000000"),
                       (["--out"], "expected one argument")]:
        code, out, err = sweep(path, *args, timeout=60)
        check(one_line_exit_2(code, err) and err.startswith("icnsim sweep: error: ") and word in err,
              f"command line {' '.join(args)}: {err.strip()}")


SLOW = """\
base:
  network: {type: fattree_packet}
  traffic: {collective: total_exchange}
zip:                         # a quick point, then two of about 40 s each
  - {network.leaves: [64, 4096, 4096], seed: [1, 1, 2]}
set: {run.max_work: 1e18}    # long on purpose: past the resource guard
"""


def children_of(pid):
    """{pid: start time} of the processes whose parent is pid."""
    found = {}
    for d in glob.glob("/proc/[0-9]*"):
        try:
            with open(os.path.join(d, "stat")) as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found[int(os.path.basename(d))] = fields[19]
    return found


def alive(pid, started):
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return False
    return fields[19] == started and fields[0] != "Z"


def stopped_by_signal(tmp, sig):
    """Issue 19: SIGINT did not stop the driver within 30 s and SIGINT / SIGTERM
    left the running icnsim behind. Now: the running point is stopped (and not
    recorded), the finished one is kept, one line, exit 128 + signal."""
    name = signal.Signals(sig).name
    path = write(tmp, "slow.yaml", SLOW)
    out_dir = os.path.join(tmp, "slow-" + name)
    proc = subprocess.Popen([ICNSIM, "sweep", path, "--jobs", "1", "--out", out_dir], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    children, deadline = {}, time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None and not children:
        if glob.glob(os.path.join(out_dir, "points", "*", "status.json")):  # the quick point is done
            children = children_of(proc.pid)
        time.sleep(0.05)
    check(len(children) == 1, f"{name}: the sweep runs its second point in a child ({children})")
    start = time.monotonic()
    proc.send_signal(sig)
    try:
        _, err = proc.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        _, err = proc.communicate()
    took = time.monotonic() - start
    check(proc.returncode == 128 + sig and took < 10,
          f"{name}: the sweep exits {128 + sig} within 10 s (exit {proc.returncode} after {took:.1f} s)")
    check(len(err.strip().splitlines()) == 1 and f"interrupted by {name}" in err and "1 of 3 points done" in err,
          f"{name}: one line: {err.strip()}")
    time.sleep(0.2)
    left = [pid for pid, started in children.items() if alive(pid, started)]
    check(not left, f"{name}: no icnsim child left behind ({left})")
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    statuses = glob.glob(os.path.join(out_dir, "points", "*", "status.json"))
    code, out, _ = sweep(path, "--out", out_dir, "--dry-run", timeout=60)
    check(len(statuses) == 1 and code == 0 and len(out.splitlines()) == 2 and "network.leaves=4096" in out,
          f"{name}: the finished point is kept, the stopped one is not recorded (a rerun runs 2)")


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

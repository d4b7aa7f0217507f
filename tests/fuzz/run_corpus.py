#!/usr/bin/env python3
"""Runs icnsim on the bad-input corpus and on generated cases and checks the
bad-input contract of issue 13 on every one:

  * the exit code is 0, 1 or 2: never a signal, never a timeout;
  * exit 2 prints exactly one line on stderr ("icnsim: ..."), with no control
    characters, and nothing on stdout;
  * stderr never reports an internal error or a sanitizer finding;
  * the process stays under a memory bound (address-space limit, peak RSS).

Cases listed in expected_failures.txt are reported as EXPECTED FAILURE (or
NOW PASSES), never skipped. Exit status: 0 when every other case holds.

usage: run_corpus.py --icnsim BIN --source REPO [--generated N] [--seed S] [--jobs J]
"""
import argparse
import concurrent.futures
import os
import random
import re
import resource
import shlex
import shutil
import stat
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TIMEOUT_S = 30
LIMIT_AS = 4 << 30        # address space per run
MAX_RSS_KB = 1536 * 1024  # peak resident memory per run


def make_generated(folder):
    """Inputs too big or too binary to keep in the tree."""
    os.mkfifo(os.path.join(folder, "fifo"))
    with open(os.path.join(folder, "big.yaml"), "w") as f:
        f.write("seed: 1\n# " + "x" * (16 << 20) + "\n")
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 10):
        lines.append("a%d: &a%d [%s]" % (i, i, ", ".join(["*a%d" % (i - 1)] * 10)))
    lines.append("network:\n  type: torus")
    with open(os.path.join(folder, "bomb.yaml"), "w") as f:
        f.write("\n".join(lines) + "\n")
    with open(os.path.join(folder, "garbage.yaml"), "wb") as f:
        f.write(random.Random(13).randbytes(4096))
    with open(os.path.join(folder, "deep.yaml"), "w") as f:
        f.write("seed: " + "[" * 5000 + "]" * 5000 + "\n")
    with open(os.path.join(folder, "huge_value"), "w") as f:
        f.write("seed=" + "9" * (120 << 10))  # an argument is at most 128 KiB
    with open(os.path.join(folder, "huge_value.yaml"), "w") as f:
        f.write("network:\n  type: \"" + "\\e[31m" * (1 << 20) + "\"\n")


def unescape(word):
    if "\\" not in word:
        return word
    return word.encode("latin-1", "backslashreplace").decode("unicode_escape")


def corpus_cases(source, temp, generated):
    """(id, argv, limit_as) from corpus/cli_cases.txt and corpus/scenarios."""
    cases = []
    subst = {"{S}": os.path.join(source, "testbench", "scenarios"),
             "{C}": os.path.join(HERE, "corpus", "scenarios"),
             "{D}": temp, "{G}": generated}
    with open(os.path.join(HERE, "corpus", "cli_cases.txt")) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            name, _, args = line.partition("|")
            name = name.strip()
            case_temp = os.path.join(temp, name)
            os.makedirs(case_temp, exist_ok=True)
            if name == "vcd-directory-vcd":
                os.makedirs(os.path.join(case_temp, "dir.vcd"), exist_ok=True)
            words = []
            limit = LIMIT_AS
            expect = None
            raw = shlex.split(args)
            i = 0
            while i < len(raw):
                w = raw[i]
                if w == "--limit-as":
                    limit = int(raw[i + 1].replace("MiB", "")) << 20
                    i += 2
                    continue
                if w == "--expect-exit":  # the case must end with this exit code
                    expect = int(raw[i + 1])
                    i += 2
                    continue
                for k, v in subst.items():
                    w = w.replace(k, v)
                w = w.replace("{T}", case_temp)
                if w.startswith("@"):
                    with open(w[1:]) as vf:
                        w = vf.read()
                words.append(unescape(w))
                i += 1
            cases.append((name, words, limit, expect))
    return cases


def family_keys(icnsim):
    """The keys `icnsim list` declares, per network type."""
    out = subprocess.run([icnsim, "list"], capture_output=True, text=True, timeout=30).stdout
    common, per_type, current = [], {}, None
    for line in out.splitlines():
        m = re.match(r"network\.type=(\w+):", line)
        if m:
            current = m.group(1)
            per_type[current] = []
            continue
        m = re.match(r"  (\S+)\s+default", line)
        if m:
            (per_type[current] if current else common).append(m.group(1))
    return common, per_type


BAD_VALUES = [
    "-1", "0", "1", "2", "3", "7", "64", "65536", "4294967296", "9223372036854775807", "9223372036854775808",
    "-9223372036854775809", "1e308", "1e-308", "0.5", "-0.0", ".inf", "-.inf", ".nan", "0x10", "0o17", "017", "1_000",
    "+5", "1e3", "", "~", "null", "true", "no", "[]", "[1]", "[0, 0]", "[-1, 2]", "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]",
    "[[0, 1]]", "[[0, 0]]", "[[0, 99999]]", "[a, b]", "{a: 1}", "{}", "[", "]", "{", "'", "\"", "&a x", "*a",
    "!!binary aGVsbG8=", "!tag x", "? x", "|\n  x", "x\ny", "\x1b[31mred\x1b[0m", "\u202ereversed", "\u00e9t\u00e9",
    "a" * 5000, "[" * 300 + "]" * 300, "cbft", "ebft", "constant", "doubling", "best", "favourable", "even",
    "random", "pairs", "permutation", "all_to_one", "broadcast", "total_exchange", "line_broadcast", "none",
    "torus", "ibt", "fattree_packet", "fattree_bitserial", "crossbar", "hier_crossbar", "vc", "hpam", "mesh", "fattree",
    "[[1, 1], [4, 4]]", "[[2, 2], [4, 8]]", "[[1, 1], [2, 2], [2, 8]]", "[[1, 1], [4, 64]]", "[0, 0, 1]", "[2, 1]",
    "rtl", "behavioral", "synchronous", "buffered", "multicast", "hybrid", "brute_force", "scatter", "gather",
    "[nic0.up]", "[0.x+]", "[r1_0.up]", "[l2_r0_1.south]", "[l1_r0_0.down0]", "[l1_r0_0.replicate]", "auto", "1MiB",
    "/nonexistent/out", "/dev/full", "/proc/x",
]


def generated_cases(icnsim, source, count, seed):
    """Deterministic random mutations: one to three --set of the small
    scenarios' keys to values from BAD_VALUES."""
    rng = random.Random(seed)
    common, per_type = family_keys(icnsim)
    scen = os.path.join(source, "testbench", "scenarios")
    bases = {"fattree_packet": ["fattree_cbft16_total_exchange.yaml", "fattree_cbft32_flooding.yaml"],
             "vc": ["mesh8x8_uniform.yaml", "torus8x8_uniform.yaml"],
             "fattree_bitserial": ["fattree_bitserial_8_waveform.yaml"],
             "torus": ["torus_global_3d.yaml"],
             "ibt": ["ibt_table1_line.yaml", "ibt_table1_rect.yaml"]}
    cases = []
    types = sorted(per_type)
    for i in range(count):
        t = types[i % len(types)]
        base = bases.get(t, [None])
        base = rng.choice(base)
        path = os.path.join(scen, base) if base and os.path.exists(os.path.join(scen, base)) else "/dev/null"
        # Small memory budget: a valid but big network is refused by the
        # resource guard instead of simulating for minutes.
        argv = ["run", path, "--quiet", "--set", "run.max_memory=256MiB"]
        if path == "/dev/null":
            argv += ["--set", "network.type=" + t]
        keys = [k for k in per_type[t] + common if not k.startswith("outputs.")]
        for _ in range(rng.randint(1, 3)):
            argv += ["--set", rng.choice(keys) + "=" + rng.choice(BAD_VALUES)]
        cases.append(("gen-%03d-%s" % (i, t), argv, LIMIT_AS, None))
    return cases


SANITIZED = False  # AddressSanitizer reserves terabytes of address space: no RLIMIT_AS


def run_case(icnsim, case):
    name, argv, limit, expect = case

    def limits():
        if not SANITIZED:
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    start = time.monotonic()
    proc = subprocess.Popen([icnsim] + argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            stdin=subprocess.DEVNULL, preexec_fn=limits)
    try:
        out, err = proc.communicate(timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        return name, ["timeout after %d s" % TIMEOUT_S], time.monotonic() - start
    code = proc.returncode
    problems = []
    if code < 0:
        problems.append("killed by signal %d" % -code)
    elif code not in (0, 1, 2):
        problems.append("exit code %d (allowed: 0, 1, 2)" % code)
    elif expect is not None and code != expect:
        problems.append("exit code %d (this case must exit %d)" % (code, expect))
    text = err.decode("utf-8", "replace")
    if code == 2:
        if text.count("\n") != 1 or not text.endswith("\n"):
            problems.append("exit 2 with %d lines on stderr (one expected)" % text.count("\n"))
        if not text.startswith("icnsim: "):
            problems.append("stderr does not start with 'icnsim: '")
        if out:
            problems.append("exit 2 with %d bytes on stdout" % len(out))
    if any(ord(c) < 32 and c != "\n" or c == "\x7f" or 0x202a <= ord(c) <= 0x202e or 0x2066 <= ord(c) <= 0x2069
           for c in text):
        problems.append("control characters on stderr")
    if len(text) > 2200 and code == 2:
        problems.append("a %d-character error line" % len(text))
    if "internal error" in text:
        problems.append("internal error reported")
    if "runtime error:" in text or "Sanitizer" in text:
        problems.append("sanitizer report")  # UBSan halts with exit code 1
    if problems:
        problems.append("stderr: " + text[:300].encode("unicode_escape").decode())
    return name, problems, time.monotonic() - start


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--icnsim", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--generated", type=int, default=300)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--sanitized", action="store_true", help="icnsim is built with ASan/UBSan")
    args = ap.parse_args()
    global SANITIZED, TIMEOUT_S
    if args.sanitized:
        SANITIZED, TIMEOUT_S = True, 3 * TIMEOUT_S

    with open(os.path.join(HERE, "expected_failures.txt")) as f:
        expected = {l.strip() for l in f if l.strip() and not l.startswith("#")}
    temp = tempfile.mkdtemp(prefix="icnsim-fuzz-")
    try:
        generated = os.path.join(temp, "generated")
        os.makedirs(generated)
        make_generated(generated)
        cases = corpus_cases(args.source, temp, generated)
        cases += generated_cases(args.icnsim, args.source, args.generated, args.seed)
        if SANITIZED:
            for c in [c for c in cases if c[2] != LIMIT_AS]:
                print("not run under the sanitizers (needs an address-space limit): " + c[0])
            cases = [c for c in cases if c[2] == LIMIT_AS]
        failures, xfail, xpass, slow = [], [], [], []
        args_of = {c[0]: c[1] for c in cases}
        peak_rss = 0
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            for name, problems, seconds in pool.map(lambda c: run_case(args.icnsim, c), cases):
                if seconds > 10:
                    slow.append("%s %.1f s: %s" % (name, seconds, " ".join(args_of[name])[:300]))
                if name in expected:
                    (xfail if problems else xpass).append(name)
                elif problems:
                    failures.append((name, problems))
        peak_rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        print("fuzz corpus: %d cases, %d contract failures, %d expected failures, largest peak RSS %d MiB"
              % (len(cases), len(failures), len(xfail), peak_rss // 1024))
        if peak_rss > MAX_RSS_KB:
            failures.append(("peak RSS", ["a case used %d MiB (bound %d MiB)" % (peak_rss // 1024, MAX_RSS_KB // 1024)]))
        for name in xfail:
            print("EXPECTED FAILURE (until failed-link names are typed addresses): " + name)
        for name in xpass:
            print("NOW PASSES (delete it from tests/fuzz/expected_failures.txt): " + name)
        for s in slow:
            print("slow: " + s)
        for name, problems in failures:
            print("FAIL %s: %s" % (name, "; ".join(problems)))
        return 1 if failures else 0
    finally:
        shutil.rmtree(temp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())

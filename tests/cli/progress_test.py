#!/usr/bin/env python3
"""Issue 12: `icnsim run` draws a one-line, self-overwriting progress line on a
terminal (simulated cycle, fraction of the work done where the family knows
it, rate), at most a few times a second, clears it at the end, and writes
nothing of it when stderr is not a terminal. Usage: progress_test.py ICNSIM [--sanitized]"""
import os
import pty
import re
import subprocess
import sys
import time

icnsim = sys.argv[1]
# A bit-serial run of 2-3 s on a quiet machine (0.6 s was too short to draw two
# lines at four a second): random traffic at load factor 32 on 1024 processors.
# Under the sanitizers (--sanitized) load factor 8 took 6 s alone and 33 s in CI, so an
# eighth of the load factor, about 3 s alone, is enough (a dozen lines at four a
# second); the test runs icnsim three times.
sanitized = "--sanitized" in sys.argv[2:]
args = [icnsim, "run", "/dev/null", "--set", "network.type=fattree_bitserial", "--set", "network.processors=1024",
        "--set", "traffic.pattern=random", "--set", "traffic.load_factor=" + ("4" if sanitized else "32")]

failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)


# On a pseudo-terminal.
master, slave = pty.openpty()
start = time.monotonic()
p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=slave)
os.close(slave)
err = b""
while True:
    try:
        chunk = os.read(master, 4096)
    except OSError:  # EIO once the child closed the terminal
        break
    if not chunk:
        break
    err += chunk
out = p.communicate()[0]
elapsed = time.monotonic() - start
os.close(master)
check(p.returncode == 0, "exit code %d" % p.returncode)
text = err.decode()
lines = re.findall(r"\r\x1b\[Kicnsim: cycle (\d+), ([0-9.]+)% of the work done, ([0-9.e+]+) cycles/s, (\d+) s", text)
check(len(lines) >= 2, "at least two progress lines in %.1f s, got %d: %r" % (elapsed, len(lines), text[:300]))
check(len(lines) <= 5 * elapsed + 2, "at most about four lines a second: %d in %.1f s" % (len(lines), elapsed))
cycles = [int(c) for c, *_ in lines]
done = [float(d) for _, d, *_ in lines]
check(cycles == sorted(cycles) and len(set(cycles)) == len(cycles), "simulated cycles increase: %s" % cycles)
check(done == sorted(done) and all(0 <= d <= 100 for d in done), "work done grows within 0..100%%: %s" % done)
check("\n" not in text, "one line, redrawn in place (no newline on stderr)")
check(text.endswith("\r\x1b[K"), "the line is cleared at the end")
check(b"verified" in out and b"yes" in out, "the results table on stdout")

# Not a terminal: stderr stays empty, stdout is the same table.
q = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
check(q.returncode == 0 and q.stderr == b"", "no progress when stderr is not a terminal: %r" % q.stderr[:200])
strip = lambda s: re.sub(rb"simulated \d+ cycles in [0-9.]+ s", b"", s)
check(strip(q.stdout) == strip(out), "the same table either way")

# --quiet on a terminal: nothing.
master, slave = pty.openpty()
r = subprocess.run(args + ["--quiet"], stdout=subprocess.PIPE, stderr=slave)
os.close(slave)
os.set_blocking(master, False)
try:
    quiet_err = os.read(master, 4096)
except OSError:
    quiet_err = b""
os.close(master)
check(r.returncode == 0 and quiet_err == b"", "--quiet draws no progress: %r" % quiet_err[:200])

sys.exit(1 if failures else 0)

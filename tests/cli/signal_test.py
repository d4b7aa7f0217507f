#!/usr/bin/env python3
"""Issue 19: SIGINT or SIGTERM stops `icnsim run` cleanly. The run ends at the
end of the cycle it is in; the JSON says status "interrupted", with what was
measured so far; the waveform is closed and in place, with no hidden
temporary file left beside it; stderr has one line; the exit code is 128 +
the signal (130, 143). Usage: signal_test.py ICNSIM"""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

icnsim = sys.argv[1]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)


# Open-loop VC traffic that would run for a very long time, and a collective
# on a large packet fat tree: two kinds of experiment base.
LONG = ["--set", "run.max_work=1e18", "--set", "outputs.max_trace_bytes=1024TiB"]  # long on purpose: past the resource guards
RUNS = {
    "vc": [os.path.join(ROOT, "testbench/scenarios/mesh8x8_uniform.yaml"), "--set", "measure.cycles=1000000000",
           "--set", "run.max_cycles=100000000000"],
    "fattree": [os.path.join(ROOT, "testbench/scenarios/fattree_cbft16_total_exchange.yaml"), "--set",
                "network.leaves=4096", "--set", "run.max_cycles=100000000000"],
}

for name, scenario in RUNS.items():
    for sig, code in ((signal.SIGTERM, 143), (signal.SIGINT, 130)):
        with tempfile.TemporaryDirectory() as d:
            out_json, out_vcd = os.path.join(d, "r.json"), os.path.join(d, "w.vcd")
            args = [icnsim, "run", *scenario, *LONG, "--quiet", "--json", out_json]
            if name == "vc":
                args += ["--vcd", out_vcd]
            p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            time.sleep(1.5)  # well into the simulation (elaboration takes a fraction of that)
            check(p.poll() is None, f"{name}: the run was still going when signalled")
            sent = time.monotonic()
            p.send_signal(sig)
            try:
                out, err = p.communicate(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
                out, err = p.communicate()
                check(False, f"{name} {sig.name}: did not exit within 10 s")
            what = f"{name} {sig.name}"
            check(p.returncode == code, f"{what}: exit {p.returncode}, expected {code}")
            check(time.monotonic() - sent < 5, f"{what}: took {time.monotonic() - sent:.1f} s to stop")
            check(out == "", f"{what}: stdout not empty with --quiet: {out!r}")
            lines = err.splitlines()
            check(len(lines) == 1 and lines[0].startswith(f"icnsim: interrupted by {sig.name} at cycle "),
                  f"{what}: stderr {err!r}")
            leftovers = [f for f in os.listdir(d) if f.startswith(".")]
            check(not leftovers, f"{what}: temporary files left: {leftovers}")
            try:
                with open(out_json) as f:
                    r = json.load(f)["result"]
            except (OSError, ValueError, KeyError) as e:
                check(False, f"{what}: no readable JSON result: {e}")
                continue
            check(r.get("status") == "interrupted", f"{what}: status {r.get('status')}")
            check(r.get("verified") is False, f"{what}: an interrupted run is not verified")
            if name == "vc":
                # What was measured so far, over the cycles actually simulated.
                offered = r["throughput"]["offered"]
                check(abs(offered - 0.15) < 0.15 * 0.1, f"{what}: offered {offered} over the simulated window, not 0.15")
                check(r["packets"]["measured"] > 0, f"{what}: no measured packets reported")
                with open(out_vcd) as f:
                    vcd = f.read()
                check("$enddefinitions" in vcd and vcd.endswith("\n"), f"{what}: the waveform is not a closed VCD")
            else:
                check(r["messages"]["delivered"] > 0, f"{what}: no deliveries reported")

if failures:
    print(f"{len(failures)} check(s) failed")
    sys.exit(1)
print("all checks passed")

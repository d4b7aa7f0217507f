#!/usr/bin/env python3
"""scripts/vc_sweep's energy against load (issue 23, docs/energy.md): a short
sweep of a 4x4 mesh, then what must hold between its columns whatever the
model's numbers are.

- energy per flit = dynamic + leakage, and the components' dynamic energies
  sum to the dynamic energy (each column is result.energy over the flits the
  run delivered, so this checks the script's arithmetic and the JSON's sums);
- the network's power rises with the accepted load (more events per second,
  the same leakage), and its dynamic power is nearly proportional to it;
- leakage per delivered flit falls as the load rises (a fixed leakage power
  shared by more flits): within 25 % of 1/accepted scaling, the runs' lengths
  differing a little;
- `--set power.tech=32nm` prices the same runs: the same latencies, a
  different energy;
- the energy figure is drawn, and `--plot-only` redraws it from the CSV.

Usage: vc_sweep_energy_test.py ICNSIM
"""
import csv
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SWEEP = os.path.join(ROOT, "scripts", "vc_sweep")
COMPONENTS = ("buffers", "crossbar", "sw_allocator", "vc_allocator", "clock", "links")


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def sweep(icnsim, out, *extra):
    args = [SWEEP, "--icnsim", icnsim, "--cases", "mesh:uniform", "--k", "4", "--step", "0.15",
            "--bisections", "0", "--out", out, *extra]
    r = subprocess.run(args, capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        fail(f"vc_sweep exited {r.returncode}: {r.stderr.strip()[-400:]}")
    with open(os.path.join(out, "data", "mesh4x4_uniform.csv")) as f:
        return [r for r in csv.DictReader(f) if r["stable"] == "True"]


def close(a, b, rel=1e-9):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-12)


def main():
    icnsim = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        rows = sweep(icnsim, os.path.join(tmp, "45"))
        if len(rows) < 3:
            fail(f"expected at least 3 stable loads on a 4x4 mesh (0.01, 0.15, 0.30), got {len(rows)}")
        for r in rows:
            f = {k: float(v) for k, v in r.items() if k not in ("stable",)}
            if not close(f["pj_per_flit"], f["dynamic_pj_per_flit"] + f["leakage_pj_per_flit"]):
                fail(f"at {r['offered']}: total {f['pj_per_flit']} != dynamic + leakage")
            parts = sum(f[f"{c}_dynamic_pj_per_flit"] for c in COMPONENTS)
            if not close(parts, f["dynamic_pj_per_flit"], 1e-6):
                fail(f"at {r['offered']}: components sum to {parts}, dynamic is {f['dynamic_pj_per_flit']}")
            # Power and energy per flit share their numerators: total / dynamic is the same ratio.
            if not close(f["power_mw"] / f["dynamic_power_mw"], f["pj_per_flit"] / f["dynamic_pj_per_flit"], 1e-6):
                fail(f"at {r['offered']}: power and energy per flit disagree on the leakage share")
            if min(f[k] for k in f if k.endswith("pj_per_flit") or k.endswith("_mw")) < 0:
                fail(f"at {r['offered']}: a negative energy or power")
        acc = [float(r["accepted"]) for r in rows]
        power = [float(r["power_mw"]) for r in rows]
        dyn_power = [float(r["dynamic_power_mw"]) for r in rows]
        leak = [float(r["leakage_pj_per_flit"]) for r in rows]
        for i in range(1, len(rows)):
            if not power[i] > power[i - 1]:
                fail(f"power does not rise with the load: {power}")
            if not leak[i] < leak[i - 1]:
                fail(f"leakage per flit does not fall with the load: {leak}")
            # A fixed leakage power over more flits: leakage per flit ~ 1 / accepted.
            want = leak[0] * acc[0] / acc[i]
            if abs(leak[i] - want) > 0.25 * want:
                fail(f"leakage per flit at {acc[i]}: {leak[i]}, 1/accepted scaling from {acc[0]} gives {want}")
        # Dynamic power per accepted flit/node/cycle stays within a factor 2 from
        # 0.01 to the highest stable load (the clock's share per flit falls with load).
        per_load = [p / a for p, a in zip(dyn_power, acc)]
        if max(per_load) > 2 * min(per_load):
            fail(f"dynamic power is far from proportional to the accepted load: {per_load}")
        png = os.path.join(tmp, "45", "mesh4x4_uniform_energy.png")
        if not os.path.getsize(png) > 10000:
            fail("the energy figure was not drawn")
        os.unlink(png)
        r = subprocess.run([SWEEP, "--plot-only", "--cases", "mesh:uniform", "--k", "4", "--out",
                            os.path.join(tmp, "45")], capture_output=True, text=True, timeout=300)
        if r.returncode != 0 or not os.path.isfile(png):
            fail(f"--plot-only did not redraw the energy figure: {r.stderr.strip()[-300:]}")

        rows32 = sweep(icnsim, os.path.join(tmp, "32"), "--set", "power.tech=32nm")
        if [(r["offered"], r["packet_latency"]) for r in rows32] != [(r["offered"], r["packet_latency"]) for r in rows]:
            fail("power.tech changed the simulated traffic")
        if all(close(float(a["pj_per_flit"]), float(b["pj_per_flit"])) for a, b in zip(rows, rows32)):
            fail("power.tech=32nm did not reach the energy columns")
    print(f"PASS: {len(rows)} loads; power {power[0]:.0f} -> {power[-1]:.0f} mW, "
          f"leakage per flit {leak[0]:.0f} -> {leak[-1]:.0f} pJ")


if __name__ == "__main__":
    main()

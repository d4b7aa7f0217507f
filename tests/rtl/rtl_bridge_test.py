#!/usr/bin/env python3
"""router.model=rtl inside icnsim (docs/rtl_router.md), one case per call:

  rtl_bridge_test.py ICNSIM CASE [MODULE]

  mesh4, torus4    preset=booksim, uniform traffic at 0.15 and 0.70 flits/node/cycle (the
                   second above saturation) on a 4x4 mesh / torus: every RTL
                   router (the twin) against the C++ router
  mesh8, torus8    the same on 8x8 networks, transpose traffic at 0.19 (above saturation)
  mixed            one RTL router (r1_2) among C++ routers, on the mesh and the torus
  vcd              one RTL router's own signals beside the run's waveform
  collective       pipelined broadcasts (traffic.collective) on a mesh of twins
  bad              MODULE... are bad modules: each run is refused with exit 2
                   and one line before anything runs
  faults           MODULE... are accepted but break the contract while they run
                   (fake_rtl_router_module.cpp's modes, named by file): as one
                   RTL router (r1_2) among C++ routers, the run ends in the
                   cycle of the breach with exit 1, one line on stderr naming
                   the router and what it did, and the JSON's status

Packets are compared one by one: each packet's head and tail cycles on its
destination NIC's ejection link, from the run's own waveform (--vcd), must be
the same with the RTL router(s) as with the C++ router, and so must the JSON
results (but for latency.stages, which an RTL router cannot split). Exit 0 on success, 1 on a difference.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

SCENARIO = ("network: {{type: vc, topology: {topo}, k: {k}, n: 2}}\npreset: booksim\n"
            "traffic: {{pattern: {pattern}, injection_rate: {rate}}}\n"
            "measure: {{sample_period: 200, warmup_periods: 1, max_samples: 2}}\nseed: 5\n")


def eject_cycles(path):
    """message id -> (cycle its head, cycle its tail was sent on an ejection link)."""
    fields, scope, vals, out = {}, [], {}, {}
    time, header = None, True

    def sample():
        for f in fields.values():
            if vals.get(f.get("valid")) != 1:
                continue
            p = vals.get(f.get("packet"))
            rec = out.setdefault(p, [None, None])
            if vals.get(f.get("head")) == 1:
                rec[0] = time
            if vals.get(f.get("tail")) == 1:
                rec[1] = time

    with open(path) as fh:
        for line in fh:
            line = line.strip()
            if header:
                if line.startswith("$scope"):
                    scope.append(line.split()[2])
                elif line.startswith("$upscope"):
                    scope.pop()
                elif line.startswith("$var"):
                    parts = line.split()
                    m = re.search(r"nic(\d+)\.eject\.flit\.(valid|head|tail|packet)$", ".".join(scope + [parts[4]]))
                    if m:
                        fields.setdefault(int(m.group(1)), {})[m.group(2)] = parts[3]
                elif line.startswith("$enddefinitions"):
                    header = False
                continue
            if not line:
                continue
            if line[0] == "#":
                if time is not None:
                    sample()
                time = int(line[1:])
            elif line[0] == "b":
                v, code = line[1:].split()
                vals[code] = int(v, 2) if set(v) <= {"0", "1"} else None
            elif line[0] in "01xz":
                vals[line[1:]] = int(line[0]) if line[0] in "01" else None
    if time is not None:
        sample()
    return out


def run(icnsim, tmp, name, topo, rate, extra, k=4, pattern="uniform"):
    scenario = os.path.join(tmp, name + ".yaml")
    with open(scenario, "w") as f:
        f.write(SCENARIO.format(topo=topo, rate=rate, k=k, pattern=pattern))
    vcd, js = os.path.join(tmp, name + ".vcd"), os.path.join(tmp, name + ".json")
    cmd = [icnsim, "run", scenario, "--vcd", vcd, "--json", js]
    for kv in extra:
        cmd += ["--set", kv]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    with open(js) as f:
        out = json.load(f)
    # What the RTL router cannot give: its heads' stage split (the bridge
    # counts a router's whole time as switch allocation).
    del out["result"]["latency"]["stages"]
    # Nor its allocators' decisions (inside the RTL): the energy differs by
    # them, but what the ports show (clocked cycles, buffer writes and reads,
    # crossbar traversals, per router type) must be the C++ router's exactly.
    del out["result"]["energy"]
    seen = ("clocked_cycles", "buffer_writes", "buffer_reads", "crossbar_traversals")
    activity = out["stats"]["activity"]
    ports = [{k: t[k] for k in ("ports", "routers") + seen} for t in activity["router_types"]]
    return eject_cycles(vcd), {"result": out["result"], "vc": out["vc"], "activity": ports,
                               "links": activity["links"]}


def router_scopes(path):
    """The routers whose own rows (a C++ router's input VC states) are in the waveform."""
    scope, found = [], set()
    with open(path) as fh:
        for line in fh:
            line = line.strip()
            if line.startswith("$scope"):
                scope.append(line.split()[2])
            elif line.startswith("$upscope"):
                scope.pop()
            elif line.startswith("$var") and line.split()[4] == "state":
                found.update(s for s in scope if re.fullmatch(r"r\d+_\d+", s))
            elif line.startswith("$enddefinitions"):
                break
    return found


def compare(icnsim, tmp, topo, rate, extra, label, k=4, pattern="uniform"):
    base, base_json = run(icnsim, tmp, f"{topo}_{rate}_cpp", topo, rate, [], k, pattern)
    rtl, rtl_json = run(icnsim, tmp, f"{topo}_{rate}_{label}", topo, rate, extra, k, pattern)
    # The RTL routers really ran: their C++ rows are gone from the waveform.
    cxx_routers = router_scopes(os.path.join(tmp, f"{topo}_{rate}_{label}.vcd"))
    if len(router_scopes(os.path.join(tmp, f"{topo}_{rate}_cpp.vcd"))) != k * k or \
            cxx_routers != (set() if label == "rtl" else router_scopes(os.path.join(tmp, f"{topo}_{rate}_cpp.vcd")) - {"r1_2"}):
        print(f"{topo}4 {label}: the C++ routers in the waveform are {sorted(cxx_routers)}")
        return False
    wrong = [f"packet {p}: C++ {base.get(p)}, RTL {rtl.get(p)}" for p in sorted(set(base) | set(rtl), key=str)
             if base.get(p) != rtl.get(p)]
    whole = sum(1 for v in base.values() if v[0] is not None and v[1] is not None)
    ok = not wrong and whole > 100 and base_json == rtl_json
    print(f"{topo}{k} {pattern} {label:5s} load {rate}: {len(base)} packets, "
          + ("identical" if ok else f"DIFFER ({len(wrong)}): " + "; ".join(wrong[:3])
             + ("" if base_json == rtl_json else " (JSON results differ)")))
    return ok


def valid_times(path, wanted):
    """Times at which any 1-bit or vector var whose dotted name matches `wanted` is non-zero."""
    codes, scope, vals, times = set(), [], {}, set()
    time, header = None, True
    with open(path) as fh:
        for line in fh:
            line = line.strip()
            if header:
                if line.startswith("$scope"):
                    scope.append(line.split()[2])
                elif line.startswith("$upscope"):
                    scope.pop()
                elif line.startswith("$var") and re.fullmatch(wanted, ".".join(scope + [line.split()[4]])):
                    codes.add(line.split()[3])
                elif line.startswith("$enddefinitions"):
                    header = False
                continue
            if not line:
                continue
            if line[0] == "#":
                if time is not None and any(vals.get(c) for c in codes):
                    times.add(time)
                time = int(line[1:])
            elif line[0] == "b":
                v, code = line[1:].split()
                vals[code] = int(v, 2) if set(v) <= {"0", "1"} else 0
            elif line[0] in "01xz":
                vals[line[1:]] = 1 if line[0] == "1" else 0
    if time is not None and any(vals.get(c) for c in codes):
        times.add(time)
    return times


def vcd(icnsim, tmp):
    """One RTL router (r1_2, node 9) in a 4x4 mesh: its own signals in
    FILE.r1_2.rtl.vcd, and its out_valid_o high in exactly the cycles its
    output links carry a flit in the run's waveform."""
    run(icnsim, tmp, "vcd", "mesh", 0.3, ["router.model=rtl", "router.rtl_routers=[r1_2]"])
    side = os.path.join(tmp, "vcd.r1_2.rtl.vcd")
    others = [f for f in os.listdir(tmp) if f.endswith(".rtl.vcd") and f != "vcd.r1_2.rtl.vcd"]
    if not os.path.exists(side) or others:
        print(f"side files: {sorted(f for f in os.listdir(tmp) if f.endswith('.rtl.vcd'))}")
        return False
    rtl = valid_times(side, r".*\.out_valid_o")
    net = valid_times(os.path.join(tmp, "vcd.vcd"), r".*\.(r1_2\.[xy][+-]\.out|nic9\.eject)\.flit\.valid")
    ok = len(rtl) > 50 and rtl == net
    print(f"r1_2: out_valid_o high in {len(rtl)} cycles, its output links busy in {len(net)}: "
          + ("the same" if ok else f"DIFFER, first {sorted(rtl ^ net)[:5]}"))
    # Its save file opens the file and shows its top module's ports in a group.
    save = os.path.join(tmp, "vcd.r1_2.rtl.gtkw")
    text = open(save).read() if os.path.exists(save) else ""
    saved = '[dumpfile] "vcd.r1_2.rtl.vcd"' in text and "+{router/out_valid_o} router." in text
    print("r1_2's save file: " + ("opens its file, its ports grouped" if saved else "MISSING or wrong"))
    return ok and saved and windowed(icnsim, tmp)


def windowed(icnsim, tmp):
    """outputs.trace_routers and outputs.trace_window hold for the RTL
    routers' files too: of two RTL routers only the named one gets its file,
    and its samples are the window's cycles in which the run's waveform has
    a sample of r1_2's output links."""
    extra = ["router.model=rtl", "router.rtl_routers=[r1_2, r2_2]", "outputs.trace_routers=[r1_2]",
             "outputs.trace_window=[40, 60]"]
    run(icnsim, tmp, "win", "mesh", 0.3, extra)
    files = sorted(f for f in os.listdir(tmp) if f.startswith("win.") and f.endswith(".rtl.vcd"))
    with open(os.path.join(tmp, "win.r1_2.rtl.vcd")) as fh:
        rtl = {int(line[1:]) for line in fh if line.startswith("#")}
    with open(os.path.join(tmp, "win.vcd")) as fh:
        net = sorted(int(line[1:]) for line in fh if line.startswith("#"))
    # The run's waveform: a sample per cycle of the window; its time per cycle from them.
    per = min((b - a for a, b in zip(net, net[1:]) if b > a), default=0)
    cycles = {t // per for t in rtl} if per else set()
    ok = files == ["win.r1_2.rtl.vcd"] and per > 0 and len(rtl) > 5 and cycles <= set(range(40, 61)) \
        and all(t % per == 0 for t in rtl)
    print(f"trace_routers=[r1_2], trace_window=[40, 60]: files {files}, r1_2 sampled in cycles {sorted(cycles)}"
          + ("" if ok else " WRONG"))
    return ok


def collective(icnsim, tmp):
    """Sanders & Sibeyn's pipelined broadcast (fractional tree, and a chain)
    on an 8x4 mesh of twins: the JSON results are the C++ routers' (but for
    the stage split and the allocators' energy, which the ports do not show)."""
    ok = True
    for algorithm in ("fractional", "chain"):
        got = []
        for model in ("cpp", "rtl"):
            js = os.path.join(tmp, f"coll_{algorithm}_{model}.json")
            subprocess.run([icnsim, "run", "/dev/null", "--set", "network.type=vc", "--set", "network.topology=mesh",
                            "--set", "network.k=[8, 4]", "--set", "preset=booksim", "--set", "traffic.collective=broadcast",
                            "--set", f"traffic.algorithm={algorithm}", "--set", "traffic.packets=16",
                            "--set", "traffic.message_units=256", "--set", f"router.model={model}", "--json", js,
                            "--quiet"], check=True)
            with open(js) as f:
                result = json.load(f)["result"]
            # The RTL really ran: its 32 routers are priced from their ports.
            ok = ok and (model == "cpp" or result.get("energy", {}).get("rtl_routers") == 32)
            for key in ("energy", "stages"):
                result.pop(key, None)
                result.get("latency", {}).pop(key, None)
            got.append(result)
        same = got[0] == got[1] and got[0].get("verified") is True
        print(f"broadcast, {algorithm}: " + ("the same results, verified" if same else "DIFFER"))
        ok = ok and same
    return ok


def bad(icnsim, modules):
    ok = True
    for m in modules:
        r = subprocess.run([icnsim, "run", "/dev/null", "--set", "network.type=vc", "--set", "network.k=4",
                            "--set", "router.model=rtl", "--set", f"router.rtl={m}"], capture_output=True, text=True)
        lines = [l for l in r.stderr.splitlines() if l.strip()]
        why = {"vcs4": "has Vcs 4", "contract2": "contract_version_o = 2", "nosym": "not an icnsim RTL router module",
               ".py": "not an icnsim RTL router module", "no_such": "cannot read"}
        want = [w for k, w in why.items() if k in os.path.basename(m)]
        good = r.returncode == 2 and len(lines) == 1 and r.stdout == "" and all(w in lines[0] for w in want)
        print(f"{os.path.basename(m)}: exit {r.returncode}: {lines}")
        ok = ok and good
    return ok


def faults(icnsim, tmp, modules):
    # What each mode does, and what the line and the JSON status must say.
    want = {"forge": ("fault", "RTL router r1_2 broke the port contract", "the handle of no packet it holds"),
            "credit": ("fault", "RTL router r1_2 broke the port contract", "for a flit it did not hold"),
            "sink": ("stalled", "stall:", "none moved for")}
    ok = len(modules) == len(want)
    for m in modules:
        mode = next(k for k in want if k in os.path.basename(m))
        status, *words = want[mode]
        out = os.path.join(tmp, mode + ".json")
        r = subprocess.run([icnsim, "run", "/dev/null", "--set", "network.type=vc", "--set", "network.k=4",
                            "--set", "traffic.injection_rate=0.3", "--set", "measure.cycles=300",
                            "--set", "router.model=rtl", "--set", f"router.rtl={m}",
                            "--set", "router.rtl_routers=[r1_2]", "--json", out, "--quiet"],
                           capture_output=True, text=True, timeout=100)
        lines = [l for l in r.stderr.splitlines() if l.strip()]
        got = json.load(open(out))["result"].get("status") if os.path.exists(out) else None
        good = r.returncode == 1 and len(lines) == 1 and all(w in lines[0] for w in words) and got == status
        print(f"{mode}: exit {r.returncode}, status {got}: {lines}")
        ok = ok and good
        if mode == "forge":
            # The simple scheduler (one SC_METHOD per block) ends it the same way, in the same cycle.
            q = subprocess.run(r.args + ["--set", "run.scheduler=per_block_methods"], capture_output=True, text=True,
                               timeout=100)
            same = q.returncode == 1 and q.stderr == r.stderr
            print("forge, per_block_methods: " + ("the same line" if same else f"DIFFERS: exit {q.returncode} {q.stderr}"))
            ok = ok and same
    return ok


def main():
    icnsim, case = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        if case in ("mesh4", "torus4"):
            topo = case[:-1]
            ok = all([compare(icnsim, tmp, topo, rate, ["router.model=rtl"], "rtl") for rate in (0.15, 0.70)])
        elif case in ("mesh8", "torus8"):
            # transpose above both networks' transpose saturation (0.146, 0.128)
            ok = compare(icnsim, tmp, case[:-1], 0.19, ["router.model=rtl"], "rtl", 8, "transpose")
        elif case == "mixed":
            extra = ["router.model=rtl", "router.rtl_routers=[r1_2]"]
            ok = all([compare(icnsim, tmp, topo, 0.70, extra, "mixed") for topo in ("mesh", "torus")])
        elif case == "vcd":
            ok = vcd(icnsim, tmp)
        elif case == "collective":
            ok = collective(icnsim, tmp)
        elif case == "bad":
            ok = bad(icnsim, sys.argv[3:])
        elif case == "faults":
            ok = faults(icnsim, tmp, sys.argv[3:])
        else:
            print("unknown case " + case)
            return 2
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

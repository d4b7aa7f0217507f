#!/usr/bin/env python3
"""The wormhole router (rtl/wormhole_router/, docs/rtl_router.md "A second
router: wormhole, one VC") inside icnsim, one case per call:

  wormhole_router_test.py ICNSIM MODULE CASE

  zero_load  a 4x4 mesh of wormhole routers, every (source, destination) pair
             alone in the network, sizes 1..4 flits, with two link settings:
             each packet's head and tail leave on its destination's ejection
             link in the cycle its pipeline depth (3 cycles a router), its hop
             count and its length give; the C++ router with one VC (4 cycles a
             router) is run through the same arithmetic as a control
  load4      4x4 mesh, uniform and transpose traces beyond saturation
  load8      the same on an 8x8 mesh
  mixed      8x8 mesh, five wormhole routers among C++ routers (one VC)
  fairness   four inputs backlogged for one output: the matrix arbiter serves
             them in rotation (least recently granted)
  versus     8x8 mesh against the VC router twin (2 VCs): lower latency at low
             load (a shorter pipeline), lower saturation throughput (one VC)

The traffic is a trace this script writes (Bernoulli sources, its own
destinations), so it knows every packet's source, destination, length and
creation cycle without asking icnsim. Everything observed is read from the
run's waveform (--vcd): the NICs' injection and ejection links and every
router output link. Under load every packet of the trace must be injected,
reach the NIC its trace line names, whole (head first, tail last, its length
in flits), and no link may carry flits of two packets interleaved (one VC:
a packet holds a link from its head to its tail). Exit 0 on success, 1 on a
failure, 2 on bad arguments.
"""
import json
import math
import os
import random
import re
import subprocess
import sys
import tempfile
import zlib

SCENARIO = ("network: {{type: vc, topology: mesh, k: {k}, n: 2, link_latency: {L}, channel_latency: {C}}}\n"
            "router: {{vcs: {vcs}, buffer_depth: 4, credit_delay: {d}}}\n"
            "traffic: {{pattern: trace, trace_file: {trace}}}\n"
            "measure: {{cycles: {cycles}}}\nseed: 5\n")
DEPTH = 4
WORMHOLE_CYCLES = 3  # cycles a head spends in a wormhole router (its pipeline, docs/rtl_router.md)
CXX_CYCLES = 4       # ... in icnsim's C++ router with every stage delay 1 (docs/vc_router.md)


def read_buses(path):
    """Every flit bus of the waveform: name -> {cycle: (head, tail, packet)} for
    the cycles it carries a flit. Times are cycles x the time per cycle, which
    is the greatest common divisor of the time stamps; a value holds until it
    changes, so a bus keeps a flit for every cycle up to its next change."""
    fields, scope, codes = {}, [], {}
    changes = []  # (time, code, value)
    header, time = True, 0
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
                    m = re.fullmatch(r"(?:.*?\.icnsim\.)?(.*)\.flit\.(valid|head|tail|packet)",
                                     ".".join(scope + [parts[4]]))
                    if m:
                        fields.setdefault(m.group(1), {})[m.group(2)] = parts[3]
                        codes.setdefault(parts[3], []).append((m.group(1), m.group(2)))
                elif line.startswith("$enddefinitions"):
                    header = False
                continue
            if not line:
                continue
            if line[0] == "#":
                time = int(line[1:])
            elif line[0] == "b":
                v, code = line[1:].split()
                if code in codes:
                    changes.append((time, code, int(v, 2) if set(v) <= {"0", "1"} else 0))
            elif line[0] in "01xz" and line[1:] in codes:
                changes.append((time, line[1:], 1 if line[0] == "1" else 0))
    step = 0
    for t, _, _ in changes:
        step = math.gcd(step, t)
    step = step or 1
    state = {bus: {"valid": 0, "head": 0, "tail": 0, "packet": 0} for bus in fields}
    out = {bus: {} for bus in fields}
    last, i = {}, 0
    end = (changes[-1][0] // step + 1) if changes else 0

    def hold(bus, upto):
        # the bus's values since its last change, for every cycle before `upto`
        s, since = state[bus], last.get(bus, 0)
        if s["valid"]:
            for c in range(since, upto):
                out[bus][c] = (s["head"], s["tail"], s["packet"])

    while i < len(changes):
        t, group = changes[i][0], []
        while i < len(changes) and changes[i][0] == t:
            group += [(bus, f, changes[i][2]) for bus, f in codes[changes[i][1]]]
            i += 1
        cycle = t // step
        for bus in {bus for bus, _, _ in group}:
            hold(bus, cycle)
            last[bus] = cycle
        for bus, f, v in group:
            state[bus][f] = v
    for bus in fields:
        hold(bus, end + 1)
    return out


def write_trace(path, lines):
    with open(path, "w") as f:
        for c, s, d, z in lines:
            f.write(f"{c} {s} {d} {z}\n")


def run(icnsim, tmp, name, k, lines, cycles, extra, L=1, C=0, d=0, vcs=1):
    trace = os.path.join(tmp, name + ".trace")
    write_trace(trace, lines)
    scenario = os.path.join(tmp, name + ".yaml")
    with open(scenario, "w") as f:
        f.write(SCENARIO.format(k=k, L=L, C=C, d=d, vcs=vcs, trace=trace, cycles=cycles))
    vcd, js = os.path.join(tmp, name + ".vcd"), os.path.join(tmp, name + ".json")
    cmd = [icnsim, "run", scenario, "--vcd", vcd, "--json", js]
    for kv in extra:
        cmd += ["--set", kv]
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        print(f"{name}: icnsim exit {r.returncode}: {r.stderr.strip()[:400]}")
        return None
    buses = read_buses(vcd)
    os.remove(vcd)
    return buses


def packets(buses, lines, nodes):
    """Pairs each trace line with the packet id its source's NIC injected for
    it (a source injects its packets in creation order), and reads where and
    when each packet left the network: id -> {src, dst, cycle, size, eject
    (the NIC it reached), head, tail (cycles on the ejection link), flits}.
    Returns (table, problems)."""
    problems = []
    by_source = {s: [] for s in range(nodes)}
    for c, s, d, z in sorted(lines, key=lambda x: x[0]):
        by_source[s].append((c, d, z))
    table = {}
    for s in range(nodes):
        heads = [(c, p) for c, (h, _, p) in sorted(buses[f"nic{s}.inject"].items()) if h]
        if len(heads) != len(by_source[s]):
            problems.append(f"node {s} injected {len(heads)} packets, its trace has {len(by_source[s])}")
        for (inj, p), (c, d, z) in zip(heads, by_source[s]):
            table[p] = {"src": s, "dst": d, "cycle": c, "size": z, "injected": inj, "eject": None,
                        "head": None, "tail": None, "flits": 0}
    for n in range(nodes):
        for c, (h, t, p) in sorted(buses[f"nic{n}.eject"].items()):
            rec = table.get(p)
            if rec is None:
                problems.append(f"node {n} received packet {p}, which no NIC injected")
                continue
            if rec["eject"] not in (None, n):
                problems.append(f"packet {p} reached nodes {rec['eject']} and {n}")
            rec["eject"] = n
            rec["flits"] += 1
            if h:
                rec["head"] = c
            if t:
                rec["tail"] = c
    return table, problems


def interleaved(buses):
    """Links on which a packet's flits are interleaved with another's: with one
    VC a packet holds a link from its head to its tail."""
    bad = []
    for bus, flits in buses.items():
        holder = None
        for c, (h, t, p) in sorted(flits.items()):
            if h and holder is not None:
                bad.append(f"{bus}: head of {p} in cycle {c} while {holder} holds it")
            if not h and holder != p:
                bad.append(f"{bus}: flit of {p} in cycle {c} while {holder} holds it")
            holder = None if t else p
    return bad


def manhattan(s, d, k):
    return abs(s % k - d % k) + abs(s // k - d // k)


def zero_load(icnsim, module, tmp):
    """Every pair alone: tail on the ejection link in cycle
    c + 1 + L + D R + (R - 1) C + (P - 1) (head P - 1 earlier), R = hops + 1
    routers, D cycles a router; P <= Depth, so no credit ever waits."""
    k, nodes, gap = 4, 16, 64
    lines = []
    for i, (s, d) in enumerate((s, d) for s in range(nodes) for d in range(nodes)):
        lines.append((1 + gap * i, s, d, 1 + i % DEPTH))
    ok = True
    for L, C, d in ((1, 0, 0), (2, 3, 1)):
        chan = C or L
        for label, D, extra in (("wormhole", WORMHOLE_CYCLES, ["router.model=rtl", f"router.rtl={module}"]),
                                ("C++ control", CXX_CYCLES, [])):
            buses = run(icnsim, tmp, f"zero_{L}_{C}_{label[0]}", k, lines, gap * len(lines), extra, L, C, d)
            if buses is None:
                return False
            table, problems = packets(buses, lines, nodes)
            wrong = []
            for p, r in table.items():
                R = manhattan(r["src"], r["dst"], k) + 1
                tail = r["cycle"] + 1 + L + D * R + (R - 1) * chan + (r["size"] - 1)
                want = (tail - (r["size"] - 1), tail, r["dst"], r["size"])
                got = (r["head"], r["tail"], r["eject"], r["flits"])
                if got != want:
                    wrong.append(f"{r['src']}->{r['dst']} ({r['size']} flits): (head, tail, node, flits) {got}, "
                                 f"expected {want}")
            good = not problems and not wrong and len(table) == len(lines)
            print(f"zero load, L={L} C={chan} credit delay {d}, {label} ({D} cycles a router): {len(table)} packets "
                  + ("as computed" if good else f"WRONG ({len(problems) + len(wrong)}): "
                     + "; ".join((problems + wrong)[:4])))
            ok = ok and good
    return ok


def bernoulli(k, cycles, rate, pattern, seed, size=4):
    """Sources inject a packet of `size` flits with probability rate / size a cycle."""
    r, lines, nodes = random.Random(seed), [], k * k
    for c in range(1, cycles + 1):
        for s in range(nodes):
            if r.random() < rate / size:
                d = r.randrange(nodes) if pattern == "uniform" else (s % k) * k + s // k
                lines.append((c, s, d, size))
    return lines


def loaded(icnsim, module, tmp, k, cases, routers="all"):
    """Every packet delivered whole to its trace destination, no interleaving,
    and the load beyond saturation: during the injection window the network
    accepts clearly less than is offered."""
    ok, nodes = True, k * k
    extra = ["router.model=rtl", f"router.rtl={module}"] + ([] if routers == "all" else [f"router.rtl_routers={routers}"])
    for pattern, rate, cycles in cases:
        lines = bernoulli(k, cycles, rate, pattern, zlib.crc32(f"{k} {pattern} {rate}".encode()))
        name = f"{pattern}{k}_{rate}"
        buses = run(icnsim, tmp, name, k, lines, cycles, extra)
        if buses is None:
            return False
        table, problems = packets(buses, lines, nodes)
        for p, r in table.items():
            if r["eject"] != r["dst"] or r["flits"] != r["size"] or r["head"] is None or r["tail"] is None \
                    or r["tail"] - r["head"] < r["size"] - 1:
                problems.append(f"packet {p} {r['src']}->{r['dst']} ({r['size']} flits): reached node {r['eject']}, "
                                f"{r['flits']} flits, head {r['head']}, tail {r['tail']}")
        problems += interleaved(buses)
        offered = sum(z for _, _, _, z in lines) / (nodes * cycles)
        accepted = sum(1 for n in range(nodes) for c in buses[f"nic{n}.eject"] if c <= cycles) / (nodes * cycles)
        last = max(r["tail"] or 0 for r in table.values())
        good = not problems and len(table) == len(lines) and accepted < 0.9 * offered
        print(f"{k}x{k} {pattern} ({'every router' if routers == 'all' else routers}): {len(lines)} packets, offered "
              f"{offered:.3f} accepted {accepted:.3f} flits/node/cycle while injecting, last tail in cycle {last}: "
              + ("every packet whole at its destination" if good else f"WRONG ({len(problems)}): "
                 + "; ".join(problems[:4]) + ("" if accepted < 0.9 * offered else " (not beyond saturation)")))
        ok = ok and good
    return ok


def versus(icnsim, module, tmp):
    """Against the twin (2 VCs x 4 flits, four cycles a router), same trace:
    at low load the wormhole router's mean latency is lower (one cycle less
    per router, nothing else matters without contention); beyond saturation
    it accepts less (one VC: a blocked packet holds every link behind it;
    Dally, "Virtual-channel flow control", 1992)."""
    k, nodes, ok = 8, 64, True
    for rate, cycles, want in ((0.05, 800, "latency"), (0.45, 500, "throughput")):
        lines = bernoulli(k, cycles, rate, "uniform", 77)
        got = {}
        for label, vcs, extra in (("wormhole", 1, ["router.model=rtl", f"router.rtl={module}"]),
                                  ("twin", 2, ["router.model=rtl"])):
            buses = run(icnsim, tmp, f"versus_{rate}_{label}", k, lines, cycles, extra, vcs=vcs)
            if buses is None:
                return False
            table, problems = packets(buses, lines, nodes)
            done = [r for r in table.values() if r["tail"] is not None]
            latency = sum(r["tail"] - r["cycle"] for r in done) / max(1, len(done))
            accepted = sum(1 for n in range(nodes) for c in buses[f"nic{n}.eject"]
                           if cycles // 2 < c <= cycles) / (nodes * (cycles - cycles // 2))
            got[label] = (latency, accepted, problems or len(done) != len(lines))
        w, t = got["wormhole"], got["twin"]
        good = not w[2] and not t[2] and (w[0] < t[0] if want == "latency" else w[1] < t[1])
        print(f"8x8 uniform at {rate}: mean latency (to the tail on the ejection link) wormhole {w[0]:.1f}, twin "
              f"{t[0]:.1f}; accepted in the second half of injection wormhole {w[1]:.3f}, twin {t[1]:.3f} "
              f"flits/node/cycle: " + ("the wormhole router's " + want + " is lower, as predicted" if good
                                       else "NOT as predicted (or packets lost)"))
        ok = ok and good
    return ok


def fairness(icnsim, module, tmp):
    """The matrix arbiter is least recently granted. Nodes 5 (r1_1's own),
    6, 4 and 9 each send 12 packets of 4 flits, all created in cycle 1, to
    node 1: dimension order brings them into r1_1 on four different inputs
    (local, from x+, from x-, from y+), all wanting its y- output. At every
    arbitration the three that did not win last are waiting, and the least
    recently granted wins: the output serves the four in rotation, each once
    in every four packets, as long as all four have packets left. (A fixed
    priority serves one input while it has packets: after each packet the
    output waits for a credit, and by then the winner's next head asks.)"""
    k, nodes, senders = 4, 16, (5, 6, 4, 9)
    lines = [(1, s, 1, 4) for s in senders for _ in range(12)]
    buses = run(icnsim, tmp, "fairness", k, lines, 400, ["router.model=rtl", f"router.rtl={module}"])
    if buses is None:
        return False
    table, problems = packets(buses, lines, nodes)
    order = [table[p]["src"] for c, (h, _, p) in sorted(buses["r1_1.y-.out"].items()) if h and p in table]
    left = {s: 12 for s in senders}
    unfair = []
    for i, s in enumerate(order):
        if i >= len(senders) and min(left.values()) > 0 and len(set(order[i - len(senders) + 1:i + 1])) != len(senders):
            unfair.append(f"packets {i - len(senders) + 2}..{i + 1} on r1_1.y-.out came from {order[i - len(senders) + 1:i + 1]}")
        left[s] -= 1
    good = not problems and not unfair and len(order) == len(lines) and all(r["eject"] == 1 for r in table.values())
    print(f"r1_1's y- output, four inputs backlogged: sources in grant order {order[:16]}...: "
          + ("one from each of the four in every four packets" if good
             else "UNFAIR or lost: " + "; ".join((problems + unfair)[:3])))
    return good


def main():
    if len(sys.argv) != 4:
        print(__doc__)
        return 2
    icnsim, module, case = sys.argv[1:4]
    with tempfile.TemporaryDirectory() as tmp:
        if case == "zero_load":
            ok = zero_load(icnsim, module, tmp)
        elif case == "load4":
            ok = loaded(icnsim, module, tmp, 4, (("uniform", 0.8, 600), ("transpose", 0.6, 600)))
        elif case == "load8":
            ok = loaded(icnsim, module, tmp, 8, (("uniform", 0.6, 300), ("transpose", 0.4, 300)))
        elif case == "mixed":
            ok = loaded(icnsim, module, tmp, 8, (("uniform", 0.6, 300), ("transpose", 0.4, 300)),
                        "[r1_2, r2_1, r2_2, r5_5, r6_3]")
        elif case == "fairness":
            ok = fairness(icnsim, module, tmp)
        elif case == "versus":
            ok = versus(icnsim, module, tmp)
        else:
            print(f"unknown case {case}: zero_load, load4, load8, mixed, fairness or versus")
            return 2
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env bash
# icnsim as a library, as a user gets it (docs/library.md): installed into a
# clean prefix, and as the Debian package cpack builds (apt's install
# simulated, then unpacked, not installed: the test must not change the
# machine). From outside the
# source tree, the example builds with find_package(icnsim) and with
# pkg-config, and its results equal `icnsim run` on the same scenario and
# seed; the installed icnsim runs a sweep with its own copy of the script.
# Usage: install_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$(realpath "$1")
source=$(realpath "$2")
work=$(mktemp -d "${TMPDIR:-/tmp}/icnsim-install-XXXXXX")
trap 'rm -rf "$work"' EXIT
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
fail() { echo "install_test: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$work/prefix" >/dev/null
for f in bin/icnsim lib/cmake/icnsim/icnsimConfig.cmake lib/cmake/icnsim/icnsimConfigVersion.cmake \
         lib/pkgconfig/icnsim.pc include/icnsim/testbench/driver.hpp include/icnsim/models/config.hpp \
         share/icnsim/scenarios/mesh8x8_uniform.yaml share/icnsim/scripts/sweep share/doc/icnsim/README.md; do
  [ -e "$work/prefix/$f" ] || fail "the install lacks $f"
done

# Runs the example built in $1 (its binary $2) in a folder of its own and
# compares its results with the installed icnsim's on the scenario it wrote.
check_example() {
  local dir=$1 binary=$2
  (cd "$dir" && "$binary" >out.txt) || fail "the example built in $dir failed: $(cat "$dir/out.txt")"
  grep -q "^8x8 mesh: [0-9]* packets, mean latency " "$dir/out.txt" || fail "unexpected output: $(cat "$dir/out.txt")"
  "$work/prefix/bin/icnsim" run "$dir/mesh_in_your_sc_main.yaml" --quiet --json "$dir/icnsim.json" \
    || fail "icnsim run on the example's scenario failed"
  python3 - "$dir/mesh_in_your_sc_main.json" "$dir/icnsim.json" <<'PY' || fail "the example's results differ from icnsim run's ($dir)"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert a["result"]["latency"]["packet"]["count"] > 1000, a["result"]["latency"]["packet"]
assert a["result"] == b["result"], "result sections differ"
b["scenario"]["outputs"]["json"] = ""  # --json names icnsim's file; the example writes its own
diff = sorted(k for k in set(a["scenario"]) | set(b["scenario"]) if a["scenario"].get(k) != b["scenario"].get(k))
assert diff == [], "scenario sections differ in " + str(diff) + ": " + str([(a["scenario"].get(k), b["scenario"].get(k)) for k in diff])
PY
}

# CMake: find_package(icnsim) from a copy of the example outside the tree.
cp -r "$source/examples/mesh_in_your_sc_main" "$work/cmake_example"
cmake -S "$work/cmake_example" -B "$work/cmake_example/build" -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/cmake_example/build" >/dev/null
check_example "$work/cmake_example" "$work/cmake_example/build/mesh_in_your_sc_main"

# The user's own TLM cores around the platform network: the latencies they
# measure equal icnsim run's replay of their schedule (the trace they wrote).
# Built against $2 (a prefix or the unpacked package).
check_tlm() {
  local dir=$1 prefix=$2
  cp -r "$source/examples/tlm_traffic_on_a_mesh" "$dir"
  cmake -S "$dir" -B "$dir/build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
  cmake --build "$dir/build" >/dev/null
  (cd "$dir" && build/tlm_traffic_on_a_mesh 0.02 1500 >out.txt) || fail "the TLM example failed: $(cat "$dir/out.txt")"
  (cd "$dir" && "$work/prefix/bin/icnsim" run tlm_traffic.yaml --quiet --json icnsim.json) \
    || fail "icnsim run on the TLM example's trace failed"
  python3 - "$dir" <<'PY' || fail "the TLM cores' latencies differ from icnsim run's replay ($dir)"
import json, os, re, sys
d = sys.argv[1]
mine = json.load(open(os.path.join(d, "tlm_traffic.json")))
run = json.load(open(os.path.join(d, "icnsim.json")))["result"]
line = open(os.path.join(d, "out.txt")).read()
m = re.search(r"(\d+) messages: latency mean ([0-9.]+) min (\d+) max (\d+) cycles \(seen by the cores: mean ([0-9.]+)\)", line)
assert m, line
count, mean, lo, hi, seen = int(m[1]), float(m[2]), int(m[3]), int(m[4]), float(m[5])
packet = run["latency"]["packet"]
assert run["packets"]["measured"] == run["packets"]["created"] == count > 1000, (run["packets"], count)
assert (count, lo, hi) == (packet["count"], packet["min"], packet["max"]), (line, packet)
assert abs(mean - packet["mean"]) < 1e-3 and abs(seen - mean - 1) < 1e-3, (line, packet)
for k in ("count", "min", "max", "p50", "p99"):
    assert mine["latency"]["packet"][k] == packet[k], (k, mine["latency"]["packet"], packet)
    assert mine["latency"]["network"][k] == run["latency"]["network"][k], (k, mine["latency"]["network"])
assert mine["conservation"] == "ok" and mine["status"] == "completed", mine
PY
}
check_tlm "$work/tlm_example" "$work/prefix"

# Two cores of the example's own over an iBT, approximately timed both ways,
# built against $2 (a prefix or the unpacked package): the example checks
# each message against its DeliveryExtension; here every latency is the
# zero-load formula (docs/vc_router.md, all delays 1: 5 R + P + 1) over the
# routers R of the route worked out from coordinates below, each round trip
# is the two latencies plus the two clock edges, and icnsim run's replay of
# the trace it wrote gives the same latencies.
check_two_cores() {
  local dir=$1 prefix=$2
  cp -r "$source/examples/two_cores_over_ibt" "$dir"
  cmake -S "$dir" -B "$dir/build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
  cmake --build "$dir/build" >/dev/null
  (cd "$dir" && build/two_cores_over_ibt 12 >out.txt) || fail "the iBT example failed: $(cat "$dir/out.txt")"
  (cd "$dir" && "$work/prefix/bin/icnsim" run two_cores.yaml --quiet --json icnsim.json) \
    || fail "icnsim run on the iBT example's trace failed"
  python3 - "$dir" <<'PY' || fail "the iBT example's latencies or routes are wrong ($dir)"
import json, os, re, sys
d = sys.argv[1]
def routers(src, dst, k=8, n=2, b=(2,)):  # iBT(8^2; <2>): dimension order, greedy non-overshooting bypass
    c = [src // k**i % k for i in range(n)]; t = [dst // k**i % k for i in range(n)]; hops = 0
    for i in range(n):
        fw = (t[i] - c[i]) % k; plus = fw <= k - fw; left = fw if plus else k - fw
        while left > 0:
            cls = sum(c) % (n * len(b)); step = b[cls // n] if cls % n == i and b[cls // n] <= left else 1
            c[i] = (c[i] + (step if plus else -step)) % k; left -= step; hops += 1
    return hops + 1
rounds = re.findall(r"round (\d+): 0 -> 27 (\d+) cycles over (\d+) routers, 27 -> 0 (\d+) cycles over (\d+) routers, "
                    r"round trip (\d+) cycles", open(os.path.join(d, "out.txt")).read())
assert len(rounds) == 12, rounds
lat = []
for r, l1, h1, l2, h2, rtt in (map(int, x) for x in rounds):
    assert (h1, h2) == (routers(0, 27), routers(27, 0)), (r, h1, h2)
    assert l1 == 5 * h1 + (1 + r % 4) + 1 and l2 == 5 * h2 + 4 + 1, (r, l1, l2)
    assert rtt == l1 + l2 + 2, (r, rtt)
    lat += [l1, l2]
mine = json.load(open(os.path.join(d, "two_cores.json")))
run = json.load(open(os.path.join(d, "icnsim.json")))["result"]
assert mine["status"] == "completed" and mine["conservation"] == "ok" and mine["messages"]["delivered"] == 24, mine
packet = run["latency"]["packet"]
assert run["packets"]["measured"] == 24 and packet["count"] == 24, run["packets"]
assert (min(lat), max(lat)) == (packet["min"], packet["max"]) and abs(sum(lat) / 24 - packet["mean"]) < 1e-9, packet
for k in ("count", "min", "max", "p50", "p99"):
    assert mine["latency"]["packet"][k] == packet[k], (k, mine["latency"]["packet"], packet)
PY
}
check_two_cores "$work/ibt_example" "$work/prefix"

# A Verilog block of the example's own, verilated by its CMake, drives the
# network: what it sent is what an independent model of its LFSR offers, and
# its latencies are icnsim run's on the schedule.
check_verilog() {
  local dir=$1 prefix=$2
  cp -r "$source/examples/verilog_traffic_source" "$dir"
  cmake -S "$dir" -B "$dir/build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
  cmake --build "$dir/build" >/dev/null
  (cd "$dir" && build/verilog_traffic_source 1200 >out.txt) || fail "the Verilog example failed: $(cat "$dir/out.txt")"
  (cd "$dir" && "$work/prefix/bin/icnsim" run verilog_traffic.yaml --quiet --json icnsim.json) \
    || fail "icnsim run on the Verilog example's trace failed"
  python3 - "$dir" 1200 <<'PY' || fail "the Verilog example's traffic or latencies are wrong ($dir)"
import json, os, sys
d, cycles = sys.argv[1], int(sys.argv[2])
want = set()
for n in range(64):  # traffic_lfsr.sv, modelled here: Galois LFSR, taps 0xB400, seed per node
    s = (0xACE1 + 977 * n) & 0xFFFF
    for k in range(cycles):  # the state the adapter samples after rising edge k, created in cycle k + 1
        dst = (s >> 4) & 63
        if s & 15 == 0 and dst != n:
            want.add((k + 1, n, dst, 4 if s >> 10 & 1 else 1))
        s = (s >> 1) ^ 0xB400 if s & 1 else s >> 1
got = [tuple(int(x) for x in l.split()) for l in open(os.path.join(d, "verilog_traffic.trace"))]
assert len(got) == len(set(got)) and set(got) == want, (len(got), len(want), sorted(set(got) ^ want)[:5])
mine = json.load(open(os.path.join(d, "verilog_traffic.json")))
packet = json.load(open(os.path.join(d, "icnsim.json")))["result"]["latency"]["packet"]
assert mine["latency"]["packet"] == {k: packet[k] for k in mine["latency"]["packet"]}, (mine, packet)
assert mine["messages"]["delivered"] == len(want) > 1000 and mine["conservation"] == "ok", mine
PY
}
check_verilog "$work/verilog_example" "$work/prefix"

# pkg-config, as a Makefile would use it.
mkdir "$work/pc_example"
flags=$(PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig" pkg-config --cflags --libs icnsim)
c++ -std=c++17 -O1 "$source/examples/mesh_in_your_sc_main/main.cpp" -o "$work/pc_example/mesh" $flags
check_example "$work/pc_example" "$work/pc_example/mesh"

# The installed icnsim's sweep, with the script installed beside it.
cat >"$work/sweep.yaml" <<YAML
base: $work/prefix/share/icnsim/scenarios/mesh8x8_uniform.yaml
axes:
  traffic.injection_rate: [0.05, 0.1]
set: {network.k: 4, measure.cycles: 300}
YAML
env -u ICNSIM_SWEEP_SCRIPT "$work/prefix/bin/icnsim" sweep "$work/sweep.yaml" --out "$work/sweep" --jobs 2 >/dev/null \
  || fail "icnsim sweep from the installed prefix failed"
[ "$(wc -l <"$work/sweep/results.csv")" -eq 3 ] || fail "the sweep's table has not two rows"

# router.model=rtl from the prefix: the installed icnsim finds the installed
# VC router twin (lib/icnsim/) and its run is the C++ router's, packet for
# packet on this small case (same JSON but the stage split, the scenario's
# keys and the allocators' activity). Only when the build made the twin.
if [ -e "$build/rtl/icnsim_vc_router_twin.so" ]; then
  [ -e "$work/prefix/include/icnsim/rtl/bridge/icnsim_rtl_router.h" ] || fail "the install lacks the RTL router entry point"
  [ -e "$work/prefix/lib/icnsim/icnsim_vc_router_twin.so" ] || fail "the install lacks the VC router twin module"
  for m in cpp rtl; do
    (cd "$work" && "$work/prefix/bin/icnsim" run "$work/prefix/share/icnsim/scenarios/mesh8x8_uniform.yaml" \
       --set network.k=4 --set measure.cycles=300 --set router.model=$m --quiet --json "rtl_$m.json") \
      || fail "the installed icnsim failed with router.model=$m"
  done
  python3 - "$work/rtl_cpp.json" "$work/rtl_rtl.json" <<'PY' || fail "router.model=rtl from the prefix differs from the C++ router"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
assert b["scenario"]["router"]["model"] == "rtl" and "/lib/icnsim/" in b["scenario"]["router"]["rtl"], b["scenario"]["router"]
for j in (a, b):
    del j["result"]["latency"]["stages"], j["result"]["energy"]
assert a["result"] == b["result"] and a["result"]["verified"], (a["result"], b["result"])
PY
  # A router made into a module with the prefix alone (docs/rtl_router.md):
  # the installed script, wrapper and headers turn the installed twin sources
  # into a module that runs as the C++ router does.
  twin=("$work"/prefix/share/icnsim/rtl/vc_router/vc_*.sv)
  [ ${#twin[@]} -ge 9 ] || fail "the install lacks the twin's sources: ${twin[*]}"
  (cd "$work" && "$work/prefix/share/icnsim/scripts/rtl_router_module" "${twin[@]}" --top vc_router \
     -o "$work/my_router.so" >/dev/null) || fail "rtl_router_module from the prefix failed"
  (cd "$work" && "$work/prefix/bin/icnsim" run "$work/prefix/share/icnsim/scenarios/mesh8x8_uniform.yaml" \
     --set network.k=4 --set measure.cycles=300 --set router.model=rtl --set router.rtl="$work/my_router.so" \
     --quiet --json rtl_mine.json) || fail "the installed icnsim failed with the module made from the prefix"
  python3 - "$work/rtl_rtl.json" "$work/rtl_mine.json" <<'PY' || fail "the module made from the prefix differs from the installed twin"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
assert a["result"] == b["result"] and b["result"]["verified"], (a["result"], b["result"])
PY
fi

# The Debian package: its dependencies, and the example against its files.
(cd "$build" && cpack -B "$work/deb" >/dev/null) || fail "cpack failed"
deb=$(ls "$work"/deb/icnsim_*.deb)
depends=$(dpkg-deb -f "$deb" Depends)
for p in libsystemc-dev libyaml-cpp-dev nlohmann-json3-dev zlib1g-dev pkg-config; do
  [[ "$depends" == *"$p"* ]] || fail "the package does not depend on $p: $depends"
done
# What `apt install ./icnsim_*.deb` would do on this machine, simulated (no
# root, nothing changed): its dependencies resolve and it installs.
apt_plan=$(apt-get install --simulate "$deb" 2>&1) || fail "apt cannot install the package: $apt_plan"
grep -q '^Inst icnsim ' <<<"$apt_plan" || fail "apt would not install icnsim: $apt_plan"
dpkg-deb -x "$deb" "$work/root"
[ -x "$work/root/usr/bin/icnsim" ] || fail "the package has no /usr/bin/icnsim"
cp -r "$source/examples/mesh_in_your_sc_main" "$work/deb_example"
cmake -S "$work/deb_example" -B "$work/deb_example/build" -DCMAKE_PREFIX_PATH="$work/root/usr" >/dev/null
cmake --build "$work/deb_example/build" >/dev/null
check_example "$work/deb_example" "$work/deb_example/build/mesh_in_your_sc_main"
check_two_cores "$work/deb_ibt_example" "$work/root/usr"
check_tlm "$work/deb_tlm_example" "$work/root/usr"
check_verilog "$work/deb_verilog_example" "$work/root/usr"
echo "install_test: the prefix, pkg-config, the sweep, the iBT cores and the Debian package all work"

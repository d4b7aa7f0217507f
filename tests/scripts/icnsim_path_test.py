#!/usr/bin/env python3
"""scripts/icnsim_path.py: which icnsim a script runs. --icnsim, then --build,
then $ICNSIM, then the tree's build if built, then the icnsim on the PATH
(an installed one), else the tree's path (reported missing by the script)."""
import argparse
import os
import stat
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
import icnsim_path  # noqa: E402

failures = []


def check(got, want, what):
    if got != want:
        failures.append(f"{what}: got {got!r}, want {want!r}")


def parse(argv):
    ap = argparse.ArgumentParser()
    icnsim_path.add_arguments(ap)
    return ap.parse_args(argv)


with tempfile.TemporaryDirectory() as d:
    built = os.path.join(d, "build", "testbench", "icnsim")
    on_path = os.path.join(d, "bin", "icnsim")
    for f in (built, on_path):
        os.makedirs(os.path.dirname(f))
        with open(f, "w") as out:
            out.write("#!/bin/sh\n")
        os.chmod(f, stat.S_IRWXU)
    os.environ.pop("ICNSIM", None)
    os.environ["PATH"] = os.path.join(d, "bin") + os.pathsep + os.environ.get("PATH", "")
    icnsim_path.BUILT = built
    check(icnsim_path.resolve(parse(["--icnsim", "/x/icnsim", "--build", "/b"])), "/x/icnsim", "--icnsim first")
    check(icnsim_path.resolve(parse(["--build", "/b"])), "/b/testbench/icnsim", "--build next")
    os.environ["ICNSIM"] = "/env/icnsim"
    check(icnsim_path.resolve(parse([])), "/env/icnsim", "$ICNSIM next")
    del os.environ["ICNSIM"]
    check(icnsim_path.resolve(parse([])), built, "the tree's build if built")
    icnsim_path.BUILT = os.path.join(d, "nowhere", "icnsim")
    check(icnsim_path.resolve(parse([])), on_path, "else the icnsim on the PATH")
    os.environ["PATH"] = os.path.join(d, "empty")
    check(icnsim_path.resolve(parse([])), icnsim_path.BUILT, "else the tree's path, for the script to report")

for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)

#!/usr/bin/env python3
"""Issue 19's size targets, kept: no family experiment file in testbench/ over
400 lines, no function in testbench/ over 80 lines.

A function is found by its definition line (a signature ending in '{', or a
constructor's initialiser list) at namespace or class-member indentation; its
length runs to the matching closing brace. Exit 0 when every target holds, 1
with one line per breach otherwise.
"""
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MAX_FILE = 400
MAX_FUNCTION = 80

SIGNATURE = re.compile(r"^( {0,4})[A-Za-z~][^;]*\)\s*(const)?\s*(noexcept)?\s*(override)?\s*(->\s*[\w:<>]+)?\s*\{\s*(//.*)?$")
CTOR = re.compile(r"^( {0,4})[A-Za-z~][\w:<>~]*\([^;]*\)?\s*$")  # a signature continued on the next lines
NOT_FUNCTION = re.compile(r"^\s*(if|for|while|switch|else|return|namespace|class|struct|enum|union|case|do)\b|=\s*\[|^\s*[\w:<>, ]+\s+k[A-Z]\w*\{")


def functions(lines):
    """(first line, length, text) of each function definition."""
    i = 0
    while i < len(lines):
        line = lines[i]
        start = i
        if NOT_FUNCTION.search(line) or not (SIGNATURE.match(line) or CTOR.match(line)):
            i += 1
            continue
        # Find the opening brace of the body (a constructor's initialisers may come first).
        j = i
        while j < len(lines) and "{" not in lines[j] and ";" not in lines[j] and j - i < 30:
            j += 1
        if j >= len(lines) or ";" in lines[j].split("{")[0]:
            i += 1
            continue
        depth = 0
        k = j
        opened = False
        while k < len(lines):
            depth += lines[k].count("{") - lines[k].count("}")
            opened = opened or "{" in lines[k]
            if opened and depth <= 0:
                break
            k += 1
        yield start + 1, k - start + 1, line.strip()
        i = k + 1


def main():
    breaches = []
    for path in sorted(glob.glob(os.path.join(ROOT, "testbench", "*.cpp")) + glob.glob(os.path.join(ROOT, "testbench", "*.hpp"))):
        rel = os.path.relpath(path, ROOT)
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        if rel.endswith("_experiment.cpp") and len(lines) - 1 > MAX_FILE:
            breaches.append(f"{rel}: {len(lines) - 1} lines (a family experiment file: at most {MAX_FILE})")
        for first, length, text in functions(lines):
            if length > MAX_FUNCTION:
                breaches.append(f"{rel}:{first}: a function of {length} lines (at most {MAX_FUNCTION}): {text[:70]}")
    for b in breaches:
        print(b)
    if breaches:
        print(f"sizes: {len(breaches)} breach(es)")
        return 1
    print("sizes: every family experiment file <= 400 lines, every function <= 80 lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""docs/architecture.md and docs/adding_a_family.md are checked against the code
(issue 19): every network type `icnsim list` shows has a column in the family
table of docs/architecture.md (and every column names a registered type), and
every repository path the two pages name exists.

  family_docs_test.py ICNSIM SOURCE_DIR

A path is a word that starts with one of the tree's top folders (models/,
routers/, testbench/, ...). `<family>`-style placeholders match any name,
`{hpp,cpp}` stands for each alternative, `.*` for any extension, and a path
without an extension names a folder or a file with any extension. Markdown
links to other pages are checked relative to docs/. Exit 0 when the pages are
current, 1 with one line per stale entry.
"""
import glob
import os
import re
import subprocess
import sys

DOCS = ("docs/architecture.md", "docs/adding_a_family.md")
TOP = ("models", "nics", "routers", "testbench", "tests", "scripts", "docs", "rtl")
# The line above the family table in docs/architecture.md.
TABLE_MARK = "<!-- family table"
PATH = re.compile(r"(?<![\w./<>*{}-])((?:%s)/[\w./*{},<>-]*)" % "|".join(TOP))
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def registered_types(icnsim):
    out = subprocess.run([icnsim, "list"], capture_output=True, text=True, check=True).stdout
    types = re.findall(r"^network\.type=([a-z0-9_]+):", out, re.M)
    if not types:
        sys.exit("icnsim list shows no network.type: cannot check the docs")
    return types


def family_table_types(text):
    """The network types named in the header row of the family table."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith(TABLE_MARK):
            header = next((l for l in lines[i + 1:] if l.strip()), "")
            if not header.startswith("|"):
                return None
            cells = [c.strip() for c in header.strip().strip("|").split("|")][1:]
            return {t for c in cells for t in re.split(r"[\s,/`]+", c) if t}
    return None


def expand(path):
    """The glob patterns a path of the docs stands for."""
    path = re.sub(r"<[^<>/]+>", "*", path)
    m = re.search(r"\{([^{}]*)\}", path)
    if m:
        return [p for alt in m.group(1).split(",") for p in expand(path[:m.start()] + alt + path[m.end():])]
    return [path]


def exists(source, pattern):
    pattern = pattern.rstrip("/")
    if glob.glob(os.path.join(source, pattern)):
        return True
    # models/engine: a folder (checked above) or a file with any extension.
    if "." not in os.path.basename(pattern):
        return bool(glob.glob(os.path.join(source, pattern + ".*")))
    return False


def main():
    icnsim, source = sys.argv[1], sys.argv[2]
    problems = []
    types = registered_types(icnsim)
    for doc in DOCS:
        with open(os.path.join(source, doc), encoding="utf-8") as f:
            text = f.read()
        for n, line in enumerate(text.splitlines(), 1):
            for m in PATH.finditer(line):
                path = m.group(1).rstrip(".,:;")
                if path.endswith("/*") or not path.strip("/"):
                    path = path[:-2]
                missing = [p for p in expand(path) if not exists(source, p)]
                if missing:
                    problems.append("%s:%d: %s does not exist" % (doc, n, path))
            for m in LINK.finditer(line):
                target = m.group(1)
                if "://" in target:
                    continue
                if not os.path.exists(os.path.join(source, os.path.dirname(doc), target)):
                    problems.append("%s:%d: link to %s: no such file" % (doc, n, target))
    with open(os.path.join(source, "docs/architecture.md"), encoding="utf-8") as f:
        columns = family_table_types(f.read())
    if columns is None:
        problems.append("docs/architecture.md: no family table (a Markdown table below a line starting %r)" % TABLE_MARK)
    else:
        for t in types:
            if t not in columns:
                problems.append("docs/architecture.md: network.type=%s (icnsim list) has no column in the family table" % t)
        for c in sorted(columns - set(types)):
            problems.append("docs/architecture.md: the family table names %s, which icnsim list does not show" % c)
    for p in problems:
        print(p)
    if problems:
        print("%d stale entries in %s" % (len(problems), " and ".join(DOCS)))
        return 1
    print("%d network types and every path named in %s: current" % (len(types), " and ".join(DOCS)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""A static libtco.a puts nothing outside the tco_ namespace.

Every global symbol defined by the library's objects must start with
"tco_": the public ones (named in lib/libtco.map) with "tco_", every
internal one with "tco__", so that a program linking libtco.a statically
never meets a name such as param_check of ours beside its own
(doc/architecture.md, "Internal names"). Reads the archive with nm.
Usage: check_static.py --nm NM --map libtco.map ARCHIVE
"""
import argparse
import re
import subprocess
import sys


def map_symbols(path):
    text = re.sub(r"/\*.*?\*/", "", open(path).read(), flags=re.S)
    return set(re.findall(r"^\s*(tco_\w+);", text, flags=re.M))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nm", required=True)
    ap.add_argument("--map", required=True)
    ap.add_argument("archive")
    a = ap.parse_args()
    out = subprocess.run([a.nm, "-g", "--defined-only", a.archive], check=True,
                         capture_output=True, text=True).stdout
    defined = {f[2] for f in (line.split() for line in out.splitlines()) if len(f) == 3}
    public = map_symbols(a.map)
    bad = sorted(s for s in defined if not s.startswith("tco_"))
    stray = sorted(s for s in defined - public if s.startswith("tco_") and not s.startswith("tco__"))
    missing = sorted(public - defined)
    for s in bad:
        print(f"{s}: a global symbol outside the tco_ namespace (make it static or name it tco__...)")
    for s in stray:
        print(f"{s}: a tco_ symbol not in {a.map} (internal names start with tco__)")
    for s in missing:
        print(f"{s}: in {a.map} but not defined by the archive")
    if bad or stray or missing:
        return 1
    print(f"{len(defined)} global symbols: {len(public)} public (tco_), {len(defined) - len(public)} internal (tco__)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

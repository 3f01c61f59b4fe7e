#!/usr/bin/env python3
"""Mutation testing of the library: would today's tests catch a wrong formula?

Each mutant is one small change to one line of lib/ (a comparison flipped
or loosened, && for ||, + for -, * for /, a constant 10% off, a check that
returns early dropped). The library is rebuilt with it, in a copy of the
source tree so the checkout is never touched, and the C tests and the
command's tests are run until one fails. A mutant no test catches survives;
one that does not compile is left out. The score is killed / (killed +
survived), over the mutants not listed in tests/mutation/equivalent.txt
(those that cannot change any result, each with its reason).

    tests/mutation/mutate.py --sample 40 --seed 1     # what CI runs
    tests/mutation/mutate.py --files lib/sched        # one room, every mutant
    tests/mutation/mutate.py --list                   # the mutants, not run
    tests/mutation/mutate.py --sanitize --files lib/waste   # under ASan + UBSan
    tests/mutation/mutate.py --mutant lib/waste/waste.c:448:23:lt-to-le   # one, as --list names it

With --sanitize the library and the tests are built with AddressSanitizer
and UndefinedBehaviorSanitizer (float checks too, as CI's sanitizer
section) and any report fails the test: a mutant that reads or writes one
past an array, or overflows, is killed even when the numbers it prints
are right. A mutant then takes a few times longer to build and test.
"""
import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EQUIVALENT = os.path.join(ROOT, "tests", "mutation", "equivalent.txt")
# Under --sanitize, any report ends the test with a failing status; leaks
# are reported as in CI's sanitizer section.
SANITIZE_ENV = {"ASAN_OPTIONS": "halt_on_error=1:abort_on_error=1:detect_leaks=1",
                "UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=1"}
SANITIZE_SETUP = ["-Db_sanitize=address,undefined", "-Db_lundef=false",
                  "-Dc_args=-fsanitize=float-cast-overflow,float-divide-by-zero"]
# The command's allocation-failure loop, the install, the ABI and embedding
# checks take minutes and cannot see a formula: left out.
SKIP_TESTS = {"tco-nomem", "installed", "cmake-package", "subproject", "exports", "abi", "static-exports",
              "header_c99", "header_cxx"}

# (name, pattern, replacement). Comparisons are matched whole, so "<" is
# never the start of "<<" or "<=", nor the end of "->".
OPERATORS = [
    ("le-to-lt", r"<=", "<"),
    ("ge-to-gt", r">=", ">"),
    ("lt-to-le", r"(?<![<\-])<(?![<=])", "<="),
    ("gt-to-ge", r"(?<![>\-])>(?![>=])", ">="),
    ("eq-to-ne", r"==", "!="),
    ("ne-to-eq", r"!=", "=="),
    ("and-to-or", r"&&", "||"),
    ("or-to-and", r"\|\|", "&&"),
    ("add-to-sub", r"(?<=\w|\)|\]) \+ (?=[\w(])", " - "),
    ("sub-to-add", r"(?<=\w|\)|\]) - (?=[\w(])", " + "),
    ("mul-to-div", r"(?<=\w|\)|\]) \* (?=[\w(])", " / "),
    ("div-to-mul", r"(?<=\w|\)|\]) / (?=[\w(])", " * "),
]
REAL = re.compile(r"(?<![\w.])(\d+\.\d*(?:[eE][-+]?\d+)?|\d+[eE][-+]?\d+)(?![\w.])")
CHECK = re.compile(r"\bif \(")


def code_mask(text):
    """For each character, whether it is code: not a comment, a string, a
    character literal or a preprocessor line."""
    mask = bytearray(len(text))
    i, n, line_start = 0, len(text), True
    while i < n:
        c = text[i]
        if line_start and text[i:].lstrip(" \t").startswith("#"):
            while i < n and (text[i] != "\n" or text[i - 1] == "\\"):
                i += 1
            continue
        line_start = c == "\n" or (line_start and c in " \t")
        if text.startswith("/*", i):
            i = text.find("*/", i + 2) + 2
        elif text.startswith("//", i):
            i = text.find("\n", i)
        elif c in "\"'":
            j = i + 1
            while text[j] != c:
                j += 2 if text[j] == "\\" else 1
            i = j + 1
        else:
            mask[i] = 1
            i += 1
    return mask


def matching_paren(text, i):
    depth = 0
    for j in range(i, len(text)):
        depth += {"(": 1, ")": -1}.get(text[j], 0)
        if depth == 0:
            return j
    return -1


def mutants_of(path):
    """Every mutant of one source file: (path, line, op, start, end, new, column)."""
    text = open(os.path.join(ROOT, path)).read()
    mask = code_mask(text)
    found = []

    def add(op, start, end, new):
        if all(mask[start:end]):
            line = text.count("\n", 0, start) + 1
            col = start - text.rfind("\n", 0, start)
            found.append((path, line, op, start, end, new, col))

    for op, pattern, new in OPERATORS:
        for m in re.finditer(pattern, text):
            add(op, m.start(), m.end(), new)
    for m in REAL.finditer(text):
        add("real-off", m.start(), m.end(), repr(float(m.group(1)) * 1.1))
    for m in CHECK.finditer(text):
        close = matching_paren(text, m.end() - 1)
        after = text[close + 1:close + 40].lstrip()
        if close > 0 and after.startswith(("return", "goto")) and "\n" not in text[m.end():close]:
            add("drop-check", m.end(), close, "0")
    return sorted(set(found), key=lambda x: (x[3], x[2]))


def keys_of(text_lines, mutants):
    """The mutants' names in equivalent.txt: they survive edits elsewhere.
    The same change to the same text on another line of the file is named
    with " #2", " #3" after it, so that one name never covers two mutants."""
    names, seen = {}, {}
    for m in sorted(mutants, key=lambda m: (m[0], m[3], m[2])):
        path, line, op, col = m[0], m[1], m[2], m[6]
        name = f"{path}|{op}@{col}|{text_lines[path][line - 1].strip()}"
        seen[name] = seen.get(name, 0) + 1
        names[m] = name if seen[name] == 1 else f"{name} #{seen[name]}"
    return names


def load_equivalent():
    if not os.path.exists(EQUIVALENT):
        return set()
    with open(EQUIVALENT) as f:
        return {ln.split("  # ")[0].strip() for ln in f if ln.strip() and not ln.startswith("#")}


def tests_of(build):
    out = subprocess.run(["meson", "introspect", build, "--tests"], capture_output=True, text=True, check=True)
    return [t for t in json.loads(out.stdout) if t["name"] not in SKIP_TESTS and "libtco:embed" not in t["suite"]]


def run_test(t, build, timeout, sanitize=False):
    """True if the test passes, False if it fails, None if it ran past timeout."""
    env = dict(os.environ, **(SANITIZE_ENV if sanitize else {}), **t.get("env", {}))
    try:  # as meson test runs it: in the build folder unless told
        r = subprocess.run(t["cmd"], cwd=t.get("workdir") or build, env=env, capture_output=True, timeout=timeout)
        return r.returncode == 0
    except subprocess.TimeoutExpired:
        return None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--files", nargs="*", default=["lib"], help="sources or folders under the root (default lib)")
    ap.add_argument("--sample", type=int, default=0, help="run this many mutants drawn at random (0: all)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--list", action="store_true", help="list the mutants and stop")
    ap.add_argument("--mutant", nargs="*", default=[], metavar="PATH:LINE:COL:OP",
                    help="run only these mutants, named as --list prints them (the files come from the names)")
    ap.add_argument("--sanitize", action="store_true",
                    help="build with AddressSanitizer and UndefinedBehaviorSanitizer; any report kills the mutant")
    ap.add_argument("--min-score", type=float, default=0, help="fail below this score, in percent")
    args = ap.parse_args()

    picked = {m.replace(": ", ":") for m in args.mutant}
    if picked:
        args.files = sorted({m.split(":")[0] for m in picked})
    sources = []
    for f in args.files:
        full = os.path.join(ROOT, f)
        if not os.path.exists(full):  # a usage error, as argparse's own (exit 2)
            named = [m for m in sorted(picked) if m.split(":")[0] == f]
            ap.error(f"no such file or folder: {f!r}" + (f" (in --mutant {named[0]!r})" if named else ""))
        if os.path.isdir(full):
            for d, _, names in sorted(os.walk(full)):
                sources += [os.path.relpath(os.path.join(d, n), ROOT) for n in sorted(names) if n.endswith((".c", ".h"))]
        else:
            sources.append(f)
    lines = {p: open(os.path.join(ROOT, p)).read().split("\n") for p in sources}
    equivalent = load_equivalent()
    every = [m for p in sources for m in mutants_of(p)]
    key = keys_of(lines, every)
    mutants = [m for m in every if key[m] not in equivalent]
    if picked:
        mutants = [m for m in mutants if f"{m[0]}:{m[1]}:{m[6]}:{m[2]}" in picked]
        unknown = picked - {f"{m[0]}:{m[1]}:{m[6]}:{m[2]}" for m in mutants}
        if unknown:
            sys.exit(f"mutation: no such mutant (or listed as equivalent): {', '.join(sorted(unknown))}")
    if args.sample:
        mutants = sorted(random.Random(args.seed).sample(mutants, min(args.sample, len(mutants))),
                         key=lambda m: (m[0], m[3]))
    if args.list:
        for m in mutants:
            print(f"{m[0]}:{m[1]}:{m[6]}: {m[2]}: {lines[m[0]][m[1] - 1].strip()}")
        print(f"{len(mutants)} mutants")
        return 0

    work = tempfile.mkdtemp(prefix="tco-mutation-")
    try:
        return run(args, mutants, lines, key, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def run(args, mutants, lines, key, work):
    src, build = os.path.join(work, "src"), os.path.join(work, "build")
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for rel in tracked.decode().split("\0"):
        if rel and os.path.isfile(os.path.join(ROOT, rel)):
            os.makedirs(os.path.dirname(os.path.join(src, rel)), exist_ok=True)
            shutil.copy2(os.path.join(ROOT, rel), os.path.join(src, rel))
    # without link-time optimisation: each mutant relinks the library, and
    # LTO would make that most of its time
    subprocess.run(["meson", "setup", build, src, "-Dbuildtype=debugoptimized", "-Dlto=false"]
                   + (SANITIZE_SETUP if args.sanitize else []), check=True,
                   stdout=subprocess.DEVNULL)
    subprocess.run(["ninja", "-C", build], check=True, stdout=subprocess.DEVNULL)
    tests = tests_of(build)
    kills = {t["name"]: 0 for t in tests}
    for t in tests:  # every test passes unmutated, and its time bounds a mutant's
        start = time.monotonic()
        # the unmutated run gets the slack meson's --timeout-multiplier
        # would: a sanitized build on a loaded machine is several times slower
        limit = t.get("timeout", 30) * (5 if args.sanitize else 2)
        ok = run_test(t, build, limit, args.sanitize)
        if ok is None:
            sys.exit(f"mutation: the test {t['name']} takes more than {limit} s without any mutant "
                     "(a loaded machine?): run it again when the machine is quieter")
        if not ok:
            sys.exit(f"mutation: the test {t['name']} fails without any mutant: fix it first")
        t["limit"] = max(10.0, 5 * (time.monotonic() - start))

    killed, survived, invalid = 0, [], 0
    began = time.monotonic()
    for i, m in enumerate(mutants, 1):
        path, line, op, start, end, new, col = m
        target = os.path.join(src, path)
        original = open(target).read()
        with open(target, "w") as f:
            f.write(original[:start] + new + original[end:])
        try:
            built = subprocess.run(["ninja", "-C", build], capture_output=True, timeout=600).returncode == 0
            if not built:
                invalid += 1
                verdict = "does not compile"
            else:
                # the tests that caught most mutants first: a mutant dies fast
                by = next((t["name"] for t in sorted(tests, key=lambda t: -kills[t["name"]])
                           if not run_test(t, build, t["limit"], args.sanitize)), None)
                if by:
                    killed += 1
                    kills[by] += 1
                    verdict = f"killed by {by}"
                else:
                    survived.append(m)
                    verdict = "SURVIVED"
        finally:
            with open(target, "w") as f:
                f.write(original)
        print(f"[{i}/{len(mutants)}] {path}:{line}:{col}: {op}: {verdict}", flush=True)

    judged = killed + len(survived)
    score = 100.0 * killed / judged if judged else 100.0
    took = time.monotonic() - began
    print(f"\nmutants: {len(mutants)}; killed {killed}, survived {len(survived)}, did not compile {invalid}"
          f" ({took:.0f} s, {took / max(len(mutants), 1):.1f} s a mutant)")
    for m in survived:
        print(f"  survived: {m[0]}:{m[1]}:{m[6]}: {m[2]} (to {m[5]!r}): {lines[m[0]][m[1] - 1].strip()}")
        print(f"    if it cannot change a result, list it in tests/mutation/equivalent.txt as: {key[m]}  # why")
    print(f"mutation score: {score:.1f}% of {judged} mutants that compile"
          + (f" (a sample of {args.sample}, seed {args.seed})" if args.sample else "")
          + (" under the sanitizers" if args.sanitize else ""))
    return 1 if score < args.min_score else 0


if __name__ == "__main__":
    sys.exit(main())

"""Out of memory in the tco command: with the N-th allocation of a run
failing, for every N the run reaches (tests/cmd/failalloc.c, preloaded),
the command never crashes, and either succeeds as it would have (an
allocation it could do without) or fails saying memory ran out, with
exit 1 or 3: never a misleading message such as "not valid JSON", and
never a half-written file.

    test_nomem.py TCO FAILALLOC GOLDEN_DIR MONTH_DIR
"""
import os
import subprocess
import sys
import tempfile

TCO, SHIM, GOLDEN, MONTH = (os.path.abspath(a) for a in sys.argv[1:5])


def run(args, n, cwd):
    env = dict(os.environ, LD_PRELOAD=SHIM, TCO_FAIL_ALLOC=str(n))
    return subprocess.run([TCO, *args], capture_output=True, timeout=60, env=env, cwd=cwd, stdin=subprocess.DEVNULL)


def main():
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.json")
        scenario = os.path.join(GOLDEN, "moe.json")
        month = [os.path.join(MONTH, "month.csv"), os.path.join(MONTH, "cluster.json")]
        cases = [["report", scenario, "--format", "json", "--force", "-o", out],
                 ["compare", scenario, os.path.join(GOLDEN, "default.cbor"), "--format", "json"],
                 ["attribute", *month, "--by", "team", "--format", "json"],
                 ["waste", *month, "--format", "json"],
                 ["lifetime", scenario, "--format", "csv"],
                 ["programme", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples",
                                            "programme.json"), "--format", "json"],
                 ["programme", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples",
                                            "story.json")]]
        for args in cases:
            whole = run(args, 0, tmp)
            total = int(whole.stderr.decode().rsplit("allocations: ", 1)[1])
            assert whole.returncode == 0 and total > 0, whole.stderr
            for n in range(1, total + 1):
                if os.path.exists(out):
                    os.remove(out)
                p = run(args, n, tmp)
                err = p.stderr.decode("utf-8", "replace")
                ok = p.returncode == 0 and p.stdout == whole.stdout if "-o" not in args else p.returncode == 0
                said = p.returncode in (1, 3) and "memory" in err and "not valid JSON" not in err
                if not (ok or said) or p.returncode < 0:
                    failures += 1
                    print(f"FAIL: {args[0]}, allocation {n} of {total} failing: exit {p.returncode}: {err[-300:]}",
                          file=sys.stderr)
                elif "-o" in args and p.returncode != 0 and os.path.exists(out):
                    failures += 1
                    print(f"FAIL: {args[0]}, allocation {n}: a file was left after the failure", file=sys.stderr)
            print(f"{args[0]}: {total} allocations, each failed in turn")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

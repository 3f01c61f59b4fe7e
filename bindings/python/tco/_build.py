"""Builds the cffi extension tco._native against the real libtco header.

The declarations given to cffi are derived from tco.h itself (comments,
preprocessor lines and the export macro removed, integer macros kept as
constants), and the extension is compiled with ``#include <tco.h>``, so the
C compiler checks every declaration against the header: there is no
hand-kept copy to drift. libtco is found with pkg-config; for a build tree,
point PKG_CONFIG_PATH at <build>/meson-uninstalled.
"""
import os
import re
import shlex
import subprocess

from cffi import FFI


def _pkg_config(*args):
    try:
        out = subprocess.run(["pkg-config", *args, "libtco"], check=True, capture_output=True, text=True)
    except (OSError, subprocess.CalledProcessError) as e:
        raise RuntimeError(
            "libtco not found by pkg-config: install it (meson install) or set "
            "PKG_CONFIG_PATH to <build>/meson-uninstalled"
        ) from e
    return shlex.split(out.stdout)


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
_cflags = _pkg_config("--cflags")
_include_dirs = [f[2:] for f in _cflags if f.startswith("-I")] + ["/usr/local/include", "/usr/include"]
_libdirs = [f[2:] for f in _pkg_config("--libs-only-L") if f.startswith("-L")]
if not _libdirs:
    _libdirs = [d for d in _pkg_config("--variable=libdir") if d]
ffibuilder.cdef(
    cdef_from_header(_header(_include_dirs, "tco_version.h") + _header(_include_dirs, "tco.h"))
    + "\nconst char *tco_version_header(void);\n"
)
ffibuilder.set_source(
    "tco._native",
    "#include <tco.h>\n"
    "static const char *tco_version_header(void) { return TCO_VERSION_STRING; }\n",
    include_dirs=[f[2:] for f in _cflags if f.startswith("-I")],
    library_dirs=_libdirs,
    libraries=["tco"],
    # The library is found where pkg-config says it is, installed or not.
    extra_link_args=[f"-Wl,-rpath,{d}" for d in _libdirs],
)

if __name__ == "__main__":
    ffibuilder.compile(verbose=False)

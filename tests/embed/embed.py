#!/usr/bin/env python3
"""libtco embedded in other projects, for real (tests/embed/meson.build).

  embed.py cmake ...       install this build into a staging prefix (meson
                           install --destdir), then configure, build and run
                           tests/embed/cmake with find_package(libtco) and
                           -DCMAKE_PREFIX_PATH=<staging prefix>
  embed.py subproject ...  copy tests/embed/subproject to a scratch directory
                           with subprojects/libtco linked to this source tree,
                           check that the subproject builds the library and
                           nothing else (introspection), build and run it, and
                           that -Dlibtco:tests/examples/command=true bring the
                           rest back

Exits 77 (meson's "skipped") when a tool it needs is missing. The scratch
directory is removed on success and kept, and named, on failure.
"""

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

SKIP = 77


class Failure(Exception):
    pass


def skip(message):
    print(f"SKIP: {message}")
    sys.exit(SKIP)


def run(cmd, env=None, quiet=False):
    """Runs cmd, shows it and its output (quiet: only if it fails); fails the
    test if it fails."""
    print("+ " + shlex.join(str(c) for c in cmd), flush=True)
    p = subprocess.run([str(c) for c in cmd], env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    if p.stdout and (not quiet or p.returncode != 0):
        print(p.stdout, end="" if p.stdout.endswith("\n") else "\n", flush=True)
    if p.returncode != 0:
        raise Failure(f"exit status {p.returncode}: {shlex.join(str(c) for c in cmd)}")
    return p.stdout


def introspect(meson, build, what):
    return json.loads(subprocess.run(meson + ["introspect", f"--{what}", str(build)], check=True,
                                     stdout=subprocess.PIPE, text=True).stdout)


def check(condition, message):
    if not condition:
        raise Failure(message)


def build_options(build_root):
    with open(os.path.join(build_root, "meson-info", "intro-buildoptions.json"), encoding="utf-8") as f:
        return {o["name"]: o["value"] for o in json.load(f)}


def staged(stage, path):
    """Where meson install --destdir stage puts the absolute path."""
    return os.path.join(stage, os.path.relpath(path, os.sep))


def loaded_libtco(exe, env):
    """The libtco.so.1 the dynamic linker picks for exe (glibc), or None."""
    p = subprocess.run([exe], env=dict(env, LD_TRACE_LOADED_OBJECTS="1"), stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, text=True)
    for line in p.stdout.splitlines():
        name, _, rest = line.strip().partition(" => ")
        if name == "libtco.so.1" and rest:
            return rest.split(" (")[0]
    return None


def cmake_test(args, scratch):
    meson = shlex.split(args.meson)
    options = build_options(args.build_root)
    prefix = options["prefix"]
    libdir = os.path.join(prefix, options["libdir"])
    includedir = os.path.join(prefix, options["includedir"])
    library = options["default_library"]
    expected_type = "STATIC_LIBRARY" if library == "static" else "SHARED_LIBRARY"

    # 1. This build, installed into a staging directory.
    stage = os.path.join(scratch, "stage")
    run(meson + ["install", "-C", args.build_root, "--no-rebuild", "--destdir", stage])
    stage_prefix = staged(stage, prefix)
    package_dir = os.path.join(staged(stage, libdir), "cmake", "libtco")
    for f in ["libtcoConfig.cmake", "libtcoConfigVersion.cmake"]:
        check(os.path.isfile(os.path.join(package_dir, f)), f"{f} is not installed in {package_dir}")
    check(os.path.isfile(os.path.join(staged(stage, libdir), "pkgconfig", "libtco.pc")),
          f"libtco.pc is not installed beside {package_dir}")

    # 2. The CMake project, configured against the staging prefix only.
    build = os.path.join(scratch, "cmake-build")
    cmd = [args.cmake, "-S", args.project, "-B", build, f"-DCMAKE_PREFIX_PATH={stage_prefix}",
           f"-DLIBTCO_EXPECTED_VERSION={args.version}", f"-DLIBTCO_EXPECTED_TYPE={expected_type}",
           "-DCMAKE_BUILD_TYPE=Debug", "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON",
           "-DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF"]
    if shutil.which("ninja"):
        cmd += ["-G", "Ninja"]
    compiler = shlex.split(args.c_compiler)
    if compiler:
        cmd.append(f"-DCMAKE_C_COMPILER={compiler[-1]}")
        if len(compiler) > 1:  # ccache cc
            cmd.append(f"-DCMAKE_C_COMPILER_LAUNCHER={';'.join(compiler[:-1])}")
    if args.sanitize not in ("", "none"):
        flag = f"-fsanitize={args.sanitize}"
        cmd += [f"-DCMAKE_C_FLAGS={flag}", f"-DCMAKE_EXE_LINKER_FLAGS={flag}"]
    run(cmd)

    # 3. Built: the compile line has the staged include directory and
    # nothing of libcbor; the program needs libtco.so.1 and not libcbor.
    run([args.cmake, "--build", build, "--verbose"])
    with open(os.path.join(build, "compile_commands.json"), encoding="utf-8") as f:
        commands = [c for c in json.load(f) if c["file"].endswith("main.c")]
    check(len(commands) == 1, "main.c is not in compile_commands.json")
    line = commands[0].get("command") or shlex.join(commands[0]["arguments"])
    check(staged(stage, includedir) in line, f"the compile line lacks {staged(stage, includedir)}: {line}")
    check("cbor" not in line, f"libcbor reaches the consumer's compile line: {line}")
    exe = os.path.join(build, "embed_cmake")
    env = {k: v for k, v in os.environ.items() if k != "LD_LIBRARY_PATH"}
    if expected_type == "SHARED_LIBRARY":
        if args.readelf:
            dynamic = run([args.readelf, "-d", exe], quiet=True)
            print("".join(l + "\n" for l in dynamic.splitlines() if "(NEEDED)" in l or "PATH)" in l), end="")
            check("[libtco.so.1]" in dynamic, "embed_cmake does not need libtco.so.1")
            check("libcbor" not in dynamic, "embed_cmake links libcbor itself")
        found = loaded_libtco(exe, env)
        if found is not None:
            check(os.path.realpath(found).startswith(os.path.realpath(stage) + os.sep),
                  f"embed_cmake loads {found}, not the staged libtco")

    # 4. Run.
    out = run([exe], env=env)
    check(f"libtco {args.version} via CMake" in out, "embed_cmake printed no result")


def subproject_test(args, scratch):
    meson = shlex.split(args.meson)
    project = os.path.join(scratch, "project")
    shutil.copytree(args.project, project)
    shutil.copy(os.path.join(args.project, os.pardir, "main.c"), project)  # the program both projects build
    os.makedirs(os.path.join(project, "subprojects"))
    os.symlink(os.path.abspath(args.source_root), os.path.join(project, "subprojects", "libtco"))
    env = dict(os.environ)
    if args.c_compiler:
        env["CC"] = args.c_compiler

    # 1. Configured with only libcbor and xxHash visible to pkg-config: if the
    # subproject asked for jansson or cmocka, configuring would fail.
    pc_dir = os.path.join(scratch, "pkgconfig")
    os.makedirs(pc_dir)
    pkg_config = shutil.which(env.get("PKG_CONFIG", "pkg-config"))
    restricted = dict(env)
    if pkg_config:
        for name in ["libcbor", "libxxhash"]:
            p = subprocess.run([pkg_config, "--variable=pcfiledir", name], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True, env=env)
            pc = os.path.join(p.stdout.strip(), name + ".pc")
            if p.returncode != 0 or not os.path.isfile(pc):
                pkg_config = None
                break
            os.symlink(pc, os.path.join(pc_dir, name + ".pc"))
    if pkg_config:
        restricted["PKG_CONFIG_LIBDIR"] = pc_dir
        restricted.pop("PKG_CONFIG_PATH", None)
        print(f"pkg-config sees only libcbor and libxxhash ({pc_dir})")
    else:
        print("note: libcbor or libxxhash has no .pc file pkg-config can name: "
              "jansson and cmocka stay visible, introspection alone checks they are not used")
    build = os.path.join(scratch, "build")
    run(meson + ["setup", "--force-fallback-for=libtco", build, project], env=restricted)

    # 2. What the subproject defines: the library (and the generator its
    # build runs), no tco command, no example, no test, no benchmark, and
    # neither jansson nor cmocka.
    targets = introspect(meson, build, "targets")
    sub = [t for t in targets if t.get("subproject") == "libtco"]
    print("libtco's targets: " + ", ".join(f"{t['name']} ({t['type']})" for t in sub))
    libraries = [t for t in sub if t["name"] == "tco" and t["type"].endswith("library")]
    check(libraries, "the subproject defines no tco library")
    generators = set()
    for t in sub:
        if t["type"] == "custom":
            for source in t.get("target_sources", []):
                generators.update(source.get("compiler", [])[:1])  # a target's name or a path
    for t in sub:
        if t["type"] == "executable":
            check(not t["installed"], f"the subproject installs the program {t['name']}")
            check(t["name"] in generators or any(f in generators for f in t["filename"]),
                  f"the subproject builds {t['name']}, which the library's build does not run")
    tests = introspect(meson, build, "tests")
    check([t["name"] for t in tests] == ["embed-subproject"],
          "tests defined beside the project's own: " + ", ".join(f"{t['name']} ({t['suite']})" for t in tests))
    benchmarks = introspect(meson, build, "benchmarks")
    check(not benchmarks, "benchmarks defined: " + ", ".join(b["name"] for b in benchmarks))
    deps = [d["name"] for d in introspect(meson, build, "dependencies")]
    print("dependencies looked up: " + ", ".join(deps))
    check("libcbor" in deps, "introspection lists no libcbor: it cannot tell what else is used")
    for name in ["jansson", "cmocka"]:
        check(name not in deps, f"the subproject uses {name}")

    # 3. Built and run: dependency('libtco') is the subproject's library.
    run(meson + ["compile", "-C", build], env=env)
    out = run([os.path.join(build, "embed_subproject")], env=env)
    check("as a subproject" in out, "embed_subproject printed no result")

    # 4. Asked for, the rest comes back (configured only, not built).
    build2 = os.path.join(scratch, "build-all")
    run(meson + ["setup", "--force-fallback-for=libtco", "-Dlibtco:tests=true", "-Dlibtco:examples=true",
                 "-Dlibtco:command=true", build2, project], env=env)
    sub = [(t["name"], t["type"]) for t in introspect(meson, build2, "targets") if t.get("subproject") == "libtco"]
    check(("tco", "executable") in sub, "-Dlibtco:command=true: no tco command")
    check(("tco-report", "executable") in sub, "-Dlibtco:examples=true: no tco-report")
    suites = {s for t in introspect(meson, build2, "tests") for s in t["suite"]}
    check(any(s.startswith("libtco:") for s in suites), f"-Dlibtco:tests=true: no libtco test (suites {sorted(suites)})")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["cmake", "subproject"])
    parser.add_argument("--meson", default="", help="the meson command")
    parser.add_argument("--cmake", default="", help="the cmake command")
    parser.add_argument("--readelf", default="")
    parser.add_argument("--c-compiler", default="", help="the C compiler of this build (command line)")
    parser.add_argument("--sanitize", default="none", help="b_sanitize of this build")
    parser.add_argument("--build-root", help="this build")
    parser.add_argument("--source-root", help="libtco's source tree")
    parser.add_argument("--project", required=True, help="the embedding project")
    parser.add_argument("--version", default="", help="libtco's version")
    args = parser.parse_args()

    if not args.meson:
        skip("no meson on PATH of the version that configured this build: it runs the install and the embedding project")
    if args.mode == "cmake" and not args.cmake:
        skip("cmake not found (the deps script, scripts/deps.sh, installs it)")

    scratch = tempfile.mkdtemp(prefix=f"libtco-embed-{args.mode}-")
    try:
        (cmake_test if args.mode == "cmake" else subproject_test)(args, scratch)
    except (Failure, subprocess.CalledProcessError) as e:
        print(f"FAIL: {e}\n(scratch directory kept: {scratch})", file=sys.stderr)
        return 1
    shutil.rmtree(scratch, ignore_errors=True)
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())

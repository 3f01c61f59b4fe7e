#!/usr/bin/env python3
"""Checks that the library exports exactly its public API.

Three lists must agree, name for name:
  1. the functions declared with TCO_API in the public headers,
  2. the symbols named in the linker version script (lib/libtco.map),
  3. the dynamic symbols the built shared library defines.
Also: every exported symbol carries the version of the map node that names
it (LIBTCO_1.0 or a later node, each node inheriting from the one before),
nothing of the private dependencies (XXH_*, cbor_*) leaks out, every public
function is declared with TCO_API, and the SONAME is the expected one.

Standard library only; the ELF facts come from readelf.
usage: check_exports.py --readelf PATH --map MAP --lib LIB --soname NAME HEADER...
"""
import argparse
import re
import subprocess
import sys

NODE_RE = re.compile(r'^LIBTCO_(\d+)\.(\d+)$')
FORBIDDEN_PREFIXES = ('XXH', 'cbor_', '_cbor')


def strip_c_comments(text):
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    return re.sub(r'//[^\n]*', ' ', text)


def header_functions(path, problems):
    """Names declared with TCO_API in one header."""
    text = strip_c_comments(open(path, encoding='utf-8').read())
    # Drop preprocessor lines (with their continuations): #define TCO_API ...
    text = re.sub(r'^[ \t]*#(?:[^\n]*\\\n)*[^\n]*', ' ', text, flags=re.M)
    text = re.sub(r'extern\s+"C"\s*\{', ' ', text)
    # Split into top-level statements, braces aware (struct and enum bodies).
    statements, depth, cur = [], 0, []
    for ch in text:
        if ch == '{':
            depth += 1
        elif ch == '}':
            depth = max(depth - 1, 0)
        if ch == ';' and depth == 0:
            statements.append(''.join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    names = set()
    for st in statements:
        st = ' '.join(st.split())
        # a lone '}' closing extern "C" may prefix the next statement
        st = st.lstrip('} ').strip()
        if not st or st.startswith('typedef'):
            continue
        head = st.split('(', 1)[0]
        idents = re.findall(r'[A-Za-z_]\w*', head)
        if not idents:
            continue
        name = idents[-1]
        if 'TCO_API' not in idents:
            if '(' in st:
                problems.append('%s: function %s is declared without TCO_API' % (path, name))
            continue
        if not name.startswith('tco_'):
            problems.append('%s: exported name %s lacks the tco_ prefix' % (path, name))
        if name in names:
            problems.append('%s: %s is declared twice' % (path, name))
        names.add(name)
    return names


def map_nodes(path, problems):
    """[(node, parent, [symbols])] in file order."""
    text = strip_c_comments(open(path, encoding='utf-8').read())
    text = re.sub(r'#[^\n]*', ' ', text)
    nodes = []
    pos = 0
    node_re = re.compile(r'\s*([A-Za-z_][\w.]*)\s*\{(.*?)\}\s*([A-Za-z_][\w.]*)?\s*;', re.S)
    while True:
        m = node_re.match(text, pos)
        if not m:
            break
        name, body, parent = m.group(1), m.group(2), m.group(3)
        symbols, section = [], None
        for tok in re.findall(r'[^\s;:]+:|[^\s;]+;', body):
            if tok.endswith(':'):
                section = tok[:-1]
                if section not in ('global', 'local'):
                    problems.append('%s: node %s has an unknown section %s' % (path, name, section))
                continue
            sym = tok[:-1]
            if section == 'global':
                if any(c in sym for c in '*?[]'):
                    problems.append('%s: node %s exports a pattern (%s): name every symbol' % (path, name, sym))
                symbols.append(sym)
            elif section == 'local':
                if sym != '*':
                    problems.append('%s: node %s has a local entry other than "*": %s' % (path, name, sym))
            else:
                problems.append('%s: node %s: %s is outside global:/local:' % (path, name, sym))
        nodes.append((name, parent, symbols))
        pos = m.end()
    if text[pos:].strip():
        problems.append('%s: cannot parse from: %r' % (path, text[pos:pos + 60].strip()))
    if not nodes:
        problems.append('%s: no version node found' % path)
    prev = None
    for name, parent, _ in nodes:
        m = NODE_RE.match(name)
        if not m:
            problems.append('%s: node %s is not named LIBTCO_<major>.<minor>' % (path, name))
        elif m.group(1) != '1':
            problems.append('%s: node %s: the SONAME major is 1, nodes are LIBTCO_1.x' % (path, name))
        if prev is None:
            if name != 'LIBTCO_1.0':
                problems.append('%s: the first node must be LIBTCO_1.0, not %s' % (path, name))
            if parent:
                problems.append('%s: the first node %s must not inherit (from %s)' % (path, name, parent))
        else:
            key = lambda n: tuple(int(x) for x in NODE_RE.match(n).groups()) if NODE_RE.match(n) else (0, 0)
            if key(name) <= key(prev):
                problems.append('%s: node %s does not come after %s' % (path, name, prev))
            if parent != prev:
                problems.append('%s: node %s must inherit from the node before it (%s), not %s'
                                % (path, name, prev, parent))
        prev = name
    return nodes


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    if p.returncode != 0:
        sys.exit('%s failed (%d):\n%s' % (' '.join(cmd), p.returncode, p.stderr))
    return p.stdout


def elf_exports(readelf, lib, version_nodes, problems):
    """{name: version} of every defined global dynamic symbol."""
    exports = {}
    for line in run([readelf, '--wide', '--dyn-syms', lib]).splitlines():
        f = line.split()
        if len(f) < 8 or not f[0].endswith(':') or not f[0][:-1].isdigit():
            continue
        typ, bind, ndx, name = f[3], f[4], f[6], f[7]
        if ndx == 'UND' or bind not in ('GLOBAL', 'WEAK', 'UNIQUE'):
            continue
        if ndx == 'ABS' and typ == 'OBJECT' and name in version_nodes:
            continue  # the symbol that defines a version node
        base, sep, version = name.partition('@')
        hidden = not version.startswith('@')
        version = version.lstrip('@')
        if not sep:
            problems.append('exported symbol %s carries no version' % name)
        elif hidden:
            # name@NODE without @@: an old, non-default version; allowed
            # only for a node of the map and a symbol that also has a default.
            if version not in version_nodes:
                problems.append('exported symbol %s has version %s, which is not a node of the map'
                                % (base, version))
            continue
        if base in exports:
            problems.append('symbol %s is exported twice' % base)
        exports[base] = version
    return exports


def elf_soname(readelf, lib):
    for line in run([readelf, '--wide', '--dynamic', lib]).splitlines():
        if '(SONAME)' in line:
            m = re.search(r'\[(.*)\]', line)
            return m.group(1) if m else line
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--readelf', required=True)
    ap.add_argument('--map', required=True)
    ap.add_argument('--lib', required=True)
    ap.add_argument('--soname', required=True)
    ap.add_argument('headers', nargs='+')
    a = ap.parse_args()

    problems = []
    declared = set()
    for h in a.headers:
        declared |= header_functions(h, problems)
    nodes = map_nodes(a.map, problems)
    node_names = {n for n, _, _ in nodes}
    in_map = {}
    for node, _, syms in nodes:
        for s in syms:
            if s in in_map:
                problems.append('map: %s is named in %s and again in %s' % (s, in_map[s], node))
            else:
                in_map[s] = node
    exported = elf_exports(a.readelf, a.lib, node_names, problems)

    def diff(left, lname, right, rname):
        for s in sorted(set(left) - set(right)):
            problems.append('%s is in %s but not in %s' % (s, lname, rname))

    diff(declared, 'the header (TCO_API)', in_map, 'the map')
    diff(in_map, 'the map', declared, 'the header (TCO_API)')
    diff(in_map, 'the map', exported, 'the library exports')
    diff(exported, 'the library exports', in_map, 'the map')
    for s, v in sorted(exported.items()):
        if s.startswith(FORBIDDEN_PREFIXES):
            problems.append('private dependency symbol %s is exported' % s)
        if s in in_map and v != in_map[s]:
            problems.append('%s is exported with version %s but the map names it in %s' % (s, v, in_map[s]))

    soname = elf_soname(a.readelf, a.lib)
    if soname != a.soname:
        problems.append('SONAME is %s, expected %s' % (soname, a.soname))

    print('header: %d TCO_API functions; map: %d symbols in %s; library: %d exports; SONAME %s'
          % (len(declared), len(in_map), ', '.join(n for n, _, _ in nodes), len(exported), soname))
    if problems:
        print('\n'.join('FAIL: ' + p for p in problems))
        return 1
    print('OK: the header, the map and the library agree')
    return 0


if __name__ == '__main__':
    sys.exit(main())

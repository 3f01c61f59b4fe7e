#!/usr/bin/env python3
"""Compares the built library's ABI with the committed baseline (abidiff).

Fails on ANY non-zero abidiff exit: its status is a bit mask (1 error,
2 usage, 4 ABI change, 8 incompatible change) and a changed signature or
struct layout only sets 4. Added functions are allowed (--no-added-syms).
Exits 77 (skipped) when abidiff is missing or the library has no DWARF,
unless --required (abi_check=enabled), in which case that is a failure.

usage: abi_check.py --required|--optional --abidiff PATH|'' --headers DIR BASELINE LIB
"""
import argparse
import os
import struct
import subprocess
import sys

SKIP = 77


def elf_section_names(path):
    """Section names of an ELF file (32 or 64 bit, either endianness)."""
    with open(path, 'rb') as f:
        data = f.read()
    if data[:4] != b'\x7fELF':
        raise ValueError('%s is not an ELF file' % path)
    is64 = data[4] == 2
    end = '<' if data[5] == 1 else '>'
    if is64:
        shoff, = struct.unpack_from(end + 'Q', data, 0x28)
        shentsize, shnum, shstrndx = struct.unpack_from(end + 'HHH', data, 0x3A)
    else:
        shoff, = struct.unpack_from(end + 'I', data, 0x20)
        shentsize, shnum, shstrndx = struct.unpack_from(end + 'HHH', data, 0x2E)

    def section(i):
        base = shoff + i * shentsize
        if is64:
            name, _, _, _, off, size = struct.unpack_from(end + 'IIQQQQ', data, base)
        else:
            name, _, _, _, off, size = struct.unpack_from(end + 'IIIIII', data, base)
        return name, off, size

    _, stroff, strsize = section(shstrndx)
    strtab = data[stroff:stroff + strsize]
    names = []
    for i in range(shnum):
        n = section(i)[0]
        names.append(strtab[n:strtab.index(b'\0', n)].decode('ascii', 'replace'))
    return names


def not_possible(required, why):
    if required:
        print('FAIL: %s (abi_check is enabled)' % why)
        return 1
    print('SKIP: %s' % why)
    return SKIP


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--required', dest='required', action='store_true',
                    help='abi_check=enabled: what would be skipped fails')
    ap.add_argument('--optional', dest='required', action='store_false',
                    help='abi_check=auto: skip (77) when the check cannot run')
    ap.add_argument('--abidiff', default='')
    ap.add_argument('--headers', required=True, action='append',
                    help='public headers directory (both sides); repeatable')
    ap.add_argument('baseline')
    ap.add_argument('lib')
    a = ap.parse_args()

    if not a.abidiff or not os.access(a.abidiff, os.X_OK):
        return not_possible(a.required, 'abidiff (abigail-tools) is not installed')
    if '.debug_info' not in elf_section_names(a.lib):
        return not_possible(a.required, '%s has no DWARF (.debug_info): the ABI check needs '
                            'a build with debug info (buildtype debug or debugoptimized)'
                            % os.path.basename(a.lib))

    cmd = [a.abidiff, '--no-added-syms']
    for h in a.headers:
        cmd += ['--headers-dir1', h, '--headers-dir2', h]
    cmd += [a.baseline, a.lib]
    print(' '.join(cmd), flush=True)
    rc = subprocess.call(cmd)
    if rc == 0:
        print('OK: the ABI matches the baseline (added functions, if any, are allowed)')
        return 0
    bits = [name for bit, name in ((1, 'ERROR'), (2, 'USAGE_ERROR'), (4, 'ABI_CHANGE'),
                                   (8, 'ABI_INCOMPATIBLE_CHANGE')) if rc & bit]
    print('FAIL: abidiff exit %d (%s). Changing or removing anything in the released ABI '
          'is never allowed; for an addition, read tests/abi/README.md.' % (rc, ' | '.join(bits) or '?'))
    return 1


if __name__ == '__main__':
    sys.exit(main())

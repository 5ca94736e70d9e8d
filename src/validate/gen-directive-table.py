#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
# Turns directives.tsv into the C array behind directive-table.c.
# Usage: gen-directive-table.py directives.tsv output.c output-names.h
import sys

GROUPS = {
    'all': ['service', 'socket', 'target', 'device', 'mount', 'automount', 'swap',
            'timer', 'path', 'slice', 'scope'],
    'exec': ['service', 'socket', 'mount', 'swap'],
}
GROUPS['kill'] = GROUPS['exec'] + ['scope']
GROUPS['cgroup'] = GROUPS['kill'] + ['slice']
TYPES = {t: 'UNIT_' + t.upper() for t in GROUPS['all']}
KINDS = ['string', 'bool', 'user', 'group', 'group-list', 'exec', 'path', 'path-list',
         'working-directory', 'unit-name', 'unit-name-list', 'security-label', 'enum',
         'integer', 'timespan', 'mode', 'limit', 'signal', 'size', 'condition',
         'environment', 'stdio-input', 'stdio-output'] + [
    'weight', 'tasks', 'quota', 'exit-status', 'log-level', 'facility', 'ip-tos', 'calendar', 'memory', 'io-limit', 'io-weight', 'io-latency', 'path-single', 'pid-file', 'path-colon-list', 'tmpfs-list', 'bind-list', 'directory-list', 'syscall-filter', 'errno', 'syscall-archs', 'address-families', 'cpu-set', 'device-allow', 'ip-prefixes', 'controllers', 'namespaces', 'env-names', 'urls', 'personality', 'bus-name', 'base64', 'ifname', 'socket-address', 'netlink', 'fdname', 'log-namespace', 'root-hash', 'coredump-filter', 'credential', 'log-fields', 'socket-bind', 'bpf-program', 'image-list', 'pressure-limit', 'open-file', 'nft-set', 'cgroup-name', 'ip-protocol']
FLAGS = {'list', 'empty-invalid', 'empty-ignored', 'dash', 'deprecated'}


def fail(lineno, msg):
    sys.exit(f'{sys.argv[1]}:{lineno}: {msg}')


def c_string(s):
    out = ''
    for ch in s if isinstance(s, bytes) else s.encode('utf-8'):
        if ch < 0x20 or ch >= 0x7f or ch in (0x22, 0x5c):
            out += '\\%03o' % ch
        else:
            out += chr(ch)
    return '"' + out + '"'


M64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
SLOT_BITS = 10     # 1024 slots for the names (at most 1024 names)
BUCKET_BITS = 7    # 128 buckets, each with its displacement


def name_words(name):
    """directive_name_words(): the first and the last eight bytes of the
    name (all of them for a shorter name), little-endian."""
    n = len(name)
    if n >= 8:
        return int.from_bytes(name[:8], 'little'), int.from_bytes(name[n - 8:], 'little')
    a = int.from_bytes(name, 'little')
    return a, a


def name_hash(name, seed):
    """directive_name_hash() in directive-table-data.h must agree: the
    name's words and its length, mixed with a seed the generator picks."""
    n = len(name)
    a, b = name_words(name)
    x = (a * GOLDEN + (b ^ n)) & M64
    return ((x ^ (x >> 32)) * seed) & M64


def perfect_hash(names):
    """A seed and a displacement per bucket so that every name gets a slot
    of its own: slot = (base ^ displacement[bucket]) with bucket and base
    taken from different bits of the hash (hash and displace)."""
    size, nb = 1 << SLOT_BITS, 1 << BUCKET_BITS
    if len(names) > size // 2:
        sys.exit('gen-directive-table.py: too many names for the hash table; raise SLOT_BITS')
    for k in range(1, 100000):
        seed = (GOLDEN * (2 * k + 1)) & M64 | 1
        buckets = [[] for _ in range(nb)]
        for i, name in enumerate(names):
            h = name_hash(name, seed)
            buckets[h >> (64 - BUCKET_BITS)].append((i, (h >> 20) & (size - 1)))
        if any(len({base for _, base in b}) != len(b) for b in buckets):
            continue
        slots, disp = [-1] * size, [0] * nb
        for b in sorted(range(nb), key=lambda b: -len(buckets[b])):
            for d in range(size):
                if all(slots[base ^ d] == -1 for _, base in buckets[b]):
                    for i, base in buckets[b]:
                        slots[base ^ d] = i
                    disp[b] = d
                    break
            else:
                break
        else:
            return seed, slots, disp
    sys.exit('gen-directive-table.py: no perfect hash found')


def c_name_id(name):
    return 'DIRECTIVE_NAME_' + name.upper()


def main():
    rows = []
    seen = set()
    with open(sys.argv[1], encoding='utf-8') as f:
        for lineno, line in enumerate(f, 1):
            line = line.rstrip('\n')
            if not line or line.startswith('#'):
                continue
            cols = line.split('\t')
            if len(cols) != 8:
                fail(lineno, f'expected 8 tab-separated columns, got {len(cols)}')
            section, name, types, kind, flags, since, fatal, values = cols
            if section not in ('Unit', 'Install', 'Type'):
                fail(lineno, f'bad section {section}')
            tl = []
            for t in types.split(','):
                tl += GROUPS.get(t, [t])
            for t in tl:
                if t not in TYPES:
                    fail(lineno, f'bad unit type {t}')
            if kind not in KINDS:
                fail(lineno, f'bad kind {kind}')
            fl = set() if flags == '-' else set(flags.split(','))
            if fl - FLAGS:
                fail(lineno, f'bad flags {fl - FLAGS}')
            if 'empty-invalid' in fl and 'empty-ignored' in fl:
                fail(lineno, 'empty-invalid and empty-ignored exclude each other')
            if fatal == '-':
                fs, fu = 0, 0
            else:
                a, _, b = fatal.partition('-')
                fs, fu = int(a), int(b) if b else 0
            for t in tl:
                key = (section, t, name)
                if key in seen:
                    fail(lineno, f'duplicate directive {name} for {t}')
                seen.add(key)
            rows.append(dict(section=section, name=name, types=tl, kind=kind, flags=fl,
                             since=0 if since == '-' else int(since), fs=fs, fu=fu,
                             values=[] if values == '-' else values.split('|')))

    # Sorted by name: the rows of one name are next to each other.
    rows.sort(key=lambda r: (r['name'].encode(), r['section']))
    names = []          # distinct names, in row order: [name, first row, count]
    for i, r in enumerate(rows):
        if names and names[-1][0] == r['name']:
            names[-1][2] += 1
        else:
            names.append([r['name'], i, 1])
    name_id = {n[0]: k for k, n in enumerate(names)}
    if len({n.upper() for n in name_id}) != len(name_id):
        sys.exit('gen-directive-table.py: two names differ only in case')

    # Every string (the names, each row's values as a NUL-separated list
    # ended by an empty string) goes into one pool that the tables index
    # with 16-bit offsets: an array of pointers would need a dynamic
    # relocation per pointer at every start of a position-independent
    # executable. Offset 0 is an empty string: no values.
    pool = bytearray(b'\0')
    pool_at = {}

    def intern(b):
        if b not in pool_at:
            pool_at[b] = len(pool)
            pool.extend(b)
        return pool_at[b]

    name_off = [intern(n[0].encode() + b'\0') for n in names]
    values_off = [intern(b''.join(v.encode() + b'\0' for v in r['values']) + b'\0') if r['values'] else 0
                  for r in rows]
    if len(pool) > 0xffff:
        sys.exit('gen-directive-table.py: the string pool outgrew 16-bit offsets')

    out = ['/* Generated by gen-directive-table.py from directives.tsv; do not edit. */',
           '#include "validate/directive-table-data.h"', '']
    out.append(f'const char directive_string_pool[{len(pool)}] =')
    items = sorted(pool_at.items(), key=lambda kv: kv[1])
    out.append('        ' + c_string(b'\0'))
    for b, off in items:
        out.append(f'        /* {off} */ ' + c_string(b))
    out[-1] += ';'
    out.append('')
    out.append('const Directive directive_table[] = {')
    for i, r in enumerate(rows):
        sec_id = 'DIRECTIVE_SECTION_' + r['section'].upper()
        types = ' | '.join(f'UNIT_TYPE_BIT({TYPES[t]})' for t in r['types'])
        if set(r['types']) == set(GROUPS['all']):
            types = 'UNIT_TYPES_ALL'
        empty = ('DIRECTIVE_EMPTY_INVALID' if 'empty-invalid' in r['flags'] else
                 'DIRECTIVE_EMPTY_IGNORED' if 'empty-ignored' in r['flags'] else
                 'DIRECTIVE_EMPTY_RESETS')
        kind = 'DIRECTIVE_' + r['kind'].upper().replace('-', '_')
        out.append(f'        {{ .name_offset = {name_off[name_id[r["name"]]]}, .section_id = {sec_id}, '
                   f'.name_id = {c_name_id(r["name"])}, .types = {types},')
        out.append(f'          .kind = {kind}, .list = {"true" if "list" in r["flags"] else "false"}, '
                   f'.empty = {empty}, .dash_escape = {"true" if "dash" in r["flags"] else "false"}, '
                   f'.deprecated = {"true" if "deprecated" in r["flags"] else "false"},')
        out.append(f'          .since = {r["since"]}, .fatal_since = {r["fs"]}, .fatal_until = {r["fu"]}, '
                   f'.values_offset = {values_off[i]} }}, /* {r["name"]} */')
    out.append('};')
    out.append('const size_t directive_table_size = sizeof(directive_table) / sizeof(directive_table[0]);')

    # The names, each with its rows; and a perfect hash from a name to its
    # entry, so that a lookup costs one hash of a few words and one compare.
    out.append('')
    out.append('const DirectiveName directive_names[] = {')
    for k, (name, first, count) in enumerate(names):
        head, tail = name_words(name.encode())
        out.append(f'        {{ UINT64_C({head:#x}), UINT64_C({tail:#x}), {name_off[k]}, '
                   f'{len(name.encode())}, {first}, {count} }}, /* {name} */')
    out.append('};')
    seed, slots, disp = perfect_hash([n[0].encode() for n in names])
    out.append('')
    out.append(f'const uint64_t directive_name_seed = UINT64_C({seed:#x});')
    out.append(f'const uint16_t directive_name_displacement[{len(disp)}] = {{')
    for k in range(0, len(disp), 16):
        out.append('        ' + ', '.join(str(v) for v in disp[k:k + 16]) + ',')
    out.append('};')
    out.append(f'const int16_t directive_name_slots[{len(slots)}] = {{')
    for k in range(0, len(slots), 16):
        out.append('        ' + ', '.join(str(v) for v in slots[k:k + 16]) + ',')
    out.append('};')
    with open(sys.argv[2], 'w', encoding='utf-8') as f:
        f.write('\n'.join(out) + '\n')

    # The names as constants, for code that dispatches on a directive.
    h = ['/* Generated by gen-directive-table.py from directives.tsv; do not edit. */',
         '#pragma once', '',
         '/* Every directive name; Directive.name_id holds one. */',
         'typedef enum DirectiveNameId {']
    for k, (name, _, _) in enumerate(names):
        h.append(f'        {c_name_id(name)} = {k},')
    h.append(f'        _DIRECTIVE_NAME_MAX = {len(names)},')
    h.append('        _DIRECTIVE_NAME_INVALID = -1,')
    h.append('} DirectiveNameId;')
    h.append('')
    h.append(f'#define DIRECTIVE_NAME_SLOT_BITS {SLOT_BITS}')
    h.append(f'#define DIRECTIVE_NAME_BUCKET_BITS {BUCKET_BITS}')
    with open(sys.argv[3], 'w', encoding='utf-8') as f:
        f.write('\n'.join(h) + '\n')

main()

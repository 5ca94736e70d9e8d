#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Derive concrete lookup keys from the match patterns of .hwdb sources.

Every sampled pattern is turned into a key it should match (globs filled with
plausible modalias text), and a share of those keys is then mutated so that
they most likely match nothing. Real modalias shapes (full pci/usb/OUI/dmi
strings, some longer than 255 bytes) are added on top. Deterministic for a
given seed. Writes one key per line (bytes) to stdout.
"""
import argparse
import glob
import os
import random
import sys

HEX = b"0123456789ABCDEF"
ALNUM = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


def match_lines(path):
    """Match strings of a source file, cut and trimmed like systemd does."""
    out = []
    with open(path, "rb") as f:
        for raw in f.read().split(b"\n"):
            if raw.startswith(b"#"):
                continue
            line = raw.split(b"#", 1)[0].rstrip(b" \t\r\v\f")
            if not line or line.startswith(b" "):
                continue
            out.append(line)
    return out


def rand_hex(rng, n):
    return bytes(rng.choice(HEX) for _ in range(n))


def rand_text(rng, n):
    return bytes(rng.choice(ALNUM) for _ in range(n))


def star_fill(rng, prefix):
    """Text for one '*', depending on what kind of key it sits in."""
    r = rng.random()
    if r < 0.25:
        return b""
    if prefix.startswith(b"pci:") and r < 0.7:
        return (b"sv%08Xsd%08Xbc%02Xsc%02Xi%02X" % (
            rng.randrange(1 << 16), rng.randrange(1 << 16), rng.randrange(20),
            rng.randrange(10), rng.randrange(4)))
    if prefix.startswith(b"usb:") and r < 0.7:
        return (b"d%04Xdc%02Xdsc%02Xdp%02Xic%02Xisc%02Xip%02Xin%02X" % (
            rng.randrange(1 << 16), rng.randrange(256), rng.randrange(4), rng.randrange(4),
            rng.randrange(256), rng.randrange(4), rng.randrange(4), rng.randrange(4)))
    if prefix.startswith(b"OUI:") and r < 0.7:
        return rand_hex(rng, rng.choice((3, 6)))
    if r < 0.85:
        return rand_hex(rng, rng.randrange(1, 9))
    return rand_text(rng, rng.randrange(1, 40))


def bracket_pick(rng, pat, i):
    """Returns (byte, next index) for the bracket expression at pat[i]."""
    j = i + 1
    neg = j < len(pat) and pat[j:j + 1] in (b"!", b"^")
    if neg:
        j += 1
    members = []
    first = True
    while j < len(pat) and (first or pat[j:j + 1] != b"]"):
        first = False
        if pat[j:j + 2] == b"[:":
            end = pat.find(b":]", j + 2)
            cls = pat[j + 2:end]
            members += {b"digit": list(b"0123456789"), b"upper": list(b"ABCXYZ"),
                        b"lower": list(b"abcxyz"), b"alpha": list(b"aZ"),
                        b"alnum": list(b"a9")}.get(cls, list(b"a"))
            j = end + 2
            continue
        if j + 2 < len(pat) and pat[j + 1:j + 2] == b"-" and pat[j + 2:j + 3] != b"]":
            members += list(range(pat[j], pat[j + 2] + 1))
            j += 3
            continue
        members.append(pat[j])
        j += 1
    if j >= len(pat):
        return b"[", i + 1          # unterminated: '[' stands for itself
    if neg:
        choices = [c for c in ALNUM if c not in members] or [ord("_")]
    else:
        choices = members or [ord("_")]
    return bytes([rng.choice(choices)]), j + 1


def instantiate(rng, pat):
    out = bytearray()
    i = 0
    while i < len(pat):
        c = pat[i:i + 1]
        if c == b"*":
            out += star_fill(rng, bytes(out))
            i += 1
        elif c == b"?":
            out += bytes([rng.choice(ALNUM)])
            i += 1
        elif c == b"[":
            b, i = bracket_pick(rng, pat, i)
            out += b
        else:
            out += c
            i += 1
    return bytes(out)


def mutate(rng, key):
    if not key:
        return b"x"
    op = rng.randrange(4)
    pos = rng.randrange(len(key))
    if op == 0:
        return key[:pos] + bytes([rng.choice(ALNUM)]) + key[pos + 1:]
    if op == 1:
        return key[:pos]
    if op == 2:
        return key + bytes([rng.choice(ALNUM)])
    return key[:pos] + key[pos + 1:]


def dmi_key(rng, long):
    fields = [b"bvn", b"bvr", b"bd", b"br", b"svn", b"pn", b"pvr", b"rvn", b"rn", b"rvr",
              b"cvn", b"ct", b"cvr", b"sku"]
    vendors = [b"LENOVO", b"Dell Inc.", b"Acer", b"HP", b"Hewlett-Packard", b"ASUSTeK COMPUTER INC.",
               b"SAMSUNG ELECTRONICS CO., LTD.", b"TOSHIBA", b"Apple Inc.", b"Microsoft Corporation"]
    parts = []
    for f in fields:
        if f in (b"svn", b"bvn", b"rvn", b"cvn"):
            v = rng.choice(vendors).replace(b" ", b"")
        else:
            v = rand_text(rng, rng.randrange(2, 60 if long else 12))
        parts.append(f + v)
    head = rng.choice([b"evdev:atkbd:dmi:", b"dmi:", b"evdev:name:AT Translated Set 2 keyboard:phys:isa0060/serio0/input0:ev:120013:dmi:"])
    return head + b":".join(parts) + b":"


def realistic(rng, pats_by_prefix):
    """Modalias-shaped keys like the kernel writes them, in roughly the mix
    udev asks for on a PC: mostly PCI and USB devices and interfaces, some
    network (OUI), ACPI, Bluetooth and input devices, few DMI/keyboard keys."""
    kind = rng.choices(("pci", "usb", "oui", "dmi", "dmi-long", "acpi", "bt", "input"),
                       weights=(30, 30, 10, 3, 3, 10, 5, 9))[0]
    if kind == "pci":
        return b"pci:v%08Xd%08Xsv%08Xsd%08Xbc%02Xsc%02Xi%02X" % (
            rng.choice((0x8086, 0x10DE, 0x1002, 0x14E4, 0x10EC, rng.randrange(1 << 16))),
            rng.randrange(1 << 16), rng.randrange(1 << 16), rng.randrange(1 << 16),
            rng.randrange(0x14), rng.randrange(8), rng.randrange(4))
    if kind == "usb":
        return b"usb:v%04Xp%04Xd%04Xdc%02Xdsc%02Xdp%02Xic%02Xisc%02Xip%02Xin%02X" % (
            rng.choice((0x046D, 0x8087, 0x1D6B, 0x0BDA, rng.randrange(1 << 16))),
            rng.randrange(1 << 16), rng.randrange(1 << 16), rng.choice((0, 9, 0xEF, 0xFF)),
            rng.randrange(3), rng.randrange(3), rng.choice((3, 8, 0xE0, 0xFF, 1)),
            rng.randrange(3), rng.randrange(3), rng.randrange(3))
    if kind == "oui":
        p = rng.choice(pats_by_prefix.get(b"OUI", [b"OUI:000000*"]))
        return instantiate(rng, p)[:10] + rand_hex(rng, 6)
    if kind in ("dmi", "dmi-long"):
        return dmi_key(rng, kind == "dmi-long")
    if kind == "acpi":
        return b"acpi:%s%s:" % (rand_text(rng, 3).upper(), rand_hex(rng, 4))
    if kind == "bt":
        return b"bluetooth:v%04X" % rng.randrange(1 << 12)
    return b"input:b%04Xv%04Xp%04Xe%04X-e0,1,4,11,14,k71,72,73,ram4,l0,1,2,sfw" % (
        rng.choice((3, 0x11, 0x18)), rng.randrange(1 << 16), rng.randrange(1 << 16),
        rng.randrange(1 << 16))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", default="/lib/udev/hwdb.d")
    ap.add_argument("--count", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=4)
    ap.add_argument("--realistic", action="store_true",
                    help="only modalias-shaped keys like the kernel writes (benchmark mix)")
    a = ap.parse_args()

    rng = random.Random(a.seed)
    files = sorted(glob.glob(os.path.join(a.dir, "*.hwdb")))
    pats_by_file = {f: match_lines(f) for f in files}
    pats_by_prefix = {}
    for pats in pats_by_file.values():
        for p in pats:
            pats_by_prefix.setdefault(p.split(b":", 1)[0], []).append(p)
    allpats = [p for pats in pats_by_file.values() for p in pats]
    if not allpats:
        sys.exit("no match patterns found in " + a.dir)

    if a.realistic:
        out = sys.stdout.buffer
        for _ in range(a.count):
            out.write(realistic(rng, pats_by_prefix) + b"\n")
        return

    keys = []
    # Every file contributes, small ones completely; the rest uniformly.
    for f, pats in pats_by_file.items():
        for p in rng.sample(pats, min(len(pats), 25)):
            keys.append(instantiate(rng, p))
    # Every pattern with a bracket or '?' or without glob: the rare cases.
    for p in allpats:
        if b"[" in p or b"?" in p or not any(c in p for c in b"*?["):
            keys.append(instantiate(rng, p))
    while len(keys) < a.count * 6 // 10:
        keys.append(instantiate(rng, rng.choice(allpats)))
    while len(keys) < a.count * 8 // 10:
        keys.append(mutate(rng, rng.choice(keys)))
    while len(keys) < a.count:
        keys.append(realistic(rng, pats_by_prefix))
    # Corner cases: glob bytes in the key, empty key, long junk.
    keys += [b"", b"*", b"pci:*", b"usb:v*", b"OUI:?", b"acpi:[", b"x" * 300,
             b"pci:v" + b"0" * 400]

    out = sys.stdout.buffer
    for k in keys:
        k = k.replace(b"\n", b"").replace(b"\0", b"")
        out.write(k + b"\n")


if __name__ == "__main__":
    main()

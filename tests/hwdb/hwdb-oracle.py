#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Oracle test: unitguard's answers must equal systemd's, key for key.

Keys are derived from the real hwdb sources (hwdb-keys.py). The sources are
copied into a temporary root, compiled once by `systemd-hwdb update --root`
and once by `unitguard hwdb compile`. Then every key is answered

  reference: systemd's reader (libsystemd's sd-hwdb, in process; the same
             code systemd-hwdb query runs) on systemd's hwdb.bin
  and must come out identical from
  - unitguard on the text sources          (query --stdin --hwdb-dir)
  - unitguard on systemd's hwdb.bin        (query --stdin --bin)
  - unitguard on its own hwdb.bin          (query --stdin --bin)
  - systemd's reader on unitguard's hwdb.bin
  - `systemd-hwdb query --root` itself, for a sample of keys (one process
    per key, run in parallel), which also ties the in-process reference to
    the real command.

Registered twice: with the default key mix, and as hwdb-oracle-large with
tens of thousands of pattern keys plus the benchmark's modalias mix, so
every lookup path the benchmarks time is checked at their scale.

Exit 77 (skip) when systemd-hwdb or the sources are missing.
"""
import argparse
import concurrent.futures
import ctypes
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def skip(msg):
    print("SKIP: " + msg)
    sys.exit(77)


class SdHwdb:
    """sd-hwdb through ctypes; None when libsystemd cannot be used."""

    def __init__(self, path):
        lib = ctypes.CDLL("libsystemd.so.0")
        self.lib = lib
        lib.sd_hwdb_new_from_path.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]
        lib.sd_hwdb_seek.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
        lib.sd_hwdb_enumerate.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_char_p),
                                          ctypes.POINTER(ctypes.c_char_p)]
        lib.sd_hwdb_unref.argtypes = [ctypes.c_void_p]
        self.h = ctypes.c_void_p()
        r = lib.sd_hwdb_new_from_path(path.encode(), ctypes.byref(self.h))
        if r < 0:
            raise OSError(-r, "sd_hwdb_new_from_path failed for " + path)

    def query(self, key):
        k, v = ctypes.c_char_p(), ctypes.c_char_p()
        out = []
        if self.lib.sd_hwdb_seek(self.h, key) < 0:
            return b""
        while self.lib.sd_hwdb_enumerate(self.h, ctypes.byref(k), ctypes.byref(v)) > 0:
            out.append(k.value + b"=" + v.value + b"\n")
        return b"".join(out)


def sd_cli(root, key):
    p = subprocess.run(["systemd-hwdb", "query", "--root=" + root, key],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        return b"<exit %d>" % p.returncode
    return p.stdout


def ug_batch(ug, args, keys):
    p = subprocess.run([ug, "hwdb", "query", "--stdin"] + args, input=b"".join(k + b"\n" for k in keys),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        sys.exit("unitguard %s failed (%d): %s" % (args, p.returncode, p.stderr.decode(errors="replace")))
    blocks, cur = [], []
    for line in p.stdout.split(b"\n")[:-1]:
        if line == b"":
            blocks.append(b"".join(cur))
            cur = []
        else:
            cur.append(line + b"\n")
    if cur or len(blocks) != len(keys):
        sys.exit("unitguard %s: %d answers for %d keys" % (args, len(blocks), len(keys)))
    return blocks


def compare(name, keys, want, got):
    bad = [i for i in range(len(keys)) if want[i] != got[i]]
    for i in bad[:5]:
        print("MISMATCH %s for key %r:\n  systemd:   %r\n  unitguard: %r" % (name, keys[i], want[i], got[i]))
    print("%-40s %d/%d identical" % (name, len(keys) - len(bad), len(keys)))
    return not bad


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--unitguard", required=True)
    ap.add_argument("--sources", default="/lib/udev/hwdb.d")
    ap.add_argument("--count", type=int, default=3000)
    ap.add_argument("--realistic", type=int, default=0,
                    help="also this many keys of the benchmark's modalias mix (hwdb-keys.py --realistic)")
    ap.add_argument("--cli-sample", type=int, default=300)
    a = ap.parse_args()

    if not shutil.which("systemd-hwdb"):
        skip("systemd-hwdb not installed")
    if not os.path.isdir(a.sources) or not any(n.endswith(".hwdb") for n in os.listdir(a.sources)):
        skip("no hwdb sources in " + a.sources)

    keys = subprocess.run([sys.executable, os.path.join(HERE, "hwdb-keys.py"), "--dir", a.sources,
                           "--count", str(a.count)], check=True, stdout=subprocess.PIPE).stdout
    keys = keys.split(b"\n")[:-1]
    if a.realistic:
        keys += subprocess.run([sys.executable, os.path.join(HERE, "hwdb-keys.py"), "--dir", a.sources,
                                "--count", str(a.realistic), "--realistic", "--seed", "11"],
                               check=True, stdout=subprocess.PIPE).stdout.split(b"\n")[:-1]

    with tempfile.TemporaryDirectory(prefix="ug-hwdb-oracle-") as tmp:
        sd_root = os.path.join(tmp, "sd")
        ug_root = os.path.join(tmp, "ug")
        src = os.path.join(sd_root, "lib/udev/hwdb.d")
        shutil.copytree(a.sources, src)
        subprocess.run(["systemd-hwdb", "update", "--root=" + sd_root], check=True)
        sd_bin = os.path.join(sd_root, "etc/udev/hwdb.bin")
        ug_bin = os.path.join(ug_root, "etc/udev/hwdb.bin")
        os.makedirs(os.path.dirname(ug_bin))
        subprocess.run([a.unitguard, "hwdb", "compile", "--root", sd_root, "-o", ug_bin], check=True)

        ok = True
        try:
            ref = SdHwdb(sd_bin)
            want = [ref.query(k) for k in keys]
            sd_on_ug = SdHwdb(ug_bin)
            ok &= compare("systemd reader on unitguard hwdb.bin", keys, want, [sd_on_ug.query(k) for k in keys])
        except OSError as e:
            print("libsystemd not usable (%s); asking systemd-hwdb for every key" % e)
            with concurrent.futures.ThreadPoolExecutor(4) as ex:
                want = list(ex.map(lambda k: sd_cli(sd_root, k), keys))
            with concurrent.futures.ThreadPoolExecutor(4) as ex:
                got = list(ex.map(lambda k: sd_cli(ug_root, k), keys))
            ok &= compare("systemd-hwdb on unitguard hwdb.bin", keys, want, got)

        matched = sum(1 for w in want if w)
        print("%d keys, %d with properties, %d without" % (len(keys), matched, len(keys) - matched))
        if matched < len(keys) // 3 or len(keys) - matched < len(keys) // 10:
            sys.exit("key mix is off: too few matching or non-matching keys")

        ok &= compare("unitguard on text sources", keys, want, ug_batch(a.unitguard, ["--hwdb-dir", src], keys))
        ok &= compare("unitguard on systemd hwdb.bin", keys, want, ug_batch(a.unitguard, ["--bin", sd_bin], keys))
        ok &= compare("unitguard on unitguard hwdb.bin", keys, want, ug_batch(a.unitguard, ["--bin", ug_bin], keys))
        ok &= compare("unitguard --root (default search)", keys, want, ug_batch(a.unitguard, ["--root", sd_root], keys))

        # The real command, on an even spread of the keys.
        step = max(1, len(keys) // a.cli_sample)
        idx = list(range(0, len(keys), step))
        with concurrent.futures.ThreadPoolExecutor(4) as ex:
            cli = list(ex.map(lambda i: sd_cli(sd_root, keys[i]), idx))
        ok &= compare("systemd-hwdb query vs reference (sample)", [keys[i] for i in idx],
                      [want[i] for i in idx], cli)

    if not ok:
        sys.exit(1)


if __name__ == "__main__":
    main()

"""What every benchmark in bench/ shares: the machine line, one timed
process, and pairs of commands run alternately with the median of their
pairwise ratios (CPU beside wall).

Each run is a fresh process timed with wait4(): its own user+system time,
never the Python parent's. Ratios are taken pair by pair (both commands of
a pair ran within milliseconds of each other on this shared machine) and
the median of those ratios is reported, not the ratio of medians.
"""
import os
import platform
import shutil
import statistics
import subprocess
import time


SUFFIXES = ('.service', '.socket', '.target', '.timer', '.path', '.mount', '.automount', '.swap',
            '.slice', '.scope', '.device')


def unit_files(root):
    """Regular unit files of the root's unit directories, sorted (no
    drop-ins, no .wants links, no symlinks)."""
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        if os.path.basename(dirpath).endswith(('.d', '.wants', '.requires', '.upholds')):
            continue
        if '/systemd/system' not in dirpath:
            continue
        for name in sorted(filenames):
            path = os.path.join(dirpath, name)
            if name.endswith(SUFFIXES) and not os.path.islink(path):
                out.append(path)
    return out


def staged(exe, directory, label):
    """A copy of the executable exe in directory (named label), to run in
    its place. A binary fresh from the linker starts up slower than the
    same bytes copied in one go, as `meson install` or a package manager
    writes them: on the VM these benches were written on, 0.2-0.35 ms more
    CPU per process (a sixth of a one-unit `check`), from the way the page
    cache came to hold the file (the number of page faults is the same).
    Every bench times staged copies: two builds compare like for like, and
    unitguard is timed as it would be installed, beside installed tools."""
    dst = os.path.join(directory, label)
    shutil.copy2(exe, dst)
    return dst


def machine():
    """One line: host, CPU model, CPU count, kernel, load averages."""
    cpu = platform.processor()
    try:
        with open('/proc/cpuinfo') as f:
            for line in f:
                if line.startswith('model name'):
                    cpu = line.split(':', 1)[1].strip()
                    break
    except OSError:
        pass
    load = ' '.join(f'{x:.2f}' for x in os.getloadavg())
    return f'{platform.node()}: {cpu}, {os.cpu_count()} CPUs, Linux {platform.release()}, load {load}'


def run(argv, stdin_path=None, cwd='/'):
    """(wall s, CPU s, exit code) of one process; output discarded."""
    fin = open(stdin_path, 'rb') if stdin_path else subprocess.DEVNULL
    try:
        t0 = time.perf_counter()
        p = subprocess.Popen(argv, stdin=fin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=cwd)
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
    finally:
        if stdin_path:
            fin.close()
    return wall, ru.ru_utime + ru.ru_stime, os.waitstatus_to_exitcode(status)


def peak_rss_mib(argv, stdin_path=None):
    """Peak RSS through GNU time (a child forked from Python would report
    the interpreter's peak in ru_maxrss)."""
    fin = open(stdin_path, 'rb') if stdin_path else subprocess.DEVNULL
    try:
        p = subprocess.run(['/usr/bin/time', '-f', '%M'] + argv, stdin=fin, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True, cwd='/')
    finally:
        if stdin_path:
            fin.close()
    return int(p.stderr.strip().splitlines()[-1]) / 1024.0


class Pairs:
    """Runs of two commands, alternating which goes first pair by pair."""

    def __init__(self, a, b, runs, stdin_path=None):
        self.a, self.b = [], []
        for i in range(runs):
            if i % 2 == 0:
                ra = run(a, stdin_path)
                rb = run(b, stdin_path)
            else:
                rb = run(b, stdin_path)
                ra = run(a, stdin_path)
            self.a.append(ra)
            self.b.append(rb)

    def median(self, side, what):
        """Median wall (what=0) or CPU (what=1) seconds of side 'a' or 'b'."""
        return statistics.median(r[what] for r in getattr(self, side))

    def ratio(self, what):
        """Median of the pairwise ratios b/a (CPU floored at 1 ms: the
        kernel accounts CPU time in ticks)."""
        floor = 1e-3 if what == 1 else 1e-9
        return statistics.median(rb[what] / max(ra[what], floor) for ra, rb in zip(self.a, self.b))

    def codes(self, side):
        return sorted({r[2] for r in getattr(self, side)})

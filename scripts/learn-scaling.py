#!/usr/bin/python3
"""How the n-tuple learner's two threads compare with one on this host, round by round.

usage: scripts/learn-scaling.py [--build DIR] [--pieces N] [--rounds N]

Each round runs, one right after the other, on the first two online CPUs (A and B):
  1tA, 1tB  learn --learner ntuple --pieces N --seed 1 --eval-games 0 --threads 1, pinned to A,
            then to B: pieces per CPU-second of the process (user + sys)
  2t        the same with --threads 2, on A and B: pieces per wall-second
  x2        two one-thread runs at once, one pinned to A and one to B: the pieces of both per
            wall-second until both end
and prints 2t/1t (issue 12's target: at least 1.6), x2/1t (what the host gave two CPUs'
independent work in that round) and 2t/x2 (the learner's share of it), then the medians over
the rounds.  1t is the faster of 1tA and 1tB: the host at times runs one vCPU well below the
other, and a one-thread figure from the slower one would flatter both ratios.  Every run must
write the same weights file, else exit 1.  Before each round, the build's bench/bench_handoff
(if built) gives a cache line's round trip between A and B: about 60 ns and about 450 ns are
the two placements seen on the CI host.  On a shared virtual machine the host's placement of
the two vCPUs, and their speeds, can change within minutes, so a round's runs are close
together in time and its ratios compare them only with each other (docs/performance.md
"Checking a speed claim"; scripts/speed-vs.sh compares two builds).

  --build DIR   a build folder with cli/tetrisbench (default: build/ of this checkout)
  --pieces N    pieces per run, 1000..100000000 (default 500000, speed-vs's)
  --rounds N    1..100 (default 5)
  -h, --help    this text

Exit status: 0 done, 1 a run failed or the weights differ, 2 bad usage or fewer than two
online CPUs.  The runs' files go to a new temporary folder, removed at the end.
"""
import hashlib
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time

ME = "learn-scaling"


def usage_error(message):
    print(f"{ME}: {message} (see --help)", file=sys.stderr)
    sys.exit(2)


def whole_number(name, text, lo, hi):
    if not re.fullmatch(r"[0-9]{1,9}", text):
        usage_error(f"{name} must be a whole number in {lo}..{hi}, not '{text[:40]}'")
    value = int(text)
    if not lo <= value <= hi:
        usage_error(f"{name} must be in {lo}..{hi}, not {value}")
    return value


def parse_args(argv):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    opts = {"build": os.path.join(root, "build"), "pieces": 500000, "rounds": 5}
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg in ("-h", "--help"):
            print(__doc__.strip())
            sys.exit(0)
        name, eq, value = arg.partition("=")
        if name not in ("--build", "--pieces", "--rounds"):
            usage_error(f"unknown argument '{arg[:40]}'")
        if not eq:
            if i + 1 >= len(argv):
                usage_error(f"{name} needs a value")
            value = argv[i + 1]
            i += 1
        if name == "--build":
            opts["build"] = value
        elif name == "--pieces":
            opts["pieces"] = whole_number(name, value, 1000, 100000000)
        else:
            opts["rounds"] = whole_number(name, value, 1, 100)
        i += 1
    return opts


def online_cpus():
    """The online CPUs, from /sys (a list like "0-1,4"), or the ones this process may use."""
    try:
        with open("/sys/devices/system/cpu/online", encoding="ascii") as f:
            text = f.read(4096).strip()
        cpus = []
        for part in text.split(","):
            lo, _, hi = part.partition("-")
            cpus += range(int(lo), int(hi or lo) + 1)
        return cpus
    except (OSError, ValueError):
        return sorted(os.sched_getaffinity(0))


def handoff_ns(bench, a, b):
    """BM_Handoff's real time on CPUs a and b, in ns, as text; "n/a" without the benchmark."""
    if not os.access(bench, os.X_OK):
        return "n/a"
    try:
        out = subprocess.run([bench, "--benchmark_min_time=0.2"], capture_output=True, text=True, timeout=120,
                             preexec_fn=lambda: os.sched_setaffinity(0, {a, b})).stdout
    except (OSError, subprocess.TimeoutExpired):
        return "n/a"
    found = re.search(r"^BM_Handoff\S*\s+([0-9.]+) ns", out, re.M)
    return "%.0f" % float(found.group(1)) if found else "n/a"


def cpu_name(binary):
    try:
        out = subprocess.run([binary, "info"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    for line in out.splitlines():
        if line.startswith("cpu "):
            return line[3:].strip()
    return "unknown"


class Runs:
    def __init__(self, binary, pieces, folder):
        self.binary, self.pieces, self.folder = binary, pieces, folder
        self.live = []  # runs started and not yet waited for

    def stop(self):
        """Kills and waits for every run still going (a failure, or an interrupt)."""
        for proc in self.live:
            proc.kill()
            proc.wait()
        self.live = []

    def command(self, threads, out):
        return [self.binary, "learn", "--learner", "ntuple", "--pieces", str(self.pieces), "--seed", "1",
                "--eval-games", "0", "--threads", str(threads), "--out", out]

    def start(self, name, threads, cpus):
        """Starts one run on `cpus`; returns (process, weights path, output path)."""
        weights = os.path.join(self.folder, name + ".policy")
        output = os.path.join(self.folder, name + ".out")
        try:
            with open(output, "wb") as out:
                proc = subprocess.Popen(self.command(threads, weights), stdin=subprocess.DEVNULL, stdout=out,
                                        stderr=subprocess.STDOUT, preexec_fn=lambda: os.sched_setaffinity(0, cpus))
        except (OSError, subprocess.SubprocessError) as e:  # e.g. a CPU this process may not use
            self.stop()
            print(f"{ME}: could not start a run on CPUs {sorted(cpus)}: {e}", file=sys.stderr)
            sys.exit(1)
        self.live.append(proc)
        return proc, weights, output

    def finish(self, name, proc, weights, output):
        """Waits for a run; returns (pieces it trained on, sha256 of its weights file)."""
        code = proc.wait()
        self.live.remove(proc)
        with open(output, "rb") as f:  # its last MB: the result line ends the output
            f.seek(max(0, os.fstat(f.fileno()).st_size - (1 << 20)))
            text = f.read(1 << 20).decode("utf-8", "replace")
        found = re.search(r"^trained on ([0-9]+) pieces", text, re.M)
        if code != 0 or not found:
            self.stop()
            tail = " / ".join(text.strip().splitlines()[-3:])[:300]
            print(f"{ME}: the {name} run failed (exit status {code}): {tail}", file=sys.stderr)
            sys.exit(1)
        digest = hashlib.sha256()
        with open(weights, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 16), b""):
                digest.update(chunk)
        return int(found.group(1)), digest.hexdigest()

    def one(self, cpu):
        """A one-thread run pinned to `cpu`: (pieces per CPU-second, weights digest)."""
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        pieces, digest = self.finish("1t (CPU %d)" % cpu, *self.start("one%d" % cpu, 1, {cpu}))
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        seconds = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        return pieces / max(seconds, 1e-6), digest

    def round(self, a, b):
        """One round: 1t on a, then on b (CPU time), 2t on a and b (wall), x2 on a and b (wall).
        Returns the four speeds in pieces per second and the weights' digests."""
        one_a, da = self.one(a)
        one_b, db = self.one(b)
        start = time.perf_counter()
        pieces2, d2 = self.finish("2t", *self.start("two", 2, {a, b}))
        two = time.perf_counter() - start
        start = time.perf_counter()
        runs = [("x2 (CPU %d)" % c, self.start("pair%d" % k, 1, {c})) for k, c in enumerate((a, b))]
        done = [self.finish(name, *run) for name, run in runs]
        pair = time.perf_counter() - start
        speeds = (one_a, one_b, pieces2 / max(two, 1e-6), (done[0][0] + done[1][0]) / max(pair, 1e-6))
        return speeds, {da, db, d2, done[0][1], done[1][1]}


def series(runs, rounds, a, b, bench):
    """Runs and prints the rounds, then the medians; returns the exit status."""
    ratios = {"2t/1t": [], "x2/1t": [], "2t/x2": []}
    digests = set()
    for r in range(1, rounds + 1):
        handoff = handoff_ns(bench, a, b)
        (one_a, one_b, two, pair), seen = runs.round(a, b)
        one = max(one_a, one_b)
        digests |= seen
        row = {"2t/1t": two / one, "x2/1t": pair / one, "2t/x2": two / pair}
        for key, value in row.items():
            ratios[key].append(value)
        print(f"{r:>6}  {time.strftime('%H:%M:%S', time.gmtime())}  {handoff:>7}  {one_a / 1e3:7.1f}  "
              f"{one_b / 1e3:7.1f}  {two / 1e3:7.1f}  {pair / 1e3:7.1f}  {row['2t/1t']:6.3f}  "
              f"{row['x2/1t']:6.3f}  {row['2t/x2']:6.3f}", flush=True)
        if len(digests) != 1:
            print(f"{ME}: MISMATCH: the runs of round {r} did not all write the same weights", file=sys.stderr)
            return 1
    medians = "  ".join(f"{statistics.median(v):6.3f}" for v in ratios.values())
    print(f"{'median':>6}  {'':8}  {'':7}  {'':7}  {'':7}  {'':7}  {'':7}  {medians}")
    print(f"{ME}: every run wrote the same weights")
    return 0


def main(argv):
    opts = parse_args(argv)
    binary = os.path.join(opts["build"], "cli", "tetrisbench")
    if not os.access(binary, os.X_OK):
        usage_error(f"no tetrisbench in {opts['build']}/cli (build it first)")
    cpus = online_cpus()
    if len(cpus) < 2:
        print(f"{ME}: needs two online CPUs; this machine has {len(cpus)}", file=sys.stderr)
        return 2
    a, b = cpus[0], cpus[1]
    print(f"{ME}: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; host CPU: {cpu_name(binary)}; "
          f"runs on CPUs {a} and {b}")
    print(f"command (T = 1 or 2): {binary} learn --learner ntuple --pieces {opts['pieces']} --seed 1 "
          "--eval-games 0 --threads T --out FILE")
    print(f"handoff: ns, BM_Handoff before the round; 1tA, 1tB: kpieces per CPU-second, one thread on CPU {a}, "
          f"on CPU {b}; 2t: per wall-second on both; x2: two one-thread runs at once, the pieces of both per "
          "wall-second; 1t: the faster of 1tA and 1tB")
    print(f"{'round':>6}  {'UTC':8}  {'handoff':>7}  {'1tA':>7}  {'1tB':>7}  {'2t':>7}  {'x2':>7}  {'2t/1t':>6}  "
          f"{'x2/1t':>6}  {'2t/x2':>6}")
    bench = os.path.join(opts["build"], "bench", "bench_handoff")
    with tempfile.TemporaryDirectory(prefix=ME + ".") as folder:
        runs = Runs(binary, opts["pieces"], folder)
        try:
            return series(runs, opts["rounds"], a, b, bench)
        finally:
            runs.stop()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

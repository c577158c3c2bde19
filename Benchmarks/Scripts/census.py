#!/usr/bin/env python3
"""The census of a running process and the listing of its conformances, against their floors (issue 40).

Usage: python3 Benchmarks/Scripts/census.py [--runs N] [--check]

Builds Benchmarks/Tools/CensusTarget (a program holding 1,000,000 live objects of four
alternating classes, one generic and one a subclass: about 190 MB of glibc malloc heap) and
Benchmarks/Tools/CensusBench in release, starts the target, and measures, each side in its own
fresh process, alternately, N times (a row's time is the median of its runs):

- census: `RemoteProcess.read(pid).census()`, the whole of `metadata-inspect instances --pid`,
  against its floor, the same heap mappings read with `process_vm_readv` alone. Goal: within 2x
  of the floor, and under 1 s. The counts must be exact: 250,000 of each class.
- listing: `metadata-inspect conformances --pid PID --json` against the same listing of the
  process's image files. Goal: within 1.5x. The two outputs must be the same size.

With --check the script exits non-zero when a goal is not met or a count is wrong.
"""
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
BENCHMARKS = os.path.abspath(os.path.join(HERE, ".."))
COUNT = 1_000_000
CLASSES = ["CensusTarget.Row", "CensusTarget.Cell<Swift.Double>", "CensusTarget.Item", "CensusTarget.Derived"]


def build(product):
    subprocess.run(["swift", "build", "-c", "release", "--product", product], cwd=BENCHMARKS, check=True,
                   stdout=subprocess.DEVNULL)
    path = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=BENCHMARKS, check=True,
                          capture_output=True, text=True).stdout.strip()
    return os.path.join(path, product)


def measure(bench, *arguments):
    output = subprocess.run([bench, *arguments], check=True, capture_output=True, text=True).stdout
    return json.loads(output)


def main():
    arguments = sys.argv[1:]
    runs = int(arguments[arguments.index("--runs") + 1]) if "--runs" in arguments else 5
    check = "--check" in arguments
    target = build("CensusTarget")
    bench = build("CensusBench")
    process = subprocess.Popen([target, str(COUNT)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        ready = process.stdout.readline().split()
        pid = ready[1]
        paths = subprocess.run([bench, "images", pid], check=True, capture_output=True, text=True).stdout.split()
        samples = {"floor": [], "census": [], "files": [], "listing": []}
        failures = []
        for _ in range(runs):
            floor = measure(bench, "floor", pid)
            census = measure(bench, "census", pid)
            files = measure(bench, "files", *paths)
            listing = measure(bench, "listing", pid)
            samples["floor"].append(floor["ms"])
            samples["census"].append(census["ms"])
            samples["files"].append(files["ms"])
            samples["listing"].append(listing["ms"])
            for name in CLASSES:
                if census["counts"].get(name) != COUNT // 4:
                    failures.append(f"census counted {census['counts'].get(name)} of {name}, not {COUNT // 4}")
            if files["bytes"] != listing["bytes"] or files["status"] != 0 or listing["status"] != 0:
                failures.append(f"listing of the process ({listing}) differs from its files' ({files})")
        median = {name: statistics.median(values) for name, values in samples.items()}
        census_ratio = median["census"] / median["floor"]
        listing_ratio = median["listing"] / median["files"]
        print(f"Measured on {os.cpu_count()} cores; medians of {runs} runs, each side in its own process.")
        print()
        print("| row | time | floor | floor time | ratio | goal | met |")
        print("|---|---|---|---|---|---|---|")
        census_met = census_ratio <= 2.0 and median["census"] < 1000
        listing_met = listing_ratio <= 1.5
        print(f"| census of {COUNT:,} objects (read + census) | {median['census']:.0f} ms | heap read alone "
              f"({floor['bytes'] / 1e6:.0f} MB) | {median['floor']:.0f} ms | {census_ratio:.2f}x | "
              f"<= 2x and < 1 s | {'yes' if census_met else 'no'} |")
        print(f"| conformances --pid | {median['listing']:.1f} ms | the same images' files | "
              f"{median['files']:.1f} ms | {listing_ratio:.2f}x | <= 1.5x | {'yes' if listing_met else 'no'} |")
        if not census_met:
            failures.append(f"census {median['census']:.0f} ms is {census_ratio:.2f}x its floor (goal 2x, < 1 s)")
        if not listing_met:
            failures.append(f"conformances --pid is {listing_ratio:.2f}x the files' listing (goal 1.5x)")
        for failure in failures:
            print("FAIL:", failure, file=sys.stderr)
        if check and failures:
            sys.exit(1)
    finally:
        process.stdin.close()
        process.wait(timeout=60)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Runs the benchmarks and prints the results table: each benchmark beside its baseline.

Usage: python3 Benchmarks/Scripts/results.py [--markdown]

The table pairs each benchmark of this library with the baseline a user would pick, both
measured in the same run, and gives the ratio of their medians (p50 wall clock, per
iteration) and the goal from the benchmarks issue. Allocation counts are per iteration.
"""
import os
import platform
import re
import subprocess
import sys

PAIRS = [
    # (benchmark, baseline, goal text, goal test on ratio = baseline / benchmark)
    ("Conformance.lookup.hit.warm", "AsCast.lookup.hit", ">= 5x faster", lambda r: r >= 5),
    ("Conformance.lookup.miss.warm", "AsCast.lookup.miss", ">= 5x faster", lambda r: r >= 5),
    ("Open.value.warm", "AsCast.value", ">= 10x faster", lambda r: r >= 10),
    ("Fields.list.warm", "Mirror.children", ">= 200x faster", lambda r: r >= 200),
    ("Fields.list.warm", "ForEachField.list", ">= 50x faster", lambda r: r >= 50),
    ("Fields.read.warm", "KeyPath.read", "no slower (<= 1.0x)", lambda r: r >= 1.0),
    ("Enum.caseName.warm", "Mirror.caseName", ">= 100x faster", lambda r: r >= 100),
    ("Equality.layout.warm", "Equatable.equal", "within 2x", lambda r: r >= 0.5),
    ("TypeByName.reflectingName.warm", "TypeByName.stdlibTypeByName", ">= 5x faster", lambda r: r >= 5),
]


def run():
    package = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    output = subprocess.run(
        ["swift", "package", "--package-path", package, "benchmark", "--no-progress", "--format", "markdown"],
        check=True, capture_output=True, text=True).stdout
    results = {}
    name = None
    for line in output.splitlines():
        match = re.match(r"^### (.+)$", line)
        if match:
            name = match.group(1)
            results[name] = {}
            continue
        if name is None or not line.startswith("|"):
            continue
        cells = [cell.strip() for cell in line.split("|")[1:-1]]
        if cells[0].startswith("Time (wall clock)"):
            results[name]["p50"] = float(cells[3])
        elif cells[0].startswith("Malloc (total)"):
            results[name]["mallocs"] = float(cells[3])
    return results


def main():
    results = run()
    toolchain = subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    print(f"Measured with {toolchain} on {platform.machine()} {platform.system()}, {os.cpu_count()} cores.")
    print()
    print("| benchmark | p50 | baseline | p50 | ratio | goal | met |")
    print("|---|---|---|---|---|---|---|")
    for benchmark, baseline, goal, test in PAIRS:
        ours = results.get(benchmark, {}).get("p50")
        theirs = results.get(baseline, {}).get("p50")
        if ours is None or theirs is None:
            print(f"| {benchmark} | ? | {baseline} | ? | | {goal} | |")
            continue
        ratio = theirs / max(ours, 0.5)
        print(f"| {benchmark} | {ours:g} ns | {baseline} | {theirs:g} ns | {ratio:.2f}x | {goal} | "
              f"{'yes' if test(ratio) else 'no'} |")
    print()
    print("| benchmark | mallocs per iteration (p50) |")
    print("|---|---|")
    for name in sorted(results):
        if name.endswith(".warm"):
            print(f"| {name} | {results[name].get('mallocs', '?'):g} |")


if __name__ == "__main__":
    sys.exit(main())

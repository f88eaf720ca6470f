#!/usr/bin/env python3
"""Regression check: instructions per task under callgrind, against the committed record.

Runs a small fixed workload per task (realm-bench, realmtui engine only, 20,000 objects, one
run) under `valgrind --tool=callgrind`, collecting only the task's timed part (realm-bench
`--profile TASK` runs it inside `profiledTask`), and compares each task's instruction count
(Ir) with Benchmarks/callgrind-record.json. Instruction counts barely move with the machine's
load, so this catches a slowdown that a noisy wall clock hides.

Fails (exit 1) when a task takes more than 10 % more instructions than its record. `--update`
rewrites the record with this run's figures (commit it with the change that moved them).
Hand-run only (a few minutes), not in CI:

    Benchmarks/Scripts/callgrind-check.py                 # build (release), run, compare
    Benchmarks/Scripts/callgrind-check.py --update        # and record the new figures
    Benchmarks/Scripts/callgrind-check.py --tasks enumerate,pk_lookup
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.dirname(HERE)
RECORD = os.path.join(BENCH, "callgrind-record.json")
BINARY = os.path.join(BENCH, ".build", "release", "realm-bench")
OBJECTS = 20_000
TOLERANCE = 0.10
# What a task's instructions are divided by for the "per" column (default: an object).
UNITS = {"pk_lookup": (100_000, "lookup"), "insert_txn": (1_000, "commit"), "open": (1, "open")}
TASKS = ["insert_bulk", "count_filter", "query_string", "enumerate", "pk_lookup", "sort_first_page",
         "count", "open", "update_bulk", "insert_txn", "delete_bulk",
         # The set and dictionary counts (issue 23): 20,000 items of their own, per item.
         "set_contains", "set_in_either", "set_size", "map_key_value", "map_any_value", "map_has_key"]


def instructions(task, binary):
    """Ir collected inside profiledTask for one run of `task`."""
    with tempfile.TemporaryDirectory(prefix="callgrind-check-") as scratch:
        out = os.path.join(scratch, "callgrind.out")
        # --only: the task alone (insert_bulk always runs first, to make the data).
        only = task if task == "insert_bulk" else f"insert_bulk,{task}"
        cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", "--toggle-collect=*profiledTask*",
               binary, "--objects", str(OBJECTS), "--repeat", "1", "--engine", "realmtui", "--count-repeat", "1",
               "--only", only, "--profile", task, "--dir", scratch]
        run = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if run.returncode != 0:
            sys.stderr.write(run.stderr)
            sys.exit(f"callgrind-check: realm-bench failed on {task} (exit {run.returncode})")
        with open(out) as f:
            for line in f:
                m = re.match(r"(?:summary|totals):\s+(\d+)", line)
                if m:
                    return int(m.group(1))
    sys.exit(f"callgrind-check: no instruction total in callgrind's output for {task}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--update", action="store_true", help="rewrite the record with this run's figures")
    parser.add_argument("--tasks", help="comma-separated subset of: " + ", ".join(TASKS))
    parser.add_argument("--no-build", action="store_true", help="use the existing release build")
    parser.add_argument("--binary", help="run this realm-bench (e.g. a copy of an older build; implies --no-build)")
    args = parser.parse_args()
    tasks = TASKS if not args.tasks else args.tasks.split(",")
    for t in tasks:
        if t not in TASKS:
            sys.exit(f"callgrind-check: unknown task {t}; tasks: {', '.join(TASKS)}")
    binary = args.binary or BINARY
    if not args.no_build and not args.binary:
        subprocess.run(["swift", "build", "-c", "release", "--package-path", BENCH, "--product", "realm-bench"], check=True)
    # Valgrind 3.19 gives up on the DWARF of Swift 6.3's release binaries ("Possibly corrupted
    # debuginfo file"): run a copy without debug info (its symbols, which --toggle-collect
    # needs, stay; the instructions are the same).
    stripped_dir = tempfile.TemporaryDirectory(prefix="callgrind-check-bin-")
    stripped = os.path.join(stripped_dir.name, "realm-bench")
    if subprocess.run(["objcopy", "--strip-debug", binary, stripped]).returncode != 0:
        sys.exit(f"callgrind-check: objcopy --strip-debug {binary} failed")
    binary = stripped

    record = {"objects": OBJECTS, "tasks": {}}
    if os.path.exists(RECORD):
        with open(RECORD) as f:
            record = json.load(f)
    if record.get("objects") != OBJECTS:
        sys.exit(f"callgrind-check: the record is for {record.get('objects')} objects, this check runs {OBJECTS}")

    failed = []
    print(f"{'task':<16} {'Ir':>14} {'per':>18} {'record':>14} {'change':>8}")
    for task in tasks:
        ir = instructions(task, binary)
        old = record["tasks"].get(task, {}).get("instructions")
        change = f"{(ir / old - 1) * 100:+.1f}%" if old else "new"
        flag = ""
        if old and ir > old * (1 + TOLERANCE):
            failed.append(task)
            flag = "  SLOWER"
        units, unit = UNITS.get(task, (OBJECTS, "object"))
        per = f"{ir / units:,.0f} / {unit}"
        print(f"{task:<16} {ir:>14,} {per:>18} {old or 0:>14,} {change:>8}{flag}", flush=True)
        if args.update:
            record["tasks"][task] = {"instructions": ir, "per_" + unit: round(ir / units, 1)}

    if args.update:
        commit = subprocess.run(["git", "-C", BENCH, "rev-parse", "--short", "HEAD"], stdout=subprocess.PIPE, text=True).stdout.strip()
        record["recorded"] = {"date": time.strftime("%Y-%m-%d"), "base_commit": commit}
        with open(RECORD, "w") as f:
            json.dump(record, f, indent=2, sort_keys=True)
            f.write("\n")
        print(f"recorded in {os.path.relpath(RECORD)}")
    if failed and not args.update:
        print(f"callgrind-check: more than {TOLERANCE:.0%} above the record: {', '.join(failed)}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()

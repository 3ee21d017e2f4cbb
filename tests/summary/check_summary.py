#!/usr/bin/env python3
"""check_summary.py: runs rl-insight on an input, validates summary.json against doc/summary.schema.json,
and recomputes the per-phase statistics from the exported rl_events.csv on its own to compare.

Usage: check_summary.py RL_INSIGHT SCHEMA INPUT_DIR WORK_DIR [PROFILER]
Exit 77 (skipped) when the jsonschema module or the input is missing."""
import csv, json, math, os, shutil, subprocess, sys

def quantile(values, p):  # numpy's default: linear between order statistics
    h = (len(values) - 1) * p
    lo = math.floor(h)
    return values[lo] + (h - lo) * (values[lo + 1] - values[lo]) if lo + 1 < len(values) else values[-1]

def main():
    try:
        import jsonschema
    except ImportError:
        print("python3-jsonschema is not installed: skipped")
        return 77
    tool, schema_path, input_dir, work = sys.argv[1:5]
    profiler = sys.argv[5] if len(sys.argv) > 5 else "auto"
    if not os.path.isdir(input_dir):
        print(f"{input_dir} is missing: skipped")
        return 77
    shutil.rmtree(work, ignore_errors=True)
    run = subprocess.run([tool, "--input-path", input_dir, "--profiler-type", profiler, "--vis-type", "none",
                          "--export", "csv", "--output-path", work, "-q"], capture_output=True, text=True)
    if run.returncode != 0:
        print(f"rl-insight exited {run.returncode}: {run.stderr}")
        return 1
    with open(os.path.join(work, "summary.json"), encoding="utf-8") as f:
        summary = json.load(f)
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(summary))
    for e in errors:
        print(f"schema: {'/'.join(map(str, e.absolute_path))}: {e.message}")

    # The phases, worked out again from the exported table.
    groups = {}
    with open(os.path.join(work, "rl_events.csv"), newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            d = float(row["duration_ms"])
            if d >= 0:
                groups.setdefault((row["role"], row["name"]), []).append((d, int(row["rank_id"])))
    failures = len(errors)
    phases = {(p["role"], p["name"]): p for p in summary["phases"]}
    if sorted(phases) != sorted(groups):
        print(f"phases: summary has {sorted(phases)}, the table {sorted(groups)}")
        failures += 1
    for key, samples in groups.items():
        p = phases.get(key)
        if not p:
            continue
        values = sorted(v for v, _ in samples)
        n = len(values)
        mean = sum(values) / n
        want = {"count": n, "total_ms": sum(values), "mean_ms": mean, "median_ms": quantile(values, 0.5),
                "min_ms": values[0], "max_ms": values[-1], "q1_ms": quantile(values, 0.25),
                "q3_ms": quantile(values, 0.75),
                "stddev_ms": math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0,
                "min_rank": min(r for v, r in samples if v == values[0]),
                "max_rank": min(r for v, r in samples if v == values[-1])}
        for name, value in want.items():
            got = p[name]
            if not math.isclose(got, value, rel_tol=1e-9, abs_tol=1e-9):
                print(f"{key} {name}: summary {got}, recomputed {value}")
                failures += 1
    if summary["run"]["rows_counted"] != sum(len(s) for s in groups.values()):
        print("run.rows_counted does not match the table")
        failures += 1
    print(f"{len(groups)} phases checked, {failures} problems")
    return 1 if failures else 0

sys.exit(main())

#!/usr/bin/env python3
"""check_summary.py: runs rl-insight on an input, validates summary.json against doc/summary.schema.json,
and recomputes the per-phase statistics from the exported rl_events.csv on its own to compare; for memory
records (PROFILER memory), each device's peak from memory_events.csv.

Usage: check_summary.py RL_INSIGHT SCHEMA INPUT_DIR WORK_DIR [PROFILER]
Exit 77 (skipped) when the jsonschema module or the input is missing."""
import csv, json, math, os, shutil, subprocess, sys

def quantile(values, p):  # numpy's default: linear between order statistics
    h = (len(values) - 1) * p
    lo = math.floor(h)
    return values[lo] + (h - lo) * (values[lo + 1] - values[lo]) if lo + 1 < len(values) else values[-1]

def memory_peaks(path):
    """Per (role, rank): the memory curve, worked out on its own from the exported rows. A block lives
    [start, start + duration), one with no positive duration to the device's last moment. Where the rows
    carry the allocator's totals the curve is that count (decisions.md, Memory): Ascend's (the table has
    release_total_allocated_mb) each allocator's last total written, summed over PTA and GE; PyTorch's
    (CUDA/CPU rows with a total) the count before the first allocation plus every change since,
    the frees of blocks from before the capture too. Else the running sum from 0. The changes at one
    moment are taken together; the peak and the first moment it is reached, and which curve it is."""
    devices = {}
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        rows_totals = "release_total_allocated_mb" in (reader.fieldnames or [])
        for row in reader:
            devices.setdefault((row["role"], int(row["rank_id"])), []).append(row)
    peaks = {}
    for key, rows in devices.items():
        blocks = [r for r in rows if float(r["size_kb"]) > 0]
        t_min = min(float(r["start_time_ms"]) for r in blocks)
        t_end = max(float(r["start_time_ms"]) + max(float(r["duration_ms"]), 0) for r in blocks)
        torch = blocks[0]["device_type"].startswith(("CUDA:", "CPU:", "HIP:"))
        events = torch and any(float(r["total_allocated_mb"]) > 0 for r in blocks)
        curve = "allocator" if rows_totals or events else "blocks"
        if rows_totals:
            samples, start = [], {}
            for r in blocks:
                pool, s, d = r["allocator"], float(r["start_time_ms"]), float(r["duration_ms"])
                if pool not in start:
                    start[pool] = float(r["total_allocated_mb"]) - float(r["size_kb"]) / 1024
                samples.append((s, len(samples), pool, float(r["total_allocated_mb"])))
                if d > 0 and r["release_total_allocated_mb"] != "":
                    samples.append((s + d, len(samples), pool, float(r["release_total_allocated_mb"])))
            current = dict(start)
            before = value = peak = sum(current.values())
            when = t_min
            samples.sort()
            i = 0
            while i < len(samples):
                t = samples[i][0]
                while i < len(samples) and samples[i][0] == t:
                    current[samples[i][2]] = samples[i][3]
                    i += 1
                value = sum(current.values())
                if value > peak + 1e-9:
                    peak, when = value, t
            peaks[key] = (peak, when - t_min, len(blocks), curve, before)
            continue
        changes = {}
        value = 0.0
        before = 0.0
        if events:
            first = blocks[0]
            value = float(first["total_allocated_mb"]) * 1024 - float(first["size_kb"])
            seen = False
            for r in rows:
                size = float(r["size_kb"])
                if size > 0:
                    seen = True
                elif size < 0 and not seen:
                    before -= size
                elif size < 0:
                    t = float(r["start_time_ms"])
                    changes[t] = changes.get(t, 0) + size
            before = (value + before) / 1024
        for r in blocks:
            s, d, size = float(r["start_time_ms"]), float(r["duration_ms"]), float(r["size_kb"])
            end = s + d if d > 0 else t_end
            changes[s] = changes.get(s, 0) + size
            changes[end] = changes.get(end, 0) - size
        peak, when = value / 1024, t_min
        for t in sorted(changes):
            value += changes[t]
            if value / 1024 > peak + 1e-9:
                peak, when = value / 1024, t
        peaks[key] = (peak, when - t_min, len(blocks), curve, before)
    return peaks

def check_memory(summary, events_csv):
    memory = summary.get("memory")
    if memory is None:
        print("summary.json has no memory section")
        return 1
    want = memory_peaks(events_csv)
    got = {(d["role"], d["rank"]): d for d in memory["devices"]}
    failures = 0
    if sorted(got) != sorted(want):
        print(f"memory devices: summary {sorted(got)}, table {sorted(want)}")
        failures += 1
    for key, (peak, when, count, curve, before) in want.items():
        d = got.get(key)
        if not d:
            continue
        live = sum(b["size_kb"] for b in d["largest_live"])
        checks = {"peak_mb": (d["peak_mb"], peak), "peak_ms": (d["peak_ms"], when),
                  "peak_at_ms": (d["peak_at_ms"] - d["first_ms"], when), "allocations": (d["allocations"], count),
                  "allocated_before_mb": (d["allocated_before_mb"], before)}
        for name, (g, w) in checks.items():
            if not math.isclose(g, w, rel_tol=1e-9, abs_tol=1e-6):
                print(f"{key} {name}: summary {g}, recomputed {w}")
                failures += 1
        if d["curve"] != curve:
            print(f"{key} curve: summary {d['curve']}, recomputed {curve}")
            failures += 1
        # the listed live blocks hold at most the peak, all of it when every live block is listed and
        # the curve is theirs alone (the allocator's count holds what was there before the capture too)
        whole = curve == "blocks" and d["live_at_peak"] <= 10
        if live > peak * 1024 + 1e-6 or (whole and not math.isclose(live, peak * 1024, abs_tol=1e-6)):
            print(f"{key}: the blocks live at the peak hold {live} KB of {peak * 1024}")
            failures += 1
        shares = sum(s["peak_share"] for s in d["sites_by_live"])
        if d["call_sites"] <= 10 and peak > 0 and not math.isclose(shares, 1.0, abs_tol=1e-9):
            print(f"{key}: the call sites' shares of the peak sum to {shares}")
            failures += 1
    print(f"{len(want)} memory devices checked")
    return failures

def close(a, b):
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


def check_ranks_and_steps(summary, events_csv):
    """Each rank's phases, each role's ranks and typical step, and the run's step time, worked out again."""
    per_rank, bars = {}, {}
    with open(events_csv, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            d, start = float(row["duration_ms"]), float(row["start_time_ms"])
            if d < 0:
                continue
            rank = int(row["rank_id"])
            per_rank.setdefault((row["role"], row["name"], rank), []).append(d)
            bars.setdefault((row["role"], rank), []).append((start, start + d, d))
    failures = 0
    got = {(p["role"], p["name"], p["rank"]): p for p in summary["rank_phases"]}
    if sorted(got) != sorted(per_rank):
        print("rank_phases: the summary's keys are not the table's")
        return 1
    for key, values in per_rank.items():
        values.sort()
        want = {"count": len(values), "total_ms": sum(values), "median_ms": quantile(values, 0.5),
                "q1_ms": quantile(values, 0.25), "q3_ms": quantile(values, 0.75), "p95_ms": quantile(values, 0.95)}
        for name, value in want.items():
            if not close(got[key][name], value):
                print(f"rank_phases {key} {name}: summary {got[key][name]}, recomputed {value}")
                failures += 1
    # Step k of a (role, rank) is its k-th bar in time order (ties in table order: a stable sort).
    spans, role_steps = {}, {}
    for (role, rank), items in bars.items():
        items.sort(key=lambda b: b[0])
        for k, (start, end, d) in enumerate(items):
            lo, hi = spans.get(k, (start, end))
            spans[k] = (min(lo, start), max(hi, end))
            role_steps.setdefault(role, {}).setdefault(k, []).append(d)
    step_ms = quantile(sorted(hi - lo for lo, hi in spans.values()), 0.5) if spans else 0.0
    if not close(summary["run"]["step_ms"], step_ms):
        print(f"run.step_ms: summary {summary['run']['step_ms']}, recomputed {step_ms}")
        failures += 1
    for r in summary["roles"]:
        ranks = sorted(rank for role, rank in bars if role == r["role"])
        if r["rank_ids"] != ranks:
            print(f"roles {r['role']} rank_ids: summary {r['rank_ids']}, table {ranks}")
            failures += 1
        medians = sorted(quantile(sorted(v), 0.5) for v in role_steps[r["role"]].values())
        if not close(r["step_median_ms"], quantile(medians, 0.5)):
            print(f"roles {r['role']} step_median_ms: summary {r['step_median_ms']}, recomputed {quantile(medians, 0.5)}")
            failures += 1
    return failures


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

    if profiler == "memory":
        failures = len(errors) + check_memory(summary, os.path.join(work, "memory_events.csv"))
        print(f"memory: {failures} problems")
        return 1 if failures else 0

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
                "q3_ms": quantile(values, 0.75), "p95_ms": quantile(values, 0.95),
                "stddev_ms": math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0,
                "min_rank": min(r for v, r in samples if v == values[0]),
                "max_rank": min(r for v, r in samples if v == values[-1])}
        for name, value in want.items():
            got = p[name]
            if not math.isclose(got, value, rel_tol=1e-9, abs_tol=1e-9):
                print(f"{key} {name}: summary {got}, recomputed {value}")
                failures += 1
    failures += check_ranks_and_steps(summary, os.path.join(work, "rl_events.csv"))
    if summary["run"]["rows_counted"] != sum(len(s) for s in groups.values()):
        print("run.rows_counted does not match the table")
        failures += 1
    print(f"{len(groups)} phases checked, {failures} problems")
    return 1 if failures else 0

sys.exit(main())

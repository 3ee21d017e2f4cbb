#!/usr/bin/env python3
"""check_compare.py: runs rl-insight --baseline on two runs and checks its comparison against one worked out
here from the two runs' exported tables: per phase (over all ranks and per rank) the medians, quartiles, change,
ratio, noise verdict and regression; per role the ranks added and removed; per memory device the call sites'
allocated bytes; the exit status and the stderr lines of --fail-on-regression; the same rows with the baseline
given as its summary.json; summary.json against its schema.

Usage: check_compare.py RL_INSIGHT SCHEMA BASELINE CURRENT WORK [THRESHOLD_PERCENT] [EXPECT...]
EXPECT: regression=<role or phase>/<rank> (that rank's phase must be a regression, named on stderr),
no-regression, added-role=<role>, removed-role=<role>, top-site=<call_stack_top> (first among the call-site
changes of every device it grew on), summary-baseline (also compare against the baseline's summary.json),
tables (both sides again from the tables --export wrote: the same rows), pair=<pair.txt> (what
rl-insight-synth --pair planted, turned into the expectations above).
Exit 77 (skipped) when python3-jsonschema is missing."""
import csv, json, math, os, shutil, subprocess, sys

MIN_SAMPLES = 3


def quantile(values, p):  # numpy's default: linear between order statistics
    h = (len(values) - 1) * p
    lo = math.floor(h)
    return values[lo] + (h - lo) * (values[lo + 1] - values[lo]) if lo + 1 < len(values) else values[-1]


def close(a, b):
    if a is None or b is None:
        return a is b
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


def samples(events_csv):
    """(role, name) -> durations and (role, name, rank) -> durations, bars that end before they start left out."""
    phases, ranks, role_ranks = {}, {}, {}
    with open(events_csv, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            d = float(row["duration_ms"])
            if d < 0:
                continue
            rank = int(row["rank_id"])
            phases.setdefault((row["role"], row["name"]), []).append(d)
            ranks.setdefault((row["role"], row["name"], rank), []).append(d)
            role_ranks.setdefault(row["role"], set()).add(rank)
    return phases, ranks, role_ranks


def describe(values):
    v = sorted(values)
    return {"count": len(v), "median_ms": quantile(v, 0.5), "q1_ms": quantile(v, 0.25), "q3_ms": quantile(v, 0.75),
            "total_ms": sum(v), "p95_ms": quantile(v, 0.95)}


def expected_change(a, b, threshold):
    if a is None or b is None:
        return {"presence": "added" if a is None else "removed", "noise": "too few samples", "verdict": "one side"}
    change = b["median_ms"] - a["median_ms"]
    ratio = b["median_ms"] / a["median_ms"] - 1 if a["median_ms"] != 0 else None
    if a["count"] < MIN_SAMPLES or b["count"] < MIN_SAMPLES:
        noise = "too few samples"
    elif abs(change) > a["q3_ms"] - a["q1_ms"] and abs(change) > b["q3_ms"] - b["q1_ms"]:
        noise = "beyond noise"
    else:
        noise = "within noise"
    verdict = "same"
    if noise == "beyond noise" and ratio is not None and abs(ratio) > threshold:
        verdict = "regression" if change > 0 else "improvement"
    return {"presence": "both", "change_ms": change, "ratio": ratio, "noise": noise, "verdict": verdict}


def check_rows(got_rows, base, cur, keyf, threshold, what):
    failures = 0
    got = {keyf(r): r for r in got_rows}
    keys = sorted(set(base) | set(cur))
    if sorted(got) != keys:
        print(f"{what}: the comparison lists {sorted(got)}, the tables {keys}")
        return 1
    for key in keys:
        a = describe(base[key]) if key in base else None
        b = describe(cur[key]) if key in cur else None
        want, row = expected_change(a, b, threshold), got[key]
        for name, value in want.items():
            if name in ("change_ms", "ratio"):
                if not close(row[name], value):
                    print(f"{what} {key} {name}: comparison {row[name]}, recomputed {value}")
                    failures += 1
            elif row[name] != value:
                print(f"{what} {key} {name}: comparison {row[name]}, recomputed {value}")
                failures += 1
        for side, s in (("baseline", a), ("current", b)):
            if s is None:
                if row[side] is not None:
                    print(f"{what} {key}: {side} should be null")
                    failures += 1
                continue
            for name in ("count", "median_ms", "q1_ms", "q3_ms", "total_ms"):
                if not close(row[side][name], s[name]):
                    print(f"{what} {key} {side}.{name}: comparison {row[side][name]}, recomputed {s[name]}")
                    failures += 1
    return failures


def steps(events_csv):
    """(role, k) -> (median across ranks, slowest rank): step k is the k-th bar of each (role, rank) in time order."""
    bars = {}
    with open(events_csv, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            d = float(row["duration_ms"])
            if d >= 0:
                bars.setdefault((row["role"], int(row["rank_id"])), []).append((float(row["start_time_ms"]), d))
    by_step = {}
    for (role, rank), items in bars.items():
        items.sort(key=lambda b: b[0])  # stable: equal starts keep table order
        for k, (_, d) in enumerate(items, 1):
            by_step.setdefault((role, k), []).append((d, rank))
    out = {}
    for key, values in by_step.items():
        slowest = min(values, key=lambda v: (-v[0], v[1]))
        out[key] = (quantile(sorted(v for v, _ in values), 0.5), slowest[1])
    return out


def check_steps(got_rows, base, cur):
    failures = 0
    got = {(k["role"], k["step"]): k for k in got_rows}
    if sorted(got) != sorted(set(base) | set(cur)):
        print("steps: the comparison's are not the tables'")
        return 1
    for key, row in got.items():
        a, b = base.get(key), cur.get(key)
        if (a and not close(row["baseline_median_ms"], a[0])) or (b and not close(row["current_median_ms"], b[0])) or \
           (a and row["baseline_slowest_rank"] != a[1]) or (b and row["current_slowest_rank"] != b[1]) or \
           row["slowest_changed"] != bool(a and b and a[1] != b[1]):
            print(f"steps {key}: comparison {row}, recomputed {a} -> {b}")
            failures += 1
    return failures


def site_bytes(memory_csv):
    """(role, rank, device type) -> call_stack_top -> allocated KB, from the allocations."""
    sites = {}
    with open(memory_csv, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            size = float(row["size_kb"])
            if size > 0:
                device = sites.setdefault((row["role"], int(row["rank_id"]), row["device_type"]), {})
                device[row["call_stack_top"]] = device.get(row["call_stack_top"], 0) + size
    return sites


def pair_expectations(path):
    """What a generated pair planted (bench/synth: pair.txt), as EXPECT words."""
    facts = dict(line.rstrip("\n").split("=", 1) for line in open(path, encoding="utf-8") if "=" in line)
    kind = facts["kind"]
    if kind == "identical" and float(facts.get("jitter", "0")) == 0:
        return ["no-regression"]
    if kind == "slowdown":
        return [f"regression={facts['role']}/{facts['rank']}"]
    if kind == "memory-growth":
        return [f"top-site={facts['site']}"]
    if kind == "roles":
        return [f"added-role={r}" for r in facts["added_roles"].split(",") if r] + \
               [f"removed-role={r}" for r in facts["removed_roles"].split(",") if r]
    return []


def run(tool, args):
    return subprocess.run([tool] + args, capture_output=True, text=True)


def main():
    try:
        import jsonschema
    except ImportError:
        print("python3-jsonschema is not installed: skipped")
        return 77
    tool, schema_path, baseline, current, work = sys.argv[1:6]
    threshold_percent = float(sys.argv[6]) if len(sys.argv) > 6 else 0.0
    expect = []
    for word in sys.argv[7:]:
        expect += pair_expectations(word[5:]) if word.startswith("pair=") else [word]
    threshold = threshold_percent / 100
    shutil.rmtree(work, ignore_errors=True)
    base_out, cur_out = os.path.join(work, "baseline"), os.path.join(work, "current")
    r = run(tool, ["--input-path", baseline, "--output-path", base_out, "--vis-type", "none", "--export", "csv", "-q"])
    if r.returncode != 0:
        print(f"the baseline alone: exit {r.returncode}: {r.stderr}")
        return 1
    args = ["--input-path", current, "--output-path", cur_out, "--vis-type", "none", "--export", "csv",
            "--baseline", baseline, "-q"]
    if threshold_percent > 0 or "no-regression" in expect:
        args += ["--fail-on-regression", f"{threshold_percent:g}%"]
    r = run(tool, args)
    failures = 0
    if not os.path.exists(os.path.join(cur_out, "summary.json")):
        print(f"no summary.json: exit {r.returncode}: {r.stderr}")
        return 1
    with open(os.path.join(cur_out, "summary.json"), encoding="utf-8") as f:
        summary = json.load(f)
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    for e in jsonschema.Draft202012Validator(schema).iter_errors(summary):
        print(f"schema: {'/'.join(map(str, e.absolute_path))}: {e.message}")
        failures += 1
    comparison = summary["comparison"]

    has_timeline = os.path.exists(os.path.join(base_out, "rl_events.csv"))
    regressions = []
    if has_timeline:
        base_phases, base_ranks, base_roles = samples(os.path.join(base_out, "rl_events.csv"))
        cur_phases, cur_ranks, cur_roles = samples(os.path.join(cur_out, "rl_events.csv"))
        failures += check_rows(comparison["phases"], base_phases, cur_phases, lambda p: (p["role"], p["name"]),
                               threshold, "phases")
        failures += check_rows(comparison["rank_phases"], base_ranks, cur_ranks,
                               lambda p: (p["role"], p["name"], p["rank"]), threshold, "rank_phases")
        regressions = [p for p in comparison["phases"] + comparison["rank_phases"] if p["verdict"] == "regression"]
        failures += check_steps(comparison["steps"], steps(os.path.join(base_out, "rl_events.csv")),
                                steps(os.path.join(cur_out, "rl_events.csv")))
        for role in comparison["roles"]:
            a, b = base_roles.get(role["role"]), cur_roles.get(role["role"])
            want_presence = "both" if a and b else ("added" if b else "removed")
            if role["presence"] != want_presence:
                print(f"role {role['role']}: presence {role['presence']}, the tables say {want_presence}")
                failures += 1
            if a and b and (role["ranks_added"] != sorted(b - a) or role["ranks_removed"] != sorted(a - b)):
                print(f"role {role['role']}: ranks added/removed {role['ranks_added']}/{role['ranks_removed']}")
                failures += 1
        if sorted(r2["role"] for r2 in comparison["roles"]) != sorted(set(base_roles) | set(cur_roles)):
            print("roles: not every role of either run is listed")
            failures += 1

    # Exit status and stderr: one line per regression, nothing else under -q.
    lines = [l for l in r.stderr.splitlines() if l]
    flagged = threshold_percent > 0 or "no-regression" in expect
    want_status = 6 if flagged and regressions else 0
    if r.returncode != want_status:
        print(f"exit {r.returncode}, want {want_status}: {r.stderr}")
        failures += 1
    want_lines = len(regressions) if flagged else 0
    if len(lines) != want_lines or any(not l.startswith("rl-insight: regression: ") for l in lines):
        print(f"stderr under -q: {len(lines)} lines, want {want_lines} regression lines: {r.stderr}")
        failures += 1

    if os.path.exists(os.path.join(base_out, "memory_events.csv")):
        base_sites = site_bytes(os.path.join(base_out, "memory_events.csv"))
        cur_sites = site_bytes(os.path.join(cur_out, "memory_events.csv"))
        for device in comparison["memory"]:
            key = (device["role"], device["rank"], device["device_type"])
            if device["presence"] != "both":
                continue
            a, b = base_sites.get(key, {}), cur_sites.get(key, {})
            changes = sorted(((abs(b.get(s, 0) - a.get(s, 0)), s) for s in set(a) | set(b)), reverse=True)
            for site in device["call_sites"]:
                text = site["call_stack_top"]
                if not close(site["baseline_allocated_kb"], a.get(text, 0)) or \
                   not close(site["current_allocated_kb"], b.get(text, 0)):
                    print(f"memory {key} site {text!r}: allocated {site['baseline_allocated_kb']} -> "
                          f"{site['current_allocated_kb']}, the tables say {a.get(text, 0)} -> {b.get(text, 0)}")
                    failures += 1
            for e in expect:
                grew = b.get(e[9:], 0) > a.get(e[9:], 0)
                if e.startswith("top-site=") and grew:
                    if changes[0][1] != e[9:]:
                        print(f"memory {key}: the tables' largest change is not at {e[9:]!r} but {changes[0][1]!r}")
                        failures += 1
                    if not device["call_sites"] or device["call_sites"][0]["call_stack_top"] != e[9:]:
                        print(f"memory {key}: the largest change is at {e[9:]!r}, the comparison lists "
                              f"{device['call_sites'][0]['call_stack_top'] if device['call_sites'] else None!r} first")
                        failures += 1

    for e in expect:
        if e.startswith("regression="):
            who, rank = e[11:].rsplit("/", 1)
            found = [p for p in comparison["rank_phases"] if who in (p["role"], p["name"])
                     and p["rank"] == int(rank) and p["verdict"] == "regression"]
            named = [l for l in lines if who in l and f" on rank {rank}:" in l]
            if not found or not named:
                print(f"the planted slowdown of {who} on rank {rank} is not found and named on stderr")
                failures += 1
        elif e == "no-regression" and regressions:
            print(f"identical runs: {len(regressions)} regressions flagged")
            failures += 1
        elif e.startswith("added-role=") or e.startswith("removed-role="):
            kind, role = e.split("=", 1)
            want = "added" if kind == "added-role" else "removed"
            if not any(x["role"] == role and x["presence"] == want for x in comparison["roles"]):
                print(f"role {role} is not listed as {want}")
                failures += 1
        elif e == "summary-baseline":
            # The same rows from the baseline's summary.json (statistics only).
            args2 = [a if a != baseline else os.path.join(base_out, "summary.json") for a in args]
            args2[args2.index(cur_out)] = cur_out + "-from-summary"
            r2 = run(tool, args2)
            with open(os.path.join(cur_out + "-from-summary", "summary.json"), encoding="utf-8") as f:
                other = json.load(f)["comparison"]
            if r2.returncode != r.returncode:
                print(f"from the summary: exit {r2.returncode}, from the tree {r.returncode}")
                failures += 1
            for part in ("phases", "rank_phases", "roles", "steps", "role_transitions", "regressions", "improvements"):
                if other[part] != comparison[part]:
                    print(f"from the summary: {part} differ from the tree's")
                    failures += 1
            if other["baseline"]["source"] != "summary":
                print("from the summary: the baseline's source is not said to be a summary")
                failures += 1
        elif e == "tables":
            # Both sides from the tables their runs exported: the same comparison.
            tables_out = cur_out + "-from-tables"
            args3 = ["--input-path", cur_out, "--output-path", tables_out, "--vis-type", "none", "--baseline", base_out,
                     "-q"] + (args[args.index("--fail-on-regression"):args.index("--fail-on-regression") + 2]
                              if "--fail-on-regression" in args else [])
            r3 = run(tool, args3)
            if r3.returncode != r.returncode or not os.path.exists(os.path.join(tables_out, "summary.json")):
                print(f"from the tables: exit {r3.returncode}, from the trees {r.returncode}: {r3.stderr}")
                failures += 1
            else:
                with open(os.path.join(tables_out, "summary.json"), encoding="utf-8") as f:
                    other = json.load(f)["comparison"]
                for part in ("phases", "rank_phases", "roles", "steps", "role_transitions", "memory", "regressions",
                             "improvements"):
                    if other[part] != comparison[part]:
                        print(f"from the tables: {part} differ from the trees'")
                        failures += 1
    print(f"{len(comparison['phases'])} phases, {len(comparison['rank_phases'])} rank phases, "
          f"{len(regressions)} regressions; {failures} problems")
    return 1 if failures else 0


sys.exit(main())

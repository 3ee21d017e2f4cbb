#!/usr/bin/env python3
"""check_peak.py: each memory device's peak_mb in summary.json against the capture's own count of it.

Usage: check_peak.py SUMMARY_JSON CAPTURE_DIR
PyTorch traces (*.json.gz): the greatest Total Allocated of the device's [memory] events (MiB), and
what was allocated before the first of them. Ascend captures (memory_record.csv): the greatest PTA+GE
Total Allocated of the device. Each within 0.1%; exit 1 naming what differs."""
import csv, glob, gzip, json, os, sys

TYPES = {1: "CUDA", 6: "HIP", 20: "NPU", 0: "CPU"}

def torch_devices(root):
    want = {}
    for path in glob.glob(os.path.join(root, "**", "*.json.gz"), recursive=True):
        with gzip.open(path, "rt", encoding="utf-8") as f:
            trace = json.load(f)
        events = sorted((e for e in trace.get("traceEvents", []) if e.get("name") == "[memory]"),
                        key=lambda e: e["ts"])
        for e in events:
            a = e["args"]
            if "Total Allocated" not in a:
                continue
            key = "%s:%d" % (TYPES.get(a["Device Type"], "?"), a["Device Id"])
            d = want.setdefault(key, {"peak": 0.0, "before": (a["Total Allocated"] - a["Bytes"]) / 2**20})
            d["peak"] = max(d["peak"], a["Total Allocated"] / 2**20)
    return want

def ascend_devices(root):
    want = {}
    for path in glob.glob(os.path.join(root, "**", "memory_record.csv"), recursive=True):
        with open(path, newline="", encoding="utf-8") as f:
            for row in csv.DictReader(f):
                if row["Component"] == "PTA+GE" and row["Total Allocated(MB)"].strip():
                    d = want.setdefault(row["Device Type"], {"peak": 0.0})
                    d["peak"] = max(d["peak"], float(row["Total Allocated(MB)"]))
    return want

def main():
    summary, root = sys.argv[1], sys.argv[2]
    with open(summary, encoding="utf-8") as f:
        devices = json.load(f)["memory"]["devices"]
    want = ascend_devices(root) or torch_devices(root)
    failures = 0
    checked = 0
    for d in devices:
        w = want.get(d["device_type"])
        if not w:
            continue
        checked += 1
        if d["curve"] != "allocator":
            print(f"{d['device_type']}: the curve is {d['curve']}, not the allocator's count")
            failures += 1
        if abs(d["peak_mb"] - w["peak"]) > 0.001 * w["peak"]:
            print(f"{d['device_type']}: peak_mb {d['peak_mb']}, the capture's own {w['peak']}")
            failures += 1
        if "before" in w and abs(d["allocated_before_mb"] - w["before"]) > 0.001 * max(w["before"], 1):
            print(f"{d['device_type']}: allocated_before_mb {d['allocated_before_mb']}, the trace's {w['before']}")
            failures += 1
    if checked == 0:
        print("no device of the summary has a count in the capture")
        failures += 1
    print(f"{checked} devices checked")
    return 1 if failures else 0

sys.exit(main())

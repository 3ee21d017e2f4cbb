# torch_fixtures.py: group_list.pt files written by torch.save itself, read by rl-insight, every row checked against torch.
#
# Usage: python3 torch_fixtures.py RL_INSIGHT RL_INSIGHT_SYNTH WORK_DIR
# The tensors cover what msprobe saves and what torch.save can write: int64 (past 2^53 too),
# int32, int16, int8, uint8, bool, float64, float32 (NaN, inf), float16, bfloat16; 2-D, transposed,
# sliced and 0-d tensors; a Parameter; the legacy format (_use_new_zipfile_serialization=False).
# Beside them: an object whose pickle calls os.system, a list, a dict, a numpy array and an empty
# tensor. The rows rl-insight exports must be torch's values, exactly, in the reference's order;
# the hostile file must be refused by name and its command never run.
import csv
import json
import math
import os
import pickletools
import shutil
import subprocess
import sys
import zipfile

import numpy
import torch

rli, synth, work = sys.argv[1], sys.argv[2], sys.argv[3]
shutil.rmtree(work, ignore_errors=True)
tree = os.path.join(work, "in")
pwned = os.path.join(work, "PWNED")
failures = []


def fail(text):
    failures.append(text)
    print("FAIL: " + text, file=sys.stderr)


def dump(step, role, rank, op, obj, legacy=False):
    folder = os.path.join(tree, f"step_{step}", role, f"rank{rank}", "dump_tensor_data")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, f"NPU.npu_grouped_matmul.{op}.forward.kwargs.group_list.pt")
    torch.save(obj, path, _use_new_zipfile_serialization=not legacy)
    return path


class Evil:
    """What a hostile .pt holds: unpickling it runs a shell command."""

    def __reduce__(self):
        return (os.system, ("touch " + pwned,))


expected = []  # (step, role, rank, stage, expert, load)


def good(step, role, rank, op, tensor, legacy=False):
    dump(step, role, rank, op, tensor, legacy)
    values = tensor.detach().flatten().double().tolist() if tensor.dim() else [tensor.double().item()]
    for e, v in enumerate(values):
        expected.append((step, role, rank, op, e, v))


big = 2 ** 53 + 1  # a double cannot hold it: the nearest one, as torch converts it
good(1, "actor_update", 0, 0, torch.tensor([3, 0, 17, big, 2 ** 40, -1], dtype=torch.int64))
good(1, "actor_update", 0, 1, torch.tensor([7, 8, 2 ** 31 - 1, -(2 ** 31)], dtype=torch.int32))
good(1, "actor_update", 0, 2, torch.tensor([0.5, float("nan"), 1e-30, float("inf"), -2.25], dtype=torch.float32))
good(1, "actor_update", 0, 3, torch.tensor([1.5, 3.0, 257.0, -0.0078125], dtype=torch.bfloat16))
good(1, "actor_update", 0, 4, torch.tensor([0.1, 1e300, -5e-324], dtype=torch.float64))
good(1, "actor_update", 0, 5, torch.tensor([1.0, 2.5, 65504.0, 6e-8], dtype=torch.float16))
good(1, "actor_update", 0, 6, torch.tensor([-3, 0, 3], dtype=torch.int16))
good(1, "actor_update", 0, 7, torch.tensor([-128, 127], dtype=torch.int8))
good(1, "actor_update", 0, 8, torch.tensor([0, 255], dtype=torch.uint8))
good(1, "actor_update", 0, 9, torch.tensor([True, False, True]))
good(1, "actor_update", 0, 10, torch.arange(6, dtype=torch.int64).reshape(2, 3).t())  # transposed: 0,3,1,4,2,5
good(1, "actor_update", 0, 11, torch.arange(20, dtype=torch.int64)[5:15:3])  # sliced, strided
good(1, "actor_update", 0, 12, torch.tensor(42, dtype=torch.int64))  # 0-d: one expert
good(1, "actor_update", 0, 13, torch.nn.Parameter(torch.tensor([4.0, 5.0])))
good(2, "actor_compute_log_prob", 1, 0, torch.tensor([11, 12, big], dtype=torch.int64), legacy=True)
good(2, "actor_compute_log_prob", 1, 1, torch.tensor([1.25, float("nan")], dtype=torch.float32), legacy=True)
good(2, "actor_compute_log_prob", 1, 2, torch.arange(12, dtype=torch.int32).reshape(3, 4)[:, 1:3], legacy=True)
good(2, "actor_compute_log_prob", 1, 3, torch.tensor([2.0, -1.5], dtype=torch.bfloat16), legacy=True)
good(2, "Zeta_role", 0, 0, torch.tensor([9, 9, 9], dtype=torch.int64))  # before "actor_..." in code-point order
# msprobe's own way: a clone, contiguous and detached, of a device tensor
good(10, "actor_update", 2, 3, torch.randint(0, 5000, (256,)).clone().contiguous().detach())

evil = dump(1, "actor_update", 1, 0, Evil())
listed = dump(1, "actor_update", 1, 1, [1, 2, 3])
mapped = dump(1, "actor_update", 1, 2, {"experts": torch.tensor([1, 2])})
array = dump(1, "actor_update", 1, 3, numpy.array([1, 2, 3]))
empty = dump(1, "actor_update", 1, 4, torch.tensor([], dtype=torch.int64))

# The hostile file really is one: its pickle names os.system's global.
with zipfile.ZipFile(evil) as z:
    pickle_bytes = z.read(next(n for n in z.namelist() if n.endswith("data.pkl")))
globals_named = [arg for opcode, arg, _ in pickletools.genops(pickle_bytes) if opcode.name == "GLOBAL"]
if not any(g in ("posix system", "nt system", "os system") for g in globals_named):
    fail(f"the hostile fixture names no os.system: {globals_named}")


def nan_equal(a, b):
    return (math.isnan(a) and math.isnan(b)) or a == b


def sort_key(row):
    step, role, rank, stage, expert, load = row
    return (step, role.encode("utf-8"), rank, stage, expert, math.isnan(load), 0.0 if math.isnan(load) else load)


def load_csv(path):
    rows = []
    with open(path, newline="") as f:
        reader = csv.reader(f)
        header = next(reader)
        if header != ["role", "rank_id", "step", "stage", "expert_index", "load"]:
            fail(f"{path}: columns {header}")
        for role, rank, step, stage, expert, load in reader:
            rows.append((int(step), role, int(rank), int(stage), int(expert), float(load) if load else math.nan))
    return rows


def compare(got, want, what):
    if len(got) != len(want):
        fail(f"{what}: {len(got)} rows, want {len(want)}")
    for i, (g, w) in enumerate(zip(got, want)):
        if g[:5] != w[:5] or not nan_equal(g[5], w[5]):
            fail(f"{what}: row {i} is {g}, want {w}")
            break


out = os.path.join(work, "out")
run = subprocess.run([rli, "--input-path", tree, "--profiler-type", "gmm", "--vis-type", "none", "--export",
                      "csv,jsonl", "--output-path", out, "-v"], capture_output=True, text=True)
if run.returncode != 5:
    fail(f"exit status {run.returncode}, want 5 (some dumps failed, the others read)")
if os.path.exists(pwned):
    fail("the hostile pickle's command ran: " + pwned + " exists")
for path, words in ((evil, "the global posix.system"), (listed, "holds a list, not a tensor"),
                    (mapped, "holds a dict, not a tensor"), (array, "the global numpy")):
    if not any(path in line and words in line for line in run.stderr.splitlines()):
        fail(f"stderr does not name {path} with '{words}'")
if not any(empty in line and "empty tensor" in line for line in run.stderr.splitlines()):
    fail(f"stderr does not warn of the empty tensor {empty}")
expected.sort(key=sort_key)
compare(load_csv(os.path.join(out, "gmm_events.csv")), expected, "gmm_events.csv")
# JSONL: the same rows, NaN as null and the infinities as strings
with open(os.path.join(out, "gmm_events.jsonl")) as f:
    lines = [json.loads(line) for line in f]
jsonl = [(r["step"], r["role"], r["rank_id"], r["stage"], r["expert_index"],
          math.nan if r["load"] is None else float(r["load"])) for r in lines]
compare(jsonl, expected, "gmm_events.jsonl")

# Read back as a table: the same rows again.
again = os.path.join(work, "again")
run = subprocess.run([rli, "--input-path", os.path.join(out, "gmm_events.jsonl"), "--profiler-type", "table",
                      "--vis-type", "none", "--export", "csv", "--output-path", again], capture_output=True, text=True)
if run.returncode != 0:
    fail(f"reading gmm_events.jsonl back: exit status {run.returncode}: {run.stderr}")
else:
    compare(load_csv(os.path.join(again, "gmm_events.csv")), expected, "gmm_events.jsonl read back")

# The generator's files (written byte by byte, without torch) are files torch reads, to the same values.
mixed = os.path.join(work, "synth")
subprocess.run([synth, "--format", "gmm", "--gmm-mixed", "--ranks", "2", "--roles", "2", "--steps", "1",
                "--gmm-ops", "6", "--experts", "8", "--output", mixed], check=True, capture_output=True)
want = {}
for row in load_csv(os.path.join(mixed, "expected_gmm.csv")):
    want.setdefault((row[0], row[1], row[2], row[3]), []).append(row[5])
honours_byteorder = tuple(int(x) for x in torch.__version__.split(".")[:2]) >= (2, 1)
checked = 0
for folder, _, files in os.walk(mixed):
    for name in files:
        if not name.endswith(".pt"):
            continue
        path = os.path.join(folder, name)
        parts = os.path.relpath(path, mixed).split(os.sep)
        key = (int(parts[0][5:]), parts[1], int(parts[2][4:]), int(name.split(".")[2]))
        if zipfile.is_zipfile(path):
            with zipfile.ZipFile(path) as z:
                if any(n.endswith("/byteorder") and z.read(n) == b"big" for n in z.namelist()) and not honours_byteorder:
                    continue  # torch before 2.1 ignores the record that rl-insight honours
        values = torch.load(path, weights_only=True).double().tolist()
        if len(values) != len(want[key]) or not all(map(nan_equal, values, want[key])):
            fail(f"{path}: torch reads {values}, the generator expects {want[key]}")
        checked += 1
if checked < 20:
    fail(f"only {checked} of the generator's files were checked with torch")

if failures:
    sys.exit(1)
print(f"ok: {len(expected)} rows from {sum(1 for _ in os.walk(tree))} folders equal torch's; the hostile "
      f"pickle refused and not run; {checked} generated files read alike by torch")

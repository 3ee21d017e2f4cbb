#!/bin/sh
# seed.sh: (re)builds the seed corpora in fuzzers/corpus/ from the bad-input catalogue, the CLI cases,
# the shared samples when they exist, and a few hand-written texts. Files are named by their SHA-1,
# as libFuzzer names what it finds, so seeding twice changes nothing and findings sit beside seeds.
# Usage: [RLI_SYNTH=build/bench/rl-insight-synth] fuzzers/seed.sh [SAMPLES_DIR]   (default ../shared/samples beside the repository)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
samples=${1:-$root/../shared/samples}
corpus=$here/corpus
max_bytes=262144   # larger inputs slow every fuzz iteration; the catalogue keeps its big cases

add() { # add TARGET FILE: copies FILE into the target's corpus under its hash
	[ -f "$2" ] && [ ! -L "$2" ] || return 0
	[ "$(wc -c < "$2")" -le $max_bytes ] || return 0
	mkdir -p "$corpus/$1"
	cp "$2" "$corpus/$1/$(sha1sum < "$2" | cut -c1-40)"
}

add_raw() { # add_raw TARGET TEXT (as it is)
	tmp=$(mktemp)
	printf '%s' "$2" > "$tmp"
	add "$1" "$tmp"
	rm -f "$tmp"
}

add_text() { # add_text TARGET TEXT (printf format)
	tmp=$(mktemp)
	printf -- "$2" > "$tmp"
	add "$1" "$tmp"
	rm -f "$tmp"
}

inputs() { # every regular input file of the catalogue and the samples
	find "$root/tests/bad-input" -path '*/input/*' -type f
	[ -d "$samples" ] && find "$samples" -type f
	return 0
}

table_seed() { # table_seed CHOICE FILE: the table target's first byte chooses the table (table_names in fuzz_table.c)
	tmp=$(mktemp)
	{ printf "\\$(printf '%03o' "$1")"; cat "$2"; } > "$tmp"
	add table "$tmp"
	rm -f "$tmp"
}

inputs | while read -r file; do
	case $file in
	*/rl_events.csv) table_seed 0 "$file" ;;
	*/rl_events.jsonl) table_seed 1 "$file" ;;
	*/memory_events.csv) table_seed 2 "$file" ;;
	*/memory_events.jsonl) table_seed 3 "$file" ;;
	*/gmm_events.csv) table_seed 128 "$file" ;;
	*/gmm_events.jsonl) table_seed 129 "$file" ;;
	*group_list.pt) add gmm_pt "$file" ;;
	*/trace_view.json) add mstx "$file"; add stack_index "$file" ;;
	*.json.gz)
		add torch "$file"
		plain=$(mktemp)
		if gzip -dc "$file" > "$plain" 2>/dev/null; then
			add torch "$plain"
			if grep -q '\[memory\]' "$plain"; then add torch_memory "$file"; add torch_memory "$plain"; fi
		fi
		rm -f "$plain" ;;
	*.jsonl) add nvtx "$file" ;;
	*/operator_memory.csv) add memory_csv "$file" ;;
	*/memory_record.csv) add memory_record "$file" ;;
	*/profiler_info_*.json|*/profiler_metadata.json) add ascend_json "$file" ;;
	*.yaml) add config "$file" ;;
	esac
done

# PyTorch [memory] events: pairs, a free first, ops and frames around them, and the keys' wrong types.
tm_head='{"distributedInfo":{"backend":"nccl","rank":0,"world_size":1},"traceEvents":['
tm_op='{"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":2,"ts":10,"dur":100},{"ph":"X","cat":"python_function","name":"a.py(1): f","pid":1,"tid":2,"ts":5,"dur":200}'
tm_mem() { printf '{"ph":"i","cat":"cpu_instant_event","s":"t","name":"[memory]","pid":1,"tid":2,"ts":%s,"args":{"Bytes":%s,"Addr":%s,"Device Type":1,"Device Id":0,"Total Allocated":%s,"Total Reserved":4194304}}' "$@"; }
add_raw torch_memory "$tm_head$tm_op,$(tm_mem 20 1024 4096 1024),$(tm_mem 50 -1024 4096 0),$(tm_mem 60 -512 99 0)]}"
add_raw torch_memory "$tm_head$(tm_mem 90 -1024 4096 0),$(tm_mem 20 1024 4096 1024),$tm_op,$(tm_mem 30 2048 4096 3072)]}"
add_raw torch_memory "$tm_head$(tm_mem 20 '"1024"' 4096 1024),$(tm_mem 20 1024 null 1024),$(tm_mem 1e400 1024 18446744073709551615 0)]}"

# summary.json read back as a baseline: a small one of each part, the parts broken, another schema.
sum_head='{"schema_version":3,"tool":{"name":"rl-insight","version":"0"},"input":{"path":"p","profiler":"mstx"}'
sum_run=',"run":{"start_ms":0,"end_ms":9,"duration_ms":9,"step_ms":3,"max_steps":3}'
sum_phase=',"phases":[{"role":"a","name":"x","count":3,"total_ms":9,"mean_ms":3,"median_ms":3,"q1_ms":2,"q3_ms":4,"p95_ms":4}]'
sum_rank=',"rank_phases":[{"role":"a","name":"x","rank":0,"count":3,"total_ms":9,"mean_ms":3,"median_ms":3,"q1_ms":2,"q3_ms":4,"p95_ms":4}]'
sum_role=',"roles":[{"role":"a","steps":3,"straggler_rank":null,"step_median_ms":3,"rank_ids":[0,1]}],"role_transitions":[{"from_role":"a","to_role":"b","count":1,"median_ms":1}]'
sum_mem=',"memory":{"devices":[{"role":"a","rank":0,"device_type":"NPU:0","peak_mb":1,"sites_by_allocated":[{"call_stack_top":"f","allocated_kb":4,"live_kb":1}],"sites_by_live":[{"call_stack_top":"f","allocated_kb":4,"live_kb":1}]}]}'
add_raw summary "$sum_head$sum_run$sum_phase$sum_rank$sum_role$sum_mem}"
add_raw summary "$sum_head$sum_run,\"phases\":[{\"name\":\"x\"}]}"
add_raw summary "$sum_head$sum_run,\"phases\":[{\"role\":\"a\",\"name\":\"x\",\"median_ms\":\"3\"}]}"
add_raw summary '{"schema_version":9,"tool":{"name":"rl-insight"},"run":{}}'

# GMM dumps: every kind of file the generator writes (RLI_SYNTH: its rl-insight-synth), the
# hostile and broken ones tests/gmm/craft_pt.py makes, torch.save's own where Python has torch,
# and the table the generator expects, as gmm_events.csv.
gmm=$(mktemp -d)
if [ -x "${RLI_SYNTH:-}" ] && "$RLI_SYNTH" --format gmm --gmm-mixed --ranks 1 --roles 1 --gmm-ops 6 --experts 8 \
	--output "$gmm/synth" >/dev/null; then
	for file in "$gmm"/synth/step_1/*/rank0/dump_tensor_data/*.pt; do add gmm_pt "$file"; done
	table_seed 128 "$gmm/synth/expected_gmm.csv"
fi
for kind in good evil evil-legacy builtins-eval numpy-array build-opcode plain-pickle list storage-larger-than-file \
	billion-elements stride-past-storage memo-bomb huge-string torchscript no-storage-record bad-byteorder; do
	python3 "$root/tests/gmm/craft_pt.py" "$kind" "$gmm/$kind.pt" "$gmm/pwned" && add gmm_pt "$gmm/$kind.pt"
done
for python in python3 /usr/bin/python3; do
	"$python" -c 'import torch' 2>/dev/null || continue
	"$python" -c '
import sys, torch
d = sys.argv[1]
torch.save(torch.tensor([3, 0, 2 ** 40, -1]), d + "/t_int64.pt")
torch.save(torch.tensor([0.5, float("nan")], dtype=torch.bfloat16), d + "/t_bf16.pt")
torch.save(torch.arange(6).reshape(2, 3).t(), d + "/t_view.pt")
torch.save(torch.tensor([1, 2], dtype=torch.int32), d + "/t_legacy.pt", _use_new_zipfile_serialization=False)
' "$gmm" && for file in "$gmm"/t_*.pt; do add gmm_pt "$file"; done
	break
done
rm -rf "$gmm"

# Command lines: every args: line of the CLI cases, arguments split at NUL bytes as fuzz_cli reads them.
for case in "$root"/tests/cli/cases/*.case; do
	grep '^args:' "$case" | sed 's/^args: *//' | while read -r line; do
		tmp=$(mktemp)
		printf '%s' "$line" | tr ' ' '\000' > "$tmp"
		add cli "$tmp"
		rm -f "$tmp"
	done
done

# Configurations: the shapes the Python tool's YAML files take, and the ways they go wrong.
add_text config '# a run\ninput:\n  path: "profiles/run 1"   # quoted\n  rank_list: 0,1\ntimeline:\n  parser:\n    type: mstx\n  visualizer:\n    type: png,html\n    width: 2000\n    scale: 1\noutput:\n  path: out\n'
add_text config 'timeline.visualizer.width: 300\nmemory:\n  parser:\n    role: actor_update\n'
add_text config "input:\n  path: 'single'\n  rank_list: ~\n---\noutput:\n  path: null\n"
add_text config 'input:\n\tpath: tabbed\n'
add_text config 'input:\n  path: "open\n'
add_text config '- a list\n'
add_text config 'a:\n b:\n  c:\n   d:\n    e:\n     f:\n      g:\n       h:\n        i: deep\n'
add_text config '%%YAML 1.1\n---\ninput: {path: "g\\x65n\\u00e9", rank_list: [0, 2, 4]}\ntimeline:\n  parser: {type: \047nvtx\047}\n  visualizer: &v\n    type:\n      - png\n      - html\n    width: &w 1000\n    all_rows: no\nmemory:\n  visualizer:\n    type: *w\n...\n'
add_text config 'input:\n  path: &p /a\n  path: *p\n'
add_text config 'a: &a [x, *a]\nb: *c\n<<: {k: 1}\n? [k]\n: v\n!!python/object:os.system {}\n'
add_text config 'input: {path: /a}\n---\ninput: {path: /b}\n'

# Escapers: markup, script, URL and CSS payloads, control characters and every kind of broken UTF-8.
add_text escape '</script><script>alert(1)</script>'
add_text escape '"><img src=x onerror=alert(1)>'
add_text escape "'; alert(1); //"
add_text escape 'javascript:alert(1)'
add_text escape '<!--<script>'
add_text escape '</style><style>*{background:url(//x)}</style>'
add_text escape 'tab\there\nnew\rline\001\037\177'
add_text escape 'line\342\200\250sep\342\200\251para'
add_text escape 'caf\303\251 \344\270\255\346\226\207 \360\237\230\200'
add_text escape '\300\200 \355\240\200 \364\220\200\200 \377 \342\202 \200'
add_text escape '&amp; &lt; &#39; \\u0041 \\" \\\\'

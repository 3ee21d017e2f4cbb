# rl-insight.bash: bash completion for rl-insight: options from its --help, values of the enumerated ones.

# Prints "FLAG ARG" per option of the command's --help (ARG empty for a switch), so the
# completion follows the installed version: an option added to the command is completed
# without this file changing.
_rl_insight_help_options()
{
	"$1" --help 2>/dev/null | awk '
		/^Options/ { inside = 1; next }
		inside && /^$/ { exit }
		inside && /^ +-/ {
			arg = ""
			for (i = 1; i <= NF; i++) {
				word = $i
				sub(/,$/, "", word)
				if (word ~ /^-/) { flags[++n] = word; continue }
				if (word ~ /^[A-Z][A-Z\/]*$/) arg = word
				break
			}
			for (j = 1; j <= n; j++) print flags[j], arg
			n = 0
		}'
}

# Prints the configuration keys the command's --help lists ("input.path=PATH"), one a line.
_rl_insight_help_keys()
{
	"$1" --help 2>/dev/null | awk '
		/^Configuration keys/ { inside = 1; next }
		inside && /^$/ { exit }
		inside { for (i = 1; i <= NF; i++) if ($i ~ /^[a-z_.]+=/) print $i }'
}

# The values an option takes, for the options that take one of a fixed set (as the command
# checks them: the tests compare this table with its "choose from" messages).
_rl_insight_values()
{
	case $1 in
	--profiler-type) echo "mstx torch nvtx memory torch_memory gmm table auto" ;;
	--memory-device) echo "cuda hip npu cpu accelerators all" ;;
	--vis-type) echo "png html pdf none memory_html memory_pdf timeline_pdf gmm_heatmap gmm_pdf trend" ;;
	--cmap) echo "viridis plasma inferno magma cividis" ;;
	--export) echo "csv jsonl" ;;
	--page-size) echo "a4 letter a3" ;;
	--orientation) echo "landscape portrait" ;;
	--style) echo "default paper paper-wide" ;;
	--input-type) echo "multi_json_mstx multi_json_torch multi_json_nvtx gmm_data" ;;
	--pipeline-type) echo "OfflineInsightPipeline" ;;
	--pdf-date) echo "now" ;;
	esac
}

# The options whose value is a comma-separated list: each item is completed after the last comma.
_rl_insight_is_list()
{
	[[ $1 == --vis-type || $1 == --export ]]
}

_rl_insight()
{
	local cmd=${COMP_WORDS[0]} cur=${COMP_WORDS[COMP_CWORD]} option="" arg="" line key
	local prev=""
	((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
	COMPREPLY=()

	# `rl-insight history FILE [list | show ID | delete ID | import SUMMARY...]`: the file, the action, summaries.
	if [[ ${COMP_WORDS[1]-} == history ]] && ((COMP_CWORD > 1)); then
		if ((COMP_CWORD == 3)) && [[ $cur != -* ]]; then
			mapfile -t COMPREPLY < <(compgen -W "list show delete import" -- "$cur")
		elif [[ $cur == -* ]]; then
			mapfile -t COMPREPLY < <(compgen -W "--input --label-family --limit --run-label -q --help" -- "$cur")
		else
			compopt -o filenames 2>/dev/null
			mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		fi
		return 0
	fi

	# "=" breaks words, so --vis-type=pn and timeline.parser.type=ms arrive as three words.
	if [[ $cur == = ]]; then
		option=$prev
		cur=""
	elif [[ $prev == = ]] && ((COMP_CWORD > 1)); then
		option=${COMP_WORDS[COMP_CWORD - 2]}
	elif [[ $prev == -* ]]; then
		option=$prev
	fi

	if [[ -n $option && $option != -* ]]; then
		# A configuration key: its values as --help writes them, "mstx|torch|nvtx|auto".
		while read -r key; do
			[[ ${key%%=*} == "$option" ]] || continue
			case ${key#*=} in
			PATH) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -d -- "$cur") ;;
			FILE) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
			*[a-z]*) mapfile -t COMPREPLY < <(compgen -P "${cur%"${cur##*,}"}" -W "${key#*=}" -- "${cur##*,}") ;;
			esac
			return 0
		done < <(_rl_insight_help_keys "$cmd" | sed 's/|/ /g')
		return 0
	fi

	if [[ -n $option ]]; then
		while read -r line arg; do
			[[ $line == "$option" ]] && break
			arg=""
		done < <(_rl_insight_help_options "$cmd")
		if [[ -n $arg ]]; then
			local values prefix=""
			values=$(_rl_insight_values "$option")
			if [[ -n $values ]]; then
				if _rl_insight_is_list "$option"; then
					prefix=${cur%"${cur##*,}"}
					cur=${cur##*,}
				fi
				mapfile -t COMPREPLY < <(compgen -P "$prefix" -W "$values" -- "$cur")
			elif [[ $arg == FILE ]]; then
				compopt -o filenames 2>/dev/null
				mapfile -t COMPREPLY < <(compgen -f -- "$cur")
			elif [[ $arg == PATH ]]; then
				compopt -o filenames 2>/dev/null
				if [[ $option == --baseline ]]; then
					mapfile -t COMPREPLY < <(compgen -f -- "$cur") # a folder or its summary.json
				else
					mapfile -t COMPREPLY < <(compgen -d -- "$cur")
				fi
			fi
			return 0
		fi
	fi

	if [[ $cur == -* ]]; then
		mapfile -t COMPREPLY < <(compgen -W "$(_rl_insight_help_options "$cmd" | cut -d' ' -f1)" -- "$cur")
	else
		compopt -o nospace 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -W "$(_rl_insight_help_keys "$cmd" | sed 's/=.*/=/')" -- "$cur")
	fi
	return 0
}

complete -F _rl_insight rl-insight

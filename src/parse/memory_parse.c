/* memory_parse.c: rli_memory_parse and rli_torch_memory_parse: discover the inputs, validate, parse them on threads, merge in start order. */
#include "memory_internal.h"
#include "common/task.h"
#include "format.h"
#include "shard.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* What differs between the memory sources: the format that finds and reads them, and the words for them. */
typedef struct {
	const rli_format *format;
	const char *checked;    /* "Data validation passed for <checked>" */
	const char *files;      /* the files that held no readable row */
	unsigned devices;       /* torch: RLI_MEMORY_DEVICE_* bits */
	int filter_after_parse; /* torch: roles and ranks are kept or left out once the unit is read */
	int reads_file;         /* tables: the input may be one file as well as a folder */
} memory_source;

void rli_memory_parse_options_init(rli_memory_parse_options *options)
{
	memset(options, 0, sizeof(*options));
}

void rli_torch_memory_options_init(rli_torch_memory_options *options)
{
	memset(options, 0, sizeof(*options));
	rli_memory_parse_options_init(&options->common);
	options->devices = RLI_MEMORY_DEVICE_ACCELERATORS;
}

static void parse_one(void *ctx, unsigned worker, rli_unit *unit)
{
	const memory_source *source = ctx;
	(void)worker;
	if (unit->unsearched)
		return; /* a folder that could not be read: its failure is all there is */
	unit->memory_devices = source->devices;
	source->format->parse_unit(unit, NULL);
}

/* A torch unit's rows all have the file's rank and folder: kept or left out whole. */
static int unit_kept(const rli_unit *unit, const rli_rank_filter *ranks, const rli_role_filter *roles)
{
	if (!rli_role_filter_keeps(roles, unit->role ? unit->role : ""))
		return 0;
	return !unit->memory || unit->memory->count == 0 || rli_rank_filter_keeps(ranks, unit->memory->rank_id[0]);
}

static int any_allocation(const rli_memory *memory)
{
	for (size_t i = 0; i < memory->count; i++)
		if (memory->size_kb[i] > 0)
			return 1;
	return 0;
}

/* A unit whose rows join the table: parsed, not failed, and kept by the filters. */
static int gathered(const rli_unit *unit, const rli_rank_filter *ranks, const rli_role_filter *roles)
{
	return !unit->failures.count && unit->memory && (!ranks || unit_kept(unit, ranks, roles));
}

/* Rows of the merged table asked to be faulted in ahead of the copies, at a time. */
#define GATHER_AHEAD 32768

/*
 * The units' tables merged at once, in start order, ties in unit order: when each table is in
 * start order already, as a PyTorch trace's are. Appending them and sorting the whole was two
 * passes over every row on one thread (0.14-0.21 s for 128 traces of a million rows in all,
 * while the other core waited); the merge is one, on two threads. 1 when done, 0 when a table
 * is out of order (the caller appends and sorts), RLI_ERROR when out of memory.
 */
static int merge_in_order(rli_memory **out, rli_discovery *discovery, const rli_rank_filter *ranks,
			  const rli_role_filter *roles, unsigned jobs)
{
	rli_memory **tables = malloc((discovery->count ? discovery->count : 1) * sizeof(*tables));
	rli_memory *merged = NULL;
	size_t count = 0;
	int error = 1;

	if (!tables)
		return rli_error_oom();
	for (size_t u = 0; u < discovery->count && error == 1; u++) {
		rli_unit *unit = &discovery->units[u];
		if (!gathered(unit, ranks, roles))
			continue;
		if (!rli_memory_in_start_order(unit->memory))
			error = 0;
		tables[count++] = unit->memory;
	}
	if (error == 1 && count > 1) {
		if ((error = rli_memory_new(&merged)) == RLI_OK &&
		    (error = rli_memory_merge_sorted(merged, tables, count, rli_task_threads(jobs, 2, 2))) == RLI_OK) {
			for (size_t u = 0; u < discovery->count; u++) {
				if (!gathered(&discovery->units[u], ranks, roles))
					continue;
				rli_memory_free(discovery->units[u].memory);
				discovery->units[u].memory = NULL;
			}
			*out = merged;
			merged = NULL;
			error = 1;
		}
	} else if (error == 1) {
		error = 0; /* one table (taken as it is) or none: nothing to merge */
	}
	rli_memory_free(merged);
	free(tables);
	return error;
}

int rli_memory_gather_units(rli_memory **out, rli_discovery *discovery, const rli_rank_filter *ranks,
			    const rli_role_filter *roles, unsigned jobs)
{
	rli_memory *merged = NULL;
	size_t total = 0, asked = 0;
	int error = RLI_OK;
	if ((error = merge_in_order(&merged, discovery, ranks, roles, jobs)) < 0)
		goto done;
	if (merged)
		goto sort;
	for (size_t u = 0; u < discovery->count; u++)
		if (gathered(&discovery->units[u], ranks, roles))
			total += discovery->units[u].memory->count;
	for (size_t u = 0; u < discovery->count; u++) {
		rli_unit *unit = &discovery->units[u];
		if (!gathered(unit, ranks, roles))
			continue;
		if (!merged) {
			merged = unit->memory; /* one capture, the usual case: no copy */
			unit->memory = NULL;
			/*
			 * Room for every row at once: grown capture by capture, the table doubled seven
			 * times for 128 captures and moved its columns each time (0.15 s of fresh pages).
			 */
			if ((error = rli_memory_reserve(merged, total)) < 0)
				goto done;
			continue;
		}
		/*
		 * The merged table's fresh pages, faulted in ahead of the copies on a core the parse
		 * no longer uses: on 128 torch traces their first writes were most of the gathering
		 * (0.24 s), all of it on this thread while the other core waited.
		 */
		if (asked < merged->count)
			asked = merged->count;
		if (asked < total && merged->count + GATHER_AHEAD >= asked) {
			size_t to = total - asked > 2 * GATHER_AHEAD ? asked + 2 * GATHER_AHEAD : total;
			rli_memory_prefault(merged, asked, to);
			asked = to;
		}
		if ((error = rli_memory_append_all(merged, unit->memory)) < 0)
			goto done;
		rli_memory_free(unit->memory); /* merged: no need to hold every row twice */
		unit->memory = NULL;
	}
	if (!merged && (error = rli_memory_new(&merged)) < 0)
		goto done;
sort:
	/* After a merge, only the ties are left to put in order. */
	if ((error = rli_memory_sort_by_start(merged)) == RLI_OK)
		rli_memory_release_room(merged); /* done growing: what was made room for and not filled goes back */
done:
	if (error < 0) {
		rli_memory_free(merged);
		merged = NULL;
	}
	*out = merged;
	return error;
}

/* Says each unit's notes and counts the failed ones, then gathers the others' tables. */
static int merge_units(rli_memory **out, rli_discovery *discovery, const rli_memory_parse_options *options,
		       const memory_source *source, const rli_rank_filter *ranks, const rli_role_filter *roles,
		       size_t *failed_units)
{
	*out = NULL;
	*failed_units = 0;
	for (size_t u = 0; u < discovery->count; u++) {
		rli_unit *unit = &discovery->units[u];
		if (unit->status < 0 || unit->log.oom || unit->failures.oom)
			return rli_error_oom();
		rli_log_notes(options->log, options->log_ctx, &unit->log);
		*failed_units += unit->failures.count != 0;
	}
	if (source->format == &rli_format_torch)
		rli_torch_run_notes(discovery, source->devices, options->log, options->log_ctx);
	return rli_memory_gather_units(out, discovery, ranks, roles, options->jobs);
}

static int parse_tree(rli_memory **out, const char *input_path, const rli_memory_parse_options *options,
		      const memory_source *source)
{
	rli_discovery discovery;
	rli_rank_filter ranks;
	rli_role_filter roles;
	rli_memory *merged = NULL;
	char *root = NULL;
	struct stat st;
	size_t failed_units = 0;
	int error;

	*out = NULL;
	rli_discovery_init(&discovery);
	memset(&roles, 0, sizeof(roles));
	if ((error = rli_shard_check(options->shard_index, options->shard_count)) < 0)
		return error;
	if ((error = rli_rank_filter_parse(&ranks, options->rank_list)) < 0)
		return error;
	if ((error = rli_role_filter_parse(&roles, options->role_list)) < 0)
		goto done;
	if (!input_path || !*input_path) {
		error = rli_error_set(RLI_EUSAGE, "no input path given");
		goto done;
	}
	if (!(root = rli_path_trimmed(input_path))) {
		error = rli_error_oom();
		goto done;
	}
	if (stat(root, &st) != 0 || (!S_ISDIR(st.st_mode) && !source->reads_file)) {
		rli_notes_add(&discovery.structural, RLI_LOG_ERROR,
			      "Source path is not a directory or does not exist: %s", input_path);
		if (stat(root, &st) != 0)
			rli_notes_add(&discovery.structural, RLI_LOG_ERROR, "Source path does not exist: %s",
				      input_path);
	} else {
		rli_discover_options discover = {&ranks, &roles, options->auto_detected, NULL};
		if ((error = source->format->discover(&discovery, root, &discover)) < 0)
			goto done;
		if (options->shard_count > 1) {
			size_t all = discovery.count;
			rli_discovery_keep_shard(&discovery, root, options->shard_index, options->shard_count);
			rli_log_line(options->log, options->log_ctx, RLI_LOG_NOTICE,
				     "shard %u/%u: %zu of the %zu memory input units", options->shard_index,
				     options->shard_count, discovery.count, all);
		}
	}
	rli_log_notes(options->log, options->log_ctx, &discovery.log);
	if (discovery.structural.oom || discovery.log.oom) {
		error = rli_error_oom();
		goto done;
	}
	if (discovery.structural.count) {
		rli_discovery_report(&discovery);
		error = RLI_EINVALID;
		goto done;
	}
	if (discovery.count == 0)
		rli_log_line(options->log, options->log_ctx, RLI_LOG_INFO, "No data maps to process");
	for (size_t u = 0; u < discovery.count; u++)
		discovery.units[u].share = options->share;
	if ((error = rli_units_run(&discovery, parse_one, (void *)source, options->jobs, options->log,
				   options->log_ctx)) < 0)
		goto done;
	if ((error = merge_units(&merged, &discovery, options, source, source->filter_after_parse ? &ranks : NULL, &roles,
				 &failed_units)) < 0)
		goto done;
	rli_log_line(options->log, options->log_ctx, RLI_LOG_INFO, "Parallel processing completed: %zu/%zu ranks processed",
		 discovery.count - failed_units, discovery.count);

	/* The output rules (memory.md §5.3), in our words: there is no DataFrame to speak of. */
	if (options->shard_count > 1 && !failed_units && (merged->count == 0 || !any_allocation(merged))) {
		/* One shard of many may hold no row, or frees only: the merge judges the whole. */
		rli_log_line(options->log, options->log_ctx, RLI_LOG_INFO, "shard %u/%u holds no allocation",
			     options->shard_index, options->shard_count);
	} else if (merged->count == 0 || !any_allocation(merged)) {
		/* a table's or a trace's unit is its file; an Ascend capture's is a folder of several */
		int names_files = source->format != &rli_format_memory;
		if (merged->count == 0 && failed_units == 0)
			rli_log_line(options->log, options->log_ctx, RLI_LOG_WARN, "No valid data collected from any rank");
		rli_discovery_report(&discovery);
		if (merged->count == 0 && discovery.count == 0)
			rli_error_append("\n  - No memory events: no capture folder under %s is in the rank list "
					 "'%s' and the role list '%s'",
					 input_path, options->rank_list ? options->rank_list : "all",
					 options->role_list ? options->role_list : "all");
		else if (merged->count == 0 && failed_units < discovery.count && names_files && discovery.count == 1)
			rli_error_append("\n  - No memory events: %s holds no row that could be read",
					 discovery.units[0].path);
		else if (merged->count == 0 && failed_units < discovery.count && names_files)
			rli_error_append("\n  - No memory events: the %s under %s hold no row that could be read (the "
					 "first: %s)", source->files, input_path, discovery.units[0].path);
		else if (merged->count == 0 && failed_units < discovery.count)
			rli_error_append("\n  - No memory events: the %s under %s hold no row that could be read",
					 source->files, input_path);
		else if (merged->count > 0)
			rli_error_append("\n  - Column 'size_kb' has no positive values: the captures under %s "
					 "hold no allocation, only frees",
					 input_path);
		error = RLI_EINVALID;
		goto done;
	}
	if (failed_units) {
		rli_discovery_report(&discovery);
		for (size_t u = 0; u < discovery.count; u++)
			for (size_t i = 0; i < discovery.units[u].failures.count; i++)
				rli_log_line(options->log, options->log_ctx, RLI_LOG_ERROR, "%s", discovery.units[u].failures.items[i].text);
		error = RLI_EPARTIAL;
	} else {
		rli_log_line(options->log, options->log_ctx, RLI_LOG_INFO, "Data validation passed for %s", source->checked);
		rli_error_clear();
		error = RLI_OK;
	}
	*out = merged;
	merged = NULL;
done:
	rli_memory_free(merged);
	rli_discovery_dispose(&discovery);
	rli_rank_filter_dispose(&ranks);
	rli_role_filter_dispose(&roles);
	free(root);
	return error;
}

int rli_memory_parse(rli_memory **out, const char *input_path, const rli_memory_parse_options *options)
{
	static const memory_source ascend = {&rli_format_memory, "ascend_memory", "operator_memory.csv files", 0, 0, 0};
	rli_memory_parse_options defaults;
	if (!options) {
		rli_memory_parse_options_init(&defaults);
		options = &defaults;
	}
	return parse_tree(out, input_path, options, &ascend);
}

int rli_torch_memory_parse(rli_memory **out, const char *input_path, const rli_torch_memory_options *options)
{
	rli_torch_memory_options defaults;
	memory_source torch = {&rli_format_torch, "torch_memory", "[memory] events of the PyTorch traces", 0, 1, 0};
	if (!options) {
		rli_torch_memory_options_init(&defaults);
		options = &defaults;
	}
	torch.devices = options->devices & RLI_MEMORY_DEVICE_ALL;
	if (!torch.devices) {
		*out = NULL;
		return rli_error_set(RLI_EUSAGE, "no memory device chosen (CUDA, HIP, NPU, CPU or a set of them)");
	}
	return parse_tree(out, input_path, &options->common, &torch);
}

int rli_table_memory_parse(rli_memory **out, const char *input_path, const rli_memory_parse_options *options)
{
	static const memory_source tables = {&rli_format_table_memory, "exported_memory_table", "memory_events tables",
					     0, 0, 1};
	rli_memory_parse_options defaults;
	if (!options) {
		rli_memory_parse_options_init(&defaults);
		options = &defaults;
	}
	return parse_tree(out, input_path, options, &tables);
}

/* gmm_parse.c: rli_gmm_parse and rli_table_gmm_parse: find the dumps (or tables), validate, read them on threads, merge in table order. */
#include "gmm_internal.h"
#include "format.h"
#include "pt_read.h"
#include "shard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void rli_gmm_parse_options_init(rli_gmm_parse_options *options)
{
	memset(options, 0, sizeof(*options));
}

void rli_gmm_read_dump(rli_unit *unit, const unsigned char *data, size_t size)
{
	rli_pt_tensor tensor;
	rli_gmm_key key;
	double *loads;
	char why[512];
	int read = rli_pt_read(&tensor, data, size, RLI_GMM_MAX_EXPERTS, why, sizeof(why));

	if (read == -2) {
		unit->status = RLI_ERROR;
		return;
	}
	if (read < 0) {
		rli_notes_add(&unit->failures, RLI_LOG_ERROR, "Failed to parse %s: %s", unit->path, why);
		return;
	}
	/* The worker's table when the driver gave one, else a new one (a fuzzer's, a test's). */
	if (!unit->gmm && rli_gmm_new(&unit->gmm) < 0)
		goto oom;
	if (tensor.numel == 0) {
		/* The reference draws no snapshot for it either; said, as no row of it will show. */
		rli_notes_add(&unit->log, RLI_LOG_WARN, "%s holds an empty tensor (size 0): no expert load to show",
			      unit->path);
		goto done;
	}
	key.role = rli_gmm_intern(unit->gmm, unit->role, strlen(unit->role));
	key.rank_id = unit->rank;
	key.step = unit->step;
	key.stage = unit->stage;
	if (key.role == RLI_STRPOOL_NONE || rli_gmm_add_snapshot(unit->gmm, &key, tensor.numel, &loads) < 0)
		goto oom;
	rli_pt_values(&tensor, loads);
	goto done;
oom:
	unit->status = RLI_ERROR;
done:
	rli_pt_tensor_dispose(&tensor);
}

/* ---- the driver both sources share --------------------------------------------------------- */

/* What differs between dumps and exported tables: the format that finds and reads them, and the words. */
typedef struct {
	const rli_format *format;
	const char *checked; /* "Data validation passed for <checked>" */
	const char *files;   /* what holds the rows, for "nothing to show" */
	int reads_file;      /* tables: the input may be one file as well as a folder */
} gmm_source;

/*
 * A worker appends the rows of the dumps it reads to a table of its own (unit->gmm, lent for the
 * parse): 10,000 dumps in 10,000 tables cost three times the memory of their rows. Which worker
 * read a unit, and its snapshots there, are kept by unit, so the tables merge in unit order:
 * discovery's order of the dumps, which is the table's, so the merged table is in order at once.
 */
typedef struct {
	const gmm_source *source;
	rli_gmm **tables;  /* one per worker */
	unsigned *worker;  /* by unit: the worker that read it */
	size_t *begin, *end; /* by unit: its snapshots in that worker's table */
	rli_unit *units;
} gmm_work;

static void parse_one(void *ctx, unsigned worker, rli_unit *unit)
{
	const gmm_work *work = ctx;
	rli_gmm *table = work->tables[worker];
	size_t snapshots = table->snapshot_count, rows = table->count, u = (size_t)(unit - work->units);
	work->worker[u] = worker;
	work->begin[u] = work->end[u] = snapshots;
	if (unit->unsearched || unit->failures.count)
		return; /* a folder that could not be read: its failure is all there is */
	unit->gmm = table;
	work->source->format->parse_unit(unit, NULL);
	/* A failed unit contributes nothing, not even the rows before its failure. */
	if (unit->failures.count || unit->status != RLI_OK)
		rli_gmm_truncate(table, snapshots, rows);
	work->end[u] = table->snapshot_count;
	unit->gmm = NULL;
}

/* Says each unit's notes and counts the failed ones; the workers' tables become one, in table order. */
static int merge_units(rli_gmm **out, rli_discovery *discovery, const rli_gmm_parse_options *options,
		       const gmm_work *work, unsigned table_count, size_t *failed_units)
{
	rli_gmm *merged = NULL;
	uint32_t *remap[256] = { NULL };
	size_t rows = 0;
	int error = RLI_OK;

	*out = NULL;
	*failed_units = 0;
	for (size_t u = 0; u < discovery->count; u++) {
		rli_unit *unit = &discovery->units[u];
		if (unit->status < 0 || unit->log.oom || unit->failures.oom)
			return rli_error_oom();
		rli_log_notes(options->log, options->log_ctx, &unit->log);
		*failed_units += unit->failures.count != 0;
	}
	for (unsigned w = 0; w < table_count; w++)
		rows += work->tables[w]->count;
	if (table_count == 1) {
		/* One worker read every unit in order: its table is the merge, taken as it is. */
		merged = work->tables[0];
		work->tables[0] = NULL;
		error = rli_gmm_finish(merged);
		goto done;
	}
	if ((error = rli_gmm_new(&merged)) < 0 || (error = rli_gmm_reserve(merged, rows)) < 0)
		goto done;
	for (unsigned w = 0; w < table_count && error == RLI_OK; w++)
		if (!(remap[w] = rli_gmm_remap(merged, work->tables[w])))
			error = RLI_ERROR;
	for (size_t u = 0; u < discovery->count && error == RLI_OK; u++)
		error = rli_gmm_append_snapshots(merged, work->tables[work->worker[u]], remap[work->worker[u]],
						 work->begin[u], work->end[u]);
	/* merged: no need to hold every row twice */
	for (unsigned w = 0; w < table_count; w++) {
		rli_gmm_free(work->tables[w]);
		work->tables[w] = NULL;
	}
	if (error == RLI_OK)
		error = rli_gmm_finish(merged);
done:
	for (unsigned w = 0; w < table_count; w++)
		free(remap[w]);
	if (error < 0)
		rli_gmm_free(merged);
	else
		*out = merged;
	return error;
}

/* Ranks as a person writes them ("0-3,8"), after a rank list that matched nothing. */
static void append_ranks(const rli_discovery *discovery)
{
	int64_t *ranks = malloc((discovery->ranks_seen_count ? discovery->ranks_seen_count : 1) * sizeof(*ranks));
	size_t count = 0;
	if (!ranks)
		return;
	for (size_t i = 0; i < discovery->ranks_seen_count; i++) {
		size_t k = 0;
		while (k < count && ranks[k] != discovery->ranks_seen[i])
			k++;
		if (k == count)
			ranks[count++] = discovery->ranks_seen[i];
	}
	for (size_t i = 1; i < count; i++)
		for (size_t k = i; k > 0 && ranks[k - 1] > ranks[k]; k--) {
			int64_t t = ranks[k];
			ranks[k] = ranks[k - 1];
			ranks[k - 1] = t;
		}
	for (size_t i = 0; i < count;) {
		size_t j = i;
		while (j + 1 < count && ranks[j + 1] == ranks[j] + 1)
			j++;
		if (j == i)
			rli_error_append("%s%lld", i ? "," : "", (long long)ranks[i]);
		else
			rli_error_append("%s%lld-%lld", i ? "," : "", (long long)ranks[i], (long long)ranks[j]);
		i = j + 1;
	}
	free(ranks);
}

/* Why the table is empty, in our words (the reference's is about its DataFrame). */
static void say_nothing(const rli_discovery *discovery, const rli_gmm_parse_options *options, const gmm_source *source,
			const char *input_path, size_t failed_units)
{
	if (discovery->count == 0 && discovery->ranks_seen_count && source->format == &rli_format_gmm) {
		rli_error_append("\n  - nothing to show: no group_list.pt dump under %s is of the rank list %s; the dumps "
				 "are of ranks ", input_path, options->rank_list);
		append_ranks(discovery);
	} else if (discovery->count == 0) {
		rli_error_append("\n  - nothing to show: none of the %s under %s is of the rank list '%s', the step list '%s' "
				 "and the role list '%s' (warnings above name those that lie where no dump should)",
				 source->files, input_path, options->rank_list ? options->rank_list : "all",
				 options->step_list ? options->step_list : "all",
				 options->role_list ? options->role_list : "all");
	} else if (failed_units < discovery->count && discovery->count == 1) {
		rli_error_append("\n  - nothing to show: %s holds no expert load", discovery->units[0].path);
	} else if (failed_units < discovery->count) {
		rli_error_append("\n  - nothing to show: the %s under %s hold no expert load (the first: %s)", source->files,
				 input_path, discovery->units[0].path);
	}
}

static int parse_tree(rli_gmm **out, const char *input_path, const rli_gmm_parse_options *options,
		      const gmm_source *source)
{
	rli_discovery discovery;
	rli_rank_filter ranks, steps;
	rli_role_filter roles;
	rli_gmm *merged = NULL, *tables[256] = { NULL };
	unsigned table_count = 0;
	gmm_work work = { NULL, NULL, NULL, NULL, NULL, NULL };
	char *root = NULL;
	struct stat st;
	size_t failed_units = 0;
	int error;

	*out = NULL;
	rli_discovery_init(&discovery);
	memset(&ranks, 0, sizeof(ranks));
	memset(&steps, 0, sizeof(steps));
	memset(&roles, 0, sizeof(roles));
	if ((error = rli_shard_check(options->shard_index, options->shard_count)) < 0 ||
	    (error = rli_rank_filter_parse(&ranks, options->rank_list)) < 0 ||
	    (error = rli_step_filter_parse(&steps, options->step_list)) < 0 ||
	    (error = rli_role_filter_parse(&roles, options->role_list)) < 0)
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
		rli_notes_add(&discovery.structural, RLI_LOG_ERROR, "Source path is not a directory or does not exist: %s",
			      input_path);
		if (stat(root, &st) != 0)
			rli_notes_add(&discovery.structural, RLI_LOG_ERROR, "Source path does not exist: %s", input_path);
		else if (source->format == &rli_format_gmm)
			rli_notes_add(&discovery.structural, RLI_LOG_ERROR, "No group_list.pt files found in: %s", input_path);
	} else {
		rli_discover_options discover = { &ranks, roles.count ? &roles : NULL, 0, steps.all ? NULL : &steps };
		if ((error = source->format->discover(&discovery, root, &discover)) < 0)
			goto done;
		/* A table's rows are kept one by one: each file holds many ranks, steps and roles. */
		for (size_t u = 0; source->format != &rli_format_gmm && u < discovery.count; u++) {
			discovery.units[u].keep_ranks = ranks.all ? NULL : &ranks;
			discovery.units[u].keep_steps = steps.all ? NULL : &steps;
			discovery.units[u].keep_roles = roles.count ? &roles : NULL;
		}
		if (options->shard_count > 1) {
			size_t all = discovery.count;
			rli_discovery_keep_shard(&discovery, root, options->shard_index, options->shard_count);
			rli_log_line(options->log, options->log_ctx, RLI_LOG_NOTICE, "shard %u/%u: %zu of the %zu GMM input units",
				     options->shard_index, options->shard_count, discovery.count, all);
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
	rli_log_line(options->log, options->log_ctx, RLI_LOG_INFO, "Allocated %zu data maps for GMM parsing", discovery.count);
	work.source = source;
	work.tables = tables;
	work.units = discovery.units;
	work.worker = malloc((discovery.count ? discovery.count : 1) * sizeof(*work.worker));
	work.begin = malloc((discovery.count ? discovery.count : 1) * sizeof(*work.begin));
	work.end = malloc((discovery.count ? discovery.count : 1) * sizeof(*work.end));
	if (!work.worker || !work.begin || !work.end) {
		error = rli_error_oom();
		goto done;
	}
	table_count = rli_units_workers(options->jobs, discovery.count);
	for (unsigned w = 0; w < table_count; w++)
		if ((error = rli_gmm_new(&tables[w])) < 0)
			goto done;
	if ((error = rli_units_run(&discovery, parse_one, &work, options->jobs, options->log, options->log_ctx)) < 0 ||
	    (error = merge_units(&merged, &discovery, options, &work, table_count, &failed_units)) < 0)
		goto done;
	rli_log_line(options->log, options->log_ctx, RLI_LOG_INFO, "Parallel processing completed: %zu/%zu ranks processed",
		     discovery.count - failed_units, discovery.count);

	if (merged->count == 0 && options->shard_count > 1 && !failed_units) {
		/* One shard of many may hold nothing: the merge of the shards' tables judges the whole. */
		rli_log_line(options->log, options->log_ctx, RLI_LOG_INFO, "shard %u/%u holds no expert load",
			     options->shard_index, options->shard_count);
		error = RLI_OK;
	} else if (merged->count == 0) {
		if (failed_units == 0)
			rli_log_line(options->log, options->log_ctx, RLI_LOG_WARN, "No valid data collected from any rank");
		rli_discovery_report(&discovery);
		say_nothing(&discovery, options, source, input_path, failed_units);
		error = RLI_EINVALID;
		goto done;
	} else if (failed_units) {
		rli_discovery_report(&discovery);
		for (size_t u = 0; u < discovery.count; u++)
			for (size_t i = 0; i < discovery.units[u].failures.count; i++)
				rli_log_line(options->log, options->log_ctx, RLI_LOG_ERROR, "%s",
					     discovery.units[u].failures.items[i].text);
		error = RLI_EPARTIAL;
	} else {
		rli_log_line(options->log, options->log_ctx, RLI_LOG_INFO, "Data validation passed for %s", source->checked);
		rli_error_clear();
		error = RLI_OK;
	}
	rli_log_line(options->log, options->log_ctx, RLI_LOG_INFO, "GMM table: %zu rows, %zu snapshots, %u experts",
		     merged->count, merged->snapshot_count, merged->experts);
	*out = merged;
	merged = NULL;
done:
	rli_gmm_free(merged);
	for (unsigned w = 0; w < table_count; w++)
		rli_gmm_free(tables[w]);
	free(work.worker);
	free(work.begin);
	free(work.end);
	rli_discovery_dispose(&discovery);
	rli_rank_filter_dispose(&ranks);
	rli_rank_filter_dispose(&steps);
	rli_role_filter_dispose(&roles);
	free(root);
	return error;
}

int rli_gmm_parse(rli_gmm **out, const char *input_path, const rli_gmm_parse_options *options)
{
	static const gmm_source dumps = { &rli_format_gmm, "gmm_data", "group_list.pt dumps", 0 };
	rli_gmm_parse_options defaults;
	if (!options) {
		rli_gmm_parse_options_init(&defaults);
		options = &defaults;
	}
	return parse_tree(out, input_path, options, &dumps);
}

int rli_table_gmm_parse(rli_gmm **out, const char *input_path, const rli_gmm_parse_options *options)
{
	static const gmm_source tables = { &rli_format_table_gmm, "exported_gmm_table", "gmm_events tables", 1 };
	rli_gmm_parse_options defaults;
	if (!options) {
		rli_gmm_parse_options_init(&defaults);
		options = &defaults;
	}
	return parse_tree(out, input_path, options, &tables);
}

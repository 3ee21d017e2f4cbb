/* timeline_stats.c: the timeline's statistics aside: per role its phases and steps, and the ranks to look at, as tables linked to the rows. */
#include "timeline_stats.h"
#include "stats_tables.h"
#include "text_place.h"
#include "theme.h"
#include "common/error.h"
#include "common/strutil.h"

#include <stdlib.h>
#include <string.h>

/*
 * Bounds that keep the aside the same size for a million bars as for a
 * thousand: the tables are what a reader scans beside the chart;
 * summary.json holds every row.
 */
#define ASIDE_MAX_ROLES 24
#define ASIDE_PHASE_ROWS 25
#define ASIDE_STEP_ROWS 30
#define ASIDE_SLOWEST_ROWS 20
#define ASIDE_IDLE_ROWS 10
#define ASIDE_PAIR_ROWS 20   /* waits between roles, overlaps */
#define ASIDE_HEADING_SIZE 14.0
#define ASIDE_TABLE_SIZE 12.0
#define ASIDE_RULE_COLOR 0xBBBBBB

struct rli_timeline_aside {
	size_t table_count, table_capacity, heading_count, item_count;
	rli_stats_table *sources;   /* the tables' texts, owned here */
	rli_table *tables;          /* the items' tables, borrowing the sources' texts */
	uint32_t **lanes;           /* each table's row_lane */
	char **notes;
	rli_text *headings;
	rli_item *items;            /* the page's own items, then the aside's */
};

/* A lane of the panel by its rank and role, for the tables' links. */
typedef struct {
	int64_t rank;
	const char *role;
	uint32_t lane;
} lane_key;

/* What adding a table needs: the aside, the statistics, the lanes by rank and role. */
typedef struct {
	rli_timeline_aside *aside;
	const rli_stats *stats;
	const lane_key *keys;
	size_t key_count;
} builder;

/* The aside's tables across roles and per role: how each is made, how many rows it may show, whether an empty one shows. */
typedef struct {
	int (*make)(rli_stats_table *out, const rli_stats *stats);
	size_t max_rows;
} across_table;

typedef struct {
	int (*make)(rli_stats_table *out, const rli_stats *stats, uint32_t role);
	size_t max_rows;
	int skip_empty;
} role_table;

static int compare_lane_key(const void *a, const void *b)
{
	const lane_key *x = a, *y = b;
	int by_role;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if ((by_role = strcmp(x->role, y->role)) != 0)
		return by_role;
	return (x->lane > y->lane) - (x->lane < y->lane);
}

/* The lane of the rank's row of role (NULL: the rank's first row by role name), or UINT32_MAX. */
static uint32_t find_lane(const lane_key *keys, size_t count, int64_t rank, const char *role)
{
	size_t lo = 0, hi = count;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int before = keys[mid].rank < rank || (keys[mid].rank == rank && role && strcmp(keys[mid].role, role) < 0);
		if (before)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == count || keys[lo].rank != rank || (role && strcmp(keys[lo].role, role) != 0))
		return UINT32_MAX;
	return keys[lo].lane;
}

/* The aside's next table: the source's texts, captioned by its title, rows linked to their lanes. */
static int add_table(const builder *b)
{
	rli_timeline_aside *aside = b->aside;
	size_t t = aside->table_count;
	rli_stats_table *source = &aside->sources[t];
	rli_table *table = &aside->tables[t];
	uint32_t *lanes;

	aside->table_count++;
	if (source->rows_left_out) {
		aside->notes[t] = rli_strfmt("\xe2\x80\xa6 %zu more row%s in summary.json", source->rows_left_out,
					     source->rows_left_out == 1 ? "" : "s");
		if (!aside->notes[t])
			return rli_error_oom();
	}
	lanes = aside->lanes[t] = malloc((source->row_count + 1) * sizeof(*lanes));
	if (!lanes)
		return rli_error_oom();
	for (size_t r = 0; r < source->row_count; r++) {
		char *role = NULL;
		lanes[r] = UINT32_MAX;
		if (source->row_rank[r] == INT64_MIN)
			continue;
		/* the rows name roles as drawn: valid UTF-8 */
		if (source->row_role[r] != UINT32_MAX &&
		    !(role = rli_valid_utf8_copy(rli_events_str(b->stats->events, source->row_role[r]))))
			return rli_error_oom();
		lanes[r] = find_lane(b->keys, b->key_count, source->row_rank[r], role);
		free(role);
	}
	*table = (rli_table){
		.column_count = source->column_count, .row_count = source->row_count, .header = source->header,
		.cells = source->cells, .align = source->align, .font_size = ASIDE_TABLE_SIZE,
		.text_color = TEXT_COLOR, .rule_color = ASIDE_RULE_COLOR, .caption = source->title,
		.note = aside->notes[t], .row_lane = source->rank_column < source->column_count ? lanes : NULL,
		.link_column = source->rank_column, .row_emphasis = source->row_finding,
	};
	aside->items[aside->item_count++] = (rli_item){ .kind = RLI_ITEM_TABLE, .placement = RLI_PLACE_ASIDE,
							 .u.table = table };
	return RLI_OK;
}

/* The source just made (made: its maker's result), cut to max_rows, then added; an empty one is left out when skip_empty. */
static int add_stats_table(const builder *b, int made, size_t max_rows, int skip_empty)
{
	rli_stats_table *source = &b->aside->sources[b->aside->table_count];
	if (made < 0)
		return made;
	if (skip_empty && source->row_count == 0) {
		rli_stats_table_dispose(source);
		return RLI_OK;
	}
	rli_stats_table_truncate(source, max_rows);
	return add_table(b);
}

static int idle_table(rli_stats_table *out, const rli_stats *stats)
{
	return rli_stats_table_bubbles(out, stats, ASIDE_IDLE_ROWS);
}

/* The role's steps, at most as many as the aside shows: made for those rows alone. */
static int aside_steps(rli_stats_table *out, const rli_stats *stats, uint32_t role)
{
	return rli_stats_table_steps(out, stats, role, ASIDE_STEP_ROWS);
}

static const role_table per_role[] = {
	{ rli_stats_table_phases, ASIDE_PHASE_ROWS, 0 },
	{ aside_steps, ASIDE_STEP_ROWS, 1 },
};
#define PER_ROLE (sizeof(per_role) / sizeof(per_role[0]))

static const across_table across_roles[] = {
	{ rli_stats_table_slowest, ASIDE_SLOWEST_ROWS },
	{ idle_table, ASIDE_IDLE_ROWS },
	{ rli_stats_table_transitions, ASIDE_PAIR_ROWS },
	{ rli_stats_table_overlaps, ASIDE_PAIR_ROWS },
};
#define ACROSS_ROLES (sizeof(across_roles) / sizeof(across_roles[0]))

static int add_heading(rli_timeline_aside *aside, const char *text)
{
	rli_text *heading = &aside->headings[aside->heading_count];
	int error = rli_set_text(heading, text, 0, 0, ASIDE_HEADING_SIZE, RLI_ALIGN_START, RLI_ALIGN_START);
	if (error < 0)
		return error;
	heading->bold = 1;
	aside->heading_count++;
	aside->items[aside->item_count++] = (rli_item){ .kind = RLI_ITEM_TEXT, .placement = RLI_PLACE_ASIDE,
							 .u.text = heading };
	return RLI_OK;
}

/* The roles that have phases, in the statistics' order (by name): their ids into roles, their count returned. */
int rli_timeline_add_stats_aside(rli_timeline *timeline, const rli_stats *stats)
{
	const rli_panel *panel = &timeline->panel;
	rli_page *page = &timeline->page;
	rli_timeline_aside *aside = calloc(1, sizeof(*aside));
	lane_key *keys = malloc((panel->row_count + 1) * sizeof(*keys));
	size_t role_count, shown, tables, headings;
	builder b;
	int error = RLI_OK;

	if (!aside || !keys) {
		error = rli_error_oom();
		goto done;
	}
	timeline->aside = aside;
	for (size_t r = 0; r < panel->row_count; r++)
		keys[r] = (lane_key){ panel->rows[r].rank, panel->rows[r].role ? panel->rows[r].role : "", (uint32_t)r };
	qsort(keys, panel->row_count, sizeof(*keys), compare_lane_key);
	b = (builder){ aside, stats, keys, panel->row_count };

	role_count = stats->role_count;
	shown = role_count < ASIDE_MAX_ROLES ? role_count : ASIDE_MAX_ROLES;
	tables = PER_ROLE * shown + ACROSS_ROLES;
	headings = shown + 2;
	aside->table_capacity = tables;
	aside->sources = calloc(tables, sizeof(*aside->sources));
	aside->tables = calloc(tables, sizeof(*aside->tables));
	aside->lanes = calloc(tables, sizeof(*aside->lanes));
	aside->notes = calloc(tables, sizeof(*aside->notes));
	aside->headings = calloc(headings, sizeof(*aside->headings));
	aside->items = calloc(page->item_count + tables + headings, sizeof(*aside->items));
	if (!aside->sources || !aside->tables || !aside->lanes || !aside->notes || !aside->headings || !aside->items) {
		error = rli_error_oom();
		goto done;
	}
	memcpy(aside->items, page->items, page->item_count * sizeof(*page->items));
	aside->item_count = page->item_count;

	for (size_t i = 0; error == RLI_OK && i < shown; i++) {
		char *name = rli_valid_utf8_copy(rli_events_str(stats->events, rli_stats_role(stats, i)));
		if (!name) {
			error = rli_error_oom();
			break;
		}
		error = add_heading(aside, name);
		free(name);
		for (size_t t = 0; error == RLI_OK && t < PER_ROLE; t++)
			error = add_stats_table(&b, per_role[t].make(&aside->sources[aside->table_count], stats, rli_stats_role(stats, i)),
						per_role[t].max_rows, per_role[t].skip_empty);
	}
	if (error == RLI_OK) {
		char *more = role_count > shown ? rli_strfmt("Across roles (%zu more roles in summary.json)",
							   role_count - shown) : rli_strdup("Across roles");
		error = more ? add_heading(aside, more) : rli_error_oom();
		free(more);
	}
	for (size_t t = 0; error == RLI_OK && t < ACROSS_ROLES; t++)
		error = add_stats_table(&b, across_roles[t].make(&aside->sources[aside->table_count], stats),
					across_roles[t].max_rows, 1);
	if (error == RLI_OK) {
		page->items = aside->items;
		page->item_count = aside->item_count;
	}
done:
	free(keys);
	return error;
}

void rli_timeline_aside_free(rli_timeline_aside *aside)
{
	if (!aside)
		return;
	/* a table whose making failed half-way is disposed here too: the sources are zeroed until filled */
	for (size_t t = 0; aside->sources && t <= aside->table_count && t < aside->table_capacity; t++) {
		rli_stats_table_dispose(&aside->sources[t]);
		if (aside->lanes)
			free(aside->lanes[t]);
		if (aside->notes)
			free(aside->notes[t]);
	}
	for (size_t h = 0; aside->headings && h < aside->heading_count; h++)
		free(aside->headings[h].text);
	free(aside->sources);
	free(aside->tables);
	free(aside->lanes);
	free(aside->notes);
	free(aside->headings);
	free(aside->items);
	free(aside);
}

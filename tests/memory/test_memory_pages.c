/* test_memory_pages.c: the memory pages: segment edges, empty segments skipped, file names for one and several devices, the data encoding read back. */
#include "harness.h"
#include "memory_fixture.h"
#include "render/packed_reader.h"
#include "layout/memory_pages.h"
#include "layout/memory_segments.h"

#include <dirent.h>
#include <math.h>
#include <stdint.h>

/* ---- the segment rule alone ---- */

static void test_segment_rule(void)
{
	double b[RLI_MEMORY_MAX_SEGMENTS + 1];
	size_t first, last;

	CHECK_INT(rli_memory_segment_count(0, 1.0), 1);
	CHECK_INT(rli_memory_segment_count(5000, 1.0), 1);
	CHECK_INT(rli_memory_segment_count(5001, 1.0), 2);
	CHECK_INT(rli_memory_segment_count(100000, 1.0), 20);
	CHECK_INT(rli_memory_segment_count(1000000, 1.0), 20);
	CHECK_INT(rli_memory_segment_count(1000000, 0.0), 1); /* one instant: one segment */

	rli_memory_segment_bounds(b, 4, 4.0);
	CHECK(b[0] == 0 && b[1] == 1 && b[2] == 2 && b[3] == 3 && b[4] == 4);
	rli_memory_segment_bounds(b, 3, 1.0);
	CHECK(b[3] == 1.0); /* the last bound is the span itself, no rounding drift */
	rli_memory_segment_bounds(b, 4, 4.0);
	/* a bar ending on a boundary stays out of the next segment */
	rli_memory_segment_span(b, 4, 0.5, 1.0, &first, &last);
	CHECK(first == 0 && last == 0);
	/* one starting on it belongs to the later one only */
	rli_memory_segment_span(b, 4, 1.0, 1.5, &first, &last);
	CHECK(first == 1 && last == 1);
	/* a bar across boundaries is in every segment it overlaps */
	rli_memory_segment_span(b, 4, 0.5, 3.5, &first, &last);
	CHECK(first == 0 && last == 3);
	/* zero-length bars: exactly one segment each, on a boundary the later one, at the end the last */
	rli_memory_segment_span(b, 4, 2.0, 2.0, &first, &last);
	CHECK(first == 2 && last == 2);
	rli_memory_segment_span(b, 4, 0.0, 0.0, &first, &last);
	CHECK(first == 0 && last == 0);
	rli_memory_segment_span(b, 4, 4.0, 4.0, &first, &last);
	CHECK(first == 3 && last == 3);
	rli_memory_segment_span(b, 4, 2.5, 4.0, &first, &last);
	CHECK(first == 2 && last == 3);

	/* Against a plain scan of the bounds, for every count, awkward spans, and times on and beside each bound. */
	{
		static const double spans[] = { 1.0, 3.7e4, 1e-3, 7.0, 1773285905511.975, 0.1 + 0.2 };
		uint64_t state = 99;
		int bad = 0;
		for (size_t n = 1; n <= RLI_MEMORY_MAX_SEGMENTS; n++)
			for (size_t k = 0; k < sizeof(spans) / sizeof(spans[0]); k++) {
				rli_memory_segment_bounds(b, n, spans[k]);
				for (int j = 0; j < 400; j++) {
					double t = j < 3 * (int)(n + 1) ? b[j / 3] : spans[k] * (double)(rli_test_random(&state) % 1100) / 1000.0;
					size_t want = 0;
					if (j < 3 * (int)(n + 1))
						t = j % 3 == 0 ? t : j % 3 == 1 ? nextafter(t, -INFINITY) : nextafter(t, INFINITY);
					for (size_t i = 0; i < n; i++)
						if (b[i] <= t)
							want = i;
					rli_memory_segment_span(b, n, t, t, &first, &last);
					bad |= first != want;
				}
			}
		CHECK(!bad);
	}
}

/* ---- reading a data file back ---- */

static uint64_t varint(const unsigned char *bytes, size_t *pos)
{
	uint64_t value = 0;
	int shift = 0;
	unsigned char byte;
	do {
		byte = bytes[(*pos)++];
		value |= (uint64_t)(byte & 127) << shift;
		shift += 7;
	} while (byte & 128);
	return value;
}

static int64_t unzigzag(uint64_t z)
{
	return z & 1 ? -(int64_t)(z >> 1) - 1 : (int64_t)(z >> 1);
}

/* The number after "key": in text (quoted or not). */
static long long number_field(const char *text, const char *key)
{
	char pattern[64];
	snprintf(pattern, sizeof(pattern), "\"%s\":", key);
	const char *at = strstr(text, pattern);
	if (!at)
		return -1;
	at += strlen(pattern);
	if (*at == '"')
		at++;
	return strtoll(at, NULL, 10);
}

typedef struct {
	int64_t start;
	size_t lane, bar;
} timed;

static int compare_timed(const void *a, const void *b)
{
	const timed *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->lane != y->lane)
		return x->lane < y->lane ? -1 : 1;
	return (x->bar > y->bar) - (x->bar < y->bar);
}

typedef struct {
	double size, start;
	size_t bar;
} ranked;

static int compare_ranked(const void *a, const void *b)
{
	const ranked *x = a, *y = b;
	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->bar > y->bar) - (x->bar < y->bar);
}

/* Which bars a page sums up rather than lists: a lane's carried blocks never freed past its 10 largest. */
static unsigned char *summed_up(const rli_panel *g)
{
	unsigned char *omit = calloc(g->bar_count + 1, 1);
	ranked *keys = calloc(g->bar_count + 1, sizeof(*keys));
	for (size_t r = 0; r < g->row_count; r++) {
		size_t count = 0;
		for (size_t i = g->row_first_bar[r]; i < g->row_first_bar[r + 1]; i++)
			if (g->details->carried[i] && g->details->open_ended[i])
				keys[count++] = (ranked){ g->details->size_kb[i], g->bar_start[i], i };
		qsort(keys, count, sizeof(*keys), compare_ranked);
		for (size_t k = 10; k < count; k++)
			omit[keys[k].bar] = 1;
	}
	free(keys);
	return omit;
}

/* Decodes a page's data file and checks every bar against the panel it was written from. */
/* The bars' fields, each a stream (html_memory_data.c), in the order the header gives their lengths. */
enum { START, CODE, LENGTH, SIZE, GAP, FIELDS };

static void check_round_trip(const char *path, const rli_panel *g, double origin)
{
	unsigned char *omit = summed_up(g);
	char *file = test_read_file(path, NULL);
	size_t inner_length = 0, tpos = 0, n = 0, owns = 0, pos[FIELDS] = { 0 }, field_length[FIELDS] = { 0 };
	/* the header's JSON, a newline, then the streams whose lengths it gives: the bars', totals, the lines' */
	unsigned char *inner = rli_test_unpacked(file, "\"packed\":\"", &inner_length);
	unsigned char *newline = inner ? memchr(inner, '\n', inner_length) : NULL;
	char *text = (char *)inner;
	long long total_length = -1;
	const unsigned char *field[FIELDS] = { NULL }, *totals = NULL;
	int fields_read = 0;
	if (newline) {
		const char *lengths = strstr(text, "\"bars\":[");
		*newline = '\0';
		fields_read = lengths && sscanf(lengths, "\"bars\":[%zu,%zu,%zu,%zu,%zu]", &field_length[START],
						&field_length[CODE], &field_length[LENGTH], &field_length[SIZE],
						&field_length[GAP]) == FIELDS;
		total_length = number_field(text, "totals");
		field[START] = newline + 1;
		for (int f = 1; f < FIELDS; f++)
			field[f] = field[f - 1] + field_length[f - 1];
		totals = field[GAP] + field_length[GAP];
	}
	int64_t origin_units = llround(origin * 1000), open_end = newline ? number_field(text, "openEndUnits") : -1;
	uint64_t size_unit = newline ? (uint64_t)number_field(text, "sizeUnit") : 0;
	timed *own = calloc(g->bar_count + 1, sizeof(*own));
	int bad = 0;

	CHECK(newline != NULL && fields_read && total_length >= 0 && size_unit > 0);
	if (!newline || !fields_read || total_length < 0 || !size_unit)
		goto done;
	CHECK((size_t)(totals + total_length - inner) <= inner_length);
	CHECK(strstr(file, "window.rliMemoryData = {\"version\":3,\"page\":") != NULL);
	CHECK_INT(number_field(text, "originUnits"), origin_units);
	for (size_t r = 0; r < g->row_count; r++) {
		int64_t previous = 0;
		for (size_t i = g->row_first_bar[r]; i < g->row_first_bar[r + 1]; i++) {
			if (omit[i])
				continue;
			n++;
			int64_t start = previous + unzigzag(varint(field[START], &pos[START])), end;
			unsigned open, match = 0;
			uint64_t code = 0;
			if (g->details->carried[i]) {
				uint64_t length = varint(field[LENGTH], &pos[LENGTH]);
				open = length == 0;
				end = open ? open_end : start + (int64_t)length - 1;
			} else {
				code = varint(field[CODE], &pos[CODE]);
				open = code & 1;
				match = (code >> 1) % 3;
				end = open ? open_end : start + (int64_t)varint(field[LENGTH], &pos[LENGTH]);
				own[owns++] = (timed){ start, r, i };
			}
			uint64_t size = varint(field[SIZE], &pos[SIZE]) * size_unit;
			if (!g->details->carried[i] && match == RLI_MEMORY_AFTER_END)
				bad |= varint(field[GAP], &pos[GAP]) != (uint64_t)llround(g->details->match_gap_ms[i] * 1000);
			previous = start;
			bad |= start != llround((origin + g->bar_start[i]) * 1000) - origin_units;
			bad |= end != llround((origin + g->bar_end[i]) * 1000) - origin_units;
			bad |= size != (uint64_t)llround(g->details->size_kb[i] * 1024);
			bad |= open != g->details->open_ended[i];
			if (!g->details->carried[i])
				bad |= match != g->details->match[i] ||
				       ((code >> 1) / 3 == 0) != (g->details->stack[i] == UINT32_MAX);
		}
	}
	/* the totals, in time order of the page's own bars */
	qsort(own, owns, sizeof(*own), compare_timed);
	for (size_t k = 0, total = 0; k < owns; k++) {
		total += (size_t)unzigzag(varint(totals, &tpos));
		bad |= (int64_t)total != llround(g->details->total_mb[own[k].bar] * 100);
	}
	CHECK(!bad);
	for (int f = 0; f < FIELDS; f++)
		CHECK_INT(pos[f], field_length[f]); /* every byte read, none left over */
	CHECK_INT(tpos, total_length);
	size_t omitted = 0;
	for (size_t i = 0; i < g->bar_count; i++)
		omitted += omit[i];
	CHECK_INT(n + omitted, g->bar_count);
	CHECK_INT(number_field(text, "count"), n);
done:
	free(omit);
	free(own);
	free(inner);
	free(file);
}

static int holds(const char *dir, const char *const *names, size_t count)
{
	DIR *handle = opendir(dir);
	struct dirent *entry;
	size_t seen = 0;
	int unexpected = 0;
	while (handle && (entry = readdir(handle)) != NULL) {
		int known = 0;
		if (!strcmp(entry->d_name, ".") || !strcmp(entry->d_name, ".."))
			continue;
		for (size_t i = 0; i < count; i++)
			known |= strcmp(entry->d_name, names[i]) == 0;
		if (!known) {
			fprintf(stderr, "unexpected file %s\n", entry->d_name);
			unexpected = 1;
		}
		seen++;
	}
	if (handle)
		closedir(handle);
	return !unexpected && seen == count;
}

/* A trace must hold an event; this one matches no allocation. */
static const mf_op dummy[] = { { "unrelated::op", "\"1\"", "1", "x.py(1): f", NULL } };

/* ---- one device: empty middle segments, boundary bars ---- */

static void test_one_device(void)
{
	enum { ROWS = 15002 };
	/* Three operators, so three lanes, and a Total Allocated of its own a row: the totals' order is checked. */
	static const char *const ops[] = { "aten::empty", "aten::add", "aten::mul" };
	mf_row *rows = calloc(ROWS, sizeof(*rows));
	char (*text)[3][32] = calloc(ROWS, sizeof(*text));
	const char **totals = calloc(ROWS, sizeof(*totals));
	char *root = fx_tempdir(), *csv, out[4096], *trace = mf_trace(dummy, 1);
	rli_memory *memory = NULL;
	rli_memory_pages *pages = NULL;
	size_t k = 0;

	/* Times in us from 1 s: the span is 4 ms exactly, so the segments are [0,1) [1,2) [2,3) [3,4] ms. */
#define ROW(alloc, dur) (snprintf(text[k][0], 32, "%d", (alloc) + 1000000), snprintf(text[k][1], 32, "%s", dur), \
	snprintf(text[k][2], 32, "%zu.%02zu", 19000 + (k * 7919) % 997, k % 100), totals[k] = text[k][2], \
	rows[k] = (mf_row){ ops[k % 3], "1.5", text[k][0], text[k][1] }, k++)
	ROW(0, "1000"); /* ends on the first boundary: segment 0 only */
	for (int i = 1; i < 7500; i++)
		ROW(1 + i % 900, "1");
	ROW(3000, "0"); /* zero-length on the third boundary: segment 3 only */
	for (int i = 0; i < 7500; i++)
		ROW(3001 + i % 998, "1");
	ROW(3999, "1"); /* ends at the span */
#undef ROW
	CHECK_INT(k, ROWS);
	csv = mf_csv_totals(rows, totals, ROWS);
	mf_capture(root, "in/a_ascend_pt", 3, "{\"role\": \"actor\"}", csv, trace);
	CHECK_INT(mf_parse(&memory, fx_path(root, "in"), NULL, NULL, 1, NULL), RLI_OK);
	CHECK_INT(rli_memory_pages_layout(&pages, memory, NULL), RLI_OK);
	if (pages) {
		const rli_document *doc = rli_memory_pages_document(pages);
		const mp_device *d = &pages->devices[0];
		CHECK_INT(pages->device_count, 1);
		CHECK_INT(d->segment_count, 4);
		CHECK_INT(d->links[0].count, 7500);
		CHECK_INT(d->links[1].count, 0);
		CHECK_INT(d->links[2].count, 0);
		CHECK_INT(d->links[3].count, 7502);
		CHECK(d->links[1].target == NULL && d->links[2].target == NULL);
		CHECK_INT(doc->page_count, 2);
		CHECK_STR(doc->pages[0].name, "memory_timeline_00");
		CHECK_STR(doc->pages[0].data_name, "detail_data_00");
		CHECK_STR(doc->pages[1].name, "memory_timeline_03");
		/* Prev/Next step over the empty segments */
		CHECK_INT(pages->devices[0].seg[0].nav.next, 3);
		CHECK(pages->devices[0].seg[0].nav.previous == SIZE_MAX);
		CHECK_INT(pages->devices[0].seg[1].nav.previous, 0);
		CHECK(pages->devices[0].seg[1].nav.next == SIZE_MAX);
		CHECK(pages->devices[0].seg[0].nav.up == NULL);

		snprintf(out, sizeof(out), "%s/out", root);
		fx_mkdir(root, "out");
		CHECK_INT(rli_render(doc, "html", out, NULL), RLI_OK);
		static const char *const want[] = { "memory_timeline_00.html", "detail_data_00.js",
						    "memory_timeline_03.html", "detail_data_03.js", "memory_viewer.js" };
		CHECK(holds(out, want, 5));
		check_round_trip(fx_text("%s/detail_data_03.js", out), &pages->devices[0].seg[1].gantt, doc->origin);
		check_round_trip(fx_text("%s/detail_data_00.js", out), &pages->devices[0].seg[0].gantt, doc->origin);
		/* the page names its own data file */
		char *html = test_read_file(fx_text("%s/memory_timeline_03.html", out), NULL);
		size_t model_length = 0;
		char *model = (char *)rli_test_unpacked(html, "data-packed=\"deflate\">", &model_length);
		CHECK(html && strstr(html, "<script src=\"detail_data_03.js\"></script>"));
		CHECK(html && strstr(html, "<script src=\"memory_viewer.js\"></script>"));
		CHECK(model && strstr(model, "\"data\":\"detail_data_03.js\""));
		CHECK(model && strstr(model, "\"previous\":0,\"next\":-1"));
		CHECK(model && strstr(model, "\"target\":null"));
		free(model);
		free(html);
		/* the viewer the pages share is written once, beside the first; it draws them and styles them */
		char *viewer = test_read_file(fx_text("%s/memory_viewer.js", out), NULL);
		CHECK(viewer && strstr(viewer, "window.rliMemoryPage") && strstr(viewer, "style.textContent"));
		free(viewer);
	}
	rli_memory_pages_free(pages);
	rli_memory_free(memory);
	free(csv);
	free(trace);
	free(rows);
	free(text);
	free(totals);
	fx_remove(root);
	free(root);
}

/* ---- several devices: names from role and rank, the index; a block never freed lives to the end ---- */

static void test_several_devices(void)
{
	static const mf_row a[] = { { "aten::add", "4", "1000", "10" }, { "aten::mul", "8", "1002", "" },
				    { "aten::add", "2", "1004", "3" } };
	static const mf_row b[] = { { "aten::zeros", "1", "5000", "1" } };
	char *root = fx_tempdir(), *csv_a = mf_csv(a, 3), *csv_b = mf_csv(b, 1), out[4096], *trace = mf_trace(dummy, 1);
	rli_memory *memory = NULL;
	rli_memory_pages *pages = NULL;

	mf_capture(root, "in/a_ascend_pt", 0, "{\"role\": \"actor\"}", csv_a, trace);
	mf_capture(root, "in/b_ascend_pt", 1, "{\"role\": \"roll/out x\"}", csv_b, trace);
	CHECK_INT(mf_parse(&memory, fx_path(root, "in"), NULL, NULL, 1, NULL), RLI_OK);
	/* The fixture's totals are one placeholder on every row: what is checked here is the blocks' own sum. */
	if (memory)
		memory->totals = RLI_MEMORY_TOTALS_NONE;
	CHECK_INT(rli_memory_pages_layout(&pages, memory, NULL), RLI_OK);
	if (pages) {
		const rli_document *doc = rli_memory_pages_document(pages);
		const mp_page *p = &pages->devices[0].seg[0];
		CHECK_INT(pages->device_count, 2);
		CHECK_INT(doc->page_count, 3);
		CHECK_STR(doc->pages[0].name, "memory_timeline_actor_rank0_00");
		CHECK_STR(doc->pages[1].name, "memory_timeline_roll_out_x_rank1_00");
		CHECK_STR(doc->pages[1].data_name, "detail_data_roll_out_x_rank1_00");
		CHECK_STR(doc->pages[2].name, "index");
		CHECK_STR(p->nav.up, "index");
		/*
		 * The index's peaks from the first allocation of all (1000 us): the actor's at 1004 us,
		 * 4 + 8 + 2 KB live; the rollout's only block at 5000 us.
		 */
		CHECK_STR(pages->index_table.header[3], "Peak at (ms)");
		CHECK_STR(pages->index_table.cells[0 * 6 + 3], "0.004");
		CHECK_STR(pages->index_table.cells[1 * 6 + 3], "4.000");
		/* aten::mul, never freed, ends where the device's last block ends (1000 + 10 us) */
		for (size_t i = 0; i < p->gantt.bar_count; i++)
			if (p->details.open_ended[i])
				CHECK_NEAR(p->gantt.bar_end[i], pages->devices[0].shift + 0.010, 1e-9);
		/* and the curve holds it to the end: at 8.5 us both it and the first add are live, 12 KB */
		const rli_line_mark *low = &pages->devices[0].envelope[1];
		size_t column = (size_t)(0.85 * (double)low->count);
		CHECK_NEAR(low->y[column], 12.0 / 1024, 1e-12);
		snprintf(out, sizeof(out), "%s/out", root);
		fx_mkdir(root, "out");
		CHECK_INT(rli_render(doc, "html", out, NULL), RLI_OK);
		static const char *const want[] = { "memory_timeline_actor_rank0_00.html", "detail_data_actor_rank0_00.js",
						    "memory_timeline_roll_out_x_rank1_00.html",
						    "detail_data_roll_out_x_rank1_00.js", "index.html", "memory_viewer.js" };
		CHECK(holds(out, want, 6));
		char *index = test_read_file(fx_text("%s/index.html", out), NULL);
		CHECK(index && strstr(index, "href=\"memory_timeline_actor_rank0_00.html\""));
		CHECK(index && strstr(index, "href=\"memory_timeline_roll_out_x_rank1_00.html\""));
		CHECK(index && strstr(index, "roll/out x - Rank 1"));
		free(index);
	}
	rli_memory_pages_free(pages);
	rli_memory_free(memory);
	free(csv_a);
	free(csv_b);
	free(trace);
	fx_remove(root);
	free(root);
}

/* ---- more devices than the index once held lists of links (64): every one is listed ---- */

static void test_many_devices(void)
{
	static const mf_row one[] = { { "aten::add", "4", "1000", "10" } };
	enum { DEVICES = 70 };
	char *root = fx_tempdir(), *csv = mf_csv(one, 1), *trace = mf_trace(dummy, 1), out[4096];
	rli_memory *memory = NULL;
	rli_memory_pages *pages = NULL;

	for (int d = 0; d < DEVICES; d++) {
		char dir[64];
		snprintf(dir, sizeof(dir), "in/d%02d_ascend_pt", d); /* mf_capture reuses fx_text's buffer */
		mf_capture(root, dir, d, "{\"role\": \"actor\"}", csv, trace);
	}
	CHECK_INT(mf_parse(&memory, fx_path(root, "in"), NULL, NULL, 2, NULL), RLI_OK);
	CHECK_INT(rli_memory_pages_layout(&pages, memory, NULL), RLI_OK);
	if (pages) {
		char *index;
		size_t sections = 0;
		snprintf(out, sizeof(out), "%s/out", root);
		fx_mkdir(root, "out");
		CHECK_INT(rli_render(rli_memory_pages_document(pages), "html", out, NULL), RLI_OK);
		index = test_read_file(fx_text("%s/index.html", out), NULL);
		for (const char *at = index; at && (at = strstr(at, "<section class=\"rli-device\">")); at++)
			sections++;
		CHECK_INT(sections, DEVICES);
		CHECK(index && strstr(index, "href=\"memory_timeline_actor_rank69_00.html\""));
		free(index);
	}
	rli_memory_pages_free(pages);
	rli_memory_free(memory);
	free(csv);
	free(trace);
	fx_remove(root);
	free(root);
}

/* ---- blocks never freed carried into a later segment: the 10 largest a lane listed, the rest summed up ---- */

static void test_carried(void)
{
	enum { ROWS = 12 + 5001 };
	mf_row *rows = calloc(ROWS, sizeof(*rows));
	char (*text)[3][32] = calloc(ROWS, sizeof(*text));
	char *root = fx_tempdir(), *csv, out[4096], *trace = mf_trace(dummy, 1);
	rli_memory *memory = NULL;
	rli_memory_pages *pages = NULL;
	size_t k = 0;

	/* sizes 1, 1, 1, 1, 2, ... 9 KB: the 10th and 11th largest tie, and the earlier start is kept */
	for (int i = 0; i < 12; i++, k++) {
		snprintf(text[k][0], 32, "%d", 1000000 + i);
		snprintf(text[k][1], 32, "%d", i < 4 ? 1 : i - 2);
		rows[k] = (mf_row){ "aten::keep", text[k][1], text[k][0], "" };
	}
	for (int i = 0; i < 5001; i++, k++) {
		snprintf(text[k][0], 32, "%d", 1003000 + i % 999);
		rows[k] = (mf_row){ "aten::empty", "1.5", text[k][0], "1" };
	}
	csv = mf_csv(rows, ROWS);
	mf_capture(root, "in/a_ascend_pt", 0, "{\"role\": \"actor\"}", csv, trace);
	CHECK_INT(mf_parse(&memory, fx_path(root, "in"), NULL, NULL, 1, NULL), RLI_OK);
	CHECK_INT(rli_memory_pages_layout(&pages, memory, NULL), RLI_OK);
	if (pages) {
		const rli_document *doc = rli_memory_pages_document(pages);
		CHECK_INT(doc->page_count, 2);
		CHECK_INT(pages->devices[0].links[1].count, 5013); /* every block never freed lives on into it */
		snprintf(out, sizeof(out), "%s/out", root);
		fx_mkdir(root, "out");
		CHECK_INT(rli_render(doc, "html", out, NULL), RLI_OK);
		check_round_trip(fx_text("%s/detail_data_01.js", out), &pages->devices[0].seg[1].gantt, doc->origin);
		char *file = test_read_file(fx_text("%s/detail_data_01.js", out), NULL);
		size_t length = 0;
		char *data = (char *)rli_test_unpacked(file, "\"packed\":\"", &length);
		/* the two later 1 KB blocks (4 units of 512 bytes) summed up, from the first one's start, 2 us in */
		CHECK(data && strstr(data, "\"carriedSummary\":[[2,\"4\",\"2\"],[0,\"0\",\"0\"]]"));
		CHECK(data && strstr(data, "\"carriedCounts\":[10,0]"));
		free(data);
		free(file);
	}
	rli_memory_pages_free(pages);
	rli_memory_free(memory);
	free(csv);
	free(trace);
	free(rows);
	free(text);
	fx_remove(root);
	free(root);
}

/* ---- devices laid out on threads: the same pages, byte for byte, as on one ---- */

/* The pages of memory at `threads`, rendered into root/<name>. */
static void render_at(rli_memory *memory, unsigned threads, const char *root, const char *name)
{
	rli_timeline_options options;
	rli_memory_pages *pages = NULL;
	rli_timeline_options_init(&options);
	options.threads = threads;
	CHECK_INT(rli_memory_pages_layout(&pages, memory, &options), RLI_OK);
	fx_mkdir(root, name);
	if (pages)
		CHECK_INT(rli_render(rli_memory_pages_document(pages), "html", fx_path(root, name), NULL), RLI_OK);
	rli_memory_pages_free(pages);
}

/*
 * `devices` captures of `rows` rows, their pages laid out on one thread and on four: every file
 * the same, byte for byte. With `totals`, each allocation's Total Allocated differs (the curve
 * is the allocator's count, every moment kept), else all are one. Returns how many files one
 * thread wrote.
 */
static size_t same_on_threads(int devices, int rows_each, int totals)
{
	static const char *const ops[] = { "aten::add", "aten::mul", "aten::empty", "aten::zeros" };
	char *root = fx_tempdir(), *trace = mf_trace(dummy, 1);
	mf_row *rows = calloc((size_t)rows_each, sizeof(*rows));
	char (*text)[4][32] = calloc((size_t)rows_each, sizeof(*text));
	const char **total = calloc((size_t)rows_each, sizeof(*total));
	rli_memory *memory = NULL;
	size_t files = 0;

	for (int d = 0; d < devices; d++) {
		char *csv, dir[64];
		for (int i = 0; i < rows_each; i++) {
			snprintf(text[i][0], 32, "%d", (d + 1) * 17 + (i * 7919 + d) % 512);
			snprintf(text[i][1], 32, "%d", 1000 + i * 3 + d);
			snprintf(text[i][2], 32, "%d", i % 5 ? (i * 31 + d) % 97 + 1 : 0);
			snprintf(text[i][3], 32, "%.2f", 18000 + (double)((i * 7919) % 40000) / 16);
			rows[i] = (mf_row){ ops[(i + d) % 4], text[i][0], text[i][1], i % 5 ? text[i][2] : "" };
			total[i] = text[i][3];
		}
		csv = totals ? mf_csv_totals(rows, total, (size_t)rows_each) : mf_csv(rows, (size_t)rows_each);
		snprintf(dir, sizeof(dir), "in/d%d_ascend_pt", d);
		mf_capture(root, dir, d, "{\"role\": \"actor\"}", csv, trace);
		free(csv);
	}
	CHECK_INT(mf_parse(&memory, fx_path(root, "in"), NULL, NULL, 1, NULL), RLI_OK);
	if (memory) {
		render_at(memory, 1, root, "one");
		render_at(memory, 4, root, "four");
		DIR *dir = opendir(fx_path(root, "one"));
		struct dirent *entry;
		while (dir && (entry = readdir(dir))) {
			size_t a_length = 0, b_length = 0;
			char *a, *b;
			if (entry->d_name[0] == '.')
				continue;
			a = test_read_file(fx_text("%s/one/%s", root, entry->d_name), &a_length);
			b = test_read_file(fx_text("%s/four/%s", root, entry->d_name), &b_length);
			CHECK(a && b && a_length == b_length && memcmp(a, b, a_length) == 0);
			files++;
			free(a);
			free(b);
		}
		if (dir)
			closedir(dir);
	}
	rli_memory_free(memory);
	free(rows);
	free(text);
	free(total);
	free(trace);
	fx_remove(root);
	free(root);
	return files;
}

static void test_threads(void)
{
	/* Eight devices at once, a page each: a page and a data file a device, the index and the viewer. */
	CHECK_INT(same_on_threads(8, 600, 0), 2 * 8 + 2);
	/*
	 * One device of 30,000 blocks: its segments' pages are shared out instead (a page and a data
	 * file a segment, and the viewer).
	 */
	CHECK_INT(same_on_threads(1, 30000, 0), 2 * rli_memory_segment_count(30000, 1.0) + 1);
	/*
	 * One device of more blocks than a curve is swept in halves from (memory_curve.h), on the
	 * allocator's changing count: its curve swept on two threads, its envelope and exact
	 * slices joined, the same as one sweep's.
	 */
	CHECK_INT(same_on_threads(1, RLI_MEMORY_HALVES_FROM + 4000, 1),
		  2 * rli_memory_segment_count(RLI_MEMORY_HALVES_FROM + 4000, 1.0) + 1);
}

int main(void)
{
	test_segment_rule();
	test_one_device();
	test_several_devices();
	test_many_devices();
	test_threads();
	test_carried();
	TEST_DONE();
}

/* report_compare.c: the report's comparison section: the verdict, the phases figure, and tables of what changed. */
#include "report_compare.h"
#include "report_table.h"
#include "common/error.h"
#include "common/numfmt.h"
#include "layout/compare_figure.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The figure is laid out this wide (page units) and scaled to the content width. */
#define FIGURE_WIDTH 1400.0
#define MIN_FIGURE_ROOM 160.0
#define SITES_LISTED 10

static const char noise_rule[] =
	"Phases are aligned by role and bar name, over all ranks and rank by rank; times are each run's own. "
	"A change of median counts when both runs have at least 3 samples and it is larger than either run's "
	"inter-quartile range; otherwise it is within noise (or there are too few samples). ";

static void dispose_figure(void *holder)
{
	rli_compare_figure_free(*(rli_compare_figure **)holder);
}

/* The figure below its own title: legend, lanes, axis and notes, scaled to the content width. */
static int figure(rli_book *book, const rli_comparison *c)
{
	rli_compare_figure **holder = calloc(1, sizeof(*holder));
	rli_timeline_options options;
	const rli_page *page;
	double top = INFINITY;
	int error;

	if (!holder)
		return rli_error_oom();
	if ((error = rli_book_keep_disposable(book, holder, dispose_figure)) < 0)
		return error;
	rli_timeline_options_init(&options);
	options.width = (int)FIGURE_WIDTH;
	options.medium = RLI_MEDIUM_VECTOR;
	if ((error = rli_compare_figure_layout(holder, c, &options)) < 0)
		return error == RLI_EINVALID ? RLI_OK : error;
	page = &rli_compare_figure_document(*holder)->pages[0];
	for (size_t i = 0; i < page->item_count; i++)
		if (page->items[i].kind == RLI_ITEM_LEGEND)
			top = fmin(top, page->items[i].u.legend->swatches[0].y - 8);
	if (!isfinite(top))
		top = 0;
	return rli_book_figure(book, page, top, page->height, MIN_FIGURE_ROOM);
}

/* A duration, or "—" for the side that lacks the phase. */
static const char *duration_or_dash(char *out, size_t size, double ms, int present)
{
	if (!present || !isfinite(ms))
		return "\xe2\x80\x94";
	return rli_fmt_duration(out, size, ms);
}

/* Regressions, then improvements, then the rest in the comparison's order. */
static int verdict_first(const void *pa, const void *pb)
{
	const rli_phase_change *a = *(const rli_phase_change *const *)pa, *b = *(const rli_phase_change *const *)pb;
	static const int order[] = { [RLI_VERDICT_REGRESSION] = 0, [RLI_VERDICT_IMPROVEMENT] = 1,
				     [RLI_VERDICT_SAME] = 2, [RLI_VERDICT_ONE_SIDE] = 3 };
	if (order[a->verdict] != order[b->verdict])
		return order[a->verdict] - order[b->verdict];
	return a < b ? -1 : a > b;
}

/* Every phase over all ranks, and each rank's phase that changed beyond the noise. */
static int phase_table(rli_book *book, const rli_comparison *c)
{
	static const char *const header[] = { "Phase", "Baseline median", "Median", "Change", "Noise", "Verdict",
					      "Samples" };
	static const rli_align align[] = { RLI_ALIGN_START, RLI_ALIGN_END, RLI_ALIGN_END, RLI_ALIGN_END,
					   RLI_ALIGN_START, RLI_ALIGN_START, RLI_ALIGN_END };
	static const double weight[] = { 2.0, 0.1, 0.1, 0.1, 0.5, 0.3, 0.1 };
	const rli_phase_change **rows = rli_book_alloc(book, c->phase_count + c->rank_phase_count + 1, sizeof(*rows));
	rli_text_table t;
	size_t n = 0;
	int error;

	if (!rows)
		return rli_error_oom();
	for (size_t i = 0; i < c->phase_count; i++)
		rows[n++] = &c->phases[i];
	for (size_t i = 0; i < c->rank_phase_count; i++)
		if (c->rank_phases[i].verdict == RLI_VERDICT_REGRESSION || c->rank_phases[i].verdict == RLI_VERDICT_IMPROVEMENT)
			rows[n++] = &c->rank_phases[i];
	qsort(rows, n, sizeof(*rows), verdict_first);
	if ((error = rli_text_table_new(book, &t, "Phases: over all ranks, and the ranks that changed", 7, n, header,
					align, weight)) < 0)
		return error;
	for (size_t r = 0; r < n && error == RLI_OK; r++) {
		const rli_phase_change *p = rows[r];
		char label[512], a[32], b[32], change[48];
		rli_fmt_change(change, sizeof(change), p->presence == RLI_IN_BOTH ? p->ratio : NAN);
		if ((error = rli_text_table_set(book, &t, r, 0, "%s", rli_compare_phase_label(label, sizeof(label), p))) < 0 ||
		    (error = rli_text_table_set(book, &t, r, 1, "%s", duration_or_dash(a, sizeof(a), p->baseline.median_ms,
										     p->presence != RLI_ADDED))) < 0 ||
		    (error = rli_text_table_set(book, &t, r, 2, "%s", duration_or_dash(b, sizeof(b), p->current.median_ms,
										     p->presence != RLI_REMOVED))) < 0 ||
		    (error = rli_text_table_set(book, &t, r, 3, "%s", change)) < 0 ||
		    (error = rli_text_table_set(book, &t, r, 4, "%s", p->presence == RLI_IN_BOTH ? rli_noise_name(p->noise) :
										       "")) < 0 ||
		    (error = rli_text_table_set(book, &t, r, 5, "%s", p->presence == RLI_IN_BOTH ? rli_verdict_name(p->verdict) :
										       p->presence == RLI_ADDED ? "this run only" : "baseline only")) < 0)
			break;
		error = rli_text_table_set(book, &t, r, 6, "%zu / %zu", p->baseline.count, p->current.count);
	}
	return error < 0 ? error : rli_book_table(book, &t);
}

static const char *straggler_text(rli_book *book, int has, int64_t rank)
{
	return has ? rli_book_printf(book, "rank %lld", (long long)rank) : "none";
}

/* A few ranks, "0, 3, 5" or "0, 3, ... (12)". */
static const char *rank_text(rli_book *book, const int64_t *ranks, size_t n)
{
	char text[160] = "";
	size_t used = 0;
	if (n == 0)
		return "";
	for (size_t i = 0; i < n && i < 6; i++)
		used += (size_t)snprintf(text + used, sizeof(text) - used, "%s%lld", i ? ", " : "", (long long)ranks[i]);
	if (n > 6)
		snprintf(text + used, sizeof(text) - used, ", ... (%zu)", n);
	return rli_book_strdup(book, text);
}

static int role_table(rli_book *book, const rli_comparison *c)
{
	static const char *const header[] = { "Role", "Step (baseline)", "Step", "Share (baseline)", "Share",
					      "Straggler (baseline)", "Straggler", "Ranks added", "Ranks removed" };
	static const rli_align align[] = { RLI_ALIGN_START, RLI_ALIGN_END, RLI_ALIGN_END, RLI_ALIGN_END, RLI_ALIGN_END,
					   RLI_ALIGN_START, RLI_ALIGN_START, RLI_ALIGN_START, RLI_ALIGN_START };
	static const double weight[] = { 1.5, 0.1, 0.1, 0.1, 0.1, 0.3, 0.3, 0.5, 0.5 };
	rli_text_table t;
	int error = rli_text_table_new(book, &t, "Roles: typical step, share of the run's step, straggler", 9,
				       c->role_count, header, align, weight);
	for (size_t r = 0; r < c->role_count && error == RLI_OK; r++) {
		const rli_role_change *role = &c->roles[r];
		char a[32], b[32], share_a[16] = "\xe2\x80\x94", share_b[16] = "\xe2\x80\x94";
		if (isfinite(role->baseline_share))
			snprintf(share_a, sizeof(share_a), "%.1f%%", 100 * role->baseline_share);
		if (isfinite(role->current_share))
			snprintf(share_b, sizeof(share_b), "%.1f%%", 100 * role->current_share);
		if ((error = rli_text_table_set(book, &t, r, 0, "%s%s", role->role,
						role->presence == RLI_ADDED ? " (this run only)" :
						role->presence == RLI_REMOVED ? " (baseline only)" : "")) < 0 ||
		    (error = rli_text_table_set(book, &t, r, 1, "%s", duration_or_dash(a, sizeof(a), role->baseline_step_ms,
										     role->presence != RLI_ADDED))) < 0 ||
		    (error = rli_text_table_set(book, &t, r, 2, "%s", duration_or_dash(b, sizeof(b), role->current_step_ms,
										     role->presence != RLI_REMOVED))) < 0 ||
		    (error = rli_text_table_set(book, &t, r, 3, "%s", share_a)) < 0 ||
		    (error = rli_text_table_set(book, &t, r, 4, "%s", share_b)) < 0 ||
		    (error = rli_text_table_set(book, &t, r, 5, "%s", straggler_text(book, role->baseline_has_straggler,
										       role->baseline_straggler))) < 0 ||
		    (error = rli_text_table_set(book, &t, r, 6, "%s%s", straggler_text(book, role->current_has_straggler,
											 role->current_straggler),
						role->straggler_changed ? " (changed)" : "")) < 0 ||
		    (error = rli_text_table_set(book, &t, r, 7, "%s", rank_text(book, role->added, role->ranks_added))) < 0)
			break;
		error = rli_text_table_set(book, &t, r, 8, "%s", rank_text(book, role->removed, role->ranks_removed));
	}
	return error < 0 ? error : rli_book_table(book, &t);
}

static int transition_table(rli_book *book, const rli_comparison *c)
{
	static const char *const header[] = { "From role", "To role", "Waits (baseline)", "Total wait (baseline)",
					      "Waits", "Total wait", "Change" };
	static const rli_align align[] = { RLI_ALIGN_START, RLI_ALIGN_START, RLI_ALIGN_END, RLI_ALIGN_END,
					   RLI_ALIGN_END, RLI_ALIGN_END, RLI_ALIGN_END };
	rli_text_table t;
	int error = rli_text_table_new(book, &t, "Bubbles: the waits between roles", 7, c->transition_count, header,
				       align, NULL);
	for (size_t r = 0; r < c->transition_count && error == RLI_OK; r++) {
		const rli_transition_change *w = &c->transitions[r];
		char a[32], b[32], d[32];
		if ((error = rli_text_table_set(book, &t, r, 0, "%s", w->from)) < 0 ||
		    (error = rli_text_table_set(book, &t, r, 1, "%s", w->to)) < 0 ||
		    (error = rli_text_table_set(book, &t, r, 2, "%zu", w->baseline.count)) < 0 ||
		    (error = rli_text_table_set(book, &t, r, 3, "%s", rli_fmt_duration(a, sizeof(a), w->baseline.total_ms))) < 0 ||
		    (error = rli_text_table_set(book, &t, r, 4, "%zu", w->current.count)) < 0 ||
		    (error = rli_text_table_set(book, &t, r, 5, "%s", rli_fmt_duration(b, sizeof(b), w->current.total_ms))) < 0)
			break;
		error = rli_text_table_set(book, &t, r, 6, "%s", rli_fmt_duration_change(d, sizeof(d), w->change_ms));
	}
	return error < 0 ? error : rli_book_table(book, &t);
}

static int device_table(rli_book *book, const rli_comparison *c)
{
	static const char *const header[] = { "Device", "Peak (baseline)", "Peak", "At (baseline)", "At",
					      "Never freed (baseline)", "Never freed" };
	static const rli_align align[] = { RLI_ALIGN_START, RLI_ALIGN_END, RLI_ALIGN_END, RLI_ALIGN_END,
					   RLI_ALIGN_END, RLI_ALIGN_END, RLI_ALIGN_END };
	rli_text_table t;
	int error = rli_text_table_new(book, &t, "Memory per device: the peak, when, and what was never freed", 7,
				       c->device_count, header, align, NULL);
	for (size_t r = 0; r < c->device_count && error == RLI_OK; r++) {
		const rli_device_change *d = &c->devices[r];
		char a[32], b[32], e[32], f[32], g[32], h[32];
		if ((error = rli_text_table_set(book, &t, r, 0, "%s rank %lld %s%s", d->role, (long long)d->rank,
						d->device_type, d->presence == RLI_ADDED ? " (this run only)" :
						d->presence == RLI_REMOVED ? " (baseline only)" : "")) < 0 ||
		    (error = rli_text_table_set(book, &t, r, 1, "%s", rli_fmt_size_kb(a, sizeof(a), 1024 * d->baseline_peak_mb))) < 0 ||
		    (error = rli_text_table_set(book, &t, r, 2, "%s", rli_fmt_size_kb(b, sizeof(b), 1024 * d->current_peak_mb))) < 0 ||
		    (error = rli_text_table_set(book, &t, r, 3, "%s", rli_fmt_duration(e, sizeof(e), d->baseline_peak_ms))) < 0 ||
		    (error = rli_text_table_set(book, &t, r, 4, "%s", rli_fmt_duration(f, sizeof(f), d->current_peak_ms))) < 0 ||
		    (error = rli_text_table_set(book, &t, r, 5, "%s", rli_fmt_size_kb(g, sizeof(g), d->baseline_never_freed_kb))) < 0)
			break;
		error = rli_text_table_set(book, &t, r, 6, "%s", rli_fmt_size_kb(h, sizeof(h), d->current_never_freed_kb));
	}
	return error < 0 ? error : rli_book_table(book, &t);
}

typedef struct {
	const rli_device_change *device;
	const rli_site_change *site;
} site_row;

static double site_size(const rli_site_change *s)
{
	return fmax(fabs(s->current_allocated_kb - s->baseline_allocated_kb), fabs(s->current_live_kb - s->baseline_live_kb));
}

static int larger_change(const void *pa, const void *pb)
{
	const site_row *a = pa, *b = pb;
	double x = site_size(a->site), y = site_size(b->site);
	if (x != y)
		return x > y ? -1 : 1;
	return a->site < b->site ? -1 : a->site > b->site;
}

/* The call sites whose bytes changed most, over every device both runs have. */
static int site_table(rli_book *book, const rli_comparison *c)
{
	static const char *const header[] = { "Device", "Call site (first frame)", "Allocated (baseline)", "Allocated",
					      "Live at peak (baseline)", "Live at peak" };
	static const rli_align align[] = { RLI_ALIGN_START, RLI_ALIGN_START, RLI_ALIGN_END, RLI_ALIGN_END,
					   RLI_ALIGN_END, RLI_ALIGN_END };
	static const double weight[] = { 0.5, 2.0, 0.1, 0.1, 0.1, 0.1 };
	site_row *rows = rli_book_alloc(book, c->site_count + 1, sizeof(*rows));
	size_t n = 0;
	rli_text_table t;
	int error;

	if (!rows)
		return rli_error_oom();
	for (size_t d = 0; d < c->device_count; d++)
		for (size_t s = 0; s < c->devices[d].site_count; s++)
			rows[n++] = (site_row){ &c->devices[d], &c->sites[c->devices[d].first_site + s] };
	qsort(rows, n, sizeof(*rows), larger_change);
	if (n > SITES_LISTED)
		n = SITES_LISTED;
	if ((error = rli_text_table_new(book, &t, "Call sites whose bytes changed most", 6, n, header, align, weight)) < 0)
		return error;
	for (size_t r = 0; r < n && error == RLI_OK; r++) {
		char a[32], b[32], e[32], f[32];
		const rli_site_change *s = rows[r].site;
		if ((error = rli_text_table_set(book, &t, r, 0, "%s rank %lld %s", rows[r].device->role,
						(long long)rows[r].device->rank, rows[r].device->device_type)) < 0 ||
		    (error = rli_text_table_set(book, &t, r, 1, "%s", *s->text ? s->text : "(no call stack)")) < 0 ||
		    (error = rli_text_table_set(book, &t, r, 2, "%s", rli_fmt_size_kb(a, sizeof(a), s->baseline_allocated_kb))) < 0 ||
		    (error = rli_text_table_set(book, &t, r, 3, "%s", rli_fmt_size_kb(b, sizeof(b), s->current_allocated_kb))) < 0 ||
		    (error = rli_text_table_set(book, &t, r, 4, "%s", rli_fmt_size_kb(e, sizeof(e), s->baseline_live_kb))) < 0)
			break;
		error = rli_text_table_set(book, &t, r, 5, "%s", rli_fmt_size_kb(f, sizeof(f), s->current_live_kb));
	}
	return error < 0 ? error : rli_book_table(book, &t);
}

int rli_report_compare(rli_book *book, const rli_comparison *c)
{
	const char *verdict;
	int error;

	verdict = rli_book_printf(book, "This run (%s) against the baseline (%s): %zu regression%s and %zu "
				  "improvement%s%s. %s", c->current->path, c->baseline->path, c->regressions,
				  c->regressions == 1 ? "" : "s", c->improvements, c->improvements == 1 ? "" : "s",
				  c->baseline->source == RLI_SIDE_SUMMARY ?
					  " (the baseline is a summary.json: statistics only, so a device's call sites are "
					  "compared only where its summary listed them, among its ten largest)" : "",
				  noise_rule);
	if (!verdict)
		return rli_error_oom();
	if ((error = rli_book_heading(book, "Comparison with the baseline", 0)) < 0 ||
	    (error = rli_book_paragraph(book, verdict, BOOK_BODY_SIZE, 0, BOOK_TEXT_COLOR)) < 0)
		return error;
	if (c->timeline && ((error = figure(book, c)) < 0 || (error = phase_table(book, c)) < 0 ||
			    (error = role_table(book, c)) < 0 || (error = transition_table(book, c)) < 0))
		return error;
	if (c->memory && ((error = device_table(book, c)) < 0 || (error = site_table(book, c)) < 0))
		return error;
	return RLI_OK;
}

/* trend_panels.c: the trend's panels: a role's phases over the runs (median line, quartile band, this run ringed, regressions in red), the memory peaks, the straggler strip. */
#include "memory_parts.h"
#include "trend_parts.h"
#include "text_place.h"
#include "theme.h"
#include "common/error.h"
#include "common/numfmt.h"
#include "common/grow.h"
#include "common/strutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* A phase drawn in a role's panel: its name, colour, and its place in each point's side. */
typedef struct {
	const char *name;
	double greatest;        /* its largest median over the points: the order phases are picked in */
	rli_color color;
} drawn_phase;

static const rli_side_phase *phase_of(const rli_compare_side *side, const char *role, const char *name, size_t *index)
{
	for (size_t i = 0; i < side->phase_count; i++)
		if (strcmp(side->phases[i].role, role) == 0 && strcmp(side->phases[i].name, name) == 0) {
			if (index)
				*index = i;
			return &side->phases[i];
		}
	return NULL;
}

static int by_greatest(const void *pa, const void *pb)
{
	const drawn_phase *a = pa, *b = pb;
	if (a->greatest != b->greatest)
		return a->greatest > b->greatest ? -1 : 1;
	return strcmp(a->name, b->name);
}

static int by_name(const void *pa, const void *pb)
{
	return strcmp(((const drawn_phase *)pa)->name, ((const drawn_phase *)pb)->name);
}

/* The line beside a role's title: what this run's phases did against the runs before it. */
static int role_note(char *out, size_t size, const rli_trend *t, const char *role, int *alarm)
{
	const rli_trend_point *p = t->current != SIZE_MAX ? &t->points[t->current] : &t->points[t->count - 1];
	const char *who = t->current != SIZE_MAX ? "this run" : "the last run";
	size_t used = 0, regressions = 0, present = 0;
	char change[32];
	*alarm = 0;
	for (size_t i = 0; i < p->side->phase_count; i++)
		present += strcmp(p->side->phases[i].role, role) == 0;
	if (!present) {
		snprintf(out, size, "not in %s", who);
		return RLI_OK;
	}
	if (!p->judged) {
		snprintf(out, size, "%s: not compared (a verdict needs %d runs before it)", who, RLI_HISTORY_MIN_RUNS);
		return RLI_OK;
	}
	used = (size_t)snprintf(out, size, "%s: slower than the median of the runs before it, beyond the noise:", who);
	for (size_t i = 0; i < p->side->phase_count && used < size; i++) {
		const rli_side_phase *ph = &p->side->phases[i];
		if (strcmp(ph->role, role) != 0 || !p->regressed[i])
			continue;
		rli_fmt_change(change, sizeof(change), p->change[i]);
		/* a phase named after its role is the role's: its change alone */
		used += (size_t)snprintf(out + used, size - used, "%s %s%s%s", regressions++ ? "," : "",
					 strcmp(ph->name, role) == 0 ? "" : ph->name, strcmp(ph->name, role) == 0 ? "" : " ",
					 change);
	}
	if (regressions) {
		*alarm = 1;
		return RLI_OK;
	}
	snprintf(out, size, "%s: no phase slower than the median of the runs before it, beyond the noise", who);
	return RLI_OK;
}

int trend_role_panel(trend_page *page, const char *role)
{
	const rli_trend *t = page->trend;
	rli_panel *panel = &page->f->panels[page->panel_next];
	trend_marks *m = &page->f->marks[page->panel_next++];
	drawn_phase *phases = NULL;
	trend_label labels[RLI_TREND_MAX_PHASES];
	size_t phase_count = 0, capacity = 0, shown, n = t->count;
	double *value = malloc(n * sizeof(*value)), *low = malloc(n * sizeof(*low)), *high = malloc(n * sizeof(*high));
	double lo = INFINITY, hi = -INFINITY, unit;
	const char *unit_name;
	char note[512], title[256];
	int error = RLI_OK, alarm;

	if (!value || !low || !high) {
		error = rli_error_oom();
		goto done;
	}
	/* The role's phases over every point, the longest first. */
	for (size_t k = 0; k < n; k++) {
		const rli_compare_side *side = t->points[k].side;
		for (size_t i = 0; i < side->phase_count; i++) {
			const rli_side_phase *ph = &side->phases[i];
			size_t at = 0;
			if (strcmp(ph->role, role) != 0)
				continue;
			while (at < phase_count && strcmp(phases[at].name, ph->name) != 0)
				at++;
			if (at == phase_count) {
				if (phase_count == capacity) {
					size_t more = capacity ? 2 * capacity : 8;
					drawn_phase *grown = realloc(phases, more * sizeof(*phases));
					if (!grown) {
						error = rli_error_oom();
						goto done;
					}
					phases = grown;
					capacity = more;
				}
				phases[phase_count++] = (drawn_phase){ ph->name, -INFINITY, 0 };
			}
			if (isfinite(ph->sample.median_ms))
				phases[at].greatest = fmax(phases[at].greatest, ph->sample.median_ms);
		}
	}
	if (phase_count > 1)
		qsort(phases, phase_count, sizeof(*phases), by_greatest);
	shown = phase_count < RLI_TREND_MAX_PHASES ? phase_count : RLI_TREND_MAX_PHASES;
	/* Colours by name among the phases drawn, as every figure gives them. */
	{
		const char *names[RLI_TREND_MAX_PHASES];
		rli_color colors[RLI_TREND_MAX_PHASES];
		qsort(phases, shown, sizeof(*phases), by_name);
		for (size_t i = 0; i < shown; i++)
			names[i] = phases[i].name;
		if ((error = rli_palette_assign(colors, names, shown)) < 0)
			goto done;
		for (size_t i = 0; i < shown; i++)
			phases[i].color = colors[i];
	}
	for (size_t s = 0; s < shown; s++)
		for (size_t k = 0; k < n; k++) {
			const rli_side_phase *ph = phase_of(t->points[k].side, role, phases[s].name, NULL);
			if (!ph)
				continue;
			lo = fmin(lo, fmin(ph->sample.median_ms, isfinite(ph->sample.q1_ms) ? ph->sample.q1_ms : INFINITY));
			hi = fmax(hi, fmax(ph->sample.median_ms, isfinite(ph->sample.q3_ms) ? ph->sample.q3_ms : -INFINITY));
		}
	if (!isfinite(lo) || !isfinite(hi))
		lo = hi = 0;
	unit = trend_unit(hi, &unit_name);
	lo /= unit;
	hi /= unit;
	trend_padded(&lo, &hi);

	/* The title, its unit, and what this run did. */
	if ((error = role_note(note, sizeof(note), t, role, &alarm)) < 0)
		goto done;
	snprintf(title, sizeof(title), "%s (%s)", role, unit_name);
	if ((error = trend_title(page, title, note, alarm ? REGRESSION_COLOR : TEXT_COLOR)) < 0)
		goto done;
	if ((error = trend_value_axes(page, panel, page->y + 28, lo, hi)) < 0)
		goto done;

	for (size_t s = 0; s < shown && error == RLI_OK; s++) {
		size_t last = SIZE_MAX;
		for (size_t k = 0; k < n; k++) {
			const rli_side_phase *ph = phase_of(t->points[k].side, role, phases[s].name, NULL);
			value[k] = ph ? ph->sample.median_ms / unit : NAN;
			low[k] = ph ? ph->sample.q1_ms / unit : NAN;
			high[k] = ph ? ph->sample.q3_ms / unit : NAN;
			if (ph && isfinite(value[k]))
				last = k;
		}
		if ((error = trend_series_marks(m, value, low, high, n, phases[s].color, TREND_LINE_WIDTH)) < 0)
			break;
		for (size_t k = 0; k < n && error == RLI_OK; k++) {
			size_t index = 0;
			const rli_trend_point *p = &t->points[k];
			if (!isfinite(value[k]) || !phase_of(p->side, role, phases[s].name, &index))
				continue;
			error = trend_mark_point(m, (double)k, value[k], phases[s].color, k == t->current,
					   p->regressed && p->regressed[index]);
		}
		labels[s].color = phases[s].color;
		labels[s].y = last == SIZE_MAX ? panel->plot.y : trend_page_y(panel, value[last]);
		{
			char v[32];
			rli_fmt_duration(v, sizeof(v), last == SIZE_MAX ? NAN : value[last] * unit);
			snprintf(labels[s].text, sizeof(labels[s].text), "%s %s", strcmp(phases[s].name, role) == 0 ? "median"
														: phases[s].name, v);
		}
	}
	if (error == RLI_OK && phase_count > shown) {
		char more[96];
		snprintf(more, sizeof(more), "+%zu more phase%s, not drawn", phase_count - shown, phase_count - shown == 1 ? "" : "s");
		if (!trend_text(page, more, panel->plot.x + panel->plot.w + 10, panel->plot.y + panel->plot.h + 14,
				LEGEND_SIZE, 0, TEXT_COLOR, RLI_ALIGN_START, RLI_ALIGN_MIDDLE, page->width - PAGE_PAD - panel->plot.x - panel->plot.w - 10))
			error = RLI_ERROR;
	}
	if (error == RLI_OK)
		error = trend_direct_labels(page, panel, labels, shown);
	error = trend_panel_done(page, panel, m, NULL, error);
done:
	free(phases);
	free(value);
	free(low);
	free(high);
	return error;
}

/* A memory device of some point: (role, rank, device type). */
typedef struct {
	const char *role, *type;
	int64_t rank;
} device_key;

static int same_device(const device_key *k, const rli_side_device *d)
{
	return k->rank == d->rank && strcmp(k->role, d->role) == 0 && strcmp(k->type, d->device_type) == 0;
}

static int by_device(const void *pa, const void *pb)
{
	const device_key *a = pa, *b = pb;
	int c = strcmp(a->role, b->role);
	if (c)
		return c;
	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	return strcmp(a->type, b->type);
}

/* "actor_update r3", with the device type where a rank has more than one device ("actor_update r3 CUDA:1"). */
static void device_name(char *out, size_t size, const device_key *k, int typed)
{
	snprintf(out, size, "%s r%lld%s%s", k->role, (long long)k->rank, typed && *k->type ? " " : "", typed ? k->type : "");
}

/*
 * The memory peaks over the runs: a line per device when there are few; past that the range of
 * the devices' peaks as a band, their median as a line.
 */
int trend_memory_panel(trend_page *page, const char *x_title)
{
	const rli_trend *t = page->trend;
	rli_panel *panel = &page->f->panels[page->panel_next];
	trend_marks *m = &page->f->marks[page->panel_next++];
	size_t n = t->count, device_count = 0, capacity = 0, lines;
	device_key *devices = NULL;
	double *value = calloc(n, sizeof(*value)), *low = calloc(n, sizeof(*low)), *high = calloc(n, sizeof(*high));
	double *peaks = NULL, lo = INFINITY, hi = -INFINITY;
	size_t peak_capacity = 0;
	trend_label labels[RLI_TREND_MAX_DEVICE_LINES];
	char note[256];
	int error = RLI_OK;

	if (!value || !low || !high) {
		error = rli_error_oom();
		goto done;
	}
	for (size_t k = 0; k < n; k++) {
		const rli_compare_side *side = t->points[k].side;
		if (side->device_count > peak_capacity) {
			double *grown = realloc(peaks, side->device_count * sizeof(*peaks));
			if (!grown) {
				error = rli_error_oom();
				goto done;
			}
			peaks = grown;
			peak_capacity = side->device_count;
		}
		for (size_t d = 0; d < side->device_count; d++) {
			const rli_side_device *dev = &side->devices[d];
			size_t at = 0;
			while (at < device_count && !same_device(&devices[at], dev))
				at++;
			if (at == device_count) {
				if (RLI_GROW(&devices, &capacity, device_count + 1, 16) < 0) {
					error = rli_error_oom();
					goto done;
				}
				devices[device_count++] = (device_key){ dev->role, dev->device_type, dev->rank };
			}
			if (isfinite(dev->peak_mb)) {
				lo = fmin(lo, dev->peak_mb);
				hi = fmax(hi, dev->peak_mb);
			}
		}
	}
	if (device_count > 1)
		qsort(devices, device_count, sizeof(*devices), by_device);
	if (!isfinite(lo))
		lo = hi = 0;
	trend_padded(&lo, &hi);
	lines = device_count <= RLI_TREND_MAX_DEVICE_LINES ? device_count : 0;
	if (lines)
		snprintf(note, sizeof(note), "%zu device%s, a line each", device_count, device_count == 1 ? "" : "s");
	else
		snprintf(note, sizeof(note), "%zu devices: their median (line) and the range from the lowest to the highest peak "
			 "(band)", device_count);
	if ((error = trend_title(page, "Memory peak per device (MB)", note, TEXT_COLOR)) < 0)
		goto done;
	if ((error = trend_value_axes(page, panel, page->y + 28, lo, hi)) < 0)
		goto done;
	if (lines) {
		const char *names[RLI_TREND_MAX_DEVICE_LINES];
		char name_text[RLI_TREND_MAX_DEVICE_LINES][128];
		rli_color colors[RLI_TREND_MAX_DEVICE_LINES];
		/* Sorted by (role, rank, type): a rank of more than one device has them side by side. */
		int typed = 0;
		for (size_t d = 1; d < lines; d++)
			typed |= devices[d].rank == devices[d - 1].rank && strcmp(devices[d].role, devices[d - 1].role) == 0;
		for (size_t d = 0; d < lines; d++) {
			device_name(name_text[d], sizeof(name_text[d]), &devices[d], typed);
			names[d] = name_text[d];
		}
		/* The palette takes the names in text order, which (role, rank, type) order need not be. */
		{
			const char *sorted[RLI_TREND_MAX_DEVICE_LINES];
			size_t order[RLI_TREND_MAX_DEVICE_LINES];
			for (size_t e = 0; e < lines; e++) {
				size_t at = e;
				while (at > 0 && strcmp(names[order[at - 1]], names[e]) > 0) {
					order[at] = order[at - 1];
					at--;
				}
				order[at] = e;
			}
			for (size_t e = 0; e < lines; e++)
				sorted[e] = names[order[e]];
			if ((error = rli_palette_assign(colors, sorted, lines)) < 0)
				goto done;
			for (size_t e = 0; e < lines; e++)
				labels[order[e]].color = colors[e];
		}
		for (size_t d = 0; d < lines && error == RLI_OK; d++) {
			size_t last = SIZE_MAX;
			for (size_t k = 0; k < n; k++) {
				const rli_compare_side *side = t->points[k].side;
				value[k] = NAN;
				for (size_t i = 0; i < side->device_count; i++)
					if (same_device(&devices[d], &side->devices[i]))
						value[k] = side->devices[i].peak_mb;
				if (isfinite(value[k]))
					last = k;
			}
			if ((error = trend_series_marks(m, value, NULL, NULL, n, labels[d].color, TREND_LINE_WIDTH)) < 0)
				break;
			for (size_t k = 0; k < n && error == RLI_OK; k++)
				if (isfinite(value[k]))
					error = trend_mark_point(m, (double)k, value[k], labels[d].color, k == t->current, 0);
			labels[d].y = last == SIZE_MAX ? panel->plot.y : trend_page_y(panel, value[last]);
			{
				char mb[48];
				rli_fmt_thousands(mb, sizeof(mb), last == SIZE_MAX ? 0 : value[last], last != SIZE_MAX && value[last] >= 1000 ? 0 : 1);
				snprintf(labels[d].text, sizeof(labels[d].text), "%s %s MB", names[d], mb);
			}
		}
		if (error == RLI_OK)
			error = trend_direct_labels(page, panel, labels, lines);
	} else {
		size_t last = SIZE_MAX;
		for (size_t k = 0; k < n; k++) {
			const rli_compare_side *side = t->points[k].side;
			size_t c = 0;
			for (size_t i = 0; i < side->device_count; i++)
				if (isfinite(side->devices[i].peak_mb))
					peaks[c++] = side->devices[i].peak_mb;
			trend_median_range(peaks, c, &value[k], &low[k], &high[k]);
			if (c)
				last = k;
		}
		error = trend_series_marks(m, value, low, high, n, RLI_TREND_MEMORY_COLOR, TREND_LINE_WIDTH);
		for (size_t k = 0; k < n && error == RLI_OK; k++)
			if (isfinite(value[k]))
				error = trend_mark_point(m, (double)k, value[k], RLI_TREND_MEMORY_COLOR, k == t->current, 0);
		if (error == RLI_OK && last != SIZE_MAX) {
			char a[48], b[48];
			rli_fmt_thousands(a, sizeof(a), value[last], value[last] >= 1000 ? 0 : 1);
			rli_fmt_thousands(b, sizeof(b), high[last], high[last] >= 1000 ? 0 : 1);
			labels[0] = (trend_label){ .y = trend_page_y(panel, value[last]), .color = RLI_TREND_MEMORY_COLOR };
			snprintf(labels[0].text, sizeof(labels[0].text), "median %s MB", a);
			labels[1] = (trend_label){ .y = trend_page_y(panel, high[last]), .color = RLI_TREND_MEMORY_COLOR };
			snprintf(labels[1].text, sizeof(labels[1].text), "highest %s MB", b);
			error = trend_direct_labels(page, panel, labels, 2);
		}
	}
	error = trend_panel_done(page, panel, m, x_title, error);
done:
	free(devices);
	free(peaks);
	free(value);
	free(low);
	free(high);
	return error;
}

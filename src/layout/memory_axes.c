/* memory_axes.c: the memory figure's axes, titles and peak label, fitted to any page width from 300 to 20,000. */
#include "memory_parts.h"
#include "text_place.h"
#include "theme.h"
#include "common/error.h"
#include "common/numfmt.h"
#include "common/strutil.h"
#include "text/text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MEM_Y_TICKS 6
#define MEM_TICK_LABEL_ROOM 6.0  /* page units kept free between neighbouring x tick labels */
#define MEM_PEAK_OFFSET 8.0      /* the peak's label starts this far beside the point */
#define MEM_PEAK_RISE 10.0       /* and ends this far above it */
#define MEM_SUBTITLE_GAP 4.0     /* title to the origin line under it */
#define MEM_LEGEND_SWATCH_H 3.0  /* a line's swatch: a short bar as thick as a drawn line, about */

static double text_width(PangoContext *text, const char *s, double size)
{
	double w, h;
	rli_text_measure(&w, &h, text, s, size, 0);
	return w;
}

int rli_memory_panel_x_axis(rli_panel *panel, const rli_tick *ticks, size_t count, int target, double lo, double hi,
			    int labelled)
{
	panel->xticks = calloc(count ? count : 1, sizeof(*panel->xticks));
	if (!panel->xticks)
		return rli_error_oom();
	memcpy(panel->xticks, ticks, count * sizeof(*ticks));
	for (size_t i = 0; !labelled && i < count; i++)
		panel->xticks[i].label[0] = '\0';
	panel->xtick_count = count;
	panel->xtick_target = target;
	panel->xtick_max = MAX_TICKS;
	panel->x_min = lo;
	panel->x_max = hi;
	panel->grid_color = GRID_COLOR;
	panel->grid_width = 1.0;
	panel->tick_label_size = TICK_LABEL_SIZE;
	panel->tick_label_gap = TICK_LABEL_GAP;
	return RLI_OK;
}

int rli_memory_x_ticks(rli_panel *curve, rli_panel *gantt, double x_min, double x_max, double page_width,
		       PangoContext *text)
{
	rli_tick ticks[MAX_TICKS];
	rli_panel *panels[2] = { curve, gantt };
	double units_per_ms = gantt->plot.w / (x_max - x_min);
	rli_time_unit unit = rli_time_unit_for(x_max - x_min);
	/* At most MAX_TICKS - 1 steps, so the ticks always reach the end of the axis. */
	int target = (int)fmin(MAX_TICKS - 1, fmax(2.0, round(gantt->plot.w / TICK_SPACING)));
	size_t count;

	/* Fewer ticks until the widest label fits between two neighbours (a narrow page, long labels). */
	for (;;) {
		double widest = 0;
		count = rli_time_ticks(ticks, MAX_TICKS, x_min, x_max, target, unit.ms);
		for (size_t i = 0; i < count; i++)
			widest = fmax(widest, text_width(text, ticks[i].label, TICK_LABEL_SIZE));
		if (count < 2 || target <= 1 ||
		    (ticks[1].value - ticks[0].value) * units_per_ms >= widest + MEM_TICK_LABEL_ROOM)
			break;
		target--;
	}
	/* A label centred on a tick near the right edge may still reach past the page: its line stays, unlabelled. */
	for (size_t i = 0; i < count; i++) {
		double x = gantt->plot.x + (ticks[i].value - x_min) * units_per_ms;
		if (x + text_width(text, ticks[i].label, TICK_LABEL_SIZE) / 2 > page_width - PAGE_PAD)
			ticks[i].label[0] = '\0';
	}
	for (int p = 0; p < 2; p++) {
		int error = rli_memory_panel_x_axis(panels[p], ticks, count, target, x_min, x_max, p == 1);
		if (error < 0)
			return error;
	}
	return RLI_OK;
}

int rli_memory_y_ticks(rli_panel *curve, double peak_mb, int reserved_shown, char *title, size_t title_size)
{
	rli_tick ticks[MAX_TICKS];
	double top = peak_mb > 0 ? peak_mb * 1.12 : 1.0;
	rli_size_unit unit = rli_size_unit_for(top);
	size_t count = rli_unit_ticks(ticks, MAX_TICKS, 0.0, top, MEM_Y_TICKS, unit.mb);

	snprintf(title, title_size, "%s (%s)", RLI_MEMORY_Y_QUANTITY(reserved_shown), unit.name);

	curve->y_scale = RLI_Y_VALUES;
	curve->y_min = 0;
	curve->y_max = count ? fmax(top, ticks[count - 1].value) : top;
	curve->yticks = calloc(count ? count : 1, sizeof(*curve->yticks));
	if (!curve->yticks)
		return rli_error_oom();
	memcpy(curve->yticks, ticks, count * sizeof(*ticks));
	curve->ytick_count = count;
	return RLI_OK;
}

double rli_memory_y_label_width(const rli_panel *curve, PangoContext *text)
{
	double widest = 0;
	for (size_t i = 0; i < curve->ytick_count; i++)
		widest = fmax(widest, text_width(text, curve->yticks[i].label, TICK_LABEL_SIZE));
	return widest;
}

/* text at size, shrunk to fit room down to MIN_TITLE_SIZE, centred at (x, y); past the floor it ends in "…". */
static int fitted_line(rli_text *out, const char *text_in, double size, double x, double y, double room,
		       PangoContext *text)
{
	char *valid = rli_valid_utf8_copy(text_in);
	double w;
	int error;

	if (!valid)
		return rli_error_oom();
	w = text_width(text, valid, size);
	if (w > room)
		size = fmax(fmin(MIN_TITLE_SIZE, size), floor(size * room / w));
	error = rli_set_text(out, valid, x, y, size, RLI_ALIGN_MIDDLE, RLI_ALIGN_MIDDLE);
	free(valid);
	out->max_width = room;
	return error;
}

/* "1,525 – 1,579 ms": a span of the run's time, in the unit of `unit_span` and the decimals its width needs. */
char *rli_memory_span_label(double lo, double hi, double unit_span)
{
	rli_time_unit unit = rli_time_unit_for(unit_span);
	int decimals = rli_fmt_decimals((hi - lo) / unit.ms, 2);
	char a[48], b[48];
	rli_fmt_thousands(a, sizeof(a), lo / unit.ms, decimals);
	rli_fmt_thousands(b, sizeof(b), hi / unit.ms, decimals);
	return rli_strfmt("%s \xe2\x80\x93 %s %s", a, b, unit.name);
}

char *rli_memory_origin_text(char *out, size_t size, double origin)
{
	char utc[64];
	if (rli_is_epoch_ms(origin))
		snprintf(out, size, "t = 0 at %s", rli_fmt_utc(utc, sizeof(utc), origin));
	else
		snprintf(out, size, "origin %.3f ms", origin);
	return out;
}

void rli_memory_peak_texts(char *full, size_t full_size, char *brief, size_t brief_size, double peak_mb,
			   double peak_ms, double top_mb, double span_ms)
{
	rli_size_unit size = rli_size_unit_for(top_mb);
	rli_time_unit time = rli_time_unit_for(span_ms);
	char value[48], at[48];
	rli_fmt_thousands(value, sizeof(value), peak_mb / size.mb, 2);
	rli_fmt_thousands(at, sizeof(at), peak_ms / time.ms, 3);
	snprintf(full, full_size, "peak %s %s at %s %s", value, size.name, at, time.name);
	snprintf(brief, brief_size, "peak %s %s", value, size.name);
}

int rli_memory_titles(rli_text *title, rli_text *subtitle, const rli_memory_device *device,
		      const rli_memory_summary *summary, double origin, double y, double width, PangoContext *text)
{
	const char *role = device->role ? device->role : "unknown";
	char line[256], origin_text[96], origin_line[128], note[160] = "", under[320], before[48];
	double room = width - 2 * PAGE_PAD, w, h;
	int error;

	if (summary->totals != RLI_MEMORY_TOTALS_NONE) {
		rli_fmt_thousands(before, sizeof(before), summary->before_mb, 2);
		snprintf(note, sizeof(note), "Total Allocated as the allocator counts it: %s MB already allocated when the capture began",
			 before);
	}
	rli_memory_origin_text(origin_text, sizeof(origin_text), origin);
	snprintf(origin_line, sizeof(origin_line), "%s", origin_text);
	/* The device's type always where it is known: a ROCm run's HIP:0 says so, not only a rank's second GPU. */
	snprintf(line, sizeof(line), "Device memory: %s - Rank %lld%s%s (%s)", role, (long long)device->rank,
		 device->device_type && *device->device_type ? " " : "", device->device_type ? device->device_type : "",
		 origin_line);
	if (text_width(text, line, TITLE_SIZE) <= room && !note[0])
		return fitted_line(title, line, TITLE_SIZE, width / 2, y, room, text);
	rli_text_measure(&w, &h, text, "Device", TITLE_SIZE, 0);
	if (text_width(text, line, TITLE_SIZE) <= room) {
		/* The title as it is, the allocator's note under it. */
		if ((error = fitted_line(title, line, TITLE_SIZE, width / 2, y - MEM_SUBTITLE_GAP, room, text)) < 0)
			return error;
		return fitted_line(subtitle, note, TICK_LABEL_SIZE, width / 2,
				   y - MEM_SUBTITLE_GAP + h / 2 + MEM_SUBTITLE_GAP + TICK_LABEL_SIZE * 0.6, room, text);
	}
	/*
	 * Too wide for one line: the origin goes under the device's name, whose line can then be larger;
	 * the device's type with it, where it tells the rank's devices apart, so a cut name keeps it.
	 */
	snprintf(line, sizeof(line), "Device memory: %s - Rank %lld", role, (long long)device->rank);
	if (device->device_type && *device->device_type)
		snprintf(origin_line, sizeof(origin_line), "%s, %s", device->device_type, origin_text);
	snprintf(under, sizeof(under), "%s%s%s", origin_line, note[0] ? "; " : "", note);
	if ((error = fitted_line(title, line, TITLE_SIZE, width / 2, y - MEM_SUBTITLE_GAP, room, text)) < 0)
		return error;
	return fitted_line(subtitle, under, TICK_LABEL_SIZE, width / 2,
			   y - MEM_SUBTITLE_GAP + h / 2 + MEM_SUBTITLE_GAP + TICK_LABEL_SIZE * 0.6, room, text);
}

int rli_memory_x_title(rli_panel *gantt, double y, double page_width, PangoContext *text)
{
	const double room = page_width - 2 * PAGE_PAD;
	char title[32];
	double w, x;
	int error;

	snprintf(title, sizeof(title), "Time (%s)", rli_time_unit_for(gantt->x_max - gantt->x_min).name);
	w = fmin(room, text_width(text, title, AXIS_TITLE_SIZE));
	/* Centred under the plot, moved along as far as it must to stay within the page's pads. */
	x = fmin(fmax(gantt->plot.x + gantt->plot.w / 2, PAGE_PAD + w / 2), page_width - PAGE_PAD - w / 2);
	if ((error = rli_set_text(&gantt->x_title, title, x, y, AXIS_TITLE_SIZE, RLI_ALIGN_MIDDLE, RLI_ALIGN_START)) < 0)
		return error;
	if (w >= room)
		gantt->x_title.max_width = room;
	return RLI_OK;
}

int rli_memory_peak_label(rli_point_mark *peak, const rli_panel *curve, double page_width, PangoContext *text)
{
	char full[128], brief[64];
	const char *texts[2] = { full, brief };
	double px = curve->plot.x + (peak->x - curve->x_min) / (curve->x_max - curve->x_min) * curve->plot.w;
	double py = curve->plot.y + curve->plot.h * (1 - (peak->y - curve->y_min) / (curve->y_max - curve->y_min));
	/* Room right of the point, to the page's pad; left of it, to the plot's edge (the y labels lie beyond). */
	double room[2] = { page_width - PAGE_PAD - (px + MEM_PEAK_OFFSET), px - MEM_PEAK_OFFSET - curve->plot.x };
	/* The side it used to take: right of the point, or left of it in the right half of the plot. */
	int preferred = px > curve->plot.x + curve->plot.w / 2, side = -1, pick = 0;
	int error;

	rli_memory_peak_texts(full, sizeof(full), brief, sizeof(brief), peak->y, peak->x, curve->y_max,
			      curve->x_max - curve->x_min);
	for (pick = 0; pick < 2 && side < 0; pick++) {
		double w = text_width(text, texts[pick], LEGEND_SIZE);
		if (w <= room[preferred])
			side = preferred;
		else if (w <= room[!preferred])
			side = !preferred;
	}
	if (side < 0) {
		/* Nowhere whole: the short one, cut to the larger room. */
		pick = 2;
		side = room[1] > room[0];
	}
	error = rli_set_text(&peak->label, texts[pick - 1], side ? px - MEM_PEAK_OFFSET : px + MEM_PEAK_OFFSET,
			     py - MEM_PEAK_RISE, LEGEND_SIZE, side ? RLI_ALIGN_END : RLI_ALIGN_START, RLI_ALIGN_END);
	if (error < 0)
		return error;
	if (pick == 2 && text_width(text, brief, LEGEND_SIZE) > room[side])
		peak->label.max_width = fmax(MIN_TEXT_ROOM, room[side]);
	return RLI_OK;
}

/* One entry's width: its swatch, the gap, its name. */
static double legend_entry_width(const rli_line_mark *line, PangoContext *text)
{
	return LEGEND_SWATCH_W + LEGEND_TEXT_GAP + text_width(text, line->name, LEGEND_SIZE);
}

/* The named lines' entries side by side, with the gaps between them; *named their count. */
static double legend_row_width(const rli_line_mark *lines, size_t count, size_t *named, PangoContext *text)
{
	double row = 0;
	*named = 0;
	for (size_t l = 0; l < count; l++)
		if (lines[l].name)
			row += (*named)++ ? LEGEND_COLUMN_GAP + legend_entry_width(&lines[l], text)
					  : legend_entry_width(&lines[l], text);
	return row;
}

size_t rli_memory_legend_rows(const rli_line_mark *lines, size_t count, double page_width, PangoContext *text)
{
	size_t named;
	double row = legend_row_width(lines, count, &named, text);
	return named && row > page_width - 2 * PAGE_PAD ? named : named > 0;
}

int rli_memory_line_legend(rli_legend *legend, rli_series *series, const rli_line_mark *lines, size_t count,
			   double plot_x, double y, double page_width, PangoContext *text)
{
	size_t named, rows = rli_memory_legend_rows(lines, count, page_width, text);
	double row = legend_row_width(lines, count, &named, text);
	double x = row <= page_width - PAGE_PAD - plot_x ? plot_x : PAGE_PAD, at = x;
	int error;

	memset(legend, 0, sizeof(*legend));
	legend->swatches = calloc(named ? named : 1, sizeof(*legend->swatches));
	legend->labels = calloc(named ? named : 1, sizeof(*legend->labels));
	if (!legend->swatches || !legend->labels)
		return rli_error_oom();
	legend->series = series;
	y -= (double)(rows - (rows > 0)) * LEGEND_LINE; /* the first row's middle */
	for (size_t l = 0, s = 0; l < count; l++) {
		const rli_line_mark *line = &lines[l];
		double left, room;
		if (!line->name)
			continue;
		series[s] = (rli_series){ (char *)line->name, line->color };
		legend->swatches[s] = (rli_rect){ at, y - MEM_LEGEND_SWATCH_H / 2, LEGEND_SWATCH_W, MEM_LEGEND_SWATCH_H };
		left = at + LEGEND_SWATCH_W + LEGEND_TEXT_GAP;
		room = page_width - PAGE_PAD - left;
		if ((error = rli_set_text(&legend->labels[s], line->name, left, y, LEGEND_SIZE, RLI_ALIGN_START,
					  RLI_ALIGN_MIDDLE)) < 0)
			return error;
		if (text_width(text, line->name, LEGEND_SIZE) > room)
			legend->labels[s].max_width = fmax(MIN_TEXT_ROOM, room);
		legend->series_count = ++s;
		if (rows > 1) {
			y += LEGEND_LINE; /* an entry a row */
		} else {
			at = left + text_width(text, line->name, LEGEND_SIZE) + LEGEND_COLUMN_GAP;
		}
	}
	return RLI_OK;
}

void rli_memory_legend_dispose(rli_legend *legend)
{
	for (size_t s = 0; legend->labels && s < legend->series_count; s++)
		free(legend->labels[s].text);
	free(legend->swatches);
	free(legend->labels);
	memset(legend, 0, sizeof(*legend));
}

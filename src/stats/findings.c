/* findings.c: the headline findings of a run as sentences: the straggler of each role, the worst wait, the idlest rank. */
#include "findings.h"
#include "common/error.h"
#include "common/grow.h"
#include "common/numfmt.h"
#include "common/strutil.h"
#include "events/events.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

static int add_line(rli_findings *findings, const char *format, va_list ap)
{
	char *line = rli_vstrfmt(format, ap);
	if (!line || RLI_GROW(&findings->lines, &findings->capacity, findings->count + 1, 8) < 0) {
		free(line);
		return rli_error_oom();
	}
	findings->lines[findings->count++] = line;
	return RLI_OK;
}

int rli_findings_add(rli_findings *findings, const char *format, ...)
{
	va_list ap;
	int error;
	va_start(ap, format);
	error = add_line(findings, format, ap);
	va_end(ap);
	return error;
}

/* Makes the line just added the headline if it says more than the one before (rank: 4 straggler .. 1 idle). */
static void consider_headline(rli_findings *f, int rank)
{
	if (f->count && rank > f->headline_rank) {
		f->headline = f->count - 1;
		f->headline_rank = rank;
	}
}

/* A line that may be the headline, at rank (see consider_headline). */
static int RLI_PRINTF(3, 4) rli_findings_add_ranked(rli_findings *findings, int rank, const char *format, ...)
{
	va_list ap;
	int error;
	va_start(ap, format);
	error = add_line(findings, format, ap);
	va_end(ap);
	if (error == RLI_OK)
		consider_headline(findings, rank);
	return error;
}

void rli_findings_free(rli_findings *findings)
{
	for (size_t i = 0; i < findings->count; i++)
		free(findings->lines[i]);
	free(findings->lines);
	findings->lines = NULL;
	findings->count = findings->capacity = 0;
}

static const char *name_of(const rli_stats *stats, uint32_t id)
{
	return rli_events_str(stats->events, id);
}

/* Percent of a ratio as a reader wants it: 0.184 -> "18", 0.034 -> "3.4". */
static const char *percent(char *out, size_t size, double ratio)
{
	double p = ratio * 100.0;
	snprintf(out, size, fabs(p) < 9.95 ? "%.1f" : "%.0f", p);
	return out;
}

/*
 * What role_finding returns for a role with fewer than 3 ranks, which says
 * nothing itself: such roles are said together, a sentence for those of one
 * rank (nothing to compare) and one for those of two (too few for outliers).
 */
#define FEW_RANKS 1

/* Roles said together: their names as a list (the first four), and the largest slowdown among them. */
typedef struct {
	const char *names[4];
	size_t count;
	double worst_slowdown;
} role_group;

static void group_add(role_group *g, const char *name, double slowdown)
{
	if (g->count < 4)
		g->names[g->count] = name;
	g->count++;
	g->worst_slowdown = fmax(g->worst_slowdown, slowdown);
}

/* "a", "a and b", "a, b and c", "a, b, c, d and 2 more" */
static void group_names(char *out, size_t size, const role_group *g)
{
	size_t shown = g->count < 4 ? g->count : 4;
	out[0] = '\0';
	for (size_t i = 0; i < shown; i++) {
		const char *sep = i == 0 ? "" : (i + 1 == shown && g->count == shown) ? " and " : ", ";
		snprintf(out + strlen(out), size - strlen(out), "%s%s", sep, g->names[i]);
	}
	if (g->count > shown)
		snprintf(out + strlen(out), size - strlen(out), " and %zu more", g->count - shown);
}

/* The role's straggler, its worst outlier step, or that none stood out. */
static int role_finding(rli_findings *out, const rli_stats *stats, uint32_t role, role_group few[2])
{
	const rli_rank_slowest *straggler = rli_stats_straggler(stats, role);
	const rli_step_stats *worst = NULL;
	double worst_slowdown = 0, slowdown_sum = 0;
	size_t steps = 0, summed = 0, most_ranks = 0;
	char a[48], b[48], p[16];

	for (size_t i = 0; i < stats->step_count; i++) {
		const rli_step_stats *s = &stats->steps[i];
		if (s->role != role)
			continue;
		steps++;
		if (s->ranks > most_ranks)
			most_ranks = s->ranks;
		if (straggler && s->slowest_rank == straggler->rank) {
			slowdown_sum += s->slowdown;
			summed++;
		}
		if (s->outlier && (!worst || s->slowdown > worst->slowdown))
			worst = s;
		worst_slowdown = fmax(worst_slowdown, s->slowdown);
	}
	if (!steps)
		return RLI_OK;
	if (straggler)
		return rli_findings_add_ranked(out, 4, "%s: rank %lld was the slowest in %zu of %zu steps, %s%% over the median.",
					name_of(stats, role), (long long)straggler->rank, straggler->slowest, steps,
					percent(p, sizeof(p), summed ? slowdown_sum / (double)summed : 0));
	if (worst)
		return rli_findings_add_ranked(out, 3, "%s: no straggler across steps; the worst outlier was rank %lld in step %zu, "
					"%s against a median of %s (%s%% over, modified z %.1f).",
					name_of(stats, role), (long long)worst->slowest_rank, worst->step,
					rli_fmt_duration(a, sizeof(a), worst->slowest_ms),
					rli_fmt_duration(b, sizeof(b), worst->median_ms),
					percent(p, sizeof(p), worst->slowdown), worst->modified_z);
	if (most_ranks < 3) {
		group_add(&few[most_ranks - 1], name_of(stats, role), worst_slowdown);
		return FEW_RANKS;
	}
	return rli_findings_add(out, "%s: no rank stood out; the slowest stayed within %s%% of the median in each "
				"of %zu step%s.", name_of(stats, role), percent(p, sizeof(p), worst_slowdown), steps,
				steps == 1 ? "" : "s");
}

int rli_findings_timeline(rli_findings *out, const rli_stats *stats)
{
	const rli_transition_stats *wait = NULL;
	const rli_rank_bubbles *idle = NULL;
	char a[48], b[48], c[48], names[512], p[16];
	role_group few[2] = { { { 0 }, 0, 0 }, { { 0 }, 0, 0 } };
	int error;

	for (size_t r = 0; r < stats->role_count; r++)
		if ((error = role_finding(out, stats, rli_stats_role(stats, r), few)) < 0)
			return error;
	if (few[0].count) {
		group_names(names, sizeof(names), &few[0]);
		if ((error = rli_findings_add(out, "%s ran on one rank %s: no ranks to compare.", names,
					      few[0].count == 1 ? "only" : "each")) < 0)
			return error;
	}
	if (few[1].count) {
		group_names(names, sizeof(names), &few[1]);
		if ((error = rli_findings_add(out, "%s ran on two ranks %s, too few to name an outlier; the slower was at "
					      "most %s%% over the median.", names, few[1].count == 1 ? "only" : "each",
					      percent(p, sizeof(p), few[1].worst_slowdown))) < 0)
			return error;
	}
	for (size_t i = 0; i < stats->transition_count; i++)
		if (stats->transitions[i].wait.count &&
		    (!wait || stats->transitions[i].wait.median > wait->wait.median))
			wait = &stats->transitions[i];
	if (wait && wait->wait.median > 0 &&
	    (error = rli_findings_add_ranked(out, 2, "From %s to %s, ranks waited %s at the median, up to %s (rank %lld).",
				      name_of(stats, wait->from_role), name_of(stats, wait->to_role),
				      rli_fmt_duration(a, sizeof(a), wait->wait.median),
				      rli_fmt_duration(b, sizeof(b), wait->wait.max), (long long)wait->wait.max_rank)) < 0)
		return error;
	for (size_t i = 0; i < stats->bubble_count; i++)
		if (!idle || stats->bubbles[i].idle_ms > idle->idle_ms)
			idle = &stats->bubbles[i];
	if (idle && idle->idle_ms > 0 && idle->longest_count) {
		const rli_gap *g = &idle->longest[0];
		if ((error = rli_findings_add_ranked(out, 1, "Rank %lld was idle longest: %s in %zu gap%s, the longest %s between %s "
					      "and %s.", (long long)idle->rank, rli_fmt_duration(a, sizeof(a), idle->idle_ms),
					      idle->gaps, idle->gaps == 1 ? "" : "s",
					      rli_fmt_duration(c, sizeof(c), g->duration_ms), name_of(stats, g->before),
					      name_of(stats, g->after))) < 0)
			return error;
	}
	return RLI_OK;
}

int rli_findings_memory(rli_findings *out, const rli_memory_stats *stats)
{
	const rli_memory_device_stats *top = NULL;
	size_t never = 0;
	double never_kb = 0;
	char a[48], b[48], p[16];
	int error;

	for (size_t d = 0; d < stats->device_count; d++) {
		const rli_memory_device_stats *dev = &stats->devices[d];
		if (!top || dev->peak_mb > top->peak_mb)
			top = dev;
		never += dev->never_freed;
		never_kb += dev->never_freed_kb;
	}
	if (!top || !(top->peak_mb > 0))
		return RLI_OK;
	rli_fmt_size_kb(a, sizeof(a), top->peak_mb * 1024.0);
	rli_fmt_duration(b, sizeof(b), top->peak_ms);
	if (top->sites_by_live_count) {
		const rli_memory_site *site = &top->sites[top->sites_by_live[0]];
		/* On the allocator's count the peak holds memory from before the capture: the share is of the capture's blocks. */
		error = rli_findings_add(out, "Peak memory %s on %s rank %lld%s%s at %s, %s%% of %s from %s.", a,
					 top->role, (long long)top->rank, top->shares_rank ? " " : "",
					 top->shares_rank ? top->device_type : "", b, percent(p, sizeof(p), site->peak_share),
					 top->allocator_count ? "the capture's blocks there" : "it",
					 *site->text ? site->text : "allocations without a call stack");
	} else {
		error = rli_findings_add(out, "Peak memory %s on %s rank %lld%s%s at %s.", a, top->role,
					 (long long)top->rank, top->shares_rank ? " " : "", top->shares_rank ? top->device_type : "",
					 b);
	}
	if (error == RLI_OK && never)
		error = rli_findings_add(out, "%zu block%s (%s) %s never freed in the capture.", never,
					 never == 1 ? "" : "s", rli_fmt_size_kb(a, sizeof(a), never_kb),
					 never == 1 ? "was" : "were");
	return error;
}

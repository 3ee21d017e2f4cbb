/* summary_gmm.c: summary.json's "gmm" part: the expert load's size, each layer's imbalance and the experts that stay hot. */
#include "summary.h"
#include "summary_internal.h"
#include "common/error.h"

static void write_layer(FILE *fp, const rli_gmm_layer_stats *l, size_t index)
{
	item_open(fp, index);
	rank(fp, "step", l->step, 1);
	text(fp, "role", l->role, 0);
	count(fp, "layer", l->layer, 0);
	count(fp, "ranks", l->ranks, 0);
	number(fp, "total", l->total, 0);
	number(fp, "mean", l->mean, 0);
	number(fp, "max", l->max, 0);
	number(fp, "min", l->min, 0);
	number(fp, "imbalance", l->imbalance, 0);
	number(fp, "cv", l->cv, 0);
	count(fp, "hottest_expert", l->hottest, 0);
	count(fp, "coldest_expert", l->coldest, 0);
	putc('}', fp);
}

int rli_summary_write_gmm(FILE *fp, const rli_gmm_stats *s)
{
	size_t layers = s->layer_count < RLI_SUMMARY_MAX_GMM_LAYERS ? s->layer_count : RLI_SUMMARY_MAX_GMM_LAYERS;
	size_t hot = s->hot_count < RLI_SUMMARY_MAX_HOT_EXPERTS ? s->hot_count : RLI_SUMMARY_MAX_HOT_EXPERTS;
	fputs(",\n\"gmm\":{", fp);
	count(fp, "experts", s->experts, 1);
	count(fp, "snapshots", s->rows, 0);
	count(fp, "ranks", s->ranks, 0);
	count(fp, "steps", s->steps, 0);
	count(fp, "roles", s->roles, 0);
	number(fp, "min_load", s->min_load, 0);
	number(fp, "max_load", s->max_load, 0);
	text(fp, "finding", s->finding, 0);
	count(fp, "layers_listed", layers, 0);
	fputs(",\n\"layers\":[", fp);
	for (size_t i = 0; i < layers; i++)
		write_layer(fp, &s->layers[i], i);
	fputs("],\n\"hot_experts\":[", fp);
	for (size_t i = 0; i < hot; i++) {
		const rli_gmm_hot_expert *h = &s->hot[i];
		item_open(fp, i);
		text(fp, "role", h->role, 1);
		count(fp, "layer", h->layer, 0);
		count(fp, "expert", h->expert, 0);
		count(fp, "hot_steps", h->hot_steps, 0);
		count(fp, "steps", h->steps, 0);
		number(fp, "ratio", h->ratio, 0);
		putc('}', fp);
	}
	fputs("]}", fp);
	return RLI_OK;
}

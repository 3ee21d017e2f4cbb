/* run.c: one generator run: plan the steps, write the tree of one format, then expected.csv. */
#include "synth.h"

#include <stdlib.h>

int synth_run(const synth_options *options)
{
	synth_rows rows = { 0 };
	synth_plan plan;
	char *csv = NULL;
	int error;

	if ((error = synth_plan_init(&plan, options)) < 0)
		return error;
	if ((error = synth_mkdir_p(options->output_dir)) < 0)
		goto done;
	if (options->format == SYNTH_MEMORY || options->format == SYNTH_GMM) {
		/* Memory and GMM rows are not timeline rows: the writer puts its own expected file beside the tree. */
		error = options->format == SYNTH_MEMORY ? synth_write_memory(&plan) : synth_write_gmm(&plan);
		goto done;
	}
	switch (options->format) {
	case SYNTH_MSTX:
		error = synth_write_mstx(&rows, &plan);
		break;
	case SYNTH_TORCH:
		error = synth_write_torch(&rows, &plan);
		break;
	default:
		error = synth_write_nvtx(&rows, &plan);
		break;
	}
	if (error < 0)
		goto done;
	if (!(csv = synth_path("%s/expected.csv", options->output_dir))) {
		error = synth_fail(SYNTH_ERROR, "out of memory");
		goto done;
	}
	error = synth_rows_write_csv(&rows, csv);
done:
	free(csv);
	synth_rows_free(&rows);
	synth_plan_free(&plan);
	return error;
}

/* fuzz_parse.c: any bytes, as a trace_view.json, a .jsonl, a .json.gz or an operator_memory.csv, must parse or fail cleanly. */
#include "fixture.h"
#include "rl_insight.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* Also a gzip member of the bytes: the fuzzer's text reaches the JSON parser, not just zlib. */
static void write_gz_of(const char *root, const char *relative, const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	fx_write_gz(root, relative, text, 100);
	free(text);
}

static void parse_quietly(const char *root, rli_profiler profiler)
{
	rli_events *events = NULL;
	int rc = fx_parse(&events, root, profiler, NULL, 2, NULL);
	if (rc != RLI_OK && rc != RLI_EPARTIAL && rc != RLI_EINVALID) {
		fprintf(stderr, "unexpected return %d: %s\n", rc, rli_error_last());
		abort();
	}
	if ((rc == RLI_OK || rc == RLI_EPARTIAL) != (events != NULL))
		abort(); /* a table exactly when the contract says so */
	rli_events_free(events);
}

static void parse_memory_quietly(const char *root)
{
	rli_memory *memory = NULL;
	int rc = rli_memory_parse(&memory, root, NULL);
	if (rc != RLI_OK && rc != RLI_EPARTIAL && rc != RLI_EINVALID) {
		fprintf(stderr, "unexpected return %d: %s\n", rc, rli_error_last());
		abort();
	}
	if ((rc == RLI_OK || rc == RLI_EPARTIAL) != (memory != NULL))
		abort();
	rli_memory_free(memory);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char info[] = "{\"config\":{},\"start_info\":{},\"end_info\":{},"
				   "\"torch_npu_version\":\"2\",\"cann_version\":\"8\",\"rank_id\":0}";
	char *root = fx_tempdir();

	fx_write(root, "mstx/role/x_ascend_pt/profiler_info_0.json", info);
	fx_write_bytes(root, "mstx/role/x_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json", data, size);
	fx_write_bytes(root, "mstx/role/x_ascend_pt/profiler_metadata.json", data, size);
	parse_quietly(fx_path(root, "mstx"), RLI_PROFILER_MSTX);

	fx_write_bytes(root, "nvtx/worker_process_1.1.jsonl", data, size);
	parse_quietly(fx_path(root, "nvtx"), RLI_PROFILER_NVTX);

	/* Raw bytes (zlib reads a non-gzip file as is) and the same bytes compressed. */
	fx_write_bytes(root, "torch/role/raw.json.gz", data, size);
	write_gz_of(root, "torch/role/packed.json.gz", data, size);
	parse_quietly(fx_path(root, "torch"), RLI_PROFILER_TORCH);

	/* Memory: the bytes as the CSV beside a good trace, then as the trace beside a good CSV. */
	fx_write(root, "memory/x_ascend_pt/profiler_info_0.json", info);
	fx_write(root, "memory/x_ascend_pt/profiler_metadata.json", "{}");
	fx_write_bytes(root, "memory/x_ascend_pt/ASCEND_PROFILER_OUTPUT/operator_memory.csv", data, size);
	fx_write(root, "memory/x_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json",
		 "[{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::add\",\"ts\":\"1\",\"dur\":5,"
		 "\"args\":{\"Call stack\":\"a.py(1): f\"}}]");
	parse_memory_quietly(fx_path(root, "memory"));
	fx_write(root, "memory/x_ascend_pt/ASCEND_PROFILER_OUTPUT/operator_memory.csv",
		 "Name,Size(KB),Allocation Time(us),Duration(us),Allocation Total Allocated(MB),"
		 "Allocation Total Reserved(MB),Allocation Total Active(MB),Device Type\n"
		 "aten::add,4,\"2\t\",1,1,2,1,NPU:0\n");
	fx_write_bytes(root, "memory/x_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json", data, size);
	parse_memory_quietly(fx_path(root, "memory"));

	fx_remove(root);
	free(root);
	return 0;
}

#ifdef RLI_FUZZ_MAIN
int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		FILE *file = fopen(argv[i], "rb");
		uint8_t *data;
		long size;
		if (!file) {
			perror(argv[i]);
			return 1;
		}
		fseek(file, 0, SEEK_END);
		size = ftell(file);
		fseek(file, 0, SEEK_SET);
		data = malloc(size > 0 ? (size_t)size : 1);
		if (size > 0 && fread(data, 1, (size_t)size, file) != (size_t)size) {
			perror(argv[i]);
			return 1;
		}
		fclose(file);
		LLVMFuzzerTestOneInput(data, (size_t)size);
		free(data);
	}
	printf("replayed %d inputs\n", argc - 1);
	return 0;
}
#endif

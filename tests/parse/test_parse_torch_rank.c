/* test_parse_torch_rank.c: the rank a PyTorch trace's file name gives when it has no distributedInfo (rli_rank_from_file_name). */
#include "harness.h"
#include "parse/parse_internal.h"

/* path gives rank want, or none when want is -1. */
static void expect_rank(const char *path, long long want)
{
	int64_t rank = -7;
	int found = rli_rank_from_file_name(path, &rank);
	if (want < 0) {
		if (found)
			fprintf(stderr, "%s: a rank %lld where none should be\n", path, (long long)rank);
		CHECK_INT(found, 0);
		CHECK_INT((long long)rank, -7); /* untouched */
		return;
	}
	CHECK_INT(found, 1);
	CHECK_INT((long long)rank, want);
}

int main(void)
{
	/* The three spellings, where the profilers and the run scripts put them. */
	expect_rank("actor/prof_rank-3_120000.json.gz", 3);
	expect_rank("rollout/bs_32_rank0.json.gz", 0);
	expect_rank("t/worker_rank_12.123456.pt.trace.json.gz", 12);
	expect_rank("rank7.json.gz", 7);
	expect_rank("t/Rank-2_x.json.gz", 2);
	expect_rank("t/node00_4711_RANK5.1700000000.pt.trace.json.gz", 5);
	/* Only the file's own name: a folder called rank_9 says nothing of the file in it. */
	expect_rank("run/rank_9/worker0.1623143089861.pt.trace.json.gz", -1);
	/* "rank" must be a word of its own, and its number end where the name's token does. */
	expect_rank("t/prerank3.json.gz", -1);
	expect_rank("t/bs32rank0.json.gz", -1);
	expect_rank("t/ranking_3.json.gz", -1);
	expect_rank("t/rank3b.json.gz", -1);
	expect_rank("t/rank-.json.gz", -1);
	expect_rank("t/rank--3.json.gz", -1);
	expect_rank("t/rank_1234567890.json.gz", -1); /* ten digits: no rank anyone runs */
	/* The first rank that qualifies: one that does not is passed over. */
	expect_rank("t/ranking_rank-4_rank-5.json.gz", 4);
	expect_rank("t/worker0.1623143089861.pt.trace.json.gz", -1);
	TEST_DONE();
}

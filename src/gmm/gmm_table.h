/* gmm_table.h: the MoE expert-load table (one row per expert of each group_list.pt dump), grouped into snapshots. */
#ifndef RLI_GMM_TABLE_H
#define RLI_GMM_TABLE_H

#include "rl_insight.h"
#include "common/strpool.h"

#include <stddef.h>
#include <stdint.h>

/*
 * The most experts (elements) one dump may hold. No MoE layer routes to a million experts; a
 * tensor that claims more is refused before anything is allocated for it (gmm.md §2.4: bounded).
 */
#define RLI_GMM_MAX_EXPERTS ((size_t)1 << 20)

/*
 * A snapshot (gmm.md's term): one (step, role, rank_id, stage), that is one row of the heatmap,
 * and its rows. Usually the vector of one dump file; two files of the same snapshot (which
 * discovery warns about) share one, their rows interleaved by expert.
 */
typedef struct {
	uint32_t role;       /* id in the table's strings */
	int64_t rank_id;
	int64_t step;
	int64_t stage;       /* the op index of NPU.npu_grouped_matmul.<stage>.forward.kwargs.group_list.pt */
	size_t first, count; /* its rows: [first, first + count) */
} rli_gmm_snapshot;

/*
 * The table, in columns. Once finished (rli_gmm_finish), which every table a parse hands out is:
 * - snapshots are distinct and ascending by step, role (code-point order of the text: "Zeta" <
 *   "alpha"), rank_id, stage: the reference's row order (gmm.md §3);
 * - rows are in that order too: snapshot k holds rows [first, first + count), the first at 0,
 *   each right after the one before; inside a snapshot by expert_index, then load (NaN last);
 * - every count is at least 1 (an empty tensor gives no snapshot);
 * - loads are the tensor's values exactly (integers up to 2^53, the float types as saved; NaN
 *   kept), not rounded to float32 as the reference rounds them (decisions.md).
 * So row i of the table is row i of the reference's DataFrame, and --export writes it as it is.
 */
struct rli_gmm {
	rli_strpool strings;         /* roles */
	size_t count, capacity;      /* rows */
	uint32_t *expert_index;      /* 0 .. RLI_GMM_MAX_EXPERTS - 1 */
	double *load;
	rli_gmm_snapshot *snapshots;
	size_t snapshot_count, snapshot_capacity;
	uint32_t experts;            /* E: 1 + the largest expert_index, 0 without rows */
	int finished;                /* 1 once in table order (rli_gmm_finish) */
};

/* The keys of a snapshot as a parser hands them over (role already interned in the table). */
typedef struct {
	uint32_t role;
	int64_t rank_id, step, stage;
} rli_gmm_key;

int rli_gmm_new(rli_gmm **out);
/* The id of text in the table's strings, adding it; RLI_STRPOOL_NONE when out of memory. */
static inline uint32_t rli_gmm_intern(rli_gmm *gmm, const char *text, size_t length)
{
	return rli_strpool_intern(&gmm->strings, text, length);
}
static inline const char *rli_gmm_role(const rli_gmm *gmm, const rli_gmm_snapshot *snapshot)
{
	return rli_strpool_get(&gmm->strings, snapshot->role);
}
/* Room for `rows` more rows, so a reader that knows its size never copies the columns. */
int rli_gmm_reserve(rli_gmm *gmm, size_t rows);
/*
 * A new snapshot of count rows at the end of the table, expert_index 0 .. count - 1: *loads (the
 * column, its count places) for the caller to fill. count 0 adds nothing. RLI_OK or RLI_ERROR.
 */
int rli_gmm_add_snapshot(rli_gmm *gmm, const rli_gmm_key *key, size_t count, double **loads);
/*
 * One row: it joins the last snapshot when the key is the same, else starts a new one (the
 * tables --export wrote, read back row by row). RLI_OK or RLI_ERROR.
 */
int rli_gmm_append_row(rli_gmm *gmm, const rli_gmm_key *key, uint32_t expert_index, double load);
/* Drops the rows and snapshots added after the table held `snapshots` snapshots and `rows` rows. */
void rli_gmm_truncate(rli_gmm *gmm, size_t snapshots, size_t rows);
/* Appends every snapshot of src (its strings re-interned) to dst, unfinished. RLI_OK or RLI_ERROR. */
int rli_gmm_append_all(rli_gmm *dst, const rli_gmm *src);
/*
 * Interns every string of src in dst: a new array, by src's string id, of dst's ids (free it), or
 * NULL when out of memory (the error set). Then snapshots [from, to) of src, with their rows,
 * are appended to dst (room made) through it. RLI_OK or RLI_ERROR.
 */
uint32_t *rli_gmm_remap(rli_gmm *dst, const rli_gmm *src);
int rli_gmm_append_snapshots(rli_gmm *dst, const rli_gmm *src, const uint32_t *remap, size_t from, size_t to);
/*
 * Puts the table in table order (above): snapshots sorted by key, those of one key merged into
 * one, rows sorted inside each. A table already in order costs one pass. RLI_OK or RLI_ERROR.
 */
int rli_gmm_finish(rli_gmm *gmm);
/* The snapshot that holds row `row` of a finished table (row < count). */
size_t rli_gmm_snapshot_of(const rli_gmm *gmm, size_t row);

/*
 * Public in rl_insight.h: rli_gmm_count, rli_gmm_get, rli_gmm_free, rli_gmm_parse,
 * rli_table_gmm_parse, rli_gmm_export and what auto detection asks.
 */

#endif

/* trace_share.c: call-stack indexes handed from the timeline's reading of a trace to the memory analysis, under a lock. */
#include "trace_share.h"
#include "common/error.h"
#include "common/strutil.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
	char *path;
	rli_stack_index index;
	rli_stack_outcome outcome;
} share_entry;

struct rli_trace_share {
	pthread_mutex_t lock;
	share_entry *entries;
	size_t count, capacity;
};

int rli_trace_share_new(rli_trace_share **out)
{
	rli_trace_share *share = calloc(1, sizeof(*share));
	*out = NULL;
	if (!share || pthread_mutex_init(&share->lock, NULL) != 0) {
		free(share);
		return rli_error_oom();
	}
	*out = share;
	return RLI_OK;
}

void rli_trace_share_free(rli_trace_share *share)
{
	if (!share)
		return;
	for (size_t i = 0; i < share->count; i++) {
		free(share->entries[i].path);
		rli_stack_index_dispose(&share->entries[i].index);
	}
	free(share->entries);
	pthread_mutex_destroy(&share->lock);
	free(share);
}

int rli_trace_share_put(rli_trace_share *share, const char *path, rli_stack_index *index,
			const rli_stack_outcome *outcome)
{
	char *copy = rli_strdup(path);
	int error = RLI_OK;
	if (!copy)
		return rli_error_oom();
	pthread_mutex_lock(&share->lock);
	if (share->count == share->capacity) {
		size_t capacity = share->capacity ? share->capacity * 2 : 8;
		share_entry *grown = realloc(share->entries, capacity * sizeof(*grown));
		if (!grown) {
			error = rli_error_oom();
			goto done;
		}
		share->entries = grown;
		share->capacity = capacity;
	}
	share->entries[share->count].path = copy;
	share->entries[share->count].index = *index;
	share->entries[share->count].outcome = *outcome;
	share->count++;
	copy = NULL;
	rli_stack_index_init(index);
done:
	pthread_mutex_unlock(&share->lock);
	free(copy);
	return error;
}

int rli_trace_share_take(rli_trace_share *share, const char *path, rli_stack_index *index, rli_stack_outcome *outcome)
{
	int found = 0;
	pthread_mutex_lock(&share->lock);
	for (size_t i = 0; i < share->count; i++) {
		if (strcmp(share->entries[i].path, path) != 0)
			continue;
		rli_stack_index_dispose(index);
		*index = share->entries[i].index;
		*outcome = share->entries[i].outcome;
		free(share->entries[i].path);
		share->entries[i] = share->entries[--share->count];
		found = 1;
		break;
	}
	pthread_mutex_unlock(&share->lock);
	return found;
}

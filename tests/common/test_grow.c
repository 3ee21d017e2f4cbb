/* test_grow.c: rli_grow doubles, keeps what was there, and refuses sizes that would overflow. */
#include "harness.h"
#include "common/grow.h"
#include "rl_insight.h"

#include <stdint.h>
#include <stdlib.h>

int main(void)
{
	uint64_t *items = NULL;
	size_t capacity = 0;

	/* From nothing to the first size, then doubling: 16, 32, ... while the contents stay. */
	CHECK_INT(RLI_GROW(&items, &capacity, 1, 16), RLI_OK);
	CHECK_INT((int)capacity, 16);
	for (size_t i = 0; i < 1000; i++) {
		CHECK_INT(RLI_GROW(&items, &capacity, i + 1, 16), RLI_OK);
		items[i] = i * 7;
	}
	CHECK_INT((int)capacity, 1024);
	for (size_t i = 0; i < 1000; i++)
		if (items[i] != i * 7) {
			CHECK(items[i] == i * 7);
			break;
		}
	/* Asking for no more than there is changes nothing. */
	CHECK_INT(RLI_GROW(&items, &capacity, 500, 16), RLI_OK);
	CHECK_INT((int)capacity, 1024);
	/* A count whose byte size overflows is refused, and the array is left as it was. */
	CHECK_INT(RLI_GROW(&items, &capacity, SIZE_MAX / 4, 16), RLI_ERROR);
	CHECK_INT(RLI_GROW(&items, &capacity, SIZE_MAX, 16), RLI_ERROR);
	CHECK_INT((int)capacity, 1024);
	CHECK(items[999] == 999 * 7);
	free(items);
	TEST_DONE();
}

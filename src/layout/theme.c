/* theme.c: the palette, one colour per series name, the same in every output and across runs. */
#include "layout.h"

#include <string.h>

/*
 * The reference's ten colours, then ten more from the same family (Tableau
 * 20's remaining hues) so neighbours in the legend stay distinguishable.
 */
static const rli_color palette[] = {
	0x4e79a7, 0xf28e8b, 0x59a14f, 0xb07aa1, 0x9c755f,
	0x76b7b2, 0xedc948, 0xbab0ab, 0x8cd17d, 0xff9da7,
	0xf28e2b, 0xa0cbe8, 0x499894, 0xe15759, 0xb6992d,
	0xd37295, 0x86bcb6, 0xffbe7d, 0x79706e, 0xd4a6c8,
};
#define PALETTE_SIZE (sizeof(palette) / sizeof(palette[0]))

rli_color rli_palette_color(size_t index)
{
	return palette[index % PALETTE_SIZE];
}

size_t rli_palette_size(void)
{
	return PALETTE_SIZE;
}

uint32_t rli_name_hash(const char *name)
{
	uint32_t hash = 2166136261u; /* FNV-1a, 32 bits */
	for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
		hash ^= *p;
		hash *= 16777619u;
	}
	return hash;
}

void rli_palette_assign(rli_color *colors, const char *const *sorted_names, size_t count)
{
	size_t uses[PALETTE_SIZE] = { 0 }, fewest = 0;

	for (size_t n = 0; n < count; n++) {
		size_t home = rli_name_hash(sorted_names[n]) % PALETTE_SIZE, slot = home;
		/* The first slot from home that is used least: the home itself unless a name before took it. */
		for (size_t step = 0; step < PALETTE_SIZE; step++) {
			slot = (home + step) % PALETTE_SIZE;
			if (uses[slot] == fewest)
				break;
		}
		uses[slot]++;
		colors[n] = palette[slot];
		fewest = uses[0];
		for (size_t s = 1; s < PALETTE_SIZE; s++)
			if (uses[s] < fewest)
				fewest = uses[s];
	}
}

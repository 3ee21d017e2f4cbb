/* theme.c: the palette, one colour per series name, the same in every output. */
#include "layout.h"

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

rli_color rli_palette_color(size_t index)
{
	return palette[index % (sizeof(palette) / sizeof(palette[0]))];
}

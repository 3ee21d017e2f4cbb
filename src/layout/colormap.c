/* colormap.c: the heatmap's colour maps as smooth fits of matplotlib's tables, sampled in 256 steps. */
#include "colormap.h"
#include "common/error.h"

#include <math.h>
#include <strings.h>

static const char *const names[] = { "viridis", "magma", "inferno", "plasma", "cividis" };

/*
 * Why fits and not the tables: the 256-entry tables are data we cannot ship from here; these
 * degree-6 polynomials (per channel, in t) follow matplotlib's viridis, magma, inferno and
 * plasma within about one step of 8 bits. Cividis is piecewise linear through its published
 * ends and quarter points, close to the original and as monotone in lightness.
 */
static const double poly[4][7][3] = {
	{ { 0.2777273272234177, 0.005407344544966578, 0.3340998053353061 },
	  { 0.1050930431085774, 1.404613529898575, 1.384590162594685 },
	  { -0.3308618287255563, 0.214847559468213, 0.09509516302823659 },
	  { -4.634230498983486, -5.799100973351585, -19.33244095627987 },
	  { 6.228269936347081, 14.17993336680509, 56.69055260068105 },
	  { 4.776384997670288, -13.74514537774601, -65.35303263337234 },
	  { -5.435455855934631, 4.645852612178535, 26.3124352495832 } },
	{ { -0.002136485053939582, -0.000749655052795221, -0.005386127855323933 },
	  { 0.2516605407371642, 0.6775232436837668, 2.494026599312351 },
	  { 8.353717279216625, -3.577719514958484, 0.3144679030132573 },
	  { -27.66873308576866, 14.26473078096533, -13.64921318813922 },
	  { 52.17613981234068, -27.94360607168351, 12.94416944238394 },
	  { -50.76852536473588, 29.04658282127291, 4.23415299384598 },
	  { 18.65570506591883, -11.48977351997711, -5.601961508734096 } },
	{ { 0.0002189403691192265, 0.001651004631001012, -0.01948089843709184 },
	  { 0.1065134194856116, 0.5639564367884091, 3.932712388889277 },
	  { 11.60249308247187, -3.972853965665698, -15.9423941062914 },
	  { -41.70399613139459, 17.43639888205313, 44.35414519872813 },
	  { 77.162935699427, -33.40235894210092, -81.80730925738993 },
	  { -71.31942824499214, 32.62606426397723, 73.20951985803202 },
	  { 25.13112622477341, -12.24266895238567, -23.07032500287172 } },
	{ { 0.05873234392399702, 0.02333670892565664, 0.5433401826748754 },
	  { 2.176514634195958, 0.2383834171260182, 0.7539604599784036 },
	  { -2.689460476458034, -7.455851135738909, 3.110799939717086 },
	  { 6.130348345893603, 42.3461881477227, -28.51885465332158 },
	  { -11.10743619062271, -82.66631109428045, 60.13984767418263 },
	  { 10.02306557647065, 71.41361770095349, -54.07218655560067 },
	  { -3.658713842777788, -22.93153465461149, 18.19190778539828 } },
};

static const double cividis[5][3] = {
	{ 0.0000, 0.1262, 0.3015 }, { 0.2387, 0.3064, 0.4262 }, { 0.4867, 0.4845, 0.4714 },
	{ 0.7465, 0.6861, 0.4358 }, { 0.9951, 0.9086, 0.2178 },
};

int rli_colormap_from_name(rli_colormap *out, const char *name)
{
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (name && strcasecmp(name, names[i]) == 0) {
			*out = (rli_colormap)i;
			return RLI_OK;
		}
	return rli_error_set(RLI_EUSAGE, "unknown colour map '%s' (use viridis, magma, inferno, plasma or cividis)",
			     name ? name : "");
}

const char *rli_colormap_name(rli_colormap map)
{
	return names[map];
}

static unsigned channel(double v)
{
	v = v < 0 ? 0 : v > 1 ? 1 : v;
	return (unsigned)lround(v * 255.0);
}

rli_color rli_colormap_color(rli_colormap map, double t)
{
	double rgb[3];
	int step;
	t = isnan(t) ? 0 : t < 0 ? 0 : t > 1 ? 1 : t;
	/* matplotlib's indexing: floor(t * 256), t = 1 the last step. */
	step = (int)floor(t * 256.0);
	t = (step > 255 ? 255 : step) / 255.0;
	if (map == RLI_CMAP_CIVIDIS) {
		double at = t * 4.0;
		int k = at >= 4.0 ? 3 : (int)at;
		double f = at - k;
		for (int c = 0; c < 3; c++)
			rgb[c] = cividis[k][c] + (cividis[k + 1][c] - cividis[k][c]) * f;
	} else {
		for (int c = 0; c < 3; c++) {
			double v = poly[map][6][c];
			for (int d = 5; d >= 0; d--)
				v = v * t + poly[map][d][c];
			rgb[c] = v;
		}
	}
	return (rli_color)(channel(rgb[0]) << 16 | channel(rgb[1]) << 8 | channel(rgb[2]));
}

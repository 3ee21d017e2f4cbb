/* document.c: what every figure's parts share: freeing a panel's arrays and texts. */
#include "layout.h"

#include <stdlib.h>

void rli_panel_dispose(rli_panel *panel)
{
	for (size_t r = 0; r < panel->row_count; r++) {
		if (panel->rows) {
			free(panel->rows[r].label);
			free(panel->rows[r].role);
		}
		if (panel->row_labels)
			free(panel->row_labels[r].text);
	}
	free(panel->rows);
	free(panel->row_labels);
	free(panel->order_by_role);
	free(panel->row_first_bar);
	free(panel->bar_row);
	free(panel->bar_series);
	free(panel->bar_start);
	free(panel->bar_end);
	free(panel->xticks);
	free(panel->yticks);
	free(panel->x_title.text);
	free(panel->y_title.text);
}

/* history_args.h: the history's options as the command line reads them, both styles: --history, --run-label, --history-window. */
#ifndef RLI_CLI_HISTORY_ARGS_H
#define RLI_CLI_HISTORY_ARGS_H

#include "args.h"

/* Setters of args.c's table: --history FILE, --run-label LABEL, --history-window N (3 to 256). */
int cli_set_history(cli_request *r, const char *value, const char *spelled);
int cli_set_run_label(cli_request *r, const char *value, const char *spelled);
int cli_set_history_window(cli_request *r, const char *value, const char *spelled);
/* The rules between them and the other options; RLI_EUSAGE with the message. */
int cli_history_check_request(const cli_request *r);

#endif

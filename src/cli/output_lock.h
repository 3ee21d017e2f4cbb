/* output_lock.h: one run at a time in an output folder, by a lock on a file in it that the kernel lets go when the run ends. */
#ifndef RLI_CLI_OUTPUT_LOCK_H
#define RLI_CLI_OUTPUT_LOCK_H

#include "console.h"

/* The lock file's name in the output folder: hidden, and removed by the run that held it. */
#define CLI_LOCK_NAME ".rl-insight.lock"

/* What run() returns beyond library codes: --no-wait, and another run holds the folder (exit 7). */
#define CLI_BUSY (RLI_EPARTIAL - 2)

/*
 * Takes the lock on the folder output_path (made already): waits while another run holds it,
 * said in one line, or with no_wait returns CLI_BUSY at once with the message set. Where the
 * folder cannot hold a lock (not ours to write, a file system without locks) the run goes on
 * without one: its outputs fail or succeed as they would have.
 */
int cli_output_lock(console *c, const char *output_path, int no_wait);
/* Removes the lock file and lets the lock go; nothing when none is held. */
void cli_output_unlock(void);
/* For the thread that stops the run: the same, and no lock is taken or let go after it. */
void cli_output_lock_abandon(void);

#endif

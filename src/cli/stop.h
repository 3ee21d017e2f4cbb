/* stop.h: SIGTERM, SIGINT and SIGHUP end a run cleanly: temporaries removed, what was written left whole, exit 128+signal. */
#ifndef RLI_CLI_STOP_H
#define RLI_CLI_STOP_H

/*
 * Blocks the three signals (those not ignored: nohup's SIGHUP stays ignored) in this thread and
 * every thread made after, and starts the one thread that waits for them. Call it before any
 * other thread is made. When one comes, that thread removes the run's temporaries and its lock
 * on the output folder, says on stderr what was stopped, and ends the process with 128+signal.
 */
void cli_stop_start(const char *output_path);
/* The run is over: a signal from now on no longer stops it (it ends with its own status). */
void cli_stop_end(void);

#endif

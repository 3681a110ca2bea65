/* cli.h: argument and output helpers for the taskgraph command (also
 * compiled into the greedymap command). */
#ifndef TOPOMAP_TASKGRAPH_CLI_H
#define TOPOMAP_TASKGRAPH_CLI_H

#include <stddef.h>
#include <stdint.h>

#include "taskgraph.h"

/* Exit codes: 1 for bad data or a failed operation, 2 for bad usage. */
enum { CLI_EXIT_FAIL = 1, CLI_EXIT_USAGE = 2 };

/* A subcommand: its name and its main (argv[0] is the name). */
typedef struct cli_command {
    const char *name;
    int (*run)(int argc, char **argv);
} cli_command;

/* main() of program `prog`: --help prints `help`, --version the version,
 * else argv[1] names one of the n commands, which runs with cli_name set
 * to "PROG COMMAND".  Returns the exit code. */
int cli_main(const char *prog, const char *help, const cli_command *commands,
             size_t n, int argc, char **argv);

/* The running (sub)command's name for messages, e.g. "taskgraph gen";
 * its first word is the program's name. */
extern const char *cli_name;

/* Print "PROGRAM: SOURCE:LINE: TEXT" for a library error; returns 1. */
int cli_fail(const tg_error *err);
/* Print "NAME: message" and "(see NAME --help)"; returns 2. */
int cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The usage error for ':' (a missing value) or '?' (an unknown option)
 * from getopt_long with an optstring that starts with ':': the option
 * named as written ("-x", "--bogus"), never by a value after it. */
int cli_getopt_error(char **argv, int c);

/* Parse option values; on failure print a usage error and return -1. */
int cli_u64(const char *opt, const char *s, uint64_t min, uint64_t max,
            uint64_t *v);
int cli_int(const char *opt, const char *s, int min, int max, int *v);
int cli_double(const char *opt, const char *s, double min, double max,
               double *v);
/* A format name for --from/--to. */
int cli_format(const char *opt, const char *s, tg_format *f);

/* Progress of a long command on stderr.  On a terminal, "NAME: step..."
 * at cli_step and its time at cli_done.  Otherwise (a batch job's log),
 * one line "NAME: step: 2.31 s" at cli_done for each step that took a
 * second or more, so logs show where a long run spent its time and short
 * runs stay quiet. */
void cli_step(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_done(void);

/* Write g to path (format from the extension unless `format` is set) and
 * report the result on stdout.  Returns the exit code. */
int cli_write_graph(const char *path, tg_format format, const tg_graph *g);

int cmd_gen(int argc, char **argv);
/* Profiles (cmd_profile.c): matrix, merge, and info for a profile. */
int cmd_matrix(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_info_profile(const char *path);
/* taskgraph build (cmd_build.c). */
int cmd_build(int argc, char **argv);

#endif

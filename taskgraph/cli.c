/* cli.c: argument and output helpers for the taskgraph command. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

const char *cli_name = "taskgraph";

int cli_fail(const tg_error *err)
{
    char buf[1200];
    fprintf(stderr, "taskgraph: %s\n", tg_error_format(err, buf, sizeof buf));
    return CLI_EXIT_FAIL;
}

int cli_usage_error(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: ", cli_name);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, " (see '%s --help')\n", cli_name);
    return CLI_EXIT_USAGE;
}

int cli_u64(const char *opt, const char *s, uint64_t min, uint64_t max,
            uint64_t *v)
{
    char *end;
    errno = 0;
    if (*s == '-' || *s == '\0')
        goto bad;
    unsigned long long x = strtoull(s, &end, 10);
    if (*end || errno == ERANGE || x < min || x > max)
        goto bad;
    *v = x;
    return 0;
bad:
    cli_usage_error("%s wants an integer in %" PRIu64 "..%" PRIu64
                    ", not '%s'", opt, min, max, s);
    return -1;
}

int cli_int(const char *opt, const char *s, int min, int max, int *v)
{
    uint64_t x;
    if (min < 0 || cli_u64(opt, s, (uint64_t)min, (uint64_t)max, &x))
        return -1;
    *v = (int)x;
    return 0;
}

int cli_double(const char *opt, const char *s, double min, double max,
               double *v)
{
    char *end;
    errno = 0;
    double x = strtod(s, &end);
    if (*s == '\0' || *end || errno == ERANGE || !isfinite(x) || x < min ||
        x > max) {
        cli_usage_error("%s wants a number in %g..%g, not '%s'", opt, min,
                        max, s);
        return -1;
    }
    *v = x;
    return 0;
}

int cli_format(const char *opt, const char *s, tg_format *f)
{
    *f = tg_format_from_name(s);
    if (*f == TG_FORMAT_UNKNOWN) {
        cli_usage_error("%s: unknown format '%s' (json, metis, scotch, mtx)",
                        opt, s);
        return -1;
    }
    return 0;
}

static struct timespec step_start;
static int step_open;

void cli_step(const char *fmt, ...)
{
    if (!isatty(STDERR_FILENO))
        return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", cli_name);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "...");
    va_end(ap);
    clock_gettime(CLOCK_MONOTONIC, &step_start);
    step_open = 1;
}

void cli_done(void)
{
    if (!step_open)
        return;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    fprintf(stderr, " %.2f s\n", (double)(now.tv_sec - step_start.tv_sec) +
                                     1e-9 * (double)(now.tv_nsec -
                                                     step_start.tv_nsec));
    step_open = 0;
}

int cli_write_graph(const char *path, tg_format format, const tg_graph *g)
{
    tg_error err;
    cli_step("writing %s", path);
    int rc = tg_write(path, format, g, &err);
    cli_done();
    if (rc)
        return cli_fail(&err);
    printf("wrote %s: %d tasks, %" PRId64 " edges\n", path, g->n, g->nedges);
    return 0;
}

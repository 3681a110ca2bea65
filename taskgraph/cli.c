/* cli.c: argument and output helpers for the taskgraph command (also
 * compiled into the greedymap command). */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "config.h"

const char *cli_name = "taskgraph";

int cli_fail(const tg_error *err)
{
    char buf[1200];
    /* The program's name: the first word of cli_name. */
    fprintf(stderr, "%.*s: %s\n", (int)strcspn(cli_name, " "), cli_name,
            tg_error_format(err, buf, sizeof buf));
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

int cli_getopt_error(char **argv, int c)
{
    if (c == ':')
        return cli_usage_error("option '%s' needs a value", argv[optind - 1]);
    if (optopt) /* an unknown letter, maybe among others: "-x", "-hx" */
        return cli_usage_error("unknown option '-%c'", optopt);
    /* An unknown long option, "--bogus" or "--bogus=VALUE". */
    const char *w = argv[optind - 1];
    return cli_usage_error("unknown option '%.*s'", (int)strcspn(w, "="), w);
}

int cli_main(const char *prog, const char *help, const cli_command *commands,
             size_t n, int argc, char **argv)
{
    cli_name = prog;
    if (argc < 2)
        return cli_usage_error("no command given");
    if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
        fputs(help, stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("%s (%s) %s\n", prog, PACKAGE_NAME, PACKAGE_VERSION);
        return 0;
    }
    char names[256] = "";
    for (size_t i = 0; i < n; i++) {
        if (!strcmp(argv[1], commands[i].name)) {
            static char name[64];
            snprintf(name, sizeof name, "%s %s", prog, commands[i].name);
            cli_name = name;
            return commands[i].run(argc - 1, argv + 1);
        }
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s",
                 i ? ", " : "", commands[i].name);
    }
    return cli_usage_error("unknown command '%s' (%s)", argv[1], names);
}

int cli_u64(const char *opt, const char *s, uint64_t min, uint64_t max,
            uint64_t *v)
{
    char *end;
    errno = 0;
    /* strtoull takes leading blanks and a minus ("-1" is 2^64 - 1): a
     * sign is looked for after the blanks. */
    const char *p = s + strspn(s, " \t\n\v\f\r");
    if (*p == '-' || *p == '\0')
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
static char step_text[512];

void cli_step(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(step_text, sizeof step_text, fmt, ap);
    va_end(ap);
    if (isatty(STDERR_FILENO))
        fprintf(stderr, "%s: %s...", cli_name, step_text);
    clock_gettime(CLOCK_MONOTONIC, &step_start);
    step_open = 1;
}

/* A line of its own when stderr is not a terminal only for steps this
 * long. */
#define STEP_LOG_SECONDS 1.0

void cli_done(void)
{
    if (!step_open)
        return;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double s = (double)(now.tv_sec - step_start.tv_sec) +
               1e-9 * (double)(now.tv_nsec - step_start.tv_nsec);
    if (isatty(STDERR_FILENO))
        fprintf(stderr, " %.2f s\n", s);
    else if (s >= STEP_LOG_SECONDS)
        fprintf(stderr, "%s: %s: %.2f s\n", cli_name, step_text, s);
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

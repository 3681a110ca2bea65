/* example_args.c: option parsing shared by the example applications. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "example_args.h"

/* Store text into o; 0 when it is a number of o's kind inside o's range. */
static int set_value(const example_opt *o, const char *text)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (errno || end == text || *end || !(v >= o->min && v <= o->max))
        return -1;
    if (o->kind == EXAMPLE_REAL) {
        *(double *)o->value = v;
        return 0;
    }
    long long i = strtoll(text, &end, 10);
    if (*end)
        return -1;
    *(long long *)o->value = i;
    return 0;
}

int example_parse_args(const char *prog, const char *usage, int argc,
                       char **argv, example_opt *opts, int nopts, int rank)
{
    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "-h") || !strcmp(argv[a], "--help")) {
            if (rank == 0)
                fputs(usage, stdout);
            return 0;
        }
        const example_opt *o = NULL;
        const char *value = NULL;
        for (int k = 0; k < nopts && !o; k++) {
            size_t len = strlen(opts[k].name);
            if (strncmp(argv[a], opts[k].name, len))
                continue;
            if (argv[a][len] == '=')
                value = argv[a] + len + 1;
            else if (argv[a][len] == '\0')
                value = a + 1 < argc ? argv[++a] : NULL;
            else
                continue;
            o = &opts[k];
        }
        const char *problem = NULL;
        if (!o)
            problem = "unknown option";
        else if (!value)
            problem = "needs a value";
        else if (set_value(o, value))
            problem = NULL;
        else
            continue;
        if (rank == 0) {
            if (problem)
                fprintf(stderr, "%s: '%s': %s (see --help)\n", prog,
                        o ? o->name : argv[a], problem);
            else if (o->kind == EXAMPLE_INT)
                fprintf(stderr, "%s: %s '%s': must be an integer from %.0f "
                        "to %.0f\n", prog, o->name, value, o->min, o->max);
            else
                fprintf(stderr, "%s: %s '%s': must be a number from %g to "
                        "%g\n", prog, o->name, value, o->min, o->max);
        }
        return 2;
    }
    return -1;
}

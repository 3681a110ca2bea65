/* example_args.h: the command-line options of the example applications
 * (halo3d, spmv): `--name VALUE` or `--name=VALUE`, numbers checked against
 * a range, and --help. */
#ifndef TOPOMAP_EXAMPLE_ARGS_H
#define TOPOMAP_EXAMPLE_ARGS_H

typedef enum { EXAMPLE_INT, EXAMPLE_REAL } example_kind;

typedef struct example_opt {
    const char *name; /* "--bytes" */
    example_kind kind;
    void *value;      /* long long * or double *; holds the default */
    double min, max;  /* the accepted range, both ends included */
} example_opt;

/* Parse argv into opts.  Returns -1 when the program should go on, 0 after
 * --help (usage printed), 2 after a bad command line (message on stderr).
 * Only rank 0 prints, so that a job prints each message once. */
int example_parse_args(const char *prog, const char *usage, int argc,
                       char **argv, example_opt *opts, int nopts, int rank);

#endif

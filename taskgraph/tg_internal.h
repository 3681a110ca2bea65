/*
 * tg_internal.h: helpers shared by the modules of libtaskgraph; not
 * installed.
 */
#ifndef TOPOMAP_TG_INTERNAL_H
#define TOPOMAP_TG_INTERNAL_H

#include <stdio.h>

#include "taskgraph.h"

/* Allocate a graph of n tasks with room for `arcs` (= 2 * edges) CSR
 * entries; xadj is zeroed.  NULL when out of memory. */
tg_graph *tg_graph_alloc(int n, int64_t arcs);

/* tg_graph_add_layer for a caller that knows no layer of g is called
 * `name` already (it checked, e.g. by a hash): no pass over g's layers,
 * so that adding many layers takes no quadratic time. */
int tg_graph_add_layer_unique(tg_graph *g, const char *name,
                              tg_graph *layer, tg_error *err);

/* Build a graph from per-task adjacency already in CSR form but possibly
 * unsorted (for readers): sorts each row by neighbour.  Takes ownership of
 * nothing; returns TG_ENOMEM only. */
int tg_graph_sort_rows(tg_graph *g, tg_error *err);

/* tg_builder_finish, then record that the graph is of communication type
 * `type` (factor 1); nothing is returned on failure. */
int tg_builder_finish_typed(tg_builder *b, const char *type, tg_graph **out,
                            tg_error *err);

/* For a graph with sorted rows: 1 when every arc a->b has its reverse b->a
 * with the same weight and no row repeats a neighbour; 0 when not, or when
 * memory is short.  Two linear passes (it builds the transpose). */
int tg_graph_is_symmetric(const tg_graph *g);

/* Why a graph with sorted rows is not symmetric. */
typedef enum tg_asymmetry {
    TG_SYMMETRIC = 0,
    TG_REPEATED,      /* row a lists b twice */
    TG_MISSING,       /* a lists b, b does not list a */
    TG_WEIGHT_DIFFERS /* both list each other with different weights */
} tg_asymmetry;

/* The first arc, in row order, that breaks symmetry: its row in *a, its
 * position in *arc, and why; TG_SYMMETRIC when there is none.  For error
 * messages: slower than tg_graph_is_symmetric, so call it only after that
 * said no. */
tg_asymmetry tg_graph_find_asymmetry(const tg_graph *g, int *a,
                                     int64_t *arc);

/* --------------------------------------------------------- atomic output */

/* A file being written: data goes to a temporary file in the destination's
 * folder, which tg_out_commit renames into place and tg_out_abort removes.
 * A symbolic link is written through (the file it names is replaced, the
 * link stays); a destination that exists and is not a regular file (a
 * pipe, a terminal, /dev/null) is written into directly, without a
 * temporary; a folder is refused. */
typedef struct tg_out {
    FILE *fp;
    char *path;
    char *tmp;
} tg_out;

int tg_out_open(tg_out *o, const char *path, tg_error *err);
/* Whether path can be written, checked now for an output written later:
 * nothing is left behind, and a pipe is not opened (its reader would see
 * the end of its input). */
int tg_out_check(const char *path, tg_error *err);
/* Whether two output paths name the same file (links followed, the file
 * there or not). */
int tg_out_same(const char *a, const char *b);
/* Flush, check for write errors, fsync and rename.  On failure the
 * temporary file is removed and the destination is untouched. */
int tg_out_commit(tg_out *o, tg_error *err);
/* Commit n files together: every file is written out and synced before
 * any is renamed, so a write error (a full disk) leaves all destinations
 * untouched, and when a rename fails the files renamed before it are put
 * back as they were (where the file system has hard links).  Either way
 * every tg_out is finished and no temporary remains. */
int tg_out_commit_all(tg_out *o, int n, tg_error *err);
void tg_out_abort(tg_out *o);

/* ---------------------------------------------------------- text reading */

/* A whole text file in memory, read line by line. */
typedef struct tg_text {
    const char *source; /* name for messages */
    char *buf;          /* contents, NUL-terminated */
    size_t len;
    size_t pos;         /* start of the next line */
    long line;          /* number of the line last returned (1-based) */
} tg_text;

/* Read `path` whole.  An empty file is an error ("empty file"). */
int tg_text_load(tg_text *t, const char *path, tg_error *err);
void tg_text_free(tg_text *t);

/* Next line, NUL-terminated in place (no '\n' or '\r'), or NULL at end of
 * file.  Lines whose first non-blank character is in `comments` (e.g. "%")
 * and, when skip_blank, blank lines are skipped. */
char *tg_text_next(tg_text *t, const char *comments, int skip_blank);

/* Token parsers over a line cursor: skip blanks, parse, advance *p.
 * Return 1 on success, 0 when the line has no more tokens, and TG_EPARSE
 * (malformed) or TG_EOVERFLOW (does not fit in 64 bits) with the message
 * in err, naming t's source and line. */
int tg_lex_u64(const tg_text *t, char **p, uint64_t *v, const char *what,
               tg_error *err);
int tg_lex_double(const tg_text *t, char **p, double *v, const char *what,
                  tg_error *err);
/* For a reader that filled g's rows in file order: sort the rows and, if
 * the adjacency is not symmetric, report the first offending vertex at its
 * line (vline[v] is the line where vertex v starts), numbering vertices
 * from `base` and calling weights `weight_word` ("weight", "load"). */
int tg_text_check_symmetric(const tg_text *t, tg_graph *g, const long *vline,
                            long long base, const char *weight_word,
                            tg_error *err);

/* Counts a file declares but need not list item by item (the tasks of a
 * .tg.json or a Matrix Market size line, a profile's world_size: a task
 * or rank with no edge takes no byte of the file) are bounded by what the
 * file can hold, so that no small file costs much: at most
 * TG_UNLISTED_MAX, plus one per byte of the file.  Past it,
 * tg_declared_check fails with "WHAT N is more than a file of B bytes may
 * declare (at most L: TG_UNLISTED_MAX plus one per byte)" at source:line
 * (line 0: none), and returns TG_EPARSE; 0 when within. */
#define TG_UNLISTED_MAX (1 << 20)
int tg_declared_check(const char *source, long line, const char *what,
                      uint64_t declared, size_t bytes, tg_error *err);

/* 1 if only blanks remain on the line. */
int tg_lex_at_end(char *p);

/* Write v in decimal, preceded by `sep` unless it is '\0': fprintf per
 * number is the bulk of the time when writing millions of edges. */
void tg_put_u64(FILE *fp, char sep, uint64_t v);

/* An hwloc synthetic topology description (greedymap --node-topology,
 * topomap-place --topology, TOPOMAP_REORDER_TOPOLOGY) of more PUs than
 * TG_SYNTHETIC_PUS_MAX, the product of its arities, is refused before
 * hwloc builds it, whose cost grows much faster (synthetic.c): 0, or
 * TG_EINVAL with "WHAT 'SPEC' describes N PUs, more than ...".  A string
 * that is not a synthetic description passes, for hwloc to refuse. */
#define TG_SYNTHETIC_PUS_MAX 4096
int tg_synthetic_check(const char *spec, const char *what, tg_error *err);

/* -------------------------------------------------------------- random */

/* xoshiro256** seeded through splitmix64: small, fast, and the same on
 * every platform, so a seed always reproduces the same output. */
typedef struct tg_rng {
    uint64_t s[4];
} tg_rng;

void tg_rng_seed(tg_rng *r, uint64_t seed);
uint64_t tg_rng_next(tg_rng *r);
/* Uniform double in [0, 1) with 53 random bits. */
double tg_rng_uniform(tg_rng *r);

#endif

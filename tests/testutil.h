/* testutil.h: small helpers shared by topomap's check tests. */
#ifndef TOPOMAP_TESTUTIL_H
#define TOPOMAP_TESTUTIL_H

#include <check.h>

#include "taskgraph.h"

/* A fresh empty directory for this test process (under $TMPDIR or /tmp),
 * removed with its contents at exit.  Returns its path. */
const char *tu_tmpdir(void);

/* tu_tmpdir()/name, in a static rotating buffer (8 slots). */
const char *tu_path(const char *name);

/* Write `text` to tu_path(name); returns the path. */
const char *tu_write(const char *name, const char *text);

/* 1 when the file exists. */
int tu_exists(const char *path);

/* Number of entries in tu_tmpdir() (to show no stray temporary files). */
int tu_count_files(void);

/* Assert that two graphs have the same tasks, edges and weights (types and
 * layers are not compared). */
void tu_assert_same_graph(const tg_graph *a, const tg_graph *b);

/* Build a graph from n tasks and `m` undirected edges {a, b, w}. */
tg_graph *tu_graph(int n, int m, const int edges[][3]);

/* A random graph: each task gets up to `deg` edges to random others,
 * weights 1 .. 5 (a small LCG seeded with seed, so the graph is the same
 * everywhere). */
tg_graph *tu_random_graph(int n, int deg, unsigned seed);

/* Run a shell command, return its exit status (-1 if it did not exit). */
int tu_run(const char *cmd);

/* Run a check suite made by `make` with CK_NORMAL output; returns the exit
 * code for main (0 when every test passed). */
int tu_main(Suite *(*make)(void));

#endif

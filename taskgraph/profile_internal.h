/*
 * profile_internal.h: what the profile modules of libtaskgraph share; not
 * installed.
 */
#ifndef TOPOMAP_PROFILE_INTERNAL_H
#define TOPOMAP_PROFILE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "taskgraph.h"

/* One step of a path into a JSON document: member `key` of an object, or
 * element `index` of an array when key is NULL. */
typedef struct tg_json_step {
    const char *key;
    size_t index;
} tg_json_step;

/* The line (1-based) where the value at `path` starts in `text`, JSON that
 * jansson accepted; 0 when the path is not there.  jansson's values carry
 * no position, so a message about a value finds its line this way, only
 * when there is something to report. */
long tg_json_line(const char *text, size_t len, const tg_json_step *path,
                  int depth);

/* Copy the string value of member `key` of the top-level object in
 * `text` (which may be any bytes, or cut short) into buf; 1 when found
 * (escapes are copied as written), 0 otherwise. */
int tg_json_top_string(const char *text, size_t len, const char *key,
                       char *buf, size_t size);

/* The edge arrays of a .tg.json text ("edges" and each layer's) written
 * in the plain form, [[a, b, w], ...] with JSON integers: io_json.c reads
 * them straight from the text and lets jansson see them blanked, instead
 * of a tree of millions of arrays (1.9 GB for a 180 MB file).  Arrays in
 * any other form are left to jansson, with its messages. */
typedef struct tg_edge_span {
    size_t start, end; /* the array's '[' .. one past its ']' */
    size_t count;      /* its [a, b, w] triples */
    int layer;         /* -1: the graph's own "edges"; else layers[i] */
} tg_edge_span;

typedef struct tg_edge_spans {
    tg_edge_span *v;
    int n, cap;
} tg_edge_spans;

/* Find them; 0 (maybe none found), or -1 out of memory. */
int tg_json_edge_spans(const char *text, size_t len, tg_edge_spans *out);
void tg_edge_spans_free(tg_edge_spans *sp);

/* The next triple of a span, from *at (span->start to begin); 0, or -1
 * past its last. */
int tg_edge_span_next(const char *text, const tg_edge_span *span,
                      size_t *at, int64_t v[3]);

/* n bytes of zeros for a world-sized array that may be touched in a few
 * places: anonymous memory, whose pages the system zeroes when first
 * written (calloc may clear the whole block, a cost of the world's size
 * for each partial file); NULL when out of memory.  Free with
 * tg_prof_lazy_free and the same n. */
void *tg_prof_lazy_alloc(size_t n);
void tg_prof_lazy_free(void *p, size_t n);

/* Free what a rank holds, leaving it zeroed (not present). */
void tg_prof_rank_clear(tg_prof_rank *r);
/* Free what a communicator holds, leaving it zeroed. */
void tg_prof_comm_clear(tg_prof_comm *c);
void tg_prof_phase_clear(tg_prof_phase *ph);
void tg_prof_cart_clear(tg_prof_cart *c);
/* Free a profile made by tg_profile_phase (profile_phase.c). */
void tg_profile_view_free(tg_profile *p);
/* In a profile with phases, a rank without any (a partial file of a rank
 * that never changed phase) recorded everything in phase 1, and so did
 * its collective records: give it that phase and those records, as
 * libcommprof's writer does.  0, or TG_ENOMEM. */
int tg_profile_phases_fill(tg_profile *p);

#endif

/* io_mtx.c: Matrix Market coordinate files (read only).
 *
 *   %%MatrixMarket matrix coordinate FIELD SYMMETRY
 *   % comments
 *   rows cols nnz
 *   i j [value]            nnz entries, 1-based
 *
 * FIELD is real, integer or pattern (complex is refused); SYMMETRY is
 * general, symmetric or skew-symmetric (hermitian is refused).  The matrix
 * must be square: row and column i are both task i - 1.  Entry (i, j) with
 * i != j means task i - 1 sends to task j - 1; the builder adds both
 * directions of a pair into one undirected weight.  Symmetric and
 * skew-symmetric files store only the lower triangle, so each stored entry
 * also counts for (j, i), and a symmetric matrix gives the same graph
 * whether it is stored as symmetric or as general.  Diagonal entries are
 * checked and dropped.
 *
 * Weights: TG_MTX_PATTERN counts 1 per entry whatever its value;
 * TG_MTX_VALUES takes |value| rounded to the nearest integer and drops
 * entries that round to 0 (a pattern file gives 1 per entry there too). */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tg_internal.h"

enum { FIELD_REAL, FIELD_INTEGER, FIELD_PATTERN };
enum { SYM_GENERAL, SYM_SYMMETRIC, SYM_SKEW };

typedef struct mtx_reader {
    tg_text t;
    tg_error *err;
    tg_mtx_weights weights;
    int field, symmetry;
    int n;
    uint64_t nnz;
} mtx_reader;

/* The next blank-separated word of the banner, NUL-terminated in place;
 * "" when there is none. */
static char *next_word(char **p)
{
    char *s = *p + strspn(*p, " \t");
    char *e = s + strcspn(s, " \t");
    *p = *e ? e + 1 : e;
    *e = '\0';
    return s;
}

static int read_banner(mtx_reader *r)
{
    tg_text *t = &r->t;
    char *p = tg_text_next(t, NULL, 1);
    const char *src = t->source;
    if (!p) /* tg_text_load has refused a blank file: cannot happen */
        return tg_error_set(r->err, TG_EPARSE, src, t->line, "empty file");
    char *w[5];
    for (int i = 0; i < 5; i++)
        w[i] = next_word(&p);
    if (strcasecmp(w[0], "%%MatrixMarket") != 0)
        return tg_error_set(r->err, TG_EPARSE, src, t->line,
                            "not a Matrix Market file: the first line must "
                            "start with %%%%MatrixMarket");
    if (!*w[4] || !tg_lex_at_end(p))
        return tg_error_set(r->err, TG_EPARSE, src, t->line,
                            "the first line must be '%%%%MatrixMarket matrix "
                            "coordinate FIELD SYMMETRY'");
    if (strcasecmp(w[1], "matrix") != 0)
        return tg_error_set(r->err, TG_EPARSE, src, t->line,
                            "'%s' files are not supported: only 'matrix'",
                            w[1]);
    if (strcasecmp(w[2], "array") == 0)
        return tg_error_set(r->err, TG_EPARSE, src, t->line,
                            "dense 'array' matrices are not supported: only "
                            "'coordinate' (sparse) ones");
    if (strcasecmp(w[2], "coordinate") != 0)
        return tg_error_set(r->err, TG_EPARSE, src, t->line,
                            "unknown format '%s': only 'coordinate' matrices "
                            "are supported", w[2]);
    if (strcasecmp(w[3], "complex") == 0)
        return tg_error_set(r->err, TG_EPARSE, src, t->line,
                            "complex matrices are not supported");
    if (strcasecmp(w[3], "real") == 0)
        r->field = FIELD_REAL;
    else if (strcasecmp(w[3], "integer") == 0)
        r->field = FIELD_INTEGER;
    else if (strcasecmp(w[3], "pattern") == 0)
        r->field = FIELD_PATTERN;
    else
        return tg_error_set(r->err, TG_EPARSE, src, t->line,
                            "unknown field '%s': real, integer or pattern",
                            w[3]);
    if (strcasecmp(w[4], "hermitian") == 0)
        return tg_error_set(r->err, TG_EPARSE, src, t->line,
                            "hermitian matrices are not supported");
    if (strcasecmp(w[4], "general") == 0)
        r->symmetry = SYM_GENERAL;
    else if (strcasecmp(w[4], "symmetric") == 0)
        r->symmetry = SYM_SYMMETRIC;
    else if (strcasecmp(w[4], "skew-symmetric") == 0)
        r->symmetry = SYM_SKEW;
    else
        return tg_error_set(r->err, TG_EPARSE, src, t->line,
                            "unknown symmetry '%s': general, symmetric or "
                            "skew-symmetric", w[4]);
    return 0;
}

static int read_size(mtx_reader *r)
{
    tg_text *t = &r->t;
    char *p = tg_text_next(t, "%", 1);
    if (!p)
        return tg_error_set(r->err, TG_EPARSE, t->source, t->line,
                            "truncated file: it ends before the size line "
                            "'rows cols entries'");
    static const char *const what[] = {"row count", "column count",
                                       "entry count"};
    uint64_t v[3];
    for (int i = 0; i < 3; i++) {
        int got = tg_lex_u64(t, &p, &v[i], what[i], r->err);
        if (got < 0)
            return got;
        if (got == 0)
            return tg_error_set(r->err, TG_EPARSE, t->source, t->line,
                                "the size line must be 'rows cols "
                                "entries'");
    }
    if (!tg_lex_at_end(p))
        return tg_error_set(r->err, TG_EPARSE, t->source, t->line,
                            "the size line must be 'rows cols entries'");
    if (v[0] != v[1])
        return tg_error_set(r->err, TG_EPARSE, t->source, t->line,
                            "the matrix is %" PRIu64 " x %" PRIu64 ": a task "
                            "graph needs a square matrix", v[0], v[1]);
    if (v[0] > TG_TASKS_MAX)
        return tg_error_set(r->err, TG_EOVERFLOW, t->source, t->line,
                            "%" PRIu64 " rows: at most %d tasks are "
                            "supported", v[0], TG_TASKS_MAX);
    /* Rows with no entry take no byte: bounded by the file's size before
     * the builder allocates per row.  (The entry count only bounds a loop
     * over lines, which the file's end stops.) */
    int rc = tg_declared_check(t->source, t->line, "the row count", v[0],
                               t->len, r->err);
    if (rc)
        return rc;
    r->n = (int)v[0];
    r->nnz = v[2];
    return 0;
}

/* An integer value with an optional sign: its magnitude in *mag. */
static int lex_integer(mtx_reader *r, char **p, uint64_t *mag)
{
    char *s = *p + strspn(*p, " \t");
    char *q = s + (*s == '-' || *s == '+');
    int got = *q >= '0' && *q <= '9'
                  ? tg_lex_u64(&r->t, &q, mag, "value", r->err)
                  : TG_EPARSE;
    if (got > 0) {
        *p = q;
        return 0;
    }
    if (got == TG_EOVERFLOW)
        return TG_EOVERFLOW;
    /* Not the lexer's "not a non-negative integer": a sign is fine. */
    size_t len = strcspn(s, " \t");
    return tg_error_set(r->err, TG_EPARSE, r->t.source, r->t.line,
                        "value is not an integer: '%.*s'",
                        (int)(len < 24 ? len : 24), s);
}

/* The weight of one entry (0: dropped) from the rest of its line. */
static int read_value(mtx_reader *r, char **p, uint64_t *w)
{
    tg_text *t = &r->t;
    int values = r->weights == TG_MTX_VALUES;
    *w = 1;
    if (r->field == FIELD_PATTERN)
        return 0;
    if (tg_lex_at_end(*p))
        return tg_error_set(r->err, TG_EPARSE, t->source, t->line,
                            "the entry has no value");
    if (r->field == FIELD_INTEGER) {
        uint64_t mag;
        int rc = lex_integer(r, p, &mag);
        if (rc)
            return rc;
        if (values && mag > TG_WEIGHT_MAX)
            return tg_error_set(r->err, TG_EOVERFLOW, t->source, t->line,
                                "value %" PRIu64 " exceeds 2^63 - 1 in "
                                "magnitude", mag);
        if (values)
            *w = mag;
        return 0;
    }
    double x;
    int got = tg_lex_double(t, p, &x, "value", r->err);
    if (got < 0)
        return got;
    /* 2^63 is the first double whose rounding does not fit. */
    if (values && fabs(x) >= 9223372036854775808.0)
        return tg_error_set(r->err, TG_EOVERFLOW, t->source, t->line,
                            "value %g exceeds 2^63 - 1 in magnitude", x);
    if (values)
        *w = (uint64_t)llround(fabs(x));
    return 0;
}

static int read_entry(mtx_reader *r, char *p, tg_builder *b)
{
    tg_text *t = &r->t;
    uint64_t ij[2];
    static const char *const what[] = {"row index", "column index"};
    for (int k = 0; k < 2; k++) {
        int got = tg_lex_u64(t, &p, &ij[k], what[k], r->err);
        if (got < 0)
            return got;
        if (got == 0)
            return tg_error_set(r->err, TG_EPARSE, t->source, t->line,
                                "an entry must be 'row column%s'",
                                r->field == FIELD_PATTERN ? "" : " value");
    }
    uint64_t i = ij[0], j = ij[1], w;
    for (int k = 0; k < 2; k++)
        if (ij[k] < 1 || ij[k] > (uint64_t)r->n)
            return tg_error_set(r->err, TG_EPARSE, t->source, t->line,
                                "entry (%" PRIu64 ", %" PRIu64 "): %s %"
                                PRIu64 " outside 1..%d", i, j, what[k],
                                ij[k], r->n);
    int rc = read_value(r, &p, &w);
    if (rc)
        return rc;
    if (!tg_lex_at_end(p))
        return tg_error_set(r->err, TG_EPARSE, t->source, t->line,
                            "unexpected data after entry (%" PRIu64
                            ", %" PRIu64 ")", i, j);
    if (r->symmetry != SYM_GENERAL && i < j)
        return tg_error_set(r->err, TG_EPARSE, t->source, t->line,
                            "entry (%" PRIu64 ", %" PRIu64 ") is above the "
                            "diagonal: a %s file stores only the lower "
                            "triangle", i, j,
                            r->symmetry == SYM_SYMMETRIC ? "symmetric"
                                                         : "skew-symmetric");
    /* The builder drops diagonal entries and zero weights. */
    rc = tg_builder_add(b, (int)i - 1, (int)j - 1, w, r->err);
    if (!rc && r->symmetry != SYM_GENERAL)
        rc = tg_builder_add(b, (int)j - 1, (int)i - 1, w, r->err);
    if (rc) /* out of memory: ids and weight are checked above */
        return tg_error_set(r->err, rc, t->source, t->line, "out of memory");
    return 0;
}

static int read_entries(mtx_reader *r, tg_graph **out)
{
    tg_text *t = &r->t;
    tg_builder *b = tg_builder_new(r->n);
    if (!b)
        return tg_error_set(r->err, TG_ENOMEM, t->source, 0, "out of memory");
    int rc = 0;
    uint64_t k = 0;
    char *line;
    /* Comment lines are not allowed here by the standard; they do no
     * harm, so they are skipped like blank lines. */
    while (!rc && k < r->nnz && (line = tg_text_next(t, "%", 1))) {
        rc = read_entry(r, line, b);
        k++;
    }
    if (!rc && k < r->nnz)
        rc = tg_error_set(r->err, TG_EPARSE, t->source, t->line,
                          "truncated file: expected %" PRIu64 " entries, "
                          "file ends after %" PRIu64, r->nnz, k);
    if (!rc && tg_text_next(t, "%", 1))
        rc = tg_error_set(r->err, TG_EPARSE, t->source, t->line,
                          "more entries than the %" PRIu64 " in the size "
                          "line", r->nnz);
    if (!rc) {
        rc = tg_builder_finish(b, out, r->err);
        /* Only a merged weight past 2^63 - 1 fails here: no single line
         * is at fault. */
        if (rc && r->err)
            snprintf(r->err->source, sizeof r->err->source, "%s",
                     t->source);
    }
    tg_builder_free(b);
    return rc;
}

int tg_read_mtx(const char *path, tg_mtx_weights weights, tg_graph **out,
                tg_error *err)
{
    mtx_reader r;
    memset(&r, 0, sizeof r);
    r.err = err;
    r.weights = weights;
    int rc = tg_text_load(&r.t, path, err);
    if (rc)
        return rc;
    rc = read_banner(&r);
    if (!rc)
        rc = read_size(&r);
    tg_graph *g = NULL;
    if (!rc)
        rc = read_entries(&r, &g);
    tg_text_free(&r.t);
    if (rc)
        return rc;
    *out = g;
    return 0;
}

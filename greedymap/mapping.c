/* mapping.c: checking mappings; topomap's mapping file ("task host slot"),
 * the Open MPI rankfile, and Scotch's .map files. */
#include <stdlib.h>
#include <string.h>

#include "gm_internal.h"

/* First slot index of every node in one flat array of all slots. */
static int64_t *slot_base(const gm_machine *m)
{
    int64_t *base = malloc(((size_t)m->n + 1) * sizeof *base);
    if (!base)
        return NULL;
    base[0] = 0;
    for (int i = 0; i < m->n; i++)
        base[i + 1] = base[i] + m->slots[i];
    return base;
}

int gm_mapping_check(const gm_machine *m, const gm_place *map, int n,
                     tg_error *err)
{
    int64_t *base = slot_base(m);
    int *owner = base ? malloc(((size_t)base[m->n] + 1) * sizeof *owner)
                      : NULL;
    if (!owner) {
        free(base);
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    }
    for (int64_t i = 0; i < base[m->n]; i++)
        owner[i] = -1;
    int rc = 0;
    for (int t = 0; !rc && t < n; t++) {
        int node = map[t].node, slot = map[t].slot;
        if (node < 0 || node >= m->n)
            rc = tg_error_set(err, TG_EINVAL, NULL, 0,
                              "task %d is on node %d, the machine has %d "
                              "nodes",
                              t, node, m->n);
        else if (slot < 0 || slot >= m->slots[node])
            rc = tg_error_set(err, TG_EINVAL, NULL, 0,
                              "task %d is on %s slot %d, the node has %d "
                              "slots",
                              t, m->host[node], slot, m->slots[node]);
        else if (owner[base[node] + slot] >= 0)
            rc = tg_error_set(err, TG_EINVAL, NULL, 0,
                              "task %d is on %s slot %d, already used by "
                              "task %d",
                              t, m->host[node], slot,
                              owner[base[node] + slot]);
        else
            owner[base[node] + slot] = t;
    }
    free(owner);
    free(base);
    return rc;
}

/* Mapping lines, not counting comments and blank lines (before the
 * buffer is cut into lines). */
static int count_lines(const tg_text *t)
{
    int n = 0;
    const char *p = t->buf, *end = t->buf + t->len;
    while (p < end) {
        while (p < end && (*p == ' ' || *p == '\t'))
            p++;
        if (p < end && *p != '\n' && *p != '\r' && *p != '#' && n < INT32_MAX)
            n++;
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        p = nl ? nl + 1 : end;
    }
    return n;
}

/* A token that must be a non-negative int; `expect` is the line's syntax,
 * for a missing token. */
static int lex_int(const tg_text *t, char **p, int *v, const char *what,
                   const char *expect, tg_error *err)
{
    uint64_t x;
    int rc = tg_lex_u64(t, p, &x, what, err);
    if (rc == 0)
        return tg_error_set(err, TG_EPARSE, t->source, t->line,
                            "expected '%s'", expect);
    if (rc < 0)
        return rc;
    if (x > INT32_MAX)
        return tg_error_set(err, TG_EPARSE, t->source, t->line,
                            "%s %llu is too large", what,
                            (unsigned long long)x);
    *v = (int)x;
    return 0;
}

/* One mapping being read, whatever the file's syntax: every reader turns
 * its lines into (task, node, slot) and map_put checks them. */
typedef struct map_read {
    tg_text t;
    const gm_machine *m;
    const char *what; /* "task" or "rank", in messages */
    int ntasks;
    gm_place *map;
    long *task_line;  /* line of each task, 0 = not seen */
    int64_t *base;
    long *slot_line;  /* line that took each slot */
} map_read;

/* The reader takes the text over (text is left empty). */
static void map_open(map_read *r, tg_text *text, const gm_machine *m,
                     const char *what)
{
    memset(r, 0, sizeof *r);
    r->t = *text;
    memset(text, 0, sizeof *text);
    r->m = m;
    r->what = what;
}

static int map_alloc(map_read *r, int ntasks, tg_error *err)
{
    const gm_machine *m = r->m;
    r->ntasks = ntasks;
    r->map = malloc(((size_t)ntasks + 1) * sizeof *r->map);
    r->task_line = calloc((size_t)ntasks + 1, sizeof *r->task_line);
    r->base = slot_base(m);
    r->slot_line = r->base ? calloc((size_t)r->base[m->n] + 1,
                                    sizeof *r->slot_line)
                           : NULL;
    if (!r->map || !r->task_line || !r->slot_line)
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    return 0;
}

/* Task `task` on `node` (-1: `host` is unknown), `slot`, from `line`. */
static int map_put(map_read *r, long line, int task, int node,
                   const char *host, int slot, tg_error *err)
{
    const char *src = r->t.source, *w = r->what;
    if (task >= r->ntasks)
        return tg_error_set(err, TG_EPARSE, src, line,
                            "%s %d is out of range (%d %ss)", w, task,
                            r->ntasks, w);
    if (r->task_line[task])
        return tg_error_set(err, TG_EPARSE, src, line,
                            "%s %d is mapped twice (first on line %ld)", w,
                            task, r->task_line[task]);
    if (node < 0)
        return tg_error_set(err, TG_EPARSE, src, line, "unknown host '%s'",
                            host);
    if (slot >= r->m->slots[node])
        return tg_error_set(err, TG_EPARSE, src, line,
                            "slot %d is out of range: %s has %d slots", slot,
                            host, r->m->slots[node]);
    long *taken = &r->slot_line[r->base[node] + slot];
    if (*taken)
        return tg_error_set(err, TG_EPARSE, src, line,
                            "%s slot %d is used twice (first on line %ld)",
                            host, slot, *taken);
    *taken = line;
    r->task_line[task] = line;
    r->map[task].node = node;
    r->map[task].slot = slot;
    return 0;
}

/* Check that every task was seen, free the reader and hand the mapping
 * over (or free it when rc says the reading failed). */
static int map_close(map_read *r, int rc, gm_place **out, int *n_out,
                     tg_error *err)
{
    for (int t = 0; !rc && t < r->ntasks; t++)
        if (!r->task_line[t])
            rc = tg_error_set(err, TG_EPARSE, r->t.source, 0,
                              "%s %d is missing (%d %ss)", r->what, t,
                              r->ntasks, r->what);
    tg_text_free(&r->t);
    free(r->task_line);
    free(r->base);
    free(r->slot_line);
    if (rc) {
        free(r->map);
        return rc;
    }
    *out = r->map;
    if (n_out)
        *n_out = r->ntasks;
    return 0;
}

/* A file of one task per line, '#' comments: `line_fn` reads each line
 * (ntasks < 0: as many tasks as lines). */
static int read_lines(tg_text *text, const gm_machine *m, int ntasks,
                      const char *what,
                      int (*line_fn)(map_read *r, char *line, tg_error *err),
                      gm_place **out, int *n_out, tg_error *err)
{
    map_read r;
    map_open(&r, text, m, what);
    int rc = map_alloc(&r, ntasks < 0 ? count_lines(&r.t) : ntasks, err);
    char *line;
    while (!rc && (line = gm_text_line(&r.t)))
        rc = line_fn(&r, line, err);
    return map_close(&r, rc, out, n_out, err);
}

/* ---------------------------------------------- topomap's mapping file */

static int map_line(map_read *r, char *line, tg_error *err)
{
    static const char expect[] = "task host slot";
    const tg_text *t = &r->t;
    char *p = line;
    int task, slot;
    int rc = lex_int(t, &p, &task, "task", expect, err);
    if (rc)
        return rc;
    while (*p == ' ' || *p == '\t')
        p++;
    char *host = p;
    p += strcspn(p, " \t");
    if (*p)
        *p++ = '\0';
    if (!*host)
        return tg_error_set(err, TG_EPARSE, t->source, t->line,
                            "expected '%s'", expect);
    rc = lex_int(t, &p, &slot, "slot", expect, err);
    if (rc)
        return rc;
    if (!tg_lex_at_end(p))
        return tg_error_set(err, TG_EPARSE, t->source, t->line,
                            "extra text after '%s'", expect);
    return map_put(r, t->line, task, gm_machine_find(r->m, host), host, slot,
                   err);
}

static int read_path(const char *path, gm_map_format format, int by_node,
                     const gm_machine *m, int ntasks, gm_place **out,
                     int *n_out, tg_error *err);

int gm_mapping_read(const char *path, const gm_machine *m, int ntasks,
                    gm_place **out, int *n_out, tg_error *err)
{
    return read_path(path, GM_MAP_TOPOMAP, 0, m, ntasks, out, n_out, err);
}

/* ------------------------------------------------- Open MPI rankfile */

static char *skip_blanks(char *p)
{
    return p + strspn(p, " \t");
}

/* Cut "rank N=host slot=S" into its three values, in place.  Open MPI
 * allows blanks around the '=' signs. */
static int rank_fields(const tg_text *t, char *line, char **rank,
                       char **host, char **slot, tg_error *err)
{
    static const char expect[] = "rank N=host slot=S";
    char *p = skip_blanks(line);
    if (strncmp(p, "rank", 4) || (p[4] != ' ' && p[4] != '\t'))
        goto bad;
    *rank = p = skip_blanks(p + 4);
    p += strcspn(p, " \t=");
    char *cut = p;
    if (*(p = skip_blanks(p)) != '=')
        goto bad;
    *cut = '\0';
    *host = p = skip_blanks(p + 1);
    p += strcspn(p, " \t");
    cut = p;
    p = skip_blanks(p);
    if (cut == *host || strncmp(p, "slot", 4))
        goto bad;
    *cut = '\0';
    if (*(p = skip_blanks(p + 4)) != '=')
        goto bad;
    *slot = p = skip_blanks(p + 1);
    p += strcspn(p, " \t");
    if (p == *slot)
        goto bad;
    if (!tg_lex_at_end(p))
        return tg_error_set(err, TG_EPARSE, t->source, t->line,
                            "extra text after '%s'", expect);
    *p = '\0';
    return 0;
bad:
    return tg_error_set(err, TG_EPARSE, t->source, t->line,
                        "expected '%s'", expect);
}

/* The slot that is core `core` (logical, counted inside the package) of
 * package `pkg` of `node`, for Open MPI's "slot=SOCKET:CORE". */
static int socket_core_slot(const map_read *r, int node, int pkg, int core,
                            tg_error *err)
{
    const gm_machine *m = r->m;
    const tg_text *t = &r->t;
    if (!m->topo)
        return tg_error_set(err, TG_EPARSE, t->source, t->line,
                            "slot=%d:%d needs a node topology", pkg, core);
    if (m->slots[node] != m->topo->cores)
        return tg_error_set(err, TG_EPARSE, t->source, t->line,
                            "slot=%d:%d names a core, but the %d slots of "
                            "%s are not its %d cores",
                            pkg, core, m->slots[node], m->host[node],
                            m->topo->cores);
    int seen = 0;
    for (int s = 0; s < m->slots[node]; s++)
        if (gm_slot_package(m, node, s) == pkg && seen++ == core)
            return s;
    return tg_error_set(err, TG_EPARSE, t->source, t->line,
                        "%s has no core %d on socket %d (%d cores there)",
                        m->host[node], core, pkg, seen);
}

static int rank_line(map_read *r, char *line, tg_error *err)
{
    static const char expect[] = "rank N=host slot=S";
    const tg_text *t = &r->t;
    char *rank_s = NULL, *host = NULL, *slot_s = NULL;
    int rc = rank_fields(t, line, &rank_s, &host, &slot_s, err);
    if (rc)
        return rc;
    int rank, slot, pkg = -1;
    char *colon = strchr(slot_s, ':');
    if (colon) {
        *colon = '\0';
        char *core_s = colon + 1;
        if ((rc = lex_int(t, &slot_s, &pkg, "socket", expect, err)) ||
            (rc = lex_int(t, &core_s, &slot, "core", expect, err)))
            return rc;
    } else if ((rc = lex_int(t, &slot_s, &slot, "slot", expect, err))) {
        return rc;
    }
    if ((rc = lex_int(t, &rank_s, &rank, "rank", expect, err)))
        return rc;
    int node = gm_machine_find(r->m, host);
    if (node >= 0 && pkg >= 0 && rank < r->ntasks && !r->task_line[rank]) {
        slot = socket_core_slot(r, node, pkg, slot, err);
        if (slot < 0)
            return slot;
    }
    return map_put(r, t->line, rank, node, host, slot, err);
}

int gm_rankfile_read(const char *path, const gm_machine *m, int ntasks,
                     gm_place **out, int *n_out, tg_error *err)
{
    return read_path(path, GM_MAP_RANKFILE, 0, m, ntasks, out, n_out, err);
}

/* ------------------------------------------------------ Scotch .map */

/* One "label target" line. */
typedef struct scotch_entry {
    int label, target;
    long line;
} scotch_entry;

/* The count line, then every "label target" line into e[count]. */
static int scotch_lines(map_read *r, scotch_entry **e, int *count,
                        tg_error *err)
{
    static const char expect[] = "label target";
    tg_text *t = &r->t;
    int lines = count_lines(t); /* before tg_text_next cuts the buffer */
    /* tg_text_load refuses a blank file: there is a first line. */
    char *p = tg_text_next(t, NULL, 1);
    long count_line = t->line;
    int rc = lex_int(t, &p, count, "count", "count", err);
    if (rc)
        return rc;
    if (!tg_lex_at_end(p))
        return tg_error_set(err, TG_EPARSE, t->source, t->line,
                            "the first line is the count alone");
    /* The count may be anything: entries never outnumber the lines. */
    *e = malloc(((size_t)(*count < lines ? *count : lines) + 1) * sizeof **e);
    if (!*e)
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    int n = 0;
    while ((p = tg_text_next(t, NULL, 1))) {
        int label, target;
        if ((rc = lex_int(t, &p, &label, "label", expect, err)) ||
            (rc = lex_int(t, &p, &target, "target", expect, err)))
            return rc;
        if (!tg_lex_at_end(p))
            return tg_error_set(err, TG_EPARSE, t->source, t->line,
                                "extra text after '%s'", expect);
        if (n == *count)
            return tg_error_set(err, TG_EPARSE, t->source, t->line,
                                "more lines than the count (%d, line %ld)",
                                *count, count_line);
        (*e)[n++] = (scotch_entry){label, target, t->line};
    }
    if (n < *count)
        return tg_error_set(err, TG_EPARSE, t->source, count_line,
                            "the count is %d, but the file has %d lines",
                            *count, n);
    return 0;
}

/* Place the entries: labels from `base`, targets processors or nodes. */
static int scotch_place(map_read *r, scotch_entry *e, int count, int base,
                        int by_node, tg_error *err)
{
    const gm_machine *m = r->m;
    int64_t procs = r->base[m->n];
    /* Task order for by_node: entry of each task, -1 when none. */
    int *entry_of = malloc(((size_t)r->ntasks + 1) * sizeof *entry_of);
    int *used = calloc((size_t)m->n + 1, sizeof *used);
    int rc = 0;
    if (!entry_of || !used)
        rc = tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    for (int t = 0; !rc && t < r->ntasks; t++)
        entry_of[t] = -1;
    for (int i = 0; !rc && i < count; i++) {
        int64_t task = e[i].label - base, lim = by_node ? m->n : procs;
        if (e[i].target >= lim)
            rc = tg_error_set(err, TG_EPARSE, r->t.source, e[i].line,
                              "target %d is out of range (%lld %s)",
                              e[i].target, (long long)lim,
                              by_node ? "nodes" : "processors");
        else if (task < 0 || task >= r->ntasks)
            rc = tg_error_set(err, TG_EPARSE, r->t.source, e[i].line,
                              "label %d is out of range (%d tasks from %d)",
                              e[i].label, r->ntasks, base);
        else if (entry_of[task] >= 0)
            rc = tg_error_set(err, TG_EPARSE, r->t.source, e[i].line,
                              "label %d is mapped twice (first on line %ld)",
                              e[i].label, e[entry_of[task]].line);
        else
            entry_of[task] = i;
    }
    for (int t = 0; !rc && t < r->ntasks; t++) {
        if (entry_of[t] < 0)
            continue; /* map_close names it */
        const scotch_entry *x = &e[entry_of[t]];
        int node, slot;
        if (by_node) {
            node = (int)x->target;
            slot = used[node]++;
            if (slot == m->slots[node]) {
                rc = tg_error_set(err, TG_EPARSE, r->t.source, x->line,
                                  "node %d (%s) receives more than its %d "
                                  "slots",
                                  node, m->host[node], m->slots[node]);
                break;
            }
        } else {
            /* The node holding processor `target`: binary search. */
            int lo = 0, hi = m->n - 1;
            while (lo < hi) {
                int mid = lo + (hi - lo + 1) / 2;
                if (r->base[mid] <= x->target)
                    lo = mid;
                else
                    hi = mid - 1;
            }
            node = lo;
            slot = (int)(x->target - r->base[node]);
        }
        rc = map_put(r, x->line, t, node, m->host[node], slot, err);
    }
    free(entry_of);
    free(used);
    return rc;
}

static int scotch_read(tg_text *text, const gm_machine *m, int ntasks,
                       int by_node, gm_place **out, int *n_out,
                       tg_error *err)
{
    map_read r;
    map_open(&r, text, m, "task");
    scotch_entry *e = NULL;
    int count = 0;
    int rc = scotch_lines(&r, &e, &count, err);
    if (!rc) {
        /* Scotch writes vertex numbers from the graph's baseval: labels
         * run from 1 when none is 0 and one equals the task count. */
        int n = ntasks < 0 ? count : ntasks, has0 = 0, hasn = 0;
        for (int i = 0; i < count; i++) {
            has0 |= e[i].label == 0;
            hasn |= e[i].label == n;
        }
        rc = map_alloc(&r, n, err);
        if (!rc)
            rc = scotch_place(&r, e, count, !has0 && hasn, by_node, err);
    }
    free(e);
    return map_close(&r, rc, out, n_out, err);
}

int gm_scotch_map_read(const char *path, const gm_machine *m, int ntasks,
                       int by_node, gm_place **out, int *n_out,
                       tg_error *err)
{
    return read_path(path, GM_MAP_SCOTCH, by_node, m, ntasks, out, n_out,
                     err);
}

/* ------------------------------------- any format, the file read once */

struct gm_map_text {
    tg_text t; /* buf NULL once parsed */
};

/* The format the first line that is neither blank nor a '#' comment
 * suggests (the text is not changed). */
static gm_map_format guess_format(const tg_text *t)
{
    const char *p = t->buf, *end = t->buf + t->len;
    while (p < end) {
        p += strspn(p, " \t");
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (p == end || *p == '#' || *p == '\n' || *p == '\r') {
            p = nl ? nl + 1 : end;
            continue;
        }
        if (!strncmp(p, "rank", 4) && (p[4] == ' ' || p[4] == '\t'))
            return GM_MAP_RANKFILE;
        size_t digits = strspn(p, "0123456789");
        const char *q = p + digits;
        q += strspn(q, " \t\r");
        if (digits && (q == end || *q == '\n'))
            return GM_MAP_SCOTCH;
        return GM_MAP_TOPOMAP;
    }
    return GM_MAP_TOPOMAP;
}

int gm_map_text_load(const char *path, gm_map_text **out,
                     gm_map_format *guess, tg_error *err)
{
    gm_map_text *mt = calloc(1, sizeof *mt);
    if (!mt)
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    int rc = tg_text_load(&mt->t, path, err);
    if (rc) {
        free(mt);
        return rc;
    }
    if (guess)
        *guess = guess_format(&mt->t);
    *out = mt;
    return 0;
}

int gm_map_text_read(gm_map_text *mt, gm_map_format format, int by_node,
                     const gm_machine *m, int ntasks, gm_place **out,
                     int *n_out, tg_error *err)
{
    if (!mt->t.buf)
        return tg_error_set(err, TG_EINVAL, mt->t.source, 0,
                            "the mapping text was parsed already");
    switch (format) {
    case GM_MAP_TOPOMAP:
        return read_lines(&mt->t, m, ntasks, "task", map_line, out, n_out,
                          err);
    case GM_MAP_RANKFILE:
        return read_lines(&mt->t, m, ntasks, "rank", rank_line, out, n_out,
                          err);
    case GM_MAP_SCOTCH:
        return scotch_read(&mt->t, m, ntasks, by_node, out, n_out, err);
    }
    return tg_error_set(err, TG_EINVAL, NULL, 0,
                        "unknown mapping format %d", (int)format);
}

void gm_map_text_free(gm_map_text *mt)
{
    if (!mt)
        return;
    tg_text_free(&mt->t);
    free(mt);
}

static int read_path(const char *path, gm_map_format format, int by_node,
                     const gm_machine *m, int ntasks, gm_place **out,
                     int *n_out, tg_error *err)
{
    gm_map_text *mt;
    int rc = gm_map_text_load(path, &mt, NULL, err);
    if (rc)
        return rc;
    rc = gm_map_text_read(mt, format, by_node, m, ntasks, out, n_out, err);
    gm_map_text_free(mt);
    return rc;
}

/* Check, then write one line per task with `fmt` ("%d %s %d\n"). */
static const char mapping_header[] = "# topomap mapping: task node slot\n";

static void print_lines(FILE *fp, const gm_machine *m, const gm_place *map,
                        int n, const char *header, const char *fmt)
{
    if (header)
        fputs(header, fp);
    for (int t = 0; t < n; t++)
        fprintf(fp, fmt, t, m->host[map[t].node], map[t].slot);
}

int gm_mapping_write_files(const gm_machine *m, const gm_place *map, int n,
                           const char *mapping, const char *rankfile,
                           tg_error *err)
{
    int rc = gm_mapping_check(m, map, n, err);
    if (rc)
        return rc;
    const char *paths[2] = {mapping, rankfile};
    const char *headers[2] = {mapping_header, NULL};
    const char *fmts[2] = {"%d %s %d\n", "rank %d=%s slot=%d\n"};
    tg_out o[2];
    int k = 0;
    for (int i = 0; i < 2; i++) {
        if (!paths[i])
            continue;
        rc = tg_out_open(&o[k], paths[i], err);
        if (rc) {
            while (k > 0)
                tg_out_abort(&o[--k]);
            return rc;
        }
        print_lines(o[k].fp, m, map, n, headers[i], fmts[i]);
        k++;
    }
    return tg_out_commit_all(o, k, err);
}

int gm_mapping_write(const char *path, const gm_machine *m,
                     const gm_place *map, int n, tg_error *err)
{
    return gm_mapping_write_files(m, map, n, path, NULL, err);
}

int gm_rankfile_write(const char *path, const gm_machine *m,
                      const gm_place *map, int n, tg_error *err)
{
    return gm_mapping_write_files(m, map, n, NULL, path, err);
}

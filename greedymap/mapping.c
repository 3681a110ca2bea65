/* mapping.c: checking mappings; topomap's mapping file ("task host slot")
 * and the Open MPI rankfile. */
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

/* A token that must be a non-negative int. */
static int lex_int(const tg_text *t, char **p, int *v, const char *what,
                   tg_error *err)
{
    uint64_t x;
    int rc = tg_lex_u64(t, p, &x, what, err);
    if (rc == 0)
        return tg_error_set(err, TG_EPARSE, t->source, t->line,
                            "expected 'task host slot'");
    if (rc < 0)
        return rc;
    if (x > INT32_MAX)
        return tg_error_set(err, TG_EPARSE, t->source, t->line,
                            "%s %llu is too large", what,
                            (unsigned long long)x);
    *v = (int)x;
    return 0;
}

typedef struct map_read {
    tg_text t;
    const gm_machine *m;
    int ntasks;
    gm_place *map;
    long *task_line;  /* line of each task, 0 = not seen */
    int64_t *base;
    long *slot_line;  /* line that took each slot */
} map_read;

static int map_line(map_read *r, char *line, tg_error *err)
{
    const tg_text *t = &r->t;
    char *p = line;
    int task, slot;
    int rc = lex_int(t, &p, &task, "task", err);
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
                            "expected 'task host slot'");
    rc = lex_int(t, &p, &slot, "slot", err);
    if (rc)
        return rc;
    if (!tg_lex_at_end(p))
        return tg_error_set(err, TG_EPARSE, t->source, t->line,
                            "extra text after 'task host slot'");
    if (task >= r->ntasks)
        return tg_error_set(err, TG_EPARSE, t->source, t->line,
                            "task %d is out of range (%d tasks)", task,
                            r->ntasks);
    if (r->task_line[task])
        return tg_error_set(err, TG_EPARSE, t->source, t->line,
                            "task %d is mapped twice (first on line %ld)",
                            task, r->task_line[task]);
    int node = gm_machine_find(r->m, host);
    if (node < 0)
        return tg_error_set(err, TG_EPARSE, t->source, t->line,
                            "unknown host '%s'", host);
    if (slot >= r->m->slots[node])
        return tg_error_set(err, TG_EPARSE, t->source, t->line,
                            "slot %d is out of range: %s has %d slots", slot,
                            host, r->m->slots[node]);
    long *taken = &r->slot_line[r->base[node] + slot];
    if (*taken)
        return tg_error_set(err, TG_EPARSE, t->source, t->line,
                            "%s slot %d is used twice (first on line %ld)",
                            host, slot, *taken);
    *taken = t->line;
    r->task_line[task] = t->line;
    r->map[task].node = node;
    r->map[task].slot = slot;
    return 0;
}

static void map_read_free(map_read *r)
{
    tg_text_free(&r->t);
    free(r->task_line);
    free(r->base);
    free(r->slot_line);
}

int gm_mapping_read(const char *path, const gm_machine *m, int ntasks,
                    gm_place **out, int *n_out, tg_error *err)
{
    map_read r;
    memset(&r, 0, sizeof r);
    r.m = m;
    int rc = tg_text_load(&r.t, path, err);
    if (rc)
        return rc;
    r.ntasks = ntasks < 0 ? count_lines(&r.t) : ntasks;
    r.map = malloc(((size_t)r.ntasks + 1) * sizeof *r.map);
    r.task_line = calloc((size_t)r.ntasks + 1, sizeof *r.task_line);
    r.base = slot_base(m);
    r.slot_line = r.base ? calloc((size_t)r.base[m->n] + 1,
                                  sizeof *r.slot_line)
                         : NULL;
    if (!r.map || !r.task_line || !r.slot_line)
        rc = tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    char *line;
    while (!rc && (line = tg_text_next(&r.t, "#", 1)))
        rc = map_line(&r, line, err);
    for (int t = 0; !rc && t < r.ntasks; t++)
        if (!r.task_line[t])
            rc = tg_error_set(err, TG_EPARSE, path, 0,
                              "task %d is missing (%d tasks)", t, r.ntasks);
    map_read_free(&r);
    if (rc) {
        free(r.map);
        return rc;
    }
    *out = r.map;
    if (n_out)
        *n_out = r.ntasks;
    return 0;
}

/* Check, then write one line per task with `fmt` ("%d %s %d\n"). */
static int write_lines(const char *path, const gm_machine *m,
                       const gm_place *map, int n, const char *header,
                       const char *fmt, tg_error *err)
{
    int rc = gm_mapping_check(m, map, n, err);
    if (rc)
        return rc;
    tg_out o;
    rc = tg_out_open(&o, path, err);
    if (rc)
        return rc;
    if (header)
        fputs(header, o.fp);
    for (int t = 0; t < n; t++)
        fprintf(o.fp, fmt, t, m->host[map[t].node], map[t].slot);
    return tg_out_commit(&o, err);
}

int gm_mapping_write(const char *path, const gm_machine *m,
                     const gm_place *map, int n, tg_error *err)
{
    return write_lines(path, m, map, n, "# topomap mapping: task node slot\n",
                       "%d %s %d\n", err);
}

int gm_rankfile_write(const char *path, const gm_machine *m,
                      const gm_place *map, int n, tg_error *err)
{
    return write_lines(path, m, map, n, NULL, "rank %d=%s slot=%d\n", err);
}

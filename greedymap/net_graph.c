/* net_graph.c: networks from an edge list ("a b" per link, "nodes NAME..."
 * for the hosts; '#' starts a comment anywhere on a line). */
#include <stdlib.h>
#include <string.h>

#include "gm_internal.h"

/* The next blank-separated token, NUL-terminated in place; NULL at end. */
static char *token(char **p)
{
    char *s = *p;
    while (*s == ' ' || *s == '\t')
        s++;
    if (!*s)
        return NULL;
    char *e = s;
    while (*e && *e != ' ' && *e != '\t')
        e++;
    *p = *e ? e + 1 : e;
    *e = '\0';
    return s;
}

static int parse_line(gm_xbuild *b, const tg_text *t, char *line,
                      tg_error *err)
{
    char *p = line;
    char *a = token(&p);
    if (strcmp(a, "nodes") == 0) {
        for (char *h; (h = token(&p));) {
            int v = gm_xbuild_vertex(b, h, NULL, err);
            if (v < 0)
                return v;
            int rc = gm_xbuild_host(b, v, err);
            if (rc)
                return rc;
        }
        return 0;
    }
    char *c = token(&p);
    if (!c || token(&p))
        return tg_error_set(err, TG_EPARSE, t->source, t->line,
                            "expected 'a b' (one link) or 'nodes NAME...'");
    if (strcmp(a, c) == 0)
        return tg_error_set(err, TG_EPARSE, t->source, t->line,
                            "a link from '%s' to itself", a);
    int va = gm_xbuild_vertex(b, a, NULL, err);
    if (va < 0)
        return va;
    int vc = gm_xbuild_vertex(b, c, NULL, err);
    if (vc < 0)
        return vc;
    return gm_xbuild_link(b, va, vc, err);
}

int gm_graph_read(const char *path, gm_xgraph **out, tg_error *err)
{
    tg_text t;
    int rc = tg_text_load(&t, path, err);
    if (rc)
        return rc;
    gm_xbuild b;
    rc = gm_xbuild_init(&b, path, 0);
    if (rc)
        tg_error_set(err, rc, NULL, 0, "out of memory");
    char *line;
    while (!rc && (line = gm_text_line(&t)))
        rc = parse_line(&b, &t, line, err);
    if (!rc && b.x->nhosts == 0)
        rc = tg_error_set(err, TG_EPARSE, path, 0,
                          "no hosts: declare them with 'nodes NAME...'");
    if (!rc)
        rc = gm_xbuild_finish(&b, out, err);
    else
        gm_xbuild_abort(&b);
    tg_text_free(&t);
    return rc;
}

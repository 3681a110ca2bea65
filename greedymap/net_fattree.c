/* net_fattree.c: fat-trees from a Slurm topology.conf ("SwitchName=s0
 * Nodes=n[0-15]", "SwitchName=s9 Switches=s[0-3]"). */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gm_internal.h"

typedef struct ft_parse {
    gm_xbuild b;
    tg_text t;
    gm_strmap defined;    /* switch name -> line of its SwitchName= */
    gm_strmap referenced; /* child switch name -> first line naming it */
    int sw;               /* the switch of the current line */
    long long listed;     /* names the Nodes= and Switches= lists gave */
    tg_error *err;
} ft_parse;

static int is_switch(const ft_parse *p, const char *name)
{
    return gm_strmap_get(&p->defined, name) >= 0 ||
           gm_strmap_get(&p->referenced, name) >= 0;
}

static int add_node(void *arg, const char *name)
{
    ft_parse *p = arg;
    if (is_switch(p, name))
        return tg_error_set(p->err, TG_EPARSE, p->t.source, p->t.line,
                            "'%s' is a switch, not a node", name);
    int v = gm_xbuild_vertex(&p->b, name, NULL, p->err);
    if (v < 0)
        return v;
    int rc = gm_xbuild_host(&p->b, v, p->err);
    return rc ? rc : gm_xbuild_link(&p->b, v, p->sw, p->err);
}

static int add_child(void *arg, const char *name)
{
    ft_parse *p = arg;
    int v = gm_xbuild_vertex(&p->b, name, NULL, p->err);
    if (v < 0)
        return v;
    if (p->b.x->host_of[v] >= 0)
        return tg_error_set(p->err, TG_EPARSE, p->t.source, p->t.line,
                            "'%s' is a node, not a switch", name);
    if (v == p->sw)
        return tg_error_set(p->err, TG_EPARSE, p->t.source, p->t.line,
                            "switch '%s' lists itself", name);
    /* The key is the vertex's own copy of the name, which lives on. */
    if (gm_strmap_put(&p->referenced, p->b.x->names[v], (int)p->t.line) <
        -1)
        return tg_error_set(p->err, TG_ENOMEM, NULL, 0, "out of memory");
    return gm_xbuild_link(&p->b, v, p->sw, p->err);
}

static int expand(ft_parse *p, const char *key, const char *list,
                  int (*fn)(void *, const char *))
{
    char why[512] = "";
    /* Each list is bounded by itself; the names that all the file's lists
     * expand to are bounded in the same way, so that many short lines
     * cannot add up to millions. */
    long long n = gm_hostlist_count(list, GM_HOSTLIST_MAX + 1LL);
    if (n >= 0 && n <= GM_HOSTLIST_MAX) {
        if (n + p->listed > GM_HOSTLIST_MAX)
            return tg_error_set(p->err, TG_EPARSE, p->t.source, p->t.line,
                                "%s=%.200s takes the names listed in the "
                                "file to %lld, more than the limit of %d",
                                key, list, n + p->listed, GM_HOSTLIST_MAX);
        p->listed += n;
    }
    int rc = gm_hostlist_expand(key, fn == add_node ? "hosts" : "switches",
                                list, fn, p, why, sizeof why);
    if (rc == TG_EPARSE && why[0])
        return tg_error_set(p->err, rc, p->t.source, p->t.line, "%s", why);
    return rc;
}

/* "SwitchName=X" first, then Nodes= / Switches= / LinkSpeed=. */
static int parse_line(ft_parse *p, char *line)
{
    const char *nodes = NULL, *switches = NULL, *name = NULL;
    for (char *tok = strtok(line, " \t"); tok; tok = strtok(NULL, " \t")) {
        char *eq = strchr(tok, '=');
        if (!eq || eq[1] == '\0')
            return tg_error_set(p->err, TG_EPARSE, p->t.source, p->t.line,
                                "expected KEY=VALUE, got '%.40s'", tok);
        *eq = '\0';
        const char *val = eq + 1;
        if (strcasecmp(tok, "SwitchName") == 0 && !name)
            name = val;
        else if (strcasecmp(tok, "Nodes") == 0 && !nodes)
            nodes = val;
        else if (strcasecmp(tok, "Switches") == 0 && !switches)
            switches = val;
        else if (strcasecmp(tok, "LinkSpeed") != 0)
            return tg_error_set(p->err, TG_EPARSE, p->t.source, p->t.line,
                                "unknown or repeated key '%.40s'", tok);
    }
    if (!name)
        return tg_error_set(p->err, TG_EPARSE, p->t.source, p->t.line,
                            "a line needs SwitchName=");
    int created;
    int sw = gm_xbuild_vertex(&p->b, name, &created, p->err);
    if (sw < 0)
        return sw;
    if (p->b.x->host_of[sw] >= 0)
        return tg_error_set(p->err, TG_EPARSE, p->t.source, p->t.line,
                            "'%s' is a node, not a switch", name);
    if (gm_strmap_get(&p->defined, name) >= 0)
        return tg_error_set(p->err, TG_EPARSE, p->t.source, p->t.line,
                            "switch '%s' defined twice (first on line %d)",
                            name, gm_strmap_get(&p->defined, name));
    if (gm_strmap_put(&p->defined, p->b.x->names[sw], (int)p->t.line) < -1)
        return tg_error_set(p->err, TG_ENOMEM, NULL, 0, "out of memory");
    p->sw = sw;
    int rc = nodes ? expand(p, "Nodes", nodes, add_node) : 0;
    return rc ? rc : switches ? expand(p, "Switches", switches, add_child) : 0;
}

/* Every switch named as a child must be defined somewhere. */
static int check_defined(ft_parse *p)
{
    const gm_strmap *r = &p->referenced;
    long first = 0;
    const char *bad = NULL;
    for (size_t i = 0; i < r->cap; i++)
        if (r->keys[i] && gm_strmap_get(&p->defined, r->keys[i]) < 0 &&
            (!bad || r->vals[i] < first)) {
            bad = r->keys[i];
            first = r->vals[i];
        }
    if (bad)
        return tg_error_set(p->err, TG_EPARSE, p->t.source, first,
                            "switch '%s' is never defined", bad);
    if (p->b.x->nhosts == 0)
        return tg_error_set(p->err, TG_EPARSE, p->t.source, 0,
                            "no nodes in the topology");
    return 0;
}

int gm_fattree_read(const char *path, gm_xgraph **out, tg_error *err)
{
    ft_parse p;
    memset(&p, 0, sizeof p);
    p.err = err;
    int rc = tg_text_load(&p.t, path, err);
    if (rc)
        return rc;
    rc = gm_xbuild_init(&p.b, path, 1);
    if (rc)
        tg_error_set(err, rc, NULL, 0, "out of memory");
    char *line;
    while (!rc && (line = gm_text_line(&p.t)))
        rc = parse_line(&p, line);
    if (!rc)
        rc = check_defined(&p);
    if (!rc)
        rc = gm_xbuild_finish(&p.b, out, err);
    else
        gm_xbuild_abort(&p.b);
    gm_strmap_free(&p.defined);
    gm_strmap_free(&p.referenced);
    tg_text_free(&p.t);
    return rc;
}

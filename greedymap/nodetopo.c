/* nodetopo.c: the intra-node structure of the machine's nodes, read with
 * hwloc from a synthetic description or an XML file, and the package
 * (socket) of every slot. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hwloc.h>

#include "gm_internal.h"

void gm_nodetopo_free(gm_nodetopo *t)
{
    if (!t)
        return;
    free(t->spec);
    free(t->core_pkg);
    free(t->pu_pkg);
    free(t);
}

/* Package logical index of every object of `type`, in logical order; 0
 * for all when the topology has no package level. */
static int *packages_of(hwloc_topology_t topo, hwloc_obj_type_t type,
                        int count)
{
    int *pkg = malloc((size_t)(count ? count : 1) * sizeof *pkg);
    if (!pkg)
        return NULL;
    for (int i = 0; i < count; i++) {
        hwloc_obj_t o = hwloc_get_obj_by_type(topo, type, (unsigned)i);
        hwloc_obj_t p =
            hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_PACKAGE, o);
        pkg[i] = p ? (int)p->logical_index : 0;
    }
    return pkg;
}

/* A readable file is an XML topology; anything else a synthetic string.
 * hwloc's messages go to stderr only when asked, so errors say which of
 * the two readings failed. */
static int load(hwloc_topology_t topo, const char *spec, tg_error *err)
{
    FILE *fp = fopen(spec, "r");
    if (fp) {
        fclose(fp);
        if (hwloc_topology_set_xml(topo, spec) < 0 ||
            hwloc_topology_load(topo) < 0)
            return tg_error_set(err, TG_EPARSE, spec, 0,
                                "not an hwloc XML topology");
        return 0;
    }
    int open_errno = errno;
    if (hwloc_topology_set_synthetic(topo, spec) < 0 ||
        hwloc_topology_load(topo) < 0) {
        if (strchr(spec, '/') || strstr(spec, ".xml"))
            return tg_error_set(err, TG_EIO, spec, 0,
                                "cannot read node topology file: %s",
                                strerror(open_errno));
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "node topology '%s' is neither a readable XML "
                            "file nor an hwloc synthetic description such "
                            "as \"pack:2 core:16 pu:1\"",
                            spec);
    }
    return 0;
}

/* Every node's slots must be its cores or its PUs. */
static int check_slots(const gm_machine *m, const gm_nodetopo *t,
                       tg_error *err)
{
    for (int i = 0; i < m->n; i++)
        if (m->slots[i] != t->cores && m->slots[i] != t->pus)
            return tg_error_set(err, TG_EINVAL, NULL, 0,
                                "node '%s' has %d slots but node topology "
                                "'%s' has %d cores and %d PUs",
                                m->host[i], m->slots[i], t->spec, t->cores,
                                t->pus);
    return 0;
}

int gm_machine_set_node_topology(gm_machine *m, const char *spec,
                                 tg_error *err)
{
    hwloc_topology_t topo;
    if (hwloc_topology_init(&topo) < 0)
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    int rc = load(topo, spec, err);
    gm_nodetopo *t = NULL;
    if (!rc) {
        t = calloc(1, sizeof *t);
        if (t) {
            t->cores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
            t->pus = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
            t->spec = strdup(spec);
            t->core_pkg = packages_of(topo, HWLOC_OBJ_CORE, t->cores);
            t->pu_pkg = packages_of(topo, HWLOC_OBJ_PU, t->pus);
        }
        if (!t || !t->spec || !t->core_pkg || !t->pu_pkg)
            rc = tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    }
    hwloc_topology_destroy(topo);
    if (!rc)
        rc = check_slots(m, t, err);
    if (rc) {
        gm_nodetopo_free(t);
        return rc;
    }
    gm_nodetopo_free(m->topo);
    m->topo = t;
    return 0;
}

const char *gm_machine_node_topology(const gm_machine *m)
{
    return m->topo ? m->topo->spec : NULL;
}

int gm_slot_package(const gm_machine *m, int node, int slot)
{
    const gm_nodetopo *t = m->topo;
    if (!t)
        return -1;
    return m->slots[node] == t->cores ? t->core_pkg[slot] : t->pu_pkg[slot];
}

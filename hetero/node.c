/* node.c: what one node has, from hwloc: cores and packages, GPUs (CUDA or
 * NVML OS devices, one per PCI device), NUMA nodes with their kind,
 * capacity, bandwidth and latency; and the calibration that fills what
 * hwloc does not know. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "ht_internal.h"

static int nomem(tg_error *err, const char *source)
{
    return tg_error_set(err, TG_ENOMEM, source, 0, "out of memory");
}

void ht_node_free(ht_node *n)
{
    if (!n)
        return;
    for (int i = 0; i < n->ncores; i++)
        hwloc_bitmap_free(n->core[i]);
    for (int i = 0; i < n->nnuma; i++)
        hwloc_bitmap_free(n->numa[i].cpuset);
    for (int i = 0; i < n->ngpus; i++)
        hwloc_bitmap_free(n->gpus[i].cpuset);
    free(n->core);
    free(n->core_package);
    free(n->numa);
    free(n->gpus);
    if (n->topo)
        hwloc_topology_destroy(n->topo);
    free(n);
}

/* Logical index of the package o is in (o itself included), or -1. */
static int package_of(hwloc_topology_t t, hwloc_obj_t o)
{
    if (o->type == HWLOC_OBJ_PACKAGE)
        return (int)o->logical_index;
    hwloc_obj_t p = hwloc_get_ancestor_obj_by_type(t, HWLOC_OBJ_PACKAGE, o);
    return p ? (int)p->logical_index : -1;
}

/* Objects of a type (hwloc says -1 for types at several depths, which
 * none of these are). */
static int count(hwloc_topology_t t, hwloc_obj_type_t type)
{
    int n = hwloc_get_nbobjs_by_type(t, type);
    return n > 0 ? n : 0;
}

static int load_cores(ht_node *n, tg_error *err, const char *src)
{
    hwloc_topology_t t = n->topo;
    hwloc_obj_type_t type = HWLOC_OBJ_CORE;
    if (hwloc_get_type_depth(t, HWLOC_OBJ_CORE) == HWLOC_TYPE_DEPTH_UNKNOWN)
        type = HWLOC_OBJ_PU; /* e.g. synthetic "node:4 pu:2" */
    n->npackages = count(t, HWLOC_OBJ_PACKAGE);
    n->npus = count(t, HWLOC_OBJ_PU);
    n->ncores = count(t, type);
    n->core = calloc((size_t)n->ncores + 1, sizeof *n->core);
    n->core_package = calloc((size_t)n->ncores + 1, sizeof *n->core_package);
    if (!n->core || !n->core_package)
        return nomem(err, src);
    for (int i = 0; i < n->ncores; i++) {
        hwloc_obj_t o = hwloc_get_obj_by_type(t, type, (unsigned)i);
        if (!(n->core[i] = hwloc_bitmap_dup(o->cpuset)))
            return nomem(err, src);
        n->core_package[i] = package_of(t, o);
    }
    return 0;
}

/* The kind of a NUMA node from hwloc's subtype ("MCDRAM" on KNL; "HBM",
 * "SPM", "NVM", "GPUMemory", "CXL-DRAM" from hwloc's memory tiers) or,
 * for DAX-backed nodes, their DAXType.  SPM (specific-purpose memory) is
 * usually HBM, as hwloc's documentation says. */
static ht_memkind numa_kind(hwloc_obj_t o)
{
    const char *k = o->subtype;
    if (!k)
        k = hwloc_obj_get_info_by_name(o, "DAXType");
    if (!k)
        return HT_MEM_DRAM;
    if (!strncasecmp(k, "CXL", 3))
        return HT_MEM_CXL;
    if (!strcasecmp(k, "MCDRAM") || !strncasecmp(k, "HBM", 3) ||
        !strcasecmp(k, "SPM"))
        return HT_MEM_HBM;
    if (!strcasecmp(k, "NVM"))
        return HT_MEM_NVM;
    if (!strcasecmp(k, "GPUMemory"))
        return HT_MEM_GPUNUMA;
    return HT_MEM_DRAM;
}

/* A memory attribute of node o as seen from the CPUs local to it. */
static int local_memattr(hwloc_topology_t t, hwloc_memattr_id_t id,
                         hwloc_obj_t o, double *v)
{
    struct hwloc_location loc;
    loc.type = HWLOC_LOCATION_TYPE_CPUSET;
    loc.location.cpuset = o->cpuset;
    hwloc_uint64_t x;
    if (hwloc_memattr_get_value(t, id, o, &loc, 0, &x) != 0)
        return 0;
    *v = (double)x;
    return 1;
}

static int load_numa(ht_node *n, tg_error *err, const char *src)
{
    hwloc_topology_t t = n->topo;
    n->nnuma = count(t, HWLOC_OBJ_NUMANODE);
    n->numa = calloc((size_t)n->nnuma + 1, sizeof *n->numa);
    if (!n->numa)
        return nomem(err, src);
    for (int i = 0; i < n->nnuma; i++) {
        hwloc_obj_t o =
            hwloc_get_obj_by_type(t, HWLOC_OBJ_NUMANODE, (unsigned)i);
        ht_numa *m = &n->numa[i];
        m->os_index = o->os_index;
        m->kind = numa_kind(o);
        snprintf(m->subtype, sizeof m->subtype, "%s",
                 o->subtype ? o->subtype : "");
        m->capacity = o->attr->numanode.local_memory;
        if (local_memattr(t, HWLOC_MEMATTR_ID_BANDWIDTH, o, &m->bandwidth))
            m->bandwidth_src = HT_SRC_HWLOC;
        if (local_memattr(t, HWLOC_MEMATTR_ID_LATENCY, o, &m->latency))
            m->latency_src = HT_SRC_HWLOC;
        if (!(m->cpuset = hwloc_bitmap_dup(o->cpuset)))
            return nomem(err, src);
        m->package = package_of(t, o);
    }
    return 0;
}

static int is_gpu_osdev(hwloc_obj_t o)
{
    hwloc_obj_osdev_type_t k = o->attr->osdev.type;
    return (k == HWLOC_OBJ_OSDEV_GPU || k == HWLOC_OBJ_OSDEV_COPROC) &&
           o->name &&
           (!strncmp(o->name, "cuda", 4) || !strncmp(o->name, "nvml", 4));
}

/* The DRAM node nearest to a GPU whose non-I/O ancestor is `anc`: one of
 * exactly its locality first, then of larger, then of smaller locality;
 * any CPU-usable kind when there is no DRAM. */
static int gpu_numa(const ht_node *n, hwloc_obj_t anc)
{
    static const unsigned long flags[] = {
        0, HWLOC_LOCAL_NUMANODE_FLAG_LARGER_LOCALITY,
        HWLOC_LOCAL_NUMANODE_FLAG_SMALLER_LOCALITY};
    hwloc_obj_t nodes[64];
    struct hwloc_location loc;
    loc.type = HWLOC_LOCATION_TYPE_OBJECT;
    loc.location.object = anc;
    for (int want_dram = 1; want_dram >= 0; want_dram--)
        for (int f = 0; f < 3; f++) {
            unsigned nr = 64;
            if (hwloc_get_local_numanode_objs(n->topo, &loc, &nr, nodes,
                                              flags[f]) != 0)
                continue;
            for (unsigned i = 0; i < nr && i < 64; i++) {
                const ht_numa *m = &n->numa[nodes[i]->logical_index];
                if (want_dram ? m->kind == HT_MEM_DRAM
                              : m->kind != HT_MEM_GPUNUMA)
                    return (int)nodes[i]->logical_index;
            }
        }
    return -1;
}

static void gpu_info(ht_gpu *g, hwloc_obj_t o)
{
    const char *uuid = hwloc_obj_get_info_by_name(o, "NVIDIAUUID");
    const char *model = hwloc_obj_get_info_by_name(o, "GPUModel");
    const char *mem = hwloc_obj_get_info_by_name(o, "CUDAGlobalMemorySize");
    if (uuid && !g->uuid[0])
        snprintf(g->uuid, sizeof g->uuid, "%s", uuid);
    if (model && !g->model[0])
        snprintf(g->model, sizeof g->model, "%s", model);
    if (mem && !g->memory) { /* KiB */
        g->memory = strtoull(mem, NULL, 10) * 1024;
        g->memory_src = g->memory ? HT_SRC_HWLOC : HT_SRC_NONE;
    }
}

static int by_busid(const void *a, const void *b)
{
    return strcmp(((const ht_gpu *)a)->busid, ((const ht_gpu *)b)->busid);
}

/* One GPU per PCI device (cuda0, nvml0 and opencl0d0 are one board). */
static int load_gpus(ht_node *n, tg_error *err, const char *src)
{
    hwloc_topology_t t = n->topo;
    int cap = 0;
    hwloc_obj_t *key = NULL;
    for (hwloc_obj_t o = NULL; (o = hwloc_get_next_osdev(t, o));) {
        const char *sub = o->subtype;
        if (sub && !strcmp(sub, "CXLMem")) {
            const char *ram = hwloc_obj_get_info_by_name(o, "CXLRAMSize");
            const char *pm = hwloc_obj_get_info_by_name(o, "CXLPMEMSize");
            n->ncxl_devices++;
            n->cxl_device_bytes += 1024 * ((ram ? strtoull(ram, NULL, 10) : 0) +
                                           (pm ? strtoull(pm, NULL, 10) : 0));
        }
        if (!is_gpu_osdev(o))
            continue;
        hwloc_obj_t pci = o->parent && o->parent->type == HWLOC_OBJ_PCI_DEVICE
                              ? o->parent
                              : o;
        int i = 0;
        while (i < n->ngpus && key[i] != pci)
            i++;
        if (i == n->ngpus) {
            if (n->ngpus == cap) {
                cap = cap ? 2 * cap : 8;
                hwloc_obj_t *k = realloc(key, (size_t)cap * sizeof *k);
                ht_gpu *g = realloc(n->gpus, (size_t)cap * sizeof *g);
                if (k)
                    key = k;
                if (g)
                    n->gpus = g;
                if (!k || !g) {
                    free(key);
                    return nomem(err, src);
                }
            }
            ht_gpu *g = &n->gpus[n->ngpus];
            memset(g, 0, sizeof *g);
            key[n->ngpus++] = pci;
            snprintf(g->name, sizeof g->name, "%s", o->name);
            if (pci != o) {
                struct hwloc_pcidev_attr_s *a = &pci->attr->pcidev;
                snprintf(g->busid, sizeof g->busid, "%04x:%02x:%02x.%01x",
                         a->domain, a->bus, a->dev, a->func);
            }
            hwloc_obj_t anc = hwloc_get_non_io_ancestor_obj(t, o);
            g->package = package_of(t, anc);
            g->numa = gpu_numa(n, anc);
            if (!(g->cpuset = hwloc_bitmap_dup(anc->cpuset))) {
                free(key);
                return nomem(err, src);
            }
        }
        gpu_info(&n->gpus[i], o);
    }
    free(key);
    if (n->ngpus)
        qsort(n->gpus, (size_t)n->ngpus, sizeof *n->gpus, by_busid);
    return 0;
}

int ht_node_load(const char *spec, ht_node **out, tg_error *err)
{
    const char *src = spec ? spec : "this host";
    ht_node *n = calloc(1, sizeof *n);
    if (!n || hwloc_topology_init(&n->topo)) {
        free(n);
        return nomem(err, src);
    }
    hwloc_topology_set_io_types_filter(n->topo,
                                       HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
    int rc = 0;
    struct stat st;
    if (spec && stat(spec, &st) == 0) {
        if (hwloc_topology_set_xml(n->topo, spec))
            rc = tg_error_set(err, TG_EPARSE, spec, 0,
                              "not an hwloc XML topology");
    } else if (spec && tg_synthetic_check(spec, "topology", err)) {
        rc = TG_EINVAL;
    } else if (spec && hwloc_topology_set_synthetic(n->topo, spec)) {
        rc = tg_error_set(err, TG_EINVAL, NULL, 0,
                          "'%s' is neither a file nor an hwloc synthetic "
                          "description",
                          spec);
    }
    if (!rc && hwloc_topology_load(n->topo))
        rc = tg_error_set(err, TG_EPARSE, spec, 0,
                          "hwloc could not load the topology");
    if (!rc) {
        const char *h =
            hwloc_obj_get_info_by_name(hwloc_get_root_obj(n->topo), "HostName");
        snprintf(n->host, sizeof n->host, "%s", h ? h : "");
        rc = load_cores(n, err, src);
    }
    if (!rc)
        rc = load_numa(n, err, src);
    if (!rc)
        rc = load_gpus(n, err, src);
    if (rc) {
        ht_node_free(n);
        return rc;
    }
    *out = n;
    return 0;
}

int ht_node_find_gpu(const ht_node *n, const char *busid)
{
    for (int i = 0; i < n->ngpus; i++)
        if (!strcasecmp(n->gpus[i].busid, busid))
            return i;
    return -1;
}

int ht_node_find_numa(const ht_node *n, unsigned os_index)
{
    for (int i = 0; i < n->nnuma; i++)
        if (n->numa[i].os_index == os_index)
            return i;
    return -1;
}

/* The slower of two directions, either of which may be unknown (0). */
static double slower(double a, double b)
{
    if (a <= 0)
        return b;
    if (b <= 0)
        return a;
    return a < b ? a : b;
}

int ht_node_calibrate(ht_node *n, const ht_memcal *cal, const char *source,
                      tg_error *err)
{
    for (int i = 0; i < cal->nnuma; i++) {
        const ht_memcal_numa *c = &cal->numa[i];
        int k = ht_node_find_numa(n, c->os_index);
        if (k < 0)
            return tg_error_set(err, TG_EINVAL, source, 0,
                                "calibrated NUMA node %u is not on this node",
                                c->os_index);
        ht_numa *m = &n->numa[k];
        if (m->bandwidth_src == HT_SRC_NONE && c->bandwidth > 0) {
            m->bandwidth = c->bandwidth;
            m->bandwidth_src = HT_SRC_CALIBRATION;
        }
        if (m->latency_src == HT_SRC_NONE && c->latency > 0) {
            m->latency = c->latency;
            m->latency_src = HT_SRC_CALIBRATION;
        }
    }
    for (int i = 0; i < cal->ngpus; i++) {
        const ht_memcal_gpu *c = &cal->gpus[i];
        int k = ht_node_find_gpu(n, c->busid);
        if (k < 0)
            return tg_error_set(err, TG_EINVAL, source, 0,
                                "calibrated GPU %s is not on this node",
                                c->busid);
        ht_gpu *g = &n->gpus[k];
        if (!g->memory && c->memory) {
            g->memory = c->memory;
            g->memory_src = HT_SRC_CALIBRATION;
        }
        if (!g->uuid[0])
            snprintf(g->uuid, sizeof g->uuid, "%s", c->uuid);
        g->bw_device = c->device;
        g->bw_pinned = c->pinned;
        g->bw_managed = c->managed;
        g->bw_copy_pageable = slower(c->h2d_pageable, c->d2h_pageable);
        g->bw_copy_pinned = slower(c->h2d_pinned, c->d2h_pinned);
        g->lat_copy_pageable = c->lat_pageable;
        g->lat_copy_pinned = c->lat_pinned;
    }
    return 0;
}

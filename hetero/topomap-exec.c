/* topomap-exec.c: apply this rank's entry of a placement file, then exec
 * the application: CUDA_DEVICE_ORDER and CUDA_VISIBLE_DEVICES, core and
 * memory binding with hwloc, TOPOMAP_PROC_KIND and TOPOMAP_MEM_KIND.
 *
 *   mpirun --rankfile rf topomap-exec placement.json -- ./app args
 *
 * Anything that does not match (no entry for this host and local rank, a
 * global rank that differs, cores, NUMA nodes or a GPU this machine does
 * not have, a bus id where this machine has no GPU) is an error: the
 * application never runs on a silent default. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli.h"
#include "config.h"
#include "hetero.h"

static const char help[] =
    "usage: topomap-exec [-v] [--dry-run] PLACEMENT -- PROGRAM [ARGS...]\n"
    "\n"
    "Find this process's entry in PLACEMENT (format topomap-placement) by\n"
    "host name and local rank, apply it and exec PROGRAM:\n"
    "  CUDA_DEVICE_ORDER=PCI_BUS_ID, CUDA_VISIBLE_DEVICES=this machine's GPU\n"
    "  at the entry's bus id (its UUID as hwloc here knows it, else its\n"
    "  index in PCI order; empty for a CPU rank), cores bound with\n"
    "  hwloc, memory bound to the entry's NUMA nodes with its policy,\n"
    "  TOPOMAP_PROC_KIND (cpu, gpu) and TOPOMAP_MEM_KIND (device, pinned,\n"
    "  managed, dram, hbm, cxl, nvm).\n"
    "The local rank comes from OMPI_COMM_WORLD_LOCAL_RANK, SLURM_LOCALID,\n"
    "PMI_LOCAL_RANK or FLUX_TASK_LOCAL_ID, the first one set; the global\n"
    "rank, when OMPI_COMM_WORLD_RANK, SLURM_PROCID, PMI_RANK or\n"
    "FLUX_TASK_RANK is set, must be the entry's.  With no local rank set\n"
    "(MPICH's Hydra sets only PMI_RANK) the entry is the global rank's,\n"
    "and its host must be this one.\n"
    "\n"
    "  -v, --verbose   say what is applied, on stderr\n"
    "      --dry-run   print what would be applied and exit\n"
    "  -h, --help, --version\n"
    "Exit status: 1 for a placement that does not apply, 2 for bad usage,\n"
    "126 or 127 when PROGRAM cannot be run.  man topomap-exec.\n";

enum { OPT_DRY = 256, OPT_VERSION };

static const struct option longopts[] = {
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, OPT_VERSION},
    {"verbose", no_argument, NULL, 'v'},
    {"dry-run", no_argument, NULL, OPT_DRY},
    {NULL, 0, NULL, 0}};

static int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int fail(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "topomap-exec: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return CLI_EXIT_FAIL;
}

/* The first of `names` that is set, its name in *which; -1 when none is,
 * -2 when it is not a number >= 0. */
static long env_rank(const char *const *names, const char **which)
{
    for (; *names; names++) {
        const char *v = getenv(*names);
        if (!v)
            continue;
        *which = *names;
        char *end;
        errno = 0;
        long x = strtol(v, &end, 10);
        if (!*v || *end || errno || x < 0 || x > INT_MAX)
            return -2;
        return x;
    }
    return -1;
}

/* Who this process is, as the launcher's variables and the host name
 * say: what its entry must match.  Read before the placement, so that
 * only that entry's lists become bitmaps (ht_placement_read_some);
 * find_entry says what is wrong with it, after the file is read. */
typedef struct whoami {
    char host[HOST_NAME_MAX + 1];
    int host_errno;        /* of gethostname, 0 when host is known */
    const char *lvar;      /* the local rank's variable, NULL when none */
    const char *rvar;      /* the global rank's */
    long local, rank;      /* env_rank's: -1 when not set, -2 malformed */
    const ht_entry *entry; /* the first entry that matches, once read */
} whoami;

static void who(whoami *w)
{
    static const char *const local_vars[] = {"OMPI_COMM_WORLD_LOCAL_RANK",
                                             "SLURM_LOCALID", "PMI_LOCAL_RANK",
                                             "FLUX_TASK_LOCAL_ID", NULL};
    static const char *const rank_vars[] = {"OMPI_COMM_WORLD_RANK",
                                            "SLURM_PROCID", "PMI_RANK",
                                            "FLUX_TASK_RANK", NULL};
    memset(w, 0, sizeof *w);
    w->local = env_rank(local_vars, &w->lvar);
    w->rank = env_rank(rank_vars, &w->rvar);
    if (gethostname(w->host, sizeof w->host) != 0)
        w->host_errno = errno ? errno : EINVAL;
    w->host[HOST_NAME_MAX] = '\0';
}

/* ht_entry_keep: the first entry of this host and local rank or, with no
 * local rank set (MPICH's Hydra sets only PMI_RANK: its MPI_LOCALRANKID
 * counts a proxy's processes, and a node has one proxy per run of its
 * lines in the machinefile), of the global rank; the one find_entry
 * applies. */
static int mine(const ht_entry *e, void *arg)
{
    whoami *w = arg;
    if (w->entry || w->host_errno || w->local == -2)
        return 0;
    if (w->local >= 0
            ? e->local_rank == w->local && ht_host_match(e->host, w->host)
            : w->rank >= 0 && e->rank == w->rank)
        w->entry = e;
    return w->entry == e;
}

/* The entry of this process, or an error. */
static int find_entry(const ht_placement *pl, const char *path, const whoami *w,
                      const ht_entry **out)
{
    const char *host = w->host;
    if (w->local == -2)
        return fail("%s='%s' is not a rank", w->lvar, getenv(w->lvar));
    if (w->host_errno)
        return fail("cannot tell this host's name: %s",
                    strerror(w->host_errno));
    *out = w->entry;
    if (w->local == -1) {
        if (w->rank == -2)
            return fail("%s='%s' is not a rank", w->rvar, getenv(w->rvar));
        if (w->rank == -1)
            return fail("cannot tell the local rank: none of "
                        "OMPI_COMM_WORLD_LOCAL_RANK, SLURM_LOCALID, "
                        "PMI_LOCAL_RANK, FLUX_TASK_LOCAL_ID is set, nor a "
                        "global rank (run under mpirun, srun, mpiexec or "
                        "flux)");
        if (!*out)
            return fail("%s: no entry for rank %ld (%s)", path, w->rank,
                        w->rvar);
        if (!ht_host_match((*out)->host, host))
            return fail("%s: rank %ld (%s) is placed on host %s, but runs on "
                        "%s",
                        path, w->rank, w->rvar, (*out)->host, host);
        return 0;
    }
    if (!*out) {
        for (int i = 0; i < pl->n; i++)
            if (ht_host_match(pl->entries[i].host, host))
                return fail("%s: no entry for host %s local rank %ld", path,
                            host, w->local);
        return fail("%s: host %s is not in the placement (it was made for "
                    "%s%s)",
                    path, host, pl->n ? pl->entries[0].host : "no host",
                    pl->n > 1 ? ", ..." : "");
    }
    if (w->rank == -2)
        return fail("%s='%s' is not a rank", w->rvar, getenv(w->rvar));
    if (w->rank >= 0 && w->rank != (*out)->rank)
        return fail("%s: this is rank %ld (%s), but the entry for host %s "
                    "local rank %ld is rank %d",
                    path, w->rank, w->rvar, host, w->local, (*out)->rank);
    return 0;
}

/* "0000:34:00.0": fixed width, so strcmp sorts in bus order. */
static void busid(hwloc_obj_t pci, char *buf, size_t size)
{
    const struct hwloc_pcidev_attr_s *a = &pci->attr->pcidev;
    snprintf(buf, size, "%04x:%02x:%02x.%01x", a->domain, a->bus, a->dev,
             a->func);
}

/* Whether PCI device `pci` is a GPU for topomap-exec: one that hetero's
 * node reader lists (a cuda* or nvml* OS device under it, the GPUs
 * topomap-place counts), its index in node->gpus in *k; or, where this
 * machine's hwloc sees no CUDA or NVML device at all (built without that
 * support), an NVIDIA display controller (class 03xx), *k = -1. */
static int is_gpu(const ht_node *node, hwloc_obj_t pci, int *k)
{
    char id[32];
    busid(pci, id, sizeof id);
    *k = ht_node_find_gpu(node, id);
    if (*k >= 0)
        return 1;
    const struct hwloc_pcidev_attr_s *a = &pci->attr->pcidev;
    return node->ngpus == 0 && a->vendor_id == 0x10de &&
           (a->class_id >> 8) == 0x03;
}

/* What CUDA_VISIBLE_DEVICES must say for a GPU entry.  The bus id names
 * the GPU (identical nodes have their GPUs at the same bus ids, but every
 * GPU its own UUID), so it is this machine's GPU at that bus id: its UUID
 * as hwloc here knows it, else its index among this machine's GPUs in PCI
 * bus order (the order CUDA_DEVICE_ORDER=PCI_BUS_ID gives).  A UUID in
 * the entry (placements of older topomap-place had one, copied from the
 * topology file) is only a check: when it is the UUID of one of this
 * machine's GPUs, that GPU must be the one at the bus id; a UUID this
 * machine does not have is another node's, and ignored. */
static int gpu_visible(const ht_node *node, const ht_entry *e,
                       const char *path, char *buf, size_t size)
{
    hwloc_topology_t t = node->topo;
    hwloc_obj_t dev = hwloc_get_pcidev_by_busidstring(t, e->gpu_busid);
    if (!dev)
        return fail("%s: rank %d: GPU %s is not on this machine", path,
                    e->rank, e->gpu_busid);
    int k;
    if (!is_gpu(node, dev, &k)) {
        const struct hwloc_pcidev_attr_s *a = &dev->attr->pcidev;
        return fail("%s: rank %d: the PCI device at %s is not a GPU "
                    "(vendor %04x, device %04x, class %04x%s%s; hwloc sees "
                    "no CUDA or NVML device there)",
                    path, e->rank, e->gpu_busid, a->vendor_id, a->device_id,
                    a->class_id, dev->subtype ? ", " : "",
                    dev->subtype ? dev->subtype : "");
    }
    char mine[32], other[32];
    busid(dev, mine, sizeof mine);
    for (int j = 0; e->gpu_uuid[0] && j < node->ngpus; j++)
        if (j != k && !strcasecmp(node->gpus[j].uuid, e->gpu_uuid))
            return fail("%s: rank %d: its UUID %s is this machine's GPU at "
                        "%s, not the one at %s",
                        path, e->rank, e->gpu_uuid, node->gpus[j].busid,
                        mine);
    if (k >= 0 && node->gpus[k].uuid[0]) {
        snprintf(buf, size, "%s", node->gpus[k].uuid);
        return 0;
    }
    int index = 0;
    if (k >= 0)
        index = k; /* node->gpus is in PCI bus id order */
    else
        for (hwloc_obj_t o = NULL; (o = hwloc_get_next_pcidev(t, o));) {
            const struct hwloc_pcidev_attr_s *a = &o->attr->pcidev;
            busid(o, other, sizeof other);
            index += a->vendor_id == 0x10de && (a->class_id >> 8) == 0x03 &&
                     strcmp(other, mine) < 0;
        }
    snprintf(buf, size, "%d", index);
    return 0;
}

static int bind_memory(hwloc_topology_t t, const ht_entry *e)
{
    hwloc_membind_policy_t policy;
    int flags = HWLOC_MEMBIND_BYNODESET;
    switch (e->policy) {
    case HT_POLICY_NONE:
        return 0;
    case HT_POLICY_BIND:
        policy = HWLOC_MEMBIND_BIND;
        flags |= HWLOC_MEMBIND_STRICT;
        break;
    case HT_POLICY_PREFERRED:
        policy = HWLOC_MEMBIND_BIND; /* hwloc's non-strict bind */
        break;
    default:
        policy = HWLOC_MEMBIND_INTERLEAVE;
    }
    if (hwloc_set_membind(t, e->nodes, policy, flags) != 0) {
        char nodes[256];
        hwloc_bitmap_list_snprintf(nodes, sizeof nodes, e->nodes);
        return fail("cannot bind memory to NUMA nodes %s (%s): %s", nodes,
                    ht_policy_name(e->policy), strerror(errno));
    }
    return 0;
}

/* Check the entry against this machine and apply it. */
static int apply(const ht_entry *e, const char *path, int dry, int verbose)
{
    ht_node *node;
    tg_error err;
    if (ht_node_load(NULL, &node, &err))
        return cli_fail(&err);
    hwloc_topology_t t = node->topo;
    char cpus[1024], have[1024], nodes[256], visible[128] = "";
    hwloc_bitmap_list_snprintf(cpus, sizeof cpus, e->cpus);
    hwloc_bitmap_list_snprintf(nodes, sizeof nodes, e->nodes);
    int rc = 0;
    hwloc_const_bitmap_t allowed = hwloc_topology_get_allowed_cpuset(t);
    hwloc_const_bitmap_t allowed_nodes = hwloc_topology_get_allowed_nodeset(t);
    if (!hwloc_bitmap_isincluded(e->cpus, allowed)) {
        hwloc_bitmap_list_snprintf(have, sizeof have, allowed);
        rc = fail("cores %s are not on this machine (it has %s)", cpus, have);
    } else if (!hwloc_bitmap_isincluded(e->nodes, allowed_nodes)) {
        hwloc_bitmap_list_snprintf(have, sizeof have, allowed_nodes);
        rc = fail("NUMA nodes %s are not on this machine (it has %s)", nodes,
                  have);
    } else if (e->proc == HT_PROC_GPU) {
        rc = gpu_visible(node, e, path, visible, sizeof visible);
    }
    if (!rc && (dry || verbose))
        fprintf(dry ? stdout : stderr,
                "rank %d: %s, cores %s, memory %s on NUMA nodes %s (%s), "
                "CUDA_VISIBLE_DEVICES=%s\n",
                e->rank, ht_proc_name(e->proc), cpus, ht_memkind_name(e->mem),
                nodes[0] ? nodes : "-", ht_policy_name(e->policy), visible);
    if (!rc && !dry) {
        if (hwloc_set_cpubind(t, e->cpus, 0) != 0)
            rc = fail("cannot bind to cores %s: %s", cpus, strerror(errno));
        else
            rc = bind_memory(t, e);
    }
    if (!rc && !dry &&
        (setenv("CUDA_DEVICE_ORDER", "PCI_BUS_ID", 1) ||
         setenv("CUDA_VISIBLE_DEVICES", visible, 1) ||
         setenv("TOPOMAP_PROC_KIND", ht_proc_name(e->proc), 1) ||
         setenv("TOPOMAP_MEM_KIND", ht_memkind_name(e->mem), 1)))
        rc = fail("cannot set the environment: %s", strerror(errno));
    ht_node_free(node);
    return rc;
}

int main(int argc, char **argv)
{
    cli_name = "topomap-exec";
    int c, dry = 0, verbose = 0;
    while ((c = getopt_long(argc, argv, "+hv", longopts, NULL)) != -1) {
        switch (c) {
        case 'h':
            fputs(help, stdout);
            return 0;
        case OPT_VERSION:
            printf("topomap-exec (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION);
            return 0;
        case 'v':
            verbose = 1;
            break;
        case OPT_DRY:
            dry = 1;
            break;
        default:
            return cli_usage_error("unknown option");
        }
    }
    if (optind >= argc)
        return cli_usage_error("no PLACEMENT file given");
    const char *path = argv[optind++];
    if (optind < argc && !strcmp(argv[optind], "--"))
        optind++;
    if (optind >= argc && !dry)
        return cli_usage_error("no PROGRAM given (PLACEMENT -- PROGRAM ...)");
    whoami w;
    who(&w);
    ht_placement *pl;
    tg_error err;
    if (ht_placement_read_some(path, mine, &w, &pl, &err))
        return cli_fail(&err);
    const ht_entry *e = NULL;
    int rc = find_entry(pl, path, &w, &e);
    if (!rc)
        rc = apply(e, path, dry, verbose);
    ht_placement_free(pl);
    if (rc || dry)
        return rc;
    execvp(argv[optind], argv + optind);
    int code = errno == ENOENT ? 127 : 126;
    fail("cannot run %s: %s", argv[optind], strerror(errno));
    return code;
}

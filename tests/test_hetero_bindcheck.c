/* test_hetero_bindcheck.c: launched through topomap-exec by
 * tests/hetero_exec.sh; prints, as hwloc sees it from inside the process,
 * the cores and memory it is bound to and the variables topomap-exec set:
 *   rank=0 cpus=1 nodes=0 policy=bind proc=cpu mem=dram cvd= order=PCI_BUS_ID
 * ("(unset)" for a variable that is not set). */
#include <hwloc.h>
#include <stdio.h>
#include <stdlib.h>

static const char *env(const char *name)
{
    const char *v = getenv(name);
    return v ? v : "(unset)";
}

/* The global rank: Open MPI's variable, else Hydra's. */
static const char *rank(void)
{
    const char *v = getenv("OMPI_COMM_WORLD_RANK");
    return v ? v : env("PMI_RANK");
}

int main(void)
{
    hwloc_topology_t t;
    hwloc_bitmap_t cpus = hwloc_bitmap_alloc(), nodes = hwloc_bitmap_alloc();
    hwloc_membind_policy_t policy;
    if (hwloc_topology_init(&t) || hwloc_topology_load(t) ||
        hwloc_get_cpubind(t, cpus, HWLOC_CPUBIND_PROCESS) ||
        hwloc_get_membind(t, nodes, &policy, HWLOC_MEMBIND_BYNODESET)) {
        perror("hwloc");
        return 1;
    }
    char c[256], n[256];
    hwloc_bitmap_list_snprintf(c, sizeof c, cpus);
    hwloc_bitmap_list_snprintf(n, sizeof n, nodes);
    const char *pol = policy == HWLOC_MEMBIND_BIND         ? "bind"
                      : policy == HWLOC_MEMBIND_INTERLEAVE ? "interleave"
                      : policy == HWLOC_MEMBIND_FIRSTTOUCH ? "firsttouch"
                                                           : "other";
    printf("rank=%s cpus=%s nodes=%s policy=%s proc=%s mem=%s cvd=%s "
           "order=%s\n",
           rank(), c, n, pol, env("TOPOMAP_PROC_KIND"),
           env("TOPOMAP_MEM_KIND"), env("CUDA_VISIBLE_DEVICES"),
           env("CUDA_DEVICE_ORDER"));
    hwloc_bitmap_free(cpus);
    hwloc_bitmap_free(nodes);
    hwloc_topology_destroy(t);
    return 0;
}

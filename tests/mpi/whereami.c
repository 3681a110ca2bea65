/* whereami.c: every rank prints where it is bound, for the rankfile tests
 * of parmapper: "rank R host H cores C,..." with H from
 * MPI_Get_processor_name and the logical indexes of the cores whose PUs
 * are all in the rank's binding (hwloc_get_cpubind), "cores -" when it is
 * bound to no whole core.  With --cpus the line goes on with " cpus
 * P,...", the OS's CPU numbers of sched_getaffinity, a check that does not
 * go through hwloc; with --slurmd, " slurmd S", S the node whose slurmd
 * started the rank or its daemon (SLURMD_NODENAME), "-" when none did.
 * Lines go through rank 0 in rank order. */
#define _GNU_SOURCE
#include <hwloc.h>
#include <sched.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE 4096

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char host[MPI_MAX_PROCESSOR_NAME];
    int len;
    MPI_Get_processor_name(host, &len);

    hwloc_topology_t topo;
    hwloc_topology_init(&topo);
    hwloc_topology_load(topo);
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    if (hwloc_get_cpubind(topo, set, HWLOC_CPUBIND_PROCESS))
        hwloc_bitmap_copy(set, hwloc_topology_get_topology_cpuset(topo));
    char line[LINE];
    int at = snprintf(line, LINE, "rank %d host %s cores ", rank, host);
    int any = 0;
    int cores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
    for (int c = 0; c < cores && at < LINE - 256; c++) {
        hwloc_obj_t core = hwloc_get_obj_by_type(topo, HWLOC_OBJ_CORE,
                                                 (unsigned)c);
        if (hwloc_bitmap_isincluded(core->cpuset, set))
            at += snprintf(line + at, (size_t)(LINE - at), "%s%d",
                           any++ ? "," : "", c);
    }
    if (!any)
        at += snprintf(line + at, (size_t)(LINE - at), "-");
    int want_cpus = 0, want_slurmd = 0;
    for (int i = 1; i < argc; i++) {
        want_cpus |= !strcmp(argv[i], "--cpus");
        want_slurmd |= !strcmp(argv[i], "--slurmd");
    }
    if (want_cpus) {
        cpu_set_t cpus;
        CPU_ZERO(&cpus);
        at += snprintf(line + at, (size_t)(LINE - at), " cpus ");
        if (sched_getaffinity(0, sizeof cpus, &cpus)) {
            snprintf(line + at, (size_t)(LINE - at), "?");
        } else {
            any = 0;
            for (int c = 0; c < CPU_SETSIZE && at < LINE - 256; c++)
                if (CPU_ISSET(c, &cpus))
                    at += snprintf(line + at, (size_t)(LINE - at), "%s%d",
                                   any++ ? "," : "", c);
        }
    }
    if (want_slurmd) {
        const char *slurmd = getenv("SLURMD_NODENAME");
        snprintf(line + at, (size_t)(LINE - at), " slurmd %.200s",
                 slurmd && *slurmd ? slurmd : "-");
    }
    hwloc_bitmap_free(set);
    hwloc_topology_destroy(topo);

    if (rank == 0) {
        puts(line);
        for (int r = 1; r < size; r++) {
            MPI_Recv(line, LINE, MPI_CHAR, r, 0, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            puts(line);
        }
    } else {
        MPI_Send(line, (int)strlen(line) + 1, MPI_CHAR, 0, 0,
                 MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}

/* affinity.c: every rank prints where it runs, for the Slurm tests of the
 * emulated cluster (tests/cluster_slurm.sh):
 *   "rank R host H cpus C,... slurmd S"
 * H from MPI_Get_processor_name, C the CPUs (OS numbers) of the rank's
 * affinity mask (sched_getaffinity), S the node that started the rank's
 * daemon or the rank itself as Slurm says it (SLURMD_NODENAME), "-" when
 * the rank was not started by a slurmd.  Lines go through rank 0 in rank
 * order. */
#define _GNU_SOURCE
#include <mpi.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE 4096

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, len;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char host[MPI_MAX_PROCESSOR_NAME];
    MPI_Get_processor_name(host, &len);

    char line[LINE];
    int at = snprintf(line, LINE, "rank %d host %s cpus ", rank, host);
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0) {
        perror("sched_getaffinity");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    int any = 0;
    for (int c = 0; c < CPU_SETSIZE && at < LINE - 300; c++)
        if (CPU_ISSET(c, &set))
            at += snprintf(line + at, (size_t)(LINE - at), "%s%d",
                           any++ ? "," : "", c);
    const char *slurmd = getenv("SLURMD_NODENAME");
    snprintf(line + at, (size_t)(LINE - at), " slurmd %.200s",
             slurmd && *slurmd ? slurmd : "-");

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

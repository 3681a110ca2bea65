/* mpitime: a tiny PMPI library for bench/cluster.sh, loaded with
 * LD_PRELOAD.  Each rank reads MPI_Wtime at the end of MPI_Init (or
 * MPI_Init_thread) and at the start of MPI_Finalize; rank 0 writes to the
 * file named by MPITIME_OUT the largest and smallest of the ranks' spans
 * and, as a topomap mapping file ("task host slot", greedymap eval reads
 * it), the host each rank ran on, the slot being the rank's index among
 * the ranks of its host.  Without MPITIME_OUT it does nothing but time.
 *
 *   # mpitime ranks=16 max_seconds=5.123456 min_seconds=5.120001
 *   0 node0 0
 *   1 node0 1
 *   ...
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HOSTLEN 64

static double t_init;

int MPI_Init(int *argc, char ***argv)
{
  int rc = PMPI_Init(argc, argv);
  t_init = PMPI_Wtime();
  return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
  int rc = PMPI_Init_thread(argc, argv, required, provided);
  t_init = PMPI_Wtime();
  return rc;
}

int MPI_Finalize(void)
{
  double span = PMPI_Wtime() - t_init, mx = 0, mn = 0;
  const char *out = getenv("MPITIME_OUT");
  int rank = 0, size = 1;
  char host[HOSTLEN], *hosts = NULL;

  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &size);
  PMPI_Reduce(&span, &mx, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  PMPI_Reduce(&span, &mn, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
  memset(host, 0, sizeof host);
  if (gethostname(host, sizeof host - 1) != 0)
    strcpy(host, "unknown");
  if (rank == 0)
    hosts = calloc((size_t)size, HOSTLEN);
  PMPI_Gather(host, HOSTLEN, MPI_CHAR, hosts, HOSTLEN, MPI_CHAR, 0,
              MPI_COMM_WORLD);
  if (rank == 0 && out && *out) {
    FILE *f = fopen(out, "w");
    if (!f) {
      perror(out);
    } else {
      fprintf(f, "# mpitime ranks=%d max_seconds=%.6f min_seconds=%.6f\n",
              size, mx, mn);
      for (int r = 0; hosts && r < size; r++) {
        const char *h = hosts + (size_t)r * HOSTLEN;
        int slot = 0;
        for (int q = 0; q < r; q++)
          if (strcmp(hosts + (size_t)q * HOSTLEN, h) == 0)
            slot++;
        fprintf(f, "%d %s %d\n", r, h, slot);
      }
      if (fclose(f) != 0)
        perror(out);
    }
  }
  free(hosts);
  return PMPI_Finalize();
}

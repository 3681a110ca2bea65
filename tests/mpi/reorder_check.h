/* reorder_check.h: what the libtopomap-reorder test programs share: the
 * pretend hosts of the world ranks, and the bytes that cross hosts. */
#ifndef TOPOMAP_REORDER_CHECK_H
#define TOPOMAP_REORDER_CHECK_H

#include <mpi.h>

/* Parse "a,b,a,b" (one host per world rank) into host ids: 0 or -1. */
int rc_hosts(const char *list, int nranks, int *host);

/* Bytes crossing hosts: edges (src, dst, weight) of tasks, task t run by
 * world rank world[t]. */
long rc_offnode(int nedges, const int *src, const int *dst, const int *w,
                const int *world, const int *host);

/* The world rank of each rank of comm, on every rank (n entries). */
void rc_world_map(MPI_Comm comm, int *world);

/* Print "identity X result Y" (after what the caller printed on the
 * line) and "map W0 W1 ..." (n entries). */
void rc_print(long identity, long result, const int *world, int n);

/* Count a check; print what failed. */
void rc_expect(int ok, const char *what, int a, int b);
/* Failed checks on every rank, summed, returned on every rank. */
int rc_failures(void);

#endif

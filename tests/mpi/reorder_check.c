/* reorder_check.c: helpers of the libtopomap-reorder test programs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reorder_check.h"

static int failed;

int rc_hosts(const char *list, int nranks, int *host)
{
    char names[256][32];
    int nnames = 0, r = 0;
    for (const char *p = list; *p && r < nranks; r++) {
        size_t len = strcspn(p, ",");
        int id = -1;
        for (int i = 0; i < nnames && id < 0; i++)
            if (strlen(names[i]) == len && !strncmp(names[i], p, len))
                id = i;
        if (id < 0) {
            if (nnames == 256 || len >= 32)
                return -1;
            memcpy(names[nnames], p, len);
            names[nnames][len] = '\0';
            id = nnames++;
        }
        host[r] = id;
        p += len + (p[len] == ',');
    }
    return r == nranks ? 0 : -1;
}

long rc_offnode(int nedges, const int *src, const int *dst, const int *w,
                const int *world, const int *host)
{
    long bytes = 0;
    for (int e = 0; e < nedges; e++)
        if (host[world[src[e]]] != host[world[dst[e]]])
            bytes += w ? w[e] : 1;
    return bytes;
}

void rc_world_map(MPI_Comm comm, int *world)
{
    int me;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Allgather(&me, 1, MPI_INT, world, 1, MPI_INT, comm);
}

void rc_print(long identity, long result, const int *world, int n)
{
    printf("identity %ld result %ld\nmap", identity, result);
    for (int t = 0; t < n; t++)
        printf(" %d", world[t]);
    printf("\n");
}

void rc_expect(int ok, const char *what, int a, int b)
{
    if (ok)
        return;
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    fprintf(stderr, "rank %d: FAIL %s (%d, %d)\n", rank, what, a, b);
    failed++;
}

int rc_failures(void)
{
    int all;
    MPI_Allreduce(&failed, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    return all;
}

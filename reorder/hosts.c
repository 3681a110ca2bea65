/* hosts.c: where each process runs.  A process's host is its
 * MPI_Get_processor_name, or, for testing on one machine, its entry in
 * TOPOMAP_REORDER_HOSTS: a comma-separated list with one host per rank of
 * MPI_COMM_WORLD in rank order (no more, no fewer), where "NAME:K" stands
 * for K entries of NAME ("a,a,b,b" = "a:2,b:2").  The layout groups the
 * processes of a communicator by host, hosts in the order of their first
 * process. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ro_internal.h"

/* The entry for world rank `rank` of the list `spec`, which must name
 * exactly `nranks` processes, one per rank of MPI_COMM_WORLD: a list too
 * short leaves ranks without a host, and one too long is a layout meant
 * for another job, which would place this one wrongly.  The whole list is
 * read on every process, so that every process finds the same fault and
 * the lowest rank names it. */
static int pretend_host(const char *spec, int rank, int nranks,
                        char name[MPI_MAX_PROCESSOR_NAME], char *why,
                        size_t size)
{
    long seen = 0;
    const char *p = spec;
    for (;;) {
        size_t len = strcspn(p, ",:");
        if (len == 0 || len >= MPI_MAX_PROCESSOR_NAME) {
            snprintf(why, size,
                     "TOPOMAP_REORDER_HOSTS: %s host name at character %d",
                     len ? "over-long" : "empty", (int)(p - spec) + 1);
            return -1;
        }
        const char *host = p;
        long count = 1;
        p += len;
        if (*p == ':') {
            char *end;
            errno = 0;
            count = strtol(p + 1, &end, 10);
            if (errno || end == p + 1 || count < 1 || count > 1 << 30 ||
                (*end && *end != ',')) {
                snprintf(why, size,
                         "TOPOMAP_REORDER_HOSTS: bad count after '%.*s:' "
                         "(a positive integer is needed)",
                         (int)len, host);
                return -1;
            }
            p = end;
        }
        if (rank >= seen && rank < seen + count) {
            memcpy(name, host, len);
            name[len] = '\0';
        }
        seen += count;
        if (*p != ',')
            break;
        p++;
    }
    return ro_list_length("TOPOMAP_REORDER_HOSTS", seen, "processes", nranks,
                          why, size);
}

int ro_list_length(const char *var, long n, const char *what, int nranks,
                   char *why, size_t size)
{
    if (n < nranks)
        snprintf(why, size,
                 "%s names %ld %s, so none for rank %ld of MPI_COMM_WORLD",
                 var, n, what, n);
    else if (n > nranks)
        snprintf(why, size,
                 "%s names %ld %s, but MPI_COMM_WORLD has %d ranks (one "
                 "entry per rank)",
                 var, n, what, nranks);
    return n == nranks ? 0 : -1;
}

int ro_my_host(char name[MPI_MAX_PROCESSOR_NAME], char *why, size_t size)
{
    memset(name, 0, MPI_MAX_PROCESSOR_NAME);
    const char *spec = getenv("TOPOMAP_REORDER_HOSTS");
    if (spec && *spec) {
        int rank, nranks;
        PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
        PMPI_Comm_size(MPI_COMM_WORLD, &nranks);
        return pretend_host(spec, rank, nranks, name, why, size);
    }
    int len;
    if (PMPI_Get_processor_name(name, &len) != MPI_SUCCESS) {
        snprintf(why, size, "MPI_Get_processor_name failed");
        return -1;
    }
    return 0;
}

void ro_layout_free(ro_layout *l)
{
    if (l->host)
        for (int h = 0; h < l->nhosts; h++)
            free(l->host[h]);
    free(l->host);
    free(l->slots);
    free(l->proc_host);
    free(l->proc_slot);
    free(l->first);
    free(l->proc);
    memset(l, 0, sizeof *l);
}

static const char *sort_names;

/* Processes by name, then rank: one sort groups each host's processes in
 * rank order. */
static int by_name(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    int c = strcmp(sort_names + (size_t)x * MPI_MAX_PROCESSOR_NAME,
                   sort_names + (size_t)y * MPI_MAX_PROCESSOR_NAME);
    return c ? c : (x > y) - (x < y);
}

int ro_layout_make(const char *names, int nprocs, ro_layout *out)
{
    memset(out, 0, sizeof *out);
    ro_layout *l = out;
    l->nprocs = nprocs;
    int *order = malloc((size_t)nprocs * sizeof *order);
    int *group = malloc((size_t)nprocs * sizeof *group);
    l->proc_host = malloc((size_t)nprocs * sizeof *l->proc_host);
    l->proc_slot = malloc((size_t)nprocs * sizeof *l->proc_slot);
    l->proc = malloc((size_t)nprocs * sizeof *l->proc);
    if (!order || !group || !l->proc_host || !l->proc_slot || !l->proc)
        goto nomem;
    for (int i = 0; i < nprocs; i++)
        order[i] = i;
    sort_names = names;
    qsort(order, (size_t)nprocs, sizeof *order, by_name);
    /* group[p] = the first process of p's host; slot = index inside. */
    for (int i = 0, start = 0; i < nprocs; i++) {
        if (strcmp(names + (size_t)order[i] * MPI_MAX_PROCESSOR_NAME,
                   names + (size_t)order[start] * MPI_MAX_PROCESSOR_NAME))
            start = i;
        group[order[i]] = order[start];
        l->proc_slot[order[i]] = i - start;
    }
    /* Hosts numbered in the order of their first process. */
    for (int p = 0; p < nprocs; p++)
        if (group[p] == p)
            l->proc_host[p] = l->nhosts++;
    for (int p = 0; p < nprocs; p++)
        l->proc_host[p] = l->proc_host[group[p]];
    l->host = calloc((size_t)l->nhosts, sizeof *l->host);
    l->slots = calloc((size_t)l->nhosts, sizeof *l->slots);
    l->first = calloc((size_t)l->nhosts + 1, sizeof *l->first);
    if (!l->host || !l->slots || !l->first)
        goto nomem;
    for (int p = 0; p < nprocs; p++) {
        int h = l->proc_host[p];
        l->slots[h]++;
        if (group[p] == p &&
            !(l->host[h] = strdup(names + (size_t)p * MPI_MAX_PROCESSOR_NAME)))
            goto nomem;
    }
    for (int h = 0; h < l->nhosts; h++)
        l->first[h + 1] = l->first[h] + l->slots[h];
    for (int p = 0; p < nprocs; p++)
        l->proc[l->first[l->proc_host[p]] + l->proc_slot[p]] = p;
    free(order);
    free(group);
    return 0;
nomem:
    free(order);
    free(group);
    ro_layout_free(l);
    return TG_ENOMEM;
}

/* gather.c: the ranks' fronts gathered on rank 0, one point chosen, and
 * its mapping brought to rank 0 by the rank that holds it (no run is
 * repeated: every rank keeps the mappings of its front). */
#include <stdlib.h>
#include <string.h>

#include "parmapper.h"

/* A point as it travels: total, max, load, config, round, seed, id, J. */
enum { WORDS = 8 };

static void pack(const pm_point *p, uint64_t *w)
{
    w[0] = p->total;
    w[1] = p->max;
    w[2] = p->load;
    w[3] = (uint64_t)p->config;
    w[4] = (uint64_t)p->round;
    w[5] = p->seed;
    w[6] = (uint64_t)p->id;
    w[7] = p->cost;
}

static pm_point unpack(const uint64_t *w, int rank)
{
    pm_point p = {w[0], w[1], w[2], (int)w[3], (int)w[4], w[5], rank,
                  (int)w[6], w[7]};
    return p;
}

/* Points per message when a mapping moves (2 ints each). */
#define PIECE (1 << 26)

/* Rank 0: the global front from every rank's points.  Returns an exit
 * code, agreed on when it is about the ranks' buffers, on rank 0 only
 * (after the message) when it is about the front. */
static int merge(MPI_Comm comm, const pm_front *mine, pm_result *r,
                 tg_error *err)
{
    int rank, size, n = mine->n, rc = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    uint64_t *out = malloc(((size_t)n * WORDS + 1) * sizeof *out), *in = NULL;
    int *counts = NULL, *displs = NULL;
    if (!out)
        rc = tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    for (int i = 0; i < n && out; i++)
        pack(&mine->p[i], out + (size_t)i * WORDS);
    int words = n * WORDS, total = 0;
    if (rank == 0) {
        counts = malloc((size_t)size * sizeof *counts);
        displs = malloc((size_t)size * sizeof *displs);
        if (!counts || !displs)
            rc = tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    }
    /* Agreed before each collective, so that none receives into a buffer
     * the root could not get. */
    if ((rc = pm_agree(comm, rc ? 1 : 0, err)))
        goto done;
    MPI_Gather(&words, 1, MPI_INT, counts, 1, MPI_INT, 0, comm);
    if (rank == 0) {
        for (int i = 0; i < size; i++) {
            displs[i] = total;
            total += counts[i];
        }
        if (!(in = malloc(((size_t)total + 1) * sizeof *in)))
            rc = tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    }
    if (!(rc = pm_agree(comm, rc ? 1 : 0, err))) {
        MPI_Gatherv(out, words, MPI_UINT64_T, in, counts, displs,
                    MPI_UINT64_T, 0, comm);
        for (int i = 0; rank == 0 && i < size && !rc; i++)
            for (int k = displs[i]; k < displs[i] + counts[i] && !rc;
                 k += WORDS) {
                pm_point p = unpack(in + k, i);
                if (pm_front_add(&r->front, &p) < 0)
                    rc = 1;
            }
        if (rc)
            fputs("parmapper: out of memory\n", stderr);
    }
done:
    free(out);
    free(in);
    free(counts);
    free(displs);
    return rc;
}

/* The chosen mapping from rank `from` (point id) to rank 0. */
static void fetch(MPI_Comm comm, const pm_search *s, int n, int from, int id,
                  gm_place *map)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    if (from == 0) {
        if (rank == 0)
            memcpy(map, pm_search_mapping(s, id), (size_t)n * sizeof *map);
        return;
    }
    for (int at = 0; at < n; at += PIECE) {
        int k = n - at < PIECE ? n - at : PIECE;
        if (rank == from)
            MPI_Send(pm_search_mapping(s, id) + at, 2 * k, MPI_INT, 0, 0,
                     comm);
        else if (rank == 0)
            MPI_Recv(map + at, 2 * k, MPI_INT, from, 0, comm,
                     MPI_STATUS_IGNORE);
    }
}

int pm_choose(MPI_Comm comm, const pm_options *o, const tg_graph *g,
              const pm_search *s, pm_result *r)
{
    memset(r, 0, sizeof *r);
    pm_front_init(&r->front);
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    tg_error err;
    int rc = merge(comm, pm_search_front(s), r, &err);
    if ((rc = pm_agree(comm, rc, NULL)))
        return rc;
    int64_t runs, stopped;
    pm_search_counts(s, &runs, &stopped);
    r->nranks = size;
    r->seconds = pm_search_seconds(s);
    r->rounds_complete = pm_search_complete(s);
    const int *focus;
    r->nfocus = pm_search_focus(s, &focus);
    if (rank == 0) {
        r->runs = malloc((size_t)size * sizeof *r->runs);
        r->stopped = malloc((size_t)size * sizeof *r->stopped);
        r->map = malloc(((size_t)g->n + 1) * sizeof *r->map);
        r->focus = malloc(((size_t)r->nfocus + 1) * sizeof *r->focus);
        if (r->focus)
            memcpy(r->focus, focus, (size_t)r->nfocus * sizeof *focus);
        if (!r->runs || !r->stopped || !r->map || !r->focus)
            rc = tg_error_set(&err, TG_ENOMEM, NULL, 0, "out of memory");
    }
    if ((rc = pm_agree(comm, rc ? 1 : 0, &err)))
        return rc;
    MPI_Gather(&runs, 1, MPI_INT64_T, r->runs, 1, MPI_INT64_T, 0, comm);
    MPI_Gather(&stopped, 1, MPI_INT64_T, r->stopped, 1, MPI_INT64_T, 0,
               comm);
    int who[2] = {-1, -1};
    if (rank == 0) {
        r->chosen = pm_select(r->front.p, r->front.n, o->select, o->alpha);
        if (r->chosen >= 0) {
            who[0] = r->front.p[r->chosen].rank;
            who[1] = r->front.p[r->chosen].id;
        } else {
            fprintf(stderr,
                    "parmapper: no GreedyMap run finished within --time "
                    "%g s on any of the %d ranks: give more time\n",
                    o->time, size);
            rc = 1;
        }
    }
    if ((rc = pm_agree(comm, rc, NULL)))
        return rc;
    MPI_Bcast(who, 2, MPI_INT, 0, comm);
    fetch(comm, s, g->n, who[0], who[1], r->map);
    return 0;
}

void pm_result_free(pm_result *r)
{
    pm_front_free(&r->front);
    free(r->map);
    free(r->runs);
    free(r->stopped);
    free(r->focus);
    memset(r, 0, sizeof *r);
}

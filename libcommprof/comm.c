/* comm.c: communicator and window records.
 *
 * A communicator's members are translated to world ranks once, when the
 * profiler first meets it, and the record is cached on the communicator
 * as an MPI attribute: MPI drops the attribute when the communicator is
 * freed, so a reused handle never finds a stale translation, and no call
 * ever translates a group again.  Communicators with the same members
 * share one record. */
#include <stdlib.h>
#include <string.h>

#include "cp_internal.h"

/* World ranks of the members of `group`, malloc'd. */
static int *translate(MPI_Group group, int *size)
{
    MPI_Group world;
    PMPI_Group_size(group, size);
    PMPI_Comm_group(MPI_COMM_WORLD, &world);
    int *ranks = malloc((size_t)(*size ? *size : 1) * sizeof *ranks);
    int *out = malloc((size_t)(*size ? *size : 1) * sizeof *out);
    if (ranks && out) {
        for (int i = 0; i < *size; i++)
            ranks[i] = i;
        PMPI_Group_translate_ranks(group, *size, ranks, world, out);
    } else {
        free(out);
        out = NULL;
    }
    free(ranks);
    PMPI_Group_free(&world);
    return out;
}

static int same(const int *a, int na, const int *b, int nb)
{
    return na == nb && (na == 0 || memcmp(a, b, (size_t)na * sizeof *a) == 0);
}

/* Find or add the record with these members (takes ownership of the
 * arrays).  Caller holds cp.lock. */
static cp_comm *intern(int *members, int size, int *remote, int remote_size)
{
    for (cp_comm *c = cp.comms; c; c = c->next)
        if (same(c->members, c->size, members, size) &&
            same(c->remote, c->remote_size, remote, remote_size)) {
            free(members);
            free(remote);
            return c;
        }
    cp_comm *c = calloc(1, sizeof *c);
    if (!c) {
        free(members);
        free(remote);
        return NULL;
    }
    c->size = size;
    c->members = members;
    c->remote_size = remote_size;
    c->remote = remote;
    c->is_world = size == cp.world_size && !remote_size;
    for (int i = 0; c->is_world && i < size; i++)
        c->is_world = members[i] == i;
    c->next = cp.comms;
    cp.comms = c;
    return c;
}

cp_comm *cp_comm_get(MPI_Comm comm)
{
    if (comm == MPI_COMM_NULL || !cp.initialized)
        return NULL;
    cp_comm *c;
    int flag = 0;
    PMPI_Comm_get_attr(comm, cp.comm_keyval, &c, &flag);
    if (flag)
        return c;
    MPI_Group g;
    int size, remote_size = 0, inter = 0;
    PMPI_Comm_test_inter(comm, &inter);
    PMPI_Comm_group(comm, &g);
    int *members = translate(g, &size);
    PMPI_Group_free(&g);
    int *remote = NULL;
    if (inter) {
        PMPI_Comm_remote_group(comm, &g);
        remote = translate(g, &remote_size);
        PMPI_Group_free(&g);
    }
    if (!members || (inter && !remote)) {
        free(members);
        free(remote);
        return NULL;
    }
    pthread_mutex_lock(&cp.lock);
    c = intern(members, size, remote, remote_size);
    pthread_mutex_unlock(&cp.lock);
    if (c)
        PMPI_Comm_set_attr(comm, cp.comm_keyval, c);
    return c;
}

int cp_peer_world(MPI_Comm comm, int r)
{
    if (r < 0)
        return -1;
    if (comm == MPI_COMM_WORLD)
        return r < cp.world_size ? r : -1;
    cp_comm *c = cp_comm_get(comm);
    return c ? cp_comm_world(c, r) : -1;
}

int cp_win_peer_world(MPI_Win win, int r)
{
    if (r < 0 || win == MPI_WIN_NULL)
        return -1;
    cp_comm *c;
    int flag = 0;
    PMPI_Win_get_attr(win, cp.win_keyval, &c, &flag);
    if (!flag) {
        MPI_Group g;
        int size;
        PMPI_Win_get_group(win, &g);
        int *members = translate(g, &size);
        PMPI_Group_free(&g);
        if (!members)
            return -1;
        pthread_mutex_lock(&cp.lock);
        c = intern(members, size, NULL, 0);
        pthread_mutex_unlock(&cp.lock);
        if (!c)
            return -1;
        PMPI_Win_set_attr(win, cp.win_keyval, c);
    }
    return r < c->size ? c->members[r] : -1;
}

void cp_comms_free(void)
{
    pthread_mutex_lock(&cp.lock);
    while (cp.comms) {
        cp_comm *c = cp.comms;
        cp.comms = c->next;
        for (int t = 0; t < CP_NTYPES; t++)
            free(c->coll[t].peers);
        free(c->members);
        free(c->remote);
        free(c);
    }
    pthread_mutex_unlock(&cp.lock);
}

/* requests.c: what each outstanding request stands for.
 *
 * Only requests whose completion needs more than "this was point-to-point"
 * are tracked: receives (their bytes come from the status), nonblocking
 * collectives (their wait time belongs to the collective's type) and
 * persistent requests (bytes counted at each start).  A nonblocking send is
 * counted when posted and is not tracked, so a code that only uses
 * Isend/Wait never touches this table.  An open-addressing hash table
 * under one lock; it grows by doubling, so allocation is rare. */
#include <stdlib.h>
#include <string.h>

#include "cp_internal.h"

typedef struct slot {
    MPI_Request req; /* MPI_REQUEST_NULL: empty */
    int tomb;        /* deleted: keeps probe chains intact */
    cp_req_info info;
} slot;

static slot *table;
static size_t cap, used, tombs;
static int live; /* entries, read without the lock by cp_req_empty */

static size_t hash(MPI_Request r)
{
    uintptr_t x = 0;
    memcpy(&x, &r, sizeof r < sizeof x ? sizeof r : sizeof x);
    x ^= x >> 17;
    x *= 0x9e3779b97f4a7c15ULL;
    return (size_t)(x >> 16);
}

/* Index of r, or of the slot to fill with it; caller holds the lock. */
static size_t probe(MPI_Request r, int *found)
{
    size_t i = hash(r) & (cap - 1), first_tomb = (size_t)-1;
    for (;;) {
        if (table[i].req == MPI_REQUEST_NULL && !table[i].tomb) {
            *found = 0;
            return first_tomb != (size_t)-1 ? first_tomb : i;
        }
        if (table[i].tomb) {
            if (first_tomb == (size_t)-1)
                first_tomb = i;
        } else if (table[i].req == r) {
            *found = 1;
            return i;
        }
        i = (i + 1) & (cap - 1);
    }
}

static int grow(void)
{
    size_t ncap = cap ? 2 * cap : 256;
    slot *old = table;
    size_t ocap = cap;
    table = malloc(ncap * sizeof *table);
    if (!table) {
        table = old;
        return -1;
    }
    for (size_t i = 0; i < ncap; i++)
        table[i] = (slot){.req = MPI_REQUEST_NULL};
    cap = ncap;
    used = tombs = 0;
    for (size_t i = 0; i < ocap; i++)
        if (old[i].req != MPI_REQUEST_NULL && !old[i].tomb) {
            int found;
            size_t j = probe(old[i].req, &found);
            table[j] = old[i];
            used++;
        }
    free(old);
    return 0;
}

void cp_req_add(MPI_Request req, const cp_req_info *info)
{
    if (req == MPI_REQUEST_NULL)
        return;
    pthread_mutex_lock(&cp.lock);
    if ((used + tombs + 1) * 2 > cap && grow() != 0) {
        pthread_mutex_unlock(&cp.lock);
        return; /* untracked: its completion counts as plain p2p */
    }
    int found;
    size_t i = probe(req, &found);
    if (!found) {
        if (table[i].tomb)
            tombs--;
        used++;
        __atomic_add_fetch(&live, 1, __ATOMIC_RELAXED);
    }
    table[i] = (slot){.req = req, .info = *info};
    pthread_mutex_unlock(&cp.lock);
}

static int lookup(MPI_Request req, cp_req_info *info, int remove,
                  int keep_persistent)
{
    if (req == MPI_REQUEST_NULL || cp_req_empty())
        return 0;
    pthread_mutex_lock(&cp.lock);
    int found = 0;
    if (cap) {
        size_t i = probe(req, &found);
        if (found) {
            if (info)
                *info = table[i].info;
            if (remove && !(keep_persistent && table[i].info.persistent)) {
                table[i] = (slot){.req = MPI_REQUEST_NULL, .tomb = 1};
                used--;
                tombs++;
                __atomic_sub_fetch(&live, 1, __ATOMIC_RELAXED);
            }
        }
    }
    pthread_mutex_unlock(&cp.lock);
    return found;
}

int cp_req_take(MPI_Request req, cp_req_info *info)
{
    return lookup(req, info, 1, 1);
}

int cp_req_find(MPI_Request req, cp_req_info *info)
{
    return lookup(req, info, 0, 0);
}

void cp_req_forget(MPI_Request req)
{
    lookup(req, NULL, 1, 0);
}

int cp_req_empty(void)
{
    return __atomic_load_n(&live, __ATOMIC_RELAXED) == 0;
}

void cp_req_free_all(void)
{
    pthread_mutex_lock(&cp.lock);
    free(table);
    table = NULL;
    cap = used = tombs = 0;
    live = 0;
    pthread_mutex_unlock(&cp.lock);
}

void cp_completed(const MPI_Request *before, int n, const int *idx,
                  const MPI_Status *st, int64_t t0)
{
    /* The time of a call that completes several requests goes to the
     * first tracked one's type: a wait on mixed kinds is not split. */
    cp_type type = CP_P2P;
    cp_comm *coll_rec = NULL;
    int typed = 0;
    for (int k = 0; k < n; k++) {
        int i = idx ? idx[k] : k;
        cp_req_info info;
        if (before[i] == MPI_REQUEST_NULL || !cp_req_take(before[i], &info))
            continue;
        if (!typed) {
            type = info.type;
            coll_rec = info.type != CP_P2P ? info.rec : NULL;
            typed = 1;
        }
        if (info.type == CP_P2P && info.persistent != 1 && info.rec && st)
            cp_received_rec(info.rec, &st[k]);
    }
    int64_t now = cp_now();
    cp_charge(type, now - t0);
    if (coll_rec)
        cp_coll_wait(coll_rec, type, now - t0);
}

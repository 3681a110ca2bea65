/* requests.c: what each outstanding request, and each matched message,
 * stands for.
 *
 * Only requests whose completion needs more than "this was point-to-point"
 * are tracked: receives (their bytes come from the status), nonblocking
 * collectives (their wait time belongs to the collective's type) and
 * persistent requests (bytes counted at each start).  A nonblocking send is
 * counted when posted and is not tracked, so a code that only uses
 * Isend/Wait never touches this table.  Messages matched by MPI_Mprobe are
 * kept the same way until they are received.  Each table is an
 * open-addressing hash table under its own mutex, allocated at MPI_Init
 * and doubled when it fills, so allocation is rare and never happens on a
 * send. */
#include <stdlib.h>
#include <string.h>

#include "cp_internal.h"

typedef struct slot {
    uint64_t key;
    int state; /* EMPTY, FULL or TOMB (deleted: keeps probe chains intact) */
    cp_req_info info;
} slot;

enum { EMPTY, FULL, TOMB };

typedef struct table {
    pthread_mutex_t lock;
    slot *s;
    size_t cap, used, tombs;
    int live; /* entries, read without the lock by table_empty */
} table;

static table requests = {.lock = PTHREAD_MUTEX_INITIALIZER};
static table messages = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* A handle as a table key (handles are pointers or integers). */
#define KEY(h) key_of(&(h), sizeof(h))
static uint64_t key_of(const void *h, size_t size)
{
    uint64_t k = 0;
    memcpy(&k, h, size < sizeof k ? size : sizeof k);
    return k;
}

static size_t hash(uint64_t x)
{
    x ^= x >> 17;
    x *= 0x9e3779b97f4a7c15ULL;
    return (size_t)(x >> 16);
}

/* Index of key, or of the slot to fill with it; caller holds the lock. */
static size_t probe(const table *t, uint64_t key, int *found)
{
    size_t i = hash(key) & (t->cap - 1), first_tomb = (size_t)-1;
    for (;;) {
        const slot *s = &t->s[i];
        if (s->state == EMPTY) {
            *found = 0;
            return first_tomb != (size_t)-1 ? first_tomb : i;
        }
        if (s->state == TOMB) {
            if (first_tomb == (size_t)-1)
                first_tomb = i;
        } else if (s->key == key) {
            *found = 1;
            return i;
        }
        i = (i + 1) & (t->cap - 1);
    }
}

/* Double the table (or allocate it with `cap0` slots); caller holds the
 * lock. */
static int grow(table *t, size_t cap0)
{
    size_t ncap = t->cap ? 2 * t->cap : cap0;
    slot *ns = calloc(ncap, sizeof *ns);
    if (!ns)
        return -1;
    slot *old = t->s;
    size_t ocap = t->cap;
    t->s = ns;
    t->cap = ncap;
    t->used = t->tombs = 0;
    for (size_t i = 0; i < ocap; i++)
        if (old[i].state == FULL) {
            int found;
            t->s[probe(t, old[i].key, &found)] = old[i];
            t->used++;
        }
    free(old);
    return 0;
}

static void table_add(table *t, uint64_t key, const cp_req_info *info)
{
    pthread_mutex_lock(&t->lock);
    if ((t->used + t->tombs + 1) * 2 > t->cap && grow(t, 256) != 0) {
        pthread_mutex_unlock(&t->lock);
        return; /* untracked: its completion counts as plain p2p */
    }
    int found;
    size_t i = probe(t, key, &found);
    if (!found) {
        if (t->s[i].state == TOMB)
            t->tombs--;
        t->used++;
        __atomic_add_fetch(&t->live, 1, __ATOMIC_RELAXED);
    }
    t->s[i] = (slot){.key = key, .state = FULL, .info = *info};
    pthread_mutex_unlock(&t->lock);
}

static int table_empty(table *t)
{
    return __atomic_load_n(&t->live, __ATOMIC_RELAXED) == 0;
}

/* Find key; forget it when `remove` (unless it is persistent and
 * `keep_persistent`). */
static int lookup(table *t, uint64_t key, cp_req_info *info, int remove,
                  int keep_persistent)
{
    if (table_empty(t))
        return 0;
    pthread_mutex_lock(&t->lock);
    int found = 0;
    if (t->cap) {
        size_t i = probe(t, key, &found);
        if (found) {
            if (info)
                *info = t->s[i].info;
            if (remove && !(keep_persistent && t->s[i].info.persistent)) {
                t->s[i].state = TOMB;
                t->used--;
                t->tombs++;
                __atomic_sub_fetch(&t->live, 1, __ATOMIC_RELAXED);
            }
        }
    }
    pthread_mutex_unlock(&t->lock);
    return found;
}

static void table_free(table *t)
{
    pthread_mutex_lock(&t->lock);
    free(t->s);
    t->s = NULL;
    t->cap = t->used = t->tombs = 0;
    t->live = 0;
    pthread_mutex_unlock(&t->lock);
}

int cp_tables_init(void)
{
    int rc = 0;
    pthread_mutex_lock(&requests.lock);
    if (!requests.cap)
        rc |= grow(&requests, 256);
    pthread_mutex_unlock(&requests.lock);
    pthread_mutex_lock(&messages.lock);
    if (!messages.cap)
        rc |= grow(&messages, 64);
    pthread_mutex_unlock(&messages.lock);
    return rc;
}

void cp_req_add(MPI_Request req, const cp_req_info *info)
{
    if (req != MPI_REQUEST_NULL)
        table_add(&requests, KEY(req), info);
}

int cp_req_take(MPI_Request req, cp_req_info *info)
{
    return req != MPI_REQUEST_NULL && lookup(&requests, KEY(req), info, 1, 1);
}

int cp_req_find(MPI_Request req, cp_req_info *info)
{
    return req != MPI_REQUEST_NULL && lookup(&requests, KEY(req), info, 0, 0);
}

void cp_req_forget(MPI_Request req)
{
    if (req != MPI_REQUEST_NULL)
        lookup(&requests, KEY(req), NULL, 1, 0);
}

int cp_req_empty(void)
{
    return table_empty(&requests);
}

void cp_msg_add(MPI_Message msg, cp_comm *rec)
{
    if (msg != MPI_MESSAGE_NULL && msg != MPI_MESSAGE_NO_PROC && rec)
        table_add(&messages, KEY(msg), &(cp_req_info){.rec = rec});
}

cp_comm *cp_msg_take(MPI_Message msg)
{
    cp_req_info info;
    if (msg == MPI_MESSAGE_NULL || msg == MPI_MESSAGE_NO_PROC ||
        !lookup(&messages, KEY(msg), &info, 1, 0))
        return NULL;
    return info.rec;
}

int cp_msg_empty(void)
{
    return table_empty(&messages);
}

void cp_tables_free(void)
{
    table_free(&requests);
    table_free(&messages);
}

/* A receive completed by MPI_Cancel received nothing. */
static int cancelled(const MPI_Status *st)
{
    int flag = 0;
    PMPI_Test_cancelled(st, &flag);
    return flag;
}

void cp_completed(const MPI_Request *before, int n, const int *idx,
                  const MPI_Status *st, int64_t t0)
{
    /* The time of a call that completes several requests goes to the
     * first tracked one's type: a wait on mixed kinds is not split. */
    int on = cp_on();
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
        if (info.type == CP_P2P && info.persistent != 1 && info.rec && st &&
            (on || !info.persistent) && !cancelled(&st[k]))
            cp_received_rec(info.rec, &st[k]);
    }
    if (!on)
        return;
    int64_t now = cp_now();
    cp_charge(type, now - t0);
    if (coll_rec)
        cp_coll_wait(coll_rec, type, now - t0);
}

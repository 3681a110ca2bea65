/* requests.c: what each outstanding request, and each matched message,
 * stands for.
 *
 * Only requests whose completion needs more than "this was point-to-point"
 * are tracked: receives (their bytes come from the status), nonblocking
 * collectives (their wait time belongs to the collective's type) and
 * persistent requests (bytes counted at each start).  A nonblocking send is
 * counted when posted and is not tracked, so a code that only uses
 * Isend/Wait never touches this table.  Messages matched by MPI_Mprobe are
 * kept the same way until they are received.
 *
 * Each table is an open-addressing hash table, allocated at MPI_Init and
 * doubled when half full, so allocation is rare and never happens on a
 * send; deletion moves entries back along their probe chain instead of
 * leaving tombstones, so the size follows the most requests outstanding at
 * once, not the number ever made.  Under MPI_THREAD_MULTIPLE each table
 * has its own mutex; below it MPI calls never overlap (the application
 * orders them), so the tables go unlocked and their counts are plain
 * words, which saves about 15 ns per tracked request.
 *
 * Handles are reused.  Under MPI_THREAD_MULTIPLE a request that thread A
 * completes in PMPI_Wait is freed there, and thread B may get the same
 * handle from its next MPI_Irecv and add it before A's wrapper has taken
 * the old entry.  So a handle may have two entries, each stamped with the
 * number of entries added before it (seq), and a completion takes the
 * newest entry added before the call began (its ticket): A's old one, not
 * B's, which B's later call finds.
 */
#include <stdlib.h>
#include <string.h>

#include "cp_internal.h"

typedef struct slot {
    uint64_t key;
    uint64_t seq; /* when it was added */
    int full;
    cp_req_info info;
} slot;

typedef struct table {
    pthread_mutex_t lock;
    slot *s;
    size_t cap;
    size_t live;  /* entries, read without the lock by table_empty */
    uint64_t seq; /* entries ever added, read without the lock */
} table;

static table requests = {.lock = PTHREAD_MUTEX_INITIALIZER};
static table messages = {.lock = PTHREAD_MUTEX_INITIALIZER};

static void lock(table *t)
{
    if (cp.threaded)
        pthread_mutex_lock(&t->lock);
}

static void unlock(table *t)
{
    if (cp.threaded)
        pthread_mutex_unlock(&t->lock);
}

/* Add d to the count of entries; caller holds the lock. */
static void count_live(table *t, int d)
{
    if (cp.threaded)
        __atomic_add_fetch(&t->live, (size_t)d, __ATOMIC_RELAXED);
    else
        t->live += (size_t)d;
}

/* A handle as a table key (handles are pointers or integers). */
#define KEY(h) key_of(&(h), sizeof(h))
static uint64_t key_of(const void *h, size_t size)
{
    uint64_t k = 0;
    memcpy(&k, h, size < sizeof k ? size : sizeof k);
    return k;
}

static size_t home(const table *t, uint64_t x)
{
    x ^= x >> 17;
    x *= 0x9e3779b97f4a7c15ULL;
    return (size_t)(x >> 16) & (t->cap - 1);
}

/* The empty slot where key goes; caller holds the lock. */
static size_t free_slot(const table *t, uint64_t key)
{
    size_t i = home(t, key);
    while (t->s[i].full)
        i = (i + 1) & (t->cap - 1);
    return i;
}

/* The slot of the newest entry for key added before `ticket`, or
 * (size_t)-1; caller holds the lock. */
static size_t find(const table *t, uint64_t key, uint64_t ticket)
{
    size_t best = (size_t)-1;
    for (size_t i = home(t, key); t->s[i].full; i = (i + 1) & (t->cap - 1))
        if (t->s[i].key == key && t->s[i].seq < ticket &&
            (best == (size_t)-1 || t->s[i].seq > t->s[best].seq))
            best = i;
    return best;
}

/* Empty slot i and move later entries of its probe chain back, so that
 * every chain stays unbroken without tombstones (which would fill the
 * table as requests come and go); caller holds the lock. */
static void remove_at(table *t, size_t i)
{
    size_t mask = t->cap - 1;
    for (size_t j = (i + 1) & mask; t->s[j].full; j = (j + 1) & mask) {
        /* The entry at j may move to i unless its home lies in (i, j]. */
        size_t h = home(t, t->s[j].key);
        if (((j - h) & mask) >= ((j - i) & mask)) {
            t->s[i] = t->s[j];
            i = j;
        }
    }
    t->s[i].full = 0;
    count_live(t, -1);
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
    for (size_t i = 0; i < ocap; i++)
        if (old[i].full)
            t->s[free_slot(t, old[i].key)] = old[i];
    free(old);
    return 0;
}

static void table_add(table *t, uint64_t key, const cp_req_info *info)
{
    lock(t);
    if ((t->live + 1) * 2 > t->cap && grow(t, 256) != 0) {
        unlock(t);
        return; /* untracked: its completion counts as plain p2p */
    }
    t->s[free_slot(t, key)] =
        (slot){.key = key, .seq = t->seq, .full = 1, .info = *info};
    __atomic_store_n(&t->seq, t->seq + 1, __ATOMIC_RELAXED);
    count_live(t, 1);
    unlock(t);
}

static int table_empty(table *t)
{
    return __atomic_load_n(&t->live, __ATOMIC_RELAXED) == 0;
}

static uint64_t ticket(table *t)
{
    return __atomic_load_n(&t->seq, __ATOMIC_RELAXED);
}

/* Find key among the entries added before `ticket`; forget it when
 * `remove` (unless it is persistent and `keep_persistent`). */
static int lookup(table *t, uint64_t key, uint64_t ticket, cp_req_info *info,
                  int remove, int keep_persistent)
{
    if (table_empty(t))
        return 0;
    lock(t);
    size_t i = t->cap ? find(t, key, ticket) : (size_t)-1;
    if (i != (size_t)-1) {
        if (info)
            *info = t->s[i].info;
        if (remove && !(keep_persistent && t->s[i].info.persistent))
            remove_at(t, i);
    }
    unlock(t);
    return i != (size_t)-1;
}

static void table_free(table *t)
{
    pthread_mutex_lock(&t->lock);
    for (size_t i = 0; i < t->cap; i++)
        if (t->s[i].full)
            free(t->s[i].info.peers); /* a persistent collective's */
    free(t->s);
    t->s = NULL;
    t->cap = t->live = 0;
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

uint64_t cp_req_ticket(void)
{
    return ticket(&requests);
}

int cp_req_take(MPI_Request req, uint64_t ticket, cp_req_info *info)
{
    return req != MPI_REQUEST_NULL &&
           lookup(&requests, KEY(req), ticket, info, 1, 1);
}

int cp_req_find(MPI_Request req, cp_req_info *info)
{
    return req != MPI_REQUEST_NULL &&
           lookup(&requests, KEY(req), ticket(&requests), info, 0, 0);
}

void cp_req_forget(MPI_Request req)
{
    cp_req_info info;
    if (req != MPI_REQUEST_NULL &&
        lookup(&requests, KEY(req), ticket(&requests), &info, 1, 0))
        free(info.peers);
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
        !lookup(&messages, KEY(msg), ticket(&messages), &info, 1, 0))
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

void cp_completed(const MPI_Request *before, int n, const int *idx,
                  const MPI_Status *st, int64_t t0, uint64_t ticket)
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
        if (!cp_req_take(before[i], ticket, &info))
            continue;
        if (!typed) {
            type = info.type;
            coll_rec = info.type != CP_P2P ? info.rec : NULL;
            typed = 1;
        }
        if (info.type != CP_P2P || info.persistent == CP_PERSIST_SEND ||
            !(on || !info.persistent))
            continue;
        if (info.posted && info.peer_world >= 0)
            cp_received_bytes(info.peer_world, info.bytes);
        else if (info.posted && !CP_POSTED_STATUS)
            continue; /* MPI_ANY_SOURCE, and a status the MPI left unset */
        else if (info.rec && st && !cp_status_cancelled(&st[k]))
            cp_received_rec(info.rec, &st[k]);
    }
    if (!on)
        return;
    int64_t now = cp_now();
    cp_charge(type, now - t0);
    if (coll_rec)
        cp_coll_wait(coll_rec, type, now - t0);
}

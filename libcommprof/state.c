/* state.c: libcommprof's state, its start and end, and the accounting
 * helpers the wrappers call. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cp_internal.h"

cp_state cp = {.lock = PTHREAD_MUTEX_INITIALIZER};

const char *const cp_type_names[CP_NTYPES] = {
#define CP_NAME(id, name) name,
    CP_TYPES(CP_NAME)
#undef CP_NAME
};

/* One line, written with one write(2): the ranks of a job share stderr,
 * and a line written in pieces came out mixed with other ranks' lines. */
void cp_warn(const char *fmt, ...)
{
    char line[1024];
    int n = snprintf(line, sizeof line, "commprof (rank %d): ", cp.world_rank);
    va_list ap;
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < sizeof line - 1)
        n += vsnprintf(line + n, sizeof line - 1 - (size_t)n, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n > sizeof line - 2)
        n = (int)sizeof line - 2;
    line[n++] = '\n';
    fflush(stderr);
    ssize_t rc = write(STDERR_FILENO, line, (size_t)n);
    (void)rc; /* nowhere to say that stderr failed */
}

/* An environment switch, spelled the same for every one, in any case:
 * 0, off, no, false or 1, on, yes, true; unset or empty: dflt.  Any other
 * value (COMMPROF_START=later, COMMPROF_ENABLE=disable) is a mistake that
 * once turned the switch on unnoticed: it is warned, naming the value and
 * what `dflt_means` (the documented default) does, and dflt is taken. */
static int env_flag(const char *name, int dflt, const char *dflt_means)
{
    static const char *const spellings[2][4] = {
        {"0", "off", "no", "false"}, {"1", "on", "yes", "true"}};
    const char *v = getenv(name);
    if (!v || !*v)
        return dflt;
    for (int on = 0; on < 2; on++)
        for (int i = 0; i < 4; i++)
            if (strcasecmp(v, spellings[on][i]) == 0)
                return on;
    cp_warn("%s=%s: not 0/off/no/false or 1/on/yes/true, %s", name, v,
            dflt_means);
    return dflt;
}

/* The sizes of the predefined datatypes, the ones most calls pass, in an
 * open-addressing table filled at MPI_Init and only read after it (no
 * lock): a lookup costs a few ns less than PMPI_Type_size_x, on every
 * send.  Predefined types are never freed, so no entry goes stale. */
#define SIZES_BITS 7
static struct size_slot {
    uint64_t key; /* the handle; 0: empty */
    uint64_t size;
} sizes[1 << SIZES_BITS];

static uint64_t type_key(MPI_Datatype dt)
{
    uint64_t k = 0;
    memcpy(&k, &dt, sizeof dt < sizeof k ? sizeof dt : sizeof k);
    return k;
}

static size_t size_slot(uint64_t key)
{
    return (size_t)((key * 0x9e3779b97f4a7c15ULL) >> (64 - SIZES_BITS));
}

static void sizes_init(void)
{
    const MPI_Datatype predefined[] = {
        MPI_CHAR, MPI_SIGNED_CHAR, MPI_UNSIGNED_CHAR, MPI_BYTE, MPI_SHORT,
        MPI_UNSIGNED_SHORT, MPI_INT, MPI_UNSIGNED, MPI_LONG, MPI_UNSIGNED_LONG,
        MPI_LONG_LONG, MPI_UNSIGNED_LONG_LONG, MPI_FLOAT, MPI_DOUBLE,
        MPI_LONG_DOUBLE, MPI_WCHAR, MPI_C_BOOL, MPI_INT8_T, MPI_INT16_T,
        MPI_INT32_T, MPI_INT64_T, MPI_UINT8_T, MPI_UINT16_T, MPI_UINT32_T,
        MPI_UINT64_T, MPI_AINT, MPI_COUNT, MPI_OFFSET, MPI_C_FLOAT_COMPLEX,
        MPI_C_DOUBLE_COMPLEX, MPI_PACKED, MPI_FLOAT_INT, MPI_DOUBLE_INT,
        MPI_LONG_INT, MPI_2INT, MPI_SHORT_INT, MPI_INTEGER, MPI_REAL,
        MPI_DOUBLE_PRECISION, MPI_COMPLEX, MPI_DOUBLE_COMPLEX, MPI_LOGICAL,
        MPI_CHARACTER, MPI_2INTEGER, MPI_2REAL, MPI_2DOUBLE_PRECISION};
    size_t mask = ((size_t)1 << SIZES_BITS) - 1;
    for (size_t j = 0; j < sizeof predefined / sizeof *predefined; j++) {
        MPI_Count size = 0;
        uint64_t key = type_key(predefined[j]);
        if (!key || PMPI_Type_size_x(predefined[j], &size) != MPI_SUCCESS ||
            size <= 0)
            continue; /* a type this library lacks (no Fortran) */
        size_t i = size_slot(key);
        while (sizes[i].key && sizes[i].key != key)
            i = (i + 1) & mask;
        sizes[i] = (struct size_slot){key, (uint64_t)size};
    }
}

/* Make phase i (index into cp.phases) the one the wrappers add to. */
static void enter(int i)
{
    struct cp_phase *ph = &cp.phases[i];
    size_t n = (size_t)cp.world_size;
    cp.type_ticks = ph->type_ticks;
    cp.type_calls = ph->type_calls;
    cp.sent_bytes = ph->rows;
    cp.sent_msgs = ph->rows + n;
    cp.recv_bytes = ph->rows + 2 * n;
    cp.recv_msgs = ph->rows + 3 * n;
    cp.rma_bytes = ph->rows + 4 * n;
    cp.rma_ops = ph->rows + 5 * n;
    __atomic_store_n(&cp.phase, i, __ATOMIC_RELEASE);
}

/* Where the profile goes: COMMPROF_OUT, else commprof.json.  A world
 * that MPI_Comm_spawn started is a job of its own, writing while its
 * parents run: its files get ".spawn-HOST-PID" (its rank 0's host and
 * process), so that neither job's profile overwrites the other's. */
static char *out_path(void)
{
    const char *out = getenv("COMMPROF_OUT");
    if (!out || !*out)
        out = "commprof.json";
    MPI_Comm parent = MPI_COMM_NULL;
    PMPI_Comm_get_parent(&parent);
    char tag[96] = "";
    if (parent != MPI_COMM_NULL) {
        if (cp.world_rank == 0) {
            char host[64] = "host";
            gethostname(host, sizeof host);
            host[sizeof host - 1] = '\0';
            snprintf(tag, sizeof tag, ".spawn-%s-%ld", host, (long)getpid());
        }
        PMPI_Bcast(tag, (int)sizeof tag, MPI_CHAR, 0, MPI_COMM_WORLD);
        tag[sizeof tag - 1] = '\0';
    }
    size_t len = strlen(out) + strlen(tag) + 1;
    char *path = malloc(len);
    if (path)
        snprintf(path, len, "%s%s", out, tag);
    return path;
}

void cp_start(void)
{
    if (cp.initialized)
        return;
    /* The rank first: a warning about COMMPROF_ENABLE names it. */
    PMPI_Comm_rank(MPI_COMM_WORLD, &cp.world_rank);
    cp.enabled = env_flag("COMMPROF_ENABLE", 1, "profiling on");
    if (!cp.enabled)
        return;
    int level = MPI_THREAD_SINGLE;
    PMPI_Query_thread(&level);
    cp.threaded = level == MPI_THREAD_MULTIPLE;
    PMPI_Comm_size(MPI_COMM_WORLD, &cp.world_size);
    uint64_t *block = calloc(CP_ROWS * (size_t)cp.world_size, sizeof *block);
    if (!block || cp_tables_init() != 0) {
        cp_warn("out of memory at MPI_Init: profiling disabled");
        free(block);
        cp_tables_free();
        cp.enabled = 0;
        return;
    }
    cp.phases[0].level = 1;
    cp.phases[0].rows = block;
    cp.nphases = 1;
    enter(0);
    cp_comm_keyval_create();
    PMPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN,
                           &cp.win_keyval, NULL);
    cp_take_facts();
    sizes_init();
    cp_clock_init();
    cp.t_init = cp_now();
    cp_cuda_look(cp.t_init);
    if (cp.cuda)
        cp_cuda_facts(1);
    cp.out = out_path();
    cp.initialized = 1;
    cp_partial_setup();
    cp.recording = env_flag("COMMPROF_START", 1, "recording from MPI_Init");
}

void cp_finish(void)
{
    if (!cp.initialized || cp.finalized)
        return;
    cp.recording = 0;
    cp_partial_stop();
    cp.t_finalize = cp_now();
    cp_cuda_facts(1);
    cp_write_profile();
    cp_cuda_end();
    cp.finalized = 1;
    cp_partial_teardown();
    cp_tables_free();
    cp_comms_free();
    for (int i = 0; i < cp.nphases; i++) {
        free(cp.phases[i].rows);
        cp.phases[i].rows = NULL;
    }
    cp.sent_bytes = NULL;
}

/* MPI_Pcontrol(0) stops recording, (1) starts it, (2) clears what was
 * recorded so far (every phase), as the MPI standard and mpiP have them;
 * (k) for k >= 3 starts phase k, and recording: what follows is recorded
 * in phase k until another phase starts, and entering phase k again adds
 * to it.  The first phase, from MPI_Init, is level 1.  mpiP gives levels
 * 3 and 4 to reports, which a profile written once at the end has no use
 * for.  Negative levels are ignored, as the standard allows.
 * Words are cleared one by one with atomic stores: other threads may be
 * adding to them. */
static void zero(uint64_t *a, size_t n)
{
    for (size_t i = 0; i < n; i++)
        __atomic_store_n(&a[i], 0, __ATOMIC_RELAXED);
}

static void clear_counters(void)
{
    zero(cp.kind_bytes, CP_MEM_KINDS);
    for (int i = 0; i < cp.nphases; i++) {
        zero(cp.phases[i].type_ticks, CP_NTYPES);
        zero(cp.phases[i].type_calls, CP_NTYPES);
        zero(cp.phases[i].rows, CP_ROWS * (size_t)cp.world_size);
    }
    pthread_mutex_lock(&cp.lock);
    for (cp_comm *c = cp.comms; c; c = c->next)
        for (int i = 0; i < CP_MAX_PHASES; i++) {
            cp_coll *ks = __atomic_load_n(&c->phase[i], __ATOMIC_ACQUIRE);
            for (int t = 0; ks && t < CP_NTYPES; t++) {
                cp_coll *k = &ks[t];
                zero(&k->calls, 1);
                zero(&k->bytes, 1);
                zero(&k->ticks, 1);
                uint64_t *peers = __atomic_load_n(&k->peers, __ATOMIC_ACQUIRE);
                if (peers)
                    zero(peers, (size_t)cp_comm_peers(c));
            }
        }
    pthread_mutex_unlock(&cp.lock);
}

/* Enter the phase of `level`, made on its first entry.  A new phase's
 * block is published before the phase count that lets a partial profile
 * written from a signal handler see it. */
static void start_phase(int level)
{
    int i = 0;
    while (i < cp.nphases && cp.phases[i].level != level)
        i++;
    if (i == cp.nphases) {
        static int warned;
        uint64_t *rows = NULL;
        if (i < CP_MAX_PHASES)
            rows = calloc(CP_ROWS * (size_t)cp.world_size, sizeof *rows);
        if (!rows) {
            int now = cp.phases[cp.phase].level;
            if (!warned && i < CP_MAX_PHASES)
                cp_warn("MPI_Pcontrol(%d): out of memory for a new phase; "
                        "recording goes on in phase %d",
                        level, now);
            else if (!warned)
                cp_warn("MPI_Pcontrol(%d): more than %d phases; recording "
                        "goes on in phase %d (levels of later phases are "
                        "not recorded)",
                        level, CP_MAX_PHASES, now);
            warned = 1;
            return;
        }
        cp.phases[i].level = level;
        cp.phases[i].rows = rows;
        __atomic_store_n(&cp.nphases, i + 1, __ATOMIC_RELEASE);
    }
    enter(i);
}

int MPI_Pcontrol(const int level, ...)
{
    if (!cp.initialized || cp.finalized)
        return MPI_SUCCESS;
    if (level == 0)
        __atomic_store_n(&cp.recording, 0, __ATOMIC_RELAXED);
    else if (level == 1)
        __atomic_store_n(&cp.recording, 1, __ATOMIC_RELAXED);
    else if (level == 2)
        clear_counters();
    else if (level >= 3) {
        pthread_mutex_lock(&cp.lock);
        start_phase(level);
        pthread_mutex_unlock(&cp.lock);
        __atomic_store_n(&cp.recording, 1, __ATOMIC_RELAXED);
    }
    return MPI_SUCCESS;
}

/* ------------------------------------------------------------ accounting */

uint64_t cp_bytes(MPI_Count count, MPI_Datatype dt)
{
    if (count <= 0 || dt == MPI_DATATYPE_NULL)
        return 0;
    uint64_t key = type_key(dt);
    size_t mask = ((size_t)1 << SIZES_BITS) - 1;
    for (size_t i = size_slot(key); sizes[i].key; i = (i + 1) & mask)
        if (sizes[i].key == key)
            return (uint64_t)count * sizes[i].size;
    MPI_Count size = 0;
    if (PMPI_Type_size_x(dt, &size) != MPI_SUCCESS || size <= 0)
        return 0;
    return (uint64_t)count * (uint64_t)size;
}

/* Members of the group that comm's peers are in. */
static int peer_count(MPI_Comm comm)
{
    if (comm == MPI_COMM_WORLD)
        return cp.world_size;
    cp_comm *c = cp_comm_get(comm);
    return c ? cp_comm_peers(c) : 0;
}

uint64_t cp_nbytes(MPI_Comm comm, MPI_Count count, MPI_Datatype dt)
{
    return (uint64_t)peer_count(comm) * cp_bytes(count, dt);
}

uint64_t cp_nbytes_local(MPI_Comm comm, MPI_Count count, MPI_Datatype dt)
{
    cp_comm *c = comm == MPI_COMM_WORLD ? NULL : cp_comm_get(comm);
    int n = comm == MPI_COMM_WORLD ? cp.world_size : c ? c->size : 0;
    return (uint64_t)n * cp_bytes(count, dt);
}

int cp_comm_rank(MPI_Comm comm)
{
    int r = -1;
    PMPI_Comm_rank(comm, &r);
    return r;
}

void cp_rma(MPI_Win win, int target, uint64_t bytes, const void *buf)
{
    int world = cp_win_peer_world(win, target);
    if (world < 0 || world >= cp.world_size)
        return;
    cp_add(&cp.rma_bytes[world], bytes);
    cp_add(&cp.rma_ops[world], 1);
    cp_kind(buf, bytes);
}

cp_coll *cp_phase_colls(cp_comm *c, int phase)
{
    cp_coll *k = calloc(CP_NTYPES, sizeof *k), *expected = NULL;
    if (k && !__atomic_compare_exchange_n(&c->phase[phase], &expected, k, 0,
                                          __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        free(k); /* another thread was first */
        k = expected;
    }
    return k;
}

/* The record k (of c) with room for per-peer bytes; NULL when memory is
 * short. */
static uint64_t *peers_of(const cp_comm *c, cp_coll *k)
{
    uint64_t *p = __atomic_load_n(&k->peers, __ATOMIC_ACQUIRE);
    if (p)
        return p;
    p = calloc((size_t)cp_comm_peers(c), sizeof *p);
    uint64_t *expected = NULL;
    if (p && !__atomic_compare_exchange_n(&k->peers, &expected, p, 0,
                                          __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        free(p); /* another thread was first */
        p = expected;
    }
    return p;
}

/* Where a collective's call is recorded: `into` (a persistent
 * collective's init), else the record of type t on c in the current
 * phase; NULL without c or when memory is short. */
static cp_coll *rec_of(cp_coll *into, cp_comm *c, cp_type t)
{
    if (into)
        return c ? into : NULL;
    cp_coll *k = c ? cp_colls(c) : NULL;
    return k ? k + t : NULL;
}

/* One call; the bytes count by memory kind in the live record only (a
 * persistent collective's count at each start). */
static void add_call(const cp_coll *into, cp_coll *k, uint64_t bytes,
                     int64_t ticks, const void *buf)
{
    cp_add(&k->calls, 1);
    cp_add(&k->bytes, bytes);
    cp_add(&k->ticks, (uint64_t)(ticks > 0 ? ticks : 0));
    if (!into)
        cp_kind(buf, bytes);
}

void cp_coll_add(cp_coll *into, MPI_Comm comm, cp_type t, uint64_t bytes,
                 int64_t ticks, const void *buf)
{
    cp_coll *k = rec_of(into, cp_comm_get(comm), t);
    if (k)
        add_call(into, k, bytes, ticks, buf);
}

void cp_coll_wait(cp_comm *rec, cp_type t, int64_t ticks)
{
    cp_coll *k = rec_of(NULL, rec, t);
    if (k)
        cp_add(&k->ticks, (uint64_t)(ticks > 0 ? ticks : 0));
}

void cp_coll_started(cp_comm *rec, cp_type t, uint64_t bytes,
                     const uint64_t *peers, int64_t ticks, const void *buf)
{
    cp_coll *k = rec_of(NULL, rec, t);
    if (!k)
        return;
    uint64_t *mine = peers ? peers_of(rec, k) : NULL;
    for (int i = 0, n = cp_comm_peers(rec); mine && i < n; i++)
        if (peers[i])
            cp_add(&mine[i], peers[i]);
    add_call(NULL, k, bytes, ticks, buf);
}

void cp_coll_peers(cp_coll *into, MPI_Comm comm, cp_type t, cp_counts counts,
                   const MPI_Datatype *types, MPI_Datatype type, int64_t ticks,
                   const void *buf)
{
    cp_comm *c = cp_comm_get(comm);
    cp_coll *k = rec_of(into, c, t);
    uint64_t *peers = k ? peers_of(c, k) : NULL;
    if (!peers)
        return;
    uint64_t sum = 0;
    for (int i = 0, n = cp_comm_peers(c); i < n; i++) {
        uint64_t b = cp_bytes(cp_count(counts, i), types ? types[i] : type);
        cp_add(&peers[i], b);
        sum += b;
    }
    add_call(into, k, sum, ticks, buf);
}

void cp_coll_reduce_scatter(cp_coll *into, MPI_Comm comm, cp_type t,
                            cp_counts counts, MPI_Datatype type,
                            int64_t ticks, const void *buf)
{
    cp_comm *c = cp_comm_get(comm);
    if (!c || !c->remote_size) {
        cp_coll_peers(into, comm, t, counts, NULL, type, ticks, buf);
        return;
    }
    cp_coll *k = rec_of(into, c, t);
    if (!k)
        return;
    uint64_t sum = 0;
    for (int i = 0; i < c->size; i++)
        sum += cp_bytes(cp_count(counts, i), type);
    add_call(into, k, sum, ticks, buf);
}

void cp_coll_from_root(cp_coll *into, MPI_Comm comm, cp_type t, int root,
                       cp_counts counts, MPI_Count count, MPI_Datatype type,
                       int one_block, int64_t ticks, const void *buf)
{
    cp_comm *c = cp_comm_get(comm);
    cp_coll *k = rec_of(into, c, t);
    if (!k)
        return;
    /* An intercommunicator's root (MPI_ROOT) sends to every remote
     * member; an intracommunicator's to every member but itself. */
    int me = c->remote_size ? -1 : cp_comm_rank(comm);
    if (root != MPI_ROOT && (me < 0 || root != me)) {
        add_call(into, k, 0, ticks, NULL);
        return;
    }
    uint64_t *peers = peers_of(c, k);
    int each = cp_counts_given(counts);
    uint64_t block = each ? 0 : cp_bytes(count, type), sum = 0;
    for (int i = 0, n = cp_comm_peers(c); i < n; i++) {
        uint64_t b = each ? cp_bytes(cp_count(counts, i), type) : block;
        sum += b;
        if (i != me && peers)
            cp_add(&peers[i], b);
    }
    add_call(into, k, one_block ? block : sum, ticks, buf);
}

void cp_coll_to_root(cp_coll *into, MPI_Comm comm, cp_type t, int root,
                     MPI_Count count, MPI_Datatype type, int64_t ticks,
                     const void *buf)
{
    cp_comm *c = cp_comm_get(comm);
    cp_coll *k = rec_of(into, c, t);
    if (!k)
        return;
    if (root == MPI_ROOT || root == MPI_PROC_NULL) {
        add_call(into, k, 0, ticks, NULL);
        return;
    }
    uint64_t bytes = cp_bytes(count, type);
    if (root >= 0 && root < cp_comm_peers(c) &&
        (c->remote_size || root != cp_comm_rank(comm))) {
        uint64_t *peers = peers_of(c, k);
        if (peers)
            cp_add(&peers[root], bytes);
    }
    add_call(into, k, bytes, ticks, buf);
}

void cp_coll_neighbors(cp_coll *into, MPI_Comm comm, cp_type t,
                       cp_counts counts, MPI_Count count,
                       const MPI_Datatype *types, MPI_Datatype type,
                       int one_block, int64_t ticks, const void *buf)
{
    cp_comm *c;
    const int *out;
    int n = cp_comm_neighbors(comm, &c, &out);
    cp_coll *k = n < 0 ? NULL : rec_of(into, c, t);
    if (!k)
        return;
    uint64_t *peers = peers_of(c, k);
    int each = cp_counts_given(counts) || types; /* per neighbour */
    uint64_t block = each ? 0 : cp_bytes(count, type), sum = 0;
    for (int j = 0; j < n; j++) {
        uint64_t b = each ? cp_bytes(cp_counts_given(counts)
                                         ? cp_count(counts, j)
                                         : count,
                                     types ? types[j] : type)
                          : block;
        sum += b;
        if (out[j] >= 0 && peers)
            cp_add(&peers[out[j]], b);
    }
    add_call(into, k, one_block ? block : sum, ticks, buf);
}

/* profile_merge.c: merging per-rank partial profiles (what each rank
 * leaves when the application never reaches MPI_Finalize) into one
 * profile.  Ranks move over as they are; communicators with the same
 * members and remote group, found through a hash of their groups, become
 * one, numbered and ordered as libcommprof's writer does it, so a merge
 * of every rank's partial file is the profile a finished run writes.
 * Partial files are added one at a time and freed, so the memory held is
 * that of the result, not of all the inputs. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "profile_internal.h"

/* A communicator of the result, with where it first appears: the writer
 * numbers communicators by the lowest rank with records on them, then by
 * their order among that rank's communicators. */
typedef struct group {
    tg_prof_comm comm;
    int cap;        /* room in comm.colls */
    int phase_cap;  /* room in comm.phase_colls */
    uint64_t hash;
    int rank, pos;  /* first appearance */
} group;

struct tg_profile_merge {
    tg_profile *p;  /* the result so far; NULL before the first add */
    char **sources; /* of the partial profiles added */
    int nsources;
    int *from;      /* per world rank: index in sources */
    int job_src;    /* index in sources of the first with a job id, or -1 */
    group *groups;
    int ngroups, capgroups;
    int *slots;     /* hash table: group index + 1, or 0 */
    size_t nslots;  /* a power of two, at least twice ngroups */
    /* Cartesian communicators, each once, with where they first appear
     * (ordered as groups are). */
    struct cart {
        tg_prof_cart cart;
        int rank, pos;
    } *carts;
    int ncarts, capcarts;
};

tg_profile_merge *tg_profile_merge_new(void)
{
    tg_profile_merge *m = calloc(1, sizeof(tg_profile_merge));
    if (m)
        m->job_src = -1;
    return m;
}

void tg_profile_merge_free(tg_profile_merge *m)
{
    if (!m)
        return;
    tg_profile_free(m->p);
    for (int i = 0; i < m->nsources; i++)
        free(m->sources[i]);
    free(m->sources);
    free(m->from);
    for (int g = 0; g < m->ngroups; g++)
        tg_prof_comm_clear(&m->groups[g].comm);
    free(m->groups);
    free(m->slots);
    for (int c = 0; c < m->ncarts; c++)
        tg_prof_cart_clear(&m->carts[c].cart);
    free(m->carts);
    free(m);
}

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdULL;
}

static uint64_t group_hash(const tg_prof_comm *c)
{
    uint64_t h = mix(0, (uint64_t)c->size);
    for (int i = 0; i < c->size; i++)
        h = mix(h, (uint64_t)c->members[i]);
    h = mix(h, (uint64_t)c->remote_size);
    for (int i = 0; i < c->remote_size; i++)
        h = mix(h, (uint64_t)c->remote[i]);
    return h;
}

static int same_groups(const tg_prof_comm *a, const tg_prof_comm *b)
{
    return a->size == b->size && a->remote_size == b->remote_size &&
           !memcmp(a->members, b->members, (size_t)a->size * sizeof(int)) &&
           (!a->remote_size ||
            !memcmp(a->remote, b->remote,
                    (size_t)a->remote_size * sizeof(int)));
}

/* The slot where a group with hash h and groups like c is or would go. */
static size_t find_slot(const tg_profile_merge *m, uint64_t h,
                        const tg_prof_comm *c)
{
    size_t s = (size_t)h & (m->nslots - 1);
    while (m->slots[s]) {
        const group *g = &m->groups[m->slots[s] - 1];
        if (g->hash == h && same_groups(&g->comm, c))
            break;
        s = (s + 1) & (m->nslots - 1);
    }
    return s;
}

/* Room for one more group, in the array and in the table. */
static int grow_groups(tg_profile_merge *m)
{
    if (m->ngroups == m->capgroups) {
        int cap = m->capgroups ? 2 * m->capgroups : 16;
        group *g = realloc(m->groups, (size_t)cap * sizeof *g);
        if (!g)
            return -1;
        m->groups = g;
        m->capgroups = cap;
    }
    if (2 * ((size_t)m->ngroups + 1) <= m->nslots)
        return 0;
    size_t n = m->nslots ? 2 * m->nslots : 64;
    int *slots = calloc(n, sizeof *slots);
    if (!slots)
        return -1;
    free(m->slots);
    m->slots = slots;
    m->nslots = n;
    for (int i = 0; i < m->ngroups; i++)
        m->slots[find_slot(m, m->groups[i].hash, &m->groups[i].comm)] = i + 1;
    return 0;
}

/* Append the *nfrom records `from` to *to (*n of them, room for *cap),
 * leaving none in from (the peers move with the records). */
static int move_records(tg_prof_coll **to, int *n, int *cap,
                        const tg_prof_coll *from, int *nfrom)
{
    if (*n + *nfrom > *cap) {
        int room = 2 * (*n + *nfrom);
        tg_prof_coll *k = realloc(*to, (size_t)room * sizeof *k);
        if (!k)
            return TG_ENOMEM;
        *to = k;
        *cap = room;
    }
    if (*nfrom)
        memcpy(*to + *n, from, (size_t)*nfrom * sizeof *from);
    *n += *nfrom;
    *nfrom = 0;
    return 0;
}

/* Move communicator c (position pos in its file, with records) into the
 * result, leaving c without records. */
static int add_comm(tg_profile_merge *m, tg_prof_comm *c, int pos)
{
    int first = INT_MAX;
    for (int i = 0; i < c->ncolls; i++)
        if (c->colls[i].rank < first)
            first = c->colls[i].rank;
    uint64_t h = group_hash(c);
    if (grow_groups(m))
        return TG_ENOMEM;
    size_t s = find_slot(m, h, c);
    group *g;
    if (m->slots[s]) {
        g = &m->groups[m->slots[s] - 1];
        if (first < g->rank || (first == g->rank && pos < g->pos)) {
            g->rank = first;
            g->pos = pos;
        }
    } else {
        g = &m->groups[m->ngroups];
        *g = (group){.comm = *c, .hash = h, .rank = first, .pos = pos};
        g->comm.ncolls = 0;
        g->comm.colls = NULL;
        g->comm.nphase_colls = 0;
        g->comm.phase_colls = NULL;
        c->members = c->remote = NULL;
        m->slots[s] = ++m->ngroups;
    }
    if (move_records(&g->comm.colls, &g->comm.ncolls, &g->cap, c->colls,
                     &c->ncolls) ||
        move_records(&g->comm.phase_colls, &g->comm.nphase_colls,
                     &g->phase_cap, c->phase_colls, &c->nphase_colls))
        return TG_ENOMEM;
    return 0;
}

static int same_cart(const tg_prof_cart *a, const tg_prof_cart *b)
{
    return a->ndims == b->ndims && a->size == b->size &&
           !memcmp(a->dims, b->dims, 2 * (size_t)a->ndims * sizeof(int)) &&
           !memcmp(a->members, b->members, (size_t)a->size * sizeof(int));
}

/* Move Cartesian communicator c (position pos in a file of rank `rank`)
 * into the result unless it is there. */
static int add_cart(tg_profile_merge *m, tg_prof_cart *c, int rank, int pos)
{
    for (int i = 0; i < m->ncarts; i++)
        if (same_cart(&m->carts[i].cart, c)) {
            struct cart *k = &m->carts[i];
            if (rank < k->rank || (rank == k->rank && pos < k->pos)) {
                k->rank = rank;
                k->pos = pos;
            }
            return 0;
        }
    if (m->ncarts == m->capcarts) {
        int cap = m->capcarts ? 2 * m->capcarts : 8;
        struct cart *k = realloc(m->carts, (size_t)cap * sizeof *k);
        if (!k)
            return TG_ENOMEM;
        m->carts = k;
        m->capcarts = cap;
    }
    m->carts[m->ncarts++] = (struct cart){*c, rank, pos};
    memset(c, 0, sizeof *c);
    return 0;
}

/* Add part's phases to the result's: the levels of all, ascending. */
static int add_phases(tg_profile *p, const tg_profile *part)
{
    if (!part->nphases)
        return 0;
    int *all = malloc(((size_t)p->nphases + (size_t)part->nphases) *
                      sizeof *all);
    if (!all)
        return TG_ENOMEM;
    int n = 0, i = 0, j = 0;
    while (i < p->nphases || j < part->nphases) {
        int a = i < p->nphases ? p->phases[i] : INT_MAX;
        int b = j < part->nphases ? part->phases[j] : INT_MAX;
        all[n++] = a < b ? a : b;
        i += a <= b;
        j += b <= a;
    }
    free(p->phases);
    p->phases = all;
    p->nphases = n;
    return 0;
}

/* Does `part` fit what was added before? */
static int check_part(const tg_profile_merge *m, const tg_profile *part,
                      const char *source, tg_error *err)
{
    if (!part->partial)
        return tg_error_set(err, TG_EINVAL, source, 0,
                            "not a partial profile (no \"partial\": true)");
    if (!m->p)
        return 0;
    const char *first = m->sources[0];
    /* Ranks of two runs must not make one profile.  A file without a job
     * id (an older libcommprof) cannot be checked: the caller says so. */
    if (part->job_id[0] && m->job_src >= 0 &&
        strcmp(part->job_id, m->p->job_id) != 0)
        return tg_error_set(err, TG_EINVAL, source, 0,
                            "from job %s, but %s is from job %s: partial "
                            "profiles of different runs cannot be merged",
                            part->job_id, m->sources[m->job_src],
                            m->p->job_id);
    if (part->world_size != m->p->world_size)
        return tg_error_set(err, TG_EINVAL, source, 0,
                            "world_size %d, but %s has world_size %d",
                            part->world_size, first, m->p->world_size);
    int same = part->ntypes == m->p->ntypes;
    for (int t = 0; same && t < part->ntypes; t++)
        same = !strcmp(part->types[t], m->p->types[t]);
    if (!same)
        return tg_error_set(err, TG_EINVAL, source, 0,
                            "its \"types\" differ from those of %s", first);
    for (int r = 0; r < part->world_size; r++)
        if (part->ranks[r].present && m->p->ranks[r].present)
            return tg_error_set(err, TG_EINVAL, source, 0,
                                "rank %d is also in %s", r,
                                m->sources[m->from[r]]);
    return 0;
}

/* The first partial profile gives the result its facts. */
static int start(tg_profile_merge *m, tg_profile *part)
{
    tg_profile *p = calloc(1, sizeof *p);
    int n = part->world_size;
    m->from = calloc((size_t)n, sizeof *m->from);
    if (p)
        p->ranks = calloc((size_t)n, sizeof *p->ranks);
    if (!p || !p->ranks || !m->from) {
        tg_profile_free(p);
        return TG_ENOMEM;
    }
    p->world_size = n;
    p->mpi_library = part->mpi_library;
    p->types = part->types;
    p->ntypes = part->ntypes;
    part->mpi_library = NULL;
    part->types = NULL;
    part->ntypes = 0;
    m->p = p;
    return 0;
}

int tg_profile_merge_add(tg_profile_merge *m, tg_profile *part,
                         const char *source, tg_error *err)
{
    int rc = check_part(m, part, source, err);
    char *name = rc ? NULL : strdup(source);
    char **s = name ? realloc(m->sources, (size_t)(m->nsources + 1) *
                                              sizeof *s)
                    : NULL;
    if (s)
        m->sources = s;
    if (!rc && (!s || (!m->p && start(m, part)))) {
        free(name);
        rc = tg_error_set(err, TG_ENOMEM, source, 0, "out of memory");
    }
    if (!rc) {
        int src = m->nsources;
        m->sources[m->nsources++] = name;
        if (part->job_id[0] && m->job_src < 0) {
            m->job_src = src;
            memcpy(m->p->job_id, part->job_id, sizeof part->job_id);
            m->p->job_start = part->job_start;
            m->p->job_host = part->job_host;
            part->job_host = NULL;
        }
        int first = -1;
        for (int r = 0; r < part->world_size; r++)
            if (part->ranks[r].present) {
                if (first < 0)
                    first = r;
                m->p->ranks[r] = part->ranks[r];
                memset(&part->ranks[r], 0, sizeof part->ranks[r]);
                m->from[r] = src;
                m->p->nranks++;
            }
        for (int c = 0; c < part->ncomms && !rc; c++)
            if (part->comms[c].ncolls && add_comm(m, &part->comms[c], c))
                rc = tg_error_set(err, TG_ENOMEM, source, 0, "out of memory");
        for (int c = 0; c < part->ncarts && !rc; c++)
            if (add_cart(m, &part->carts[c], first < 0 ? INT_MAX : first, c))
                rc = tg_error_set(err, TG_ENOMEM, source, 0, "out of memory");
        if (!rc && add_phases(m->p, part))
            rc = tg_error_set(err, TG_ENOMEM, source, 0, "out of memory");
    }
    tg_profile_free(part);
    return rc;
}

static int cmp_group(const void *a, const void *b)
{
    const group *x = a, *y = b;
    if (x->rank != y->rank)
        return (x->rank > y->rank) - (x->rank < y->rank);
    return (x->pos > y->pos) - (x->pos < y->pos);
}

static int cmp_cart(const void *a, const void *b)
{
    const struct cart *x = a, *y = b;
    if (x->rank != y->rank)
        return (x->rank > y->rank) - (x->rank < y->rank);
    return (x->pos > y->pos) - (x->pos < y->pos);
}

/* A record and where it came in, to sort records by rank stably. */
typedef struct ranked {
    int rank;
    int seq;
} ranked;

static int cmp_ranked(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    if (x->rank != y->rank)
        return (x->rank > y->rank) - (x->rank < y->rank);
    return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Order records by rank, keeping each rank's own order. */
static int sort_records(tg_prof_coll **colls, int n)
{
    ranked *key = malloc((size_t)(n ? n : 1) * sizeof *key);
    tg_prof_coll *sorted = malloc((size_t)(n ? n : 1) * sizeof *sorted);
    if (!key || !sorted) {
        free(key);
        free(sorted);
        return TG_ENOMEM;
    }
    for (int i = 0; i < n; i++)
        key[i] = (ranked){(*colls)[i].rank, i};
    qsort(key, (size_t)n, sizeof *key, cmp_ranked);
    for (int i = 0; i < n; i++)
        sorted[i] = (*colls)[key[i].seq];
    free(key);
    free(*colls);
    *colls = sorted;
    return 0;
}

int tg_profile_merge_finish(tg_profile_merge *m, tg_profile **out,
                            tg_error *err)
{
    if (!m->p)
        return tg_error_set(err, TG_EINVAL, "", 0, "no partial profile to "
                                                   "merge");
    tg_profile *p = m->p;
    if (m->ngroups)
        qsort(m->groups, (size_t)m->ngroups, sizeof *m->groups, cmp_group);
    p->comms = calloc((size_t)m->ngroups + 1, sizeof *p->comms);
    if (!p->comms)
        return tg_error_set(err, TG_ENOMEM, "", 0, "out of memory");
    for (int g = 0; g < m->ngroups; g++) {
        p->comms[g] = m->groups[g].comm;
        memset(&m->groups[g].comm, 0, sizeof m->groups[g].comm);
    }
    p->ncomms = m->ngroups;
    /* Empty again, for another merge. */
    m->ngroups = 0;
    m->p = NULL;
    if (m->slots)
        memset(m->slots, 0, m->nslots * sizeof *m->slots);
    for (int i = 0; i < m->nsources; i++)
        free(m->sources[i]);
    m->nsources = 0;
    m->job_src = -1;
    free(m->from);
    m->from = NULL;
    int rc = 0;
    for (int c = 0; c < p->ncomms && !rc; c++)
        rc = sort_records(&p->comms[c].colls, p->comms[c].ncolls) ||
             sort_records(&p->comms[c].phase_colls, p->comms[c].nphase_colls);
    /* Cartesian communicators in the order libcommprof's writer gives
     * them: by the lowest rank that has them, then by that rank's order. */
    if (m->ncarts) /* (qsort of NULL is undefined, even for 0 items) */
        qsort(m->carts, (size_t)m->ncarts, sizeof *m->carts, cmp_cart);
    p->carts = calloc((size_t)m->ncarts + 1, sizeof *p->carts);
    if (!p->carts)
        rc = 1;
    for (int c = 0; c < m->ncarts && !rc; c++)
        p->carts[p->ncarts++] = m->carts[c].cart;
    m->ncarts = rc ? m->ncarts : 0;
    if (!rc && p->nphases)
        rc = tg_profile_phases_fill(p);
    if (rc) {
        tg_profile_free(p);
        return tg_error_set(err, TG_ENOMEM, "", 0, "out of memory");
    }
    *out = p;
    return 0;
}

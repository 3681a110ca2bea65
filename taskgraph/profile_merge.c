/* profile_merge.c: merging per-rank partial profiles (what each rank
 * leaves when the application never reaches MPI_Finalize) into one
 * profile.  Ranks move over as they are; communicators with the same
 * members and remote group, found through a hash of their groups, become
 * one, numbered and ordered as libcommprof's writer does it, so a merge
 * of every rank's partial file is the profile a finished run writes;
 * Cartesian communicators, found through the same kind of hash, are kept
 * once each.  Partial files are added one at a time and freed, so the
 * memory held is that of the result, not of all the inputs; each costs
 * its own size (the ranks it lists, tg_profile.listed), not the world's,
 * so that merging a job's W files costs O(W) once, not O(W) per file. */
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
    int rank, pos;  /* first appearance */
} group;

/* A hash table of the indices of entries in an array (the groups, the
 * Cartesian communicators): open addressing, each slot with its entry's
 * hash, so that growing the table looks at no entry. */
typedef struct slot {
    uint64_t hash;
    int entry; /* index + 1, or 0: empty */
} slot;

typedef struct table {
    slot *slots;
    size_t nslots; /* a power of two, at least twice the entries */
} table;

struct tg_profile_merge {
    tg_profile *p;  /* the result so far; NULL before the first add */
    char **sources; /* of the partial profiles added */
    int nsources;
    int *from;      /* per world rank: index in sources */
    int job_src;    /* index in sources of the first with a job id, or -1 */
    group *groups;
    int ngroups, capgroups;
    table group_table;
    /* Cartesian communicators, each once, with where they first appear
     * (ordered as groups are). */
    struct cart {
        tg_prof_cart cart;
        int rank, pos;
    } *carts;
    int ncarts, capcarts;
    table cart_table;
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
    free(m->group_table.slots);
    for (int c = 0; c < m->ncarts; c++)
        tg_prof_cart_clear(&m->carts[c].cart);
    free(m->carts);
    free(m->cart_table.slots);
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

/* Is entry i of a table's array the key sought? */
typedef int same_fn(const tg_profile_merge *m, int i, const void *key);

static int same_group_at(const tg_profile_merge *m, int i, const void *key)
{
    return same_groups(&m->groups[i].comm, key);
}

/* The slot of t where the entry with hash h that `same` finds like key
 * is, or would go. */
static slot *find_slot(const tg_profile_merge *m, const table *t,
                       uint64_t h, same_fn *same, const void *key)
{
    size_t s = (size_t)h & (t->nslots - 1);
    while (t->slots[s].entry &&
           !(t->slots[s].hash == h && same(m, t->slots[s].entry - 1, key)))
        s = (s + 1) & (t->nslots - 1);
    return &t->slots[s];
}

/* Room in t, which holds n entries, for one more: 0, or -1. */
static int table_room(table *t, int n)
{
    if (2 * ((size_t)n + 1) <= t->nslots)
        return 0;
    size_t k = t->nslots ? 2 * t->nslots : 64;
    slot *slots = calloc(k, sizeof *slots);
    if (!slots)
        return -1;
    for (size_t i = 0; i < t->nslots; i++)
        if (t->slots[i].entry) { /* each entry once: the first empty slot */
            size_t s = (size_t)t->slots[i].hash & (k - 1);
            while (slots[s].entry)
                s = (s + 1) & (k - 1);
            slots[s] = t->slots[i];
        }
    free(t->slots);
    t->slots = slots;
    t->nslots = k;
    return 0;
}

/* Empty t, for another merge. */
static void table_clear(table *t)
{
    if (t->slots)
        memset(t->slots, 0, t->nslots * sizeof *t->slots);
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
    return table_room(&m->group_table, m->ngroups);
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
    slot *s = find_slot(m, &m->group_table, h, same_group_at, c);
    group *g;
    if (s->entry) {
        g = &m->groups[s->entry - 1];
        if (first < g->rank || (first == g->rank && pos < g->pos)) {
            g->rank = first;
            g->pos = pos;
        }
    } else {
        g = &m->groups[m->ngroups];
        *g = (group){.comm = *c, .rank = first, .pos = pos};
        g->comm.ncolls = 0;
        g->comm.colls = NULL;
        g->comm.nphase_colls = 0;
        g->comm.phase_colls = NULL;
        c->members = c->remote = NULL;
        *s = (slot){h, ++m->ngroups};
    }
    if (move_records(&g->comm.colls, &g->comm.ncolls, &g->cap, c->colls,
                     &c->ncolls) ||
        move_records(&g->comm.phase_colls, &g->comm.nphase_colls,
                     &g->phase_cap, c->phase_colls, &c->nphase_colls))
        return TG_ENOMEM;
    return 0;
}

static uint64_t cart_hash(const tg_prof_cart *c)
{
    uint64_t h = mix(0, (uint64_t)c->ndims);
    for (int d = 0; d < c->ndims; d++)
        h = mix(mix(h, (uint64_t)c->dims[d]), (uint64_t)c->periods[d]);
    h = mix(h, (uint64_t)c->size);
    for (int i = 0; i < c->size; i++)
        h = mix(h, (uint64_t)c->members[i]);
    return h;
}

static int same_cart(const tg_prof_cart *a, const tg_prof_cart *b)
{
    return a->ndims == b->ndims && a->size == b->size &&
           !memcmp(a->dims, b->dims, 2 * (size_t)a->ndims * sizeof(int)) &&
           !memcmp(a->members, b->members, (size_t)a->size * sizeof(int));
}

static int same_cart_at(const tg_profile_merge *m, int i, const void *key)
{
    return same_cart(&m->carts[i].cart, key);
}

/* Move Cartesian communicator c (position pos in a file of rank `rank`)
 * into the result unless it is there. */
static int add_cart(tg_profile_merge *m, tg_prof_cart *c, int rank, int pos)
{
    uint64_t h = cart_hash(c);
    if (table_room(&m->cart_table, m->ncarts))
        return TG_ENOMEM;
    slot *s = find_slot(m, &m->cart_table, h, same_cart_at, c);
    if (s->entry) {
        struct cart *k = &m->carts[s->entry - 1];
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
    *s = (slot){h, m->ncarts};
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

/* The world ranks present in part, one a call from *i (0 to begin),
 * then -1: the list tg_profile_read made, or (a profile made otherwise)
 * a scan of the world. */
static int next_rank(const tg_profile *part, int *i)
{
    if (part->listed)
        return *i < part->nranks ? part->listed[(*i)++] : -1;
    while (*i < part->world_size && !part->ranks[*i].present)
        ++*i;
    return *i < part->world_size ? (*i)++ : -1;
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
    int twice = -1; /* the lowest rank that came before */
    for (int i = 0, r; (r = next_rank(part, &i)) >= 0;)
        if (m->p->ranks[r].present && (twice < 0 || r < twice))
            twice = r;
    if (twice >= 0)
        return tg_error_set(err, TG_EINVAL, source, 0,
                            "rank %d is also in %s", twice,
                            m->sources[m->from[twice]]);
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
        for (int i = 0, r; (r = next_rank(part, &i)) >= 0;) {
            if (first < 0 || r < first)
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
    table_clear(&m->group_table);
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
    if (!rc) {
        m->ncarts = 0;
        table_clear(&m->cart_table);
    }
    if (!rc && p->nphases)
        rc = tg_profile_phases_fill(p);
    if (rc) {
        tg_profile_free(p);
        return tg_error_set(err, TG_ENOMEM, "", 0, "out of memory");
    }
    *out = p;
    return 0;
}

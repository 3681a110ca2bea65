/* fuzz_profile.c: libFuzzer harness of the profile readers: a profile or
 * partial profile (tg_profile_sniff, tg_profile_read) and the merge of
 * partial profiles (`taskgraph merge`: tg_profile_merge_*).  The first byte
 * picks:
 *   even  one profile, then what the commands compute from it (the matrix
 *         of every type, the per-type stats, taskgraph build on small
 *         worlds) and a round trip through tg_profile_write;
 *   odd   the rest split at NUL bytes, each part a partial profile, merged.
 * The reader promises that what it accepts is consistent (ranks and
 * members in range, no peer twice); the consumers rely on it. */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_file.h"
#include "taskgraph.h"

/* taskgraph build is quadratic in the ranks of a collective; beyond this
 * a fuzzed input costs seconds, not a finding. */
#define BUILD_MAX_WORLD 64

static void use(const tg_profile *p)
{
    tg_error err;
    for (int t = 0; t < p->ntypes; t++)
        for (int received = 0; received < 2; received++) {
            tg_prof_entry *e = NULL;
            size_t n = 0;
            int rc = tg_profile_matrix(p, t, received, &e, &n, &err);
            if (rc && rc != TG_EINVAL)
                fz_fail("tg_profile_matrix", &err);
            free(e);
        }
    tg_prof_type_stats *s = NULL;
    if (tg_profile_stats(p, &s, &err))
        fz_fail("tg_profile_stats", &err);
    tg_profile_stats_free(s, p->ntypes);
    if (p->world_size <= BUILD_MAX_WORLD) {
        tg_build_options o;
        tg_build_options_init(&o);
        tg_build *b = NULL;
        if (!tg_build_run(p, &o, &b, &err))
            tg_build_free(b);
    }
    const char *out = fz_file("out.json", NULL, 0);
    tg_profile *back = NULL;
    if (tg_profile_write(out, p, &err) || tg_profile_read(out, &back, &err))
        fz_fail("a profile read does not survive a round trip", &err);
    if (back->world_size != p->world_size || back->nranks != p->nranks ||
        back->ncomms != p->ncomms) {
        fprintf(stderr, "fuzz_profile: round trip changed the profile\n");
        abort();
    }
    tg_profile_free(back);
}

static void merge(const uint8_t *data, size_t size)
{
    tg_profile_merge *m = tg_profile_merge_new();
    if (!m)
        abort();
    tg_error err;
    int rc = 0;
    while (!rc && data) {
        const uint8_t *rest;
        size_t rest_size, n = fz_split(data, size, &rest, &rest_size);
        const char *path = fz_file("part.json", data, n);
        tg_profile *part = NULL;
        rc = tg_profile_read(path, &part, &err);
        if (!rc)
            rc = tg_profile_merge_add(m, part, path, &err);
        data = rest;
        size = rest_size;
    }
    tg_profile *p = NULL;
    if (!rc && !tg_profile_merge_finish(m, &p, &err)) {
        use(p);
        tg_profile_free(p);
    }
    tg_profile_merge_free(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    if (data[0] & 1) {
        merge(data + 1, size - 1);
        return 0;
    }
    const char *path = fz_file("in.json", data + 1, size - 1);
    /* how taskgraph tells a profile from a task graph */
    tg_profile_sniff(path);
    tg_profile *p = NULL;
    tg_error err;
    if (!tg_profile_read(path, &p, &err)) {
        use(p);
        tg_profile_free(p);
    }
    return 0;
}

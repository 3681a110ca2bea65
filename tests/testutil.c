/* testutil.c: see testutil.h. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"

/* check runs each test in a forked child, and a failing child does not
 * run atexit handlers.  So the parent makes one root folder and removes it
 * at exit; each process (the parent, or a child) works in a subfolder of
 * its own, so tests never see each other's files. */
static char root[512];
static pid_t root_owner;
static char tmpdir[600];
static pid_t tmpdir_pid;

static void remove_root(void)
{
    if (!root[0] || getpid() != root_owner)
        return;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", root);
}

const char *tu_tmpdir(void)
{
    if (!root[0]) {
        const char *base = getenv("TMPDIR");
        snprintf(root, sizeof root, "%s/topomap-test-XXXXXX",
                 base && *base ? base : "/tmp");
        if (!mkdtemp(root)) {
            perror("mkdtemp");
            exit(99);
        }
        root_owner = getpid();
        atexit(remove_root);
    }
    if (tmpdir_pid != getpid()) {
        tmpdir_pid = getpid();
        snprintf(tmpdir, sizeof tmpdir, "%s/p%ld", root, (long)tmpdir_pid);
        if (mkdir(tmpdir, 0700) != 0) {
            perror("mkdir");
            exit(99);
        }
    }
    return tmpdir;
}

const char *tu_path(const char *name)
{
    static char slots[8][600];
    static int next;
    char *p = slots[next++ % 8];
    snprintf(p, sizeof slots[0], "%s/%s", tu_tmpdir(), name);
    return p;
}

const char *tu_write(const char *name, const char *text)
{
    const char *p = tu_path(name);
    FILE *fp = fopen(p, "w");
    ck_assert_msg(fp != NULL, "cannot create %s", p);
    fputs(text, fp);
    ck_assert_int_eq(fclose(fp), 0);
    return p;
}

int tu_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

int tu_count_files(void)
{
    DIR *d = opendir(tu_tmpdir());
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            n++;
    if (d)
        closedir(d);
    return n;
}

void tu_assert_same_graph(const tg_graph *a, const tg_graph *b)
{
    ck_assert_int_eq(a->n, b->n);
    ck_assert_int_eq(a->nedges, b->nedges);
    for (int t = 0; t <= a->n; t++)
        ck_assert_int_eq(a->xadj[t], b->xadj[t]);
    for (int64_t e = 0; e < a->xadj[a->n]; e++) {
        ck_assert_int_eq(a->adjncy[e], b->adjncy[e]);
        ck_assert_uint_eq(a->adjwgt[e], b->adjwgt[e]);
    }
}

tg_graph *tu_graph(int n, int m, const int edges[][3])
{
    tg_builder *b = tg_builder_new(n);
    tg_error err;
    for (int i = 0; i < m; i++)
        ck_assert_int_eq(tg_builder_add(b, edges[i][0], edges[i][1],
                                        (uint64_t)edges[i][2], &err), 0);
    tg_graph *g = NULL;
    ck_assert_int_eq(tg_builder_finish(b, &g, &err), 0);
    tg_builder_free(b);
    return g;
}

tg_graph *tu_random_graph(int n, int deg, unsigned seed)
{
    tg_builder *b = tg_builder_new(n);
    tg_error err;
    uint64_t x = seed * 2654435761u + 1;
    for (int t = 0; t < n; t++)
        for (int k = 0; k < deg; k++) {
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            int u = (int)((x >> 33) % (uint64_t)n);
            ck_assert_int_eq(tg_builder_add(b, t, u, 1 + (x >> 20) % 5,
                                            &err),
                             0);
        }
    tg_graph *g;
    ck_assert_int_eq(tg_builder_finish(b, &g, &err), 0);
    tg_builder_free(b);
    return g;
}

int tu_run(const char *cmd)
{
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int tu_main(Suite *(*make)(void))
{
    tu_tmpdir(); /* the root folder belongs to this, the parent, process */
    SRunner *sr = srunner_create(make());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}

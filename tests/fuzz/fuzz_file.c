/* fuzz_file.c: the harnesses' private folder of input files. */
#define _GNU_SOURCE
#include "fuzz_file.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[PATH_MAX];

/* Remove the folder and what the harness wrote in it. */
static void cleanup(void)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        char path[PATH_MAX + 256];
        while ((e = readdir(d)))
            if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
                snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
                unlink(path);
            }
        closedir(d);
    }
    rmdir(dir);
}

static void make_dir(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/topomap-fuzz.XXXXXX",
             tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        perror("fuzz: mkdtemp");
        abort();
    }
    atexit(cleanup);
}

const char *fz_file(const char *name, const uint8_t *data, size_t size)
{
    static char paths[4][PATH_MAX + 256];
    static int next;
    char *path = paths[next++ % 4];
    if (!dir[0])
        make_dir();
    snprintf(path, sizeof paths[0], "%s/%s", dir, name);
    FILE *fp = fopen(path, "wb");
    if (!fp || (size && fwrite(data, 1, size, fp) != size) || fclose(fp)) {
        perror(path);
        abort();
    }
    return path;
}

void fz_fail(const char *what, const tg_error *err)
{
    char buf[1200];
    fprintf(stderr, "fuzz: %s: %s\n", what,
            tg_error_format(err, buf, sizeof buf));
    abort();
}

size_t fz_split(const uint8_t *data, size_t size, const uint8_t **rest,
                size_t *rest_size)
{
    const uint8_t *nul = memchr(data, 0, size);
    if (!nul) {
        *rest = NULL;
        *rest_size = 0;
        return size;
    }
    *rest = nul + 1;
    *rest_size = size - (size_t)(nul + 1 - data);
    return (size_t)(nul - data);
}

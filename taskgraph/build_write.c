/* build_write.c: the folder `taskgraph build` writes, all or nothing:
 * the graphs and summary.json go into a hidden folder beside DIR, which
 * is renamed to DIR once everything is written and flushed.  A previous
 * build in DIR is swapped out (renamed aside, then removed), so a failed
 * build leaves DIR as it was.  Only a folder that holds a build and
 * nothing else is replaced: every file in it listed in its summary.json,
 * so that nothing the user put there is removed. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tg_internal.h"

#define SUMMARY_FORMAT "topomap-build-summary"
#define SUMMARY_VERSION 1

/* A list of file names. */
typedef struct names {
    char **v;
    int n;
} names;

static int names_add(names *l, const char *name)
{
    char **v = realloc(l->v, (size_t)(l->n + 1) * sizeof *v);
    if (!v)
        return -1;
    l->v = v;
    return (v[l->n] = strdup(name)) ? (l->n++, 0) : -1;
}

static void names_free(names *l)
{
    for (int i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
}

static const char *const suffix[] = {".tg.json", ".graph", ".grf"};

/* The extension of graphs in format f (JSON, METIS, Scotch). */
static const char *ext_of(tg_format f)
{
    return f == TG_FORMAT_METIS ? suffix[1]
         : f == TG_FORMAT_SCOTCH ? suffix[2] : suffix[0];
}

/* 1 when `name` is a file a build writes. */
static int ours(const char *name)
{
    if (!strcmp(name, "summary.json"))
        return 1;
    size_t n = strlen(name);
    for (int i = 0; i < 3; i++) {
        size_t k = strlen(suffix[i]);
        if (n > k && name[0] != '.' && !strcmp(name + n - k, suffix[i]))
            return 1;
    }
    return 0;
}

/* ------------------------------------------------------- the folder now */

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names summary.json lists in "files", sorted; 0, or -1 when the
 * file is no summary of a build (absent, not JSON, another format, no
 * list of plain names) or memory is short. */
static int summary_files(const char *dir, names *files)
{
    size_t len = strlen(dir) + 16;
    char *path = malloc(len);
    if (!path)
        return -1;
    snprintf(path, len, "%s/summary.json", dir);
    json_t *j = json_load_file(path, 0, NULL);
    free(path);
    const char *f = json_string_value(json_object_get(j, "format"));
    json_t *list = json_object_get(j, "files");
    int rc = f && !strcmp(f, SUMMARY_FORMAT) && json_is_array(list) ? 0 : -1;
    for (size_t i = 0; !rc && i < json_array_size(list); i++) {
        const char *name = json_string_value(json_array_get(list, i));
        if (!name || !*name || strchr(name, '/') || !strcmp(name, ".") ||
            !strcmp(name, ".."))
            rc = -1;
        else if (names_add(files, name))
            rc = -1;
    }
    json_decref(j);
    if (!rc && files->n)
        qsort(files->v, (size_t)files->n, sizeof *files->v, cmp_name);
    return rc;
}

/* 1 when `name` is among the sorted names. */
static int listed(const names *l, const char *name)
{
    return l->n && bsearch(&name, l->v, (size_t)l->n, sizeof *l->v,
                           cmp_name) != NULL;
}

/* What DIR is: 0 absent or empty; 1 a previous build, whose files go into
 * `prev`: summary.json of our format, and every entry of DIR a plain file
 * that summary.json's "files" lists (summary.json included), so that
 * replacing it removes nothing a build did not write; else an error,
 * naming the first entry (by name) that does not belong. */
static int existing(const char *dir, names *prev, tg_error *err)
{
    struct stat st;
    if (stat(dir, &st) != 0)
        return errno == ENOENT ? 0
                               : tg_error_set(err, TG_EIO, dir, 0,
                                              "cannot use: %s",
                                              strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return tg_error_set(err, TG_EINVAL, dir, 0,
                            "exists and is not a folder");
    DIR *d = opendir(dir);
    if (!d)
        return tg_error_set(err, TG_EIO, dir, 0, "cannot read: %s",
                            strerror(errno));
    int rc = 0;
    for (struct dirent *e; !rc && (e = readdir(d));)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
            names_add(prev, e->d_name))
            rc = tg_error_set(err, TG_ENOMEM, dir, 0, "out of memory");
    closedir(d);
    if (rc || !prev->n)
        return rc;
    qsort(prev->v, (size_t)prev->n, sizeof *prev->v, cmp_name);
    names files = {0};
    int build = summary_files(dir, &files) == 0;
    for (int i = 0; !rc && i < prev->n; i++) {
        const char *name = prev->v[i];
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, name);
        int file = lstat(path, &st) == 0 && S_ISREG(st.st_mode);
        if (!build && !ours(name))
            rc = tg_error_set(err, TG_EINVAL, dir, 0,
                              "holds '%s', which a build does not write: "
                              "remove it or choose another folder",
                              name);
        else if (build && (!file || (strcmp(name, "summary.json") &&
                                     !listed(&files, name))))
            rc = tg_error_set(err, TG_EINVAL, dir, 0,
                              "holds '%s', which the build there did not "
                              "write (%s): remove it or choose another "
                              "folder",
                              name,
                              file ? "its summary.json does not list it"
                                   : "not a plain file");
    }
    names_free(&files);
    if (!rc && !build)
        rc = tg_error_set(err, TG_EINVAL, dir, 0,
                          "is not empty and holds no build (no "
                          "summary.json of format \"" SUMMARY_FORMAT
                          "\"): remove it or choose another folder");
    return rc ? rc : 1;
}

/* Remove folder `dir` and the files in it that a build writes: the
 * hidden temporaries of a build and its files, those of `files` when
 * given (a previous build, each name checked by existing), else those
 * named as a build names them (the stage of this one). */
static void remove_build(const char *dir, const names *files)
{
    DIR *d = opendir(dir);
    if (d) {
        for (struct dirent *e; (e = readdir(d));)
            if (files ? listed(files, e->d_name)
                      : ours(e->d_name) || e->d_name[0] == '.') {
                if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                    continue;
                char path[4096];
                snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
                unlink(path);
            }
        closedir(d);
    }
    rmdir(dir);
}

/* fsync a folder, so that a rename in it is on disk. */
static void sync_dir(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
}

/* ----------------------------------------------------------- the files */

/* A file name from a type name: letters, digits, '_', '-' only. */
static int check_type_name(const char *dir, const char *type, tg_error *err)
{
    size_t ok = strspn(type, "abcdefghijklmnopqrstuvwxyz"
                             "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-");
    if (!*type || type[ok] || !strcmp(type, "sum") || !strcmp(type, "wsum"))
        return tg_error_set(err, TG_EINVAL, dir, 0,
                            "type '%s' cannot name a file", type);
    return 0;
}

/* Write g as stage/NAME in every format; the names go into `files`. */
static int write_graph(const char *stage, const char *name, const tg_graph *g,
                       const tg_format *formats, int nformats, names *files,
                       tg_error *err)
{
    for (int i = -1; i < nformats; i++) {
        tg_format f = i < 0 ? TG_FORMAT_JSON : formats[i];
        char file[512], path[4096];
        snprintf(file, sizeof file, "%s%s", name, ext_of(f));
        snprintf(path, sizeof path, "%s/%s", stage, file);
        int rc = tg_write(path, f, g, err);
        if (rc)
            return rc;
        if (names_add(files, file))
            return tg_error_set(err, TG_ENOMEM, "", 0, "out of memory");
    }
    return 0;
}

static json_t *type_json(const tg_build_type *t, const tg_format *formats,
                         int nformats)
{
    json_t *sizes = json_array(), *models = json_array();
    for (int i = 0; i < t->nsizes; i++)
        json_array_append_new(sizes, json_integer(t->sizes[i]));
    for (int m = 0; m <= TG_MODEL_CLIQUE; m++)
        if (t->models & (1u << m))
            json_array_append_new(models,
                                  json_string(tg_coll_model_name(m)));
    json_t *j = json_pack(
        "{s:s, s:I, s:f, s:I, s:I, s:o, s:s, s:I, s:f, s:b, s:f}", "name",
        t->name, "ns", (json_int_t)t->ns, "share", t->share, "calls",
        (json_int_t)t->calls, "bytes", (json_int_t)t->bytes, "comm_sizes",
        sizes, "filtered", tg_build_filter_name(t->filter), "kept_ns",
        (json_int_t)t->kept_ns, "kept_share", t->kept_share, "critical",
        t->critical, "factor", t->factor);
    if (j && json_array_size(models))
        json_object_set(j, "models", models);
    if (j && t->graph)
        json_object_set_new(j, "edges", json_integer(t->graph->nedges));
    if (j && t->critical) {
        json_t *files = json_array();
        for (int i = -1; i < nformats; i++) {
            char file[512];
            snprintf(file, sizeof file, "%s%s", t->name,
                     ext_of(i < 0 ? TG_FORMAT_JSON : formats[i]));
            json_array_append_new(files, json_string(file));
        }
        json_object_set_new(j, "files", files);
    }
    json_decref(models);
    return j;
}

static int write_summary(const tg_build *b, const char *stage,
                         const char *profile, const tg_format *formats,
                         int nformats, names *files, tg_error *err)
{
    const tg_build_options *o = &b->options;
    json_t *types = json_array(), *critical = json_array(),
           *list = json_array();
    for (int i = 0; i < b->ntypes; i++)
        json_array_append_new(types, type_json(&b->types[i], formats,
                                               nformats));
    for (int i = 0; i < b->ncritical; i++)
        json_array_append_new(critical,
                              json_string(b->types[b->critical[i]].name));
    for (int i = 0; i < files->n; i++)
        json_array_append_new(list, json_string(files->v[i]));
    json_array_append_new(list, json_string("summary.json"));
    json_t *j = json_pack(
        "{s:s, s:i, s:s, s:i, s:{s:f, s:f, s:f, s:s}, s:I, s:I, s:o, s:o, "
        "s:f, s:b, s:o}",
        "format", SUMMARY_FORMAT, "version", SUMMARY_VERSION, "profile",
        profile, "world_size", b->world_size, "options", "large", o->large,
        "coverage", o->coverage, "min_share", o->min_share,
        "allreduce_model", tg_coll_model_name(o->allreduce_model),
        "total_ns", (json_int_t)b->total_ns, "kept_ns",
        (json_int_t)b->kept_ns, "types", types, "critical", critical,
        "covered", b->covered, "single", b->ncritical == 1, "files", list);
    if (j && o->phase)
        json_object_set_new(json_object_get(j, "options"), "phase",
                            json_integer(o->phase));
    if (!j)
        return tg_error_set(err, TG_EINVAL, profile, 0,
                            "cannot describe the build in JSON (a name is "
                            "not valid UTF-8?)");
    char path[4096];
    snprintf(path, sizeof path, "%s/summary.json", stage);
    tg_out out;
    int rc = tg_out_open(&out, path, err);
    if (!rc) {
        if (json_dumpf(j, out.fp, JSON_INDENT(2) | JSON_REAL_PRECISION(17)) ||
            fputc('\n', out.fp) == EOF) {
            tg_out_abort(&out);
            rc = tg_error_set(err, TG_EIO, path, 0, "write failed");
        } else {
            rc = tg_out_commit(&out, err);
        }
    }
    json_decref(j);
    return rc;
}

/* Every file of the build into stage. */
static int write_all(const tg_build *b, const char *dir, const char *stage,
                     const char *profile, const tg_format *formats,
                     int nformats, tg_error *err)
{
    names files = {0};
    int rc = 0;
    for (int i = 0; i < b->ncritical && !rc; i++) {
        const tg_build_type *t = &b->types[b->critical[i]];
        rc = check_type_name(dir, t->name, err);
        if (!rc)
            rc = write_graph(stage, t->name, t->graph, formats, nformats,
                             &files, err);
    }
    if (!rc)
        rc = write_graph(stage, "sum", b->sum, formats, nformats, &files, err);
    if (!rc)
        rc = write_graph(stage, "wsum", b->wsum, formats, nformats, &files,
                         err);
    if (!rc)
        rc = write_summary(b, stage, profile, formats, nformats, &files, err);
    names_free(&files);
    return rc;
}

/* ---------------------------------------------------------- the commit */

int tg_build_write(const tg_build *b, const char *dir, const char *profile,
                   const tg_format *formats, int nformats, tg_error *err)
{
    for (int i = 0; i < nformats; i++)
        if (formats[i] != TG_FORMAT_METIS && formats[i] != TG_FORMAT_SCOTCH)
            return tg_error_set(err, TG_EINVAL, dir, 0,
                                "extra formats are metis and scotch");
    /* DIR without trailing slashes, its parent and its own name. */
    size_t len = strlen(dir);
    while (len > 1 && dir[len - 1] == '/')
        len--;
    char *path = malloc(len + 1), *stage = malloc(len + 24),
         *old = malloc(len + 24);
    if (!path || !stage || !old) {
        free(path);
        free(stage);
        free(old);
        return tg_error_set(err, TG_ENOMEM, dir, 0, "out of memory");
    }
    memcpy(path, dir, len);
    path[len] = '\0';
    const char *slash = strrchr(path, '/');
    int plen = slash ? (int)(slash - path) + 1 : 0;
    snprintf(stage, len + 24, "%.*s.%s.XXXXXX", plen, path, path + plen);
    snprintf(old, len + 24, "%.*s.%s.old.XXXXXX", plen, path, path + plen);
    char parent[4096];
    snprintf(parent, sizeof parent, "%.*s", plen ? plen : 1, plen ? path : ".");

    names prev = {0}; /* the files of a previous build in DIR */
    int previous = existing(path, &prev, err);
    int rc = previous < 0 ? previous : 0;
    if (!rc && !mkdtemp(stage))
        rc = tg_error_set(err, TG_EIO, path, 0, "cannot create: %s",
                          strerror(errno));
    if (rc) {
        names_free(&prev);
        free(path);
        free(stage);
        free(old);
        return rc;
    }
    mode_t mask = umask(0); /* mkdtemp makes 0700; DIR gets the usual */
    umask(mask);
    chmod(stage, 0777 & ~mask);
    rc = write_all(b, path, stage, profile, formats, nformats, err);
    if (!rc) {
        sync_dir(stage);
        if (previous == 1 && (!mkdtemp(old) || rename(path, old) != 0))
            rc = tg_error_set(err, TG_EIO, path, 0,
                              "cannot replace the previous build: %s",
                              strerror(errno));
        else if (rename(stage, path) != 0) {
            rc = tg_error_set(err, TG_EIO, path, 0, "cannot create: %s",
                              strerror(errno));
            if (previous == 1)
                rename(old, path); /* put the previous build back */
        }
    }
    if (rc)
        remove_build(stage, NULL);
    if (previous == 1 && !rc)
        remove_build(old, &prev); /* the previous build, now aside */
    else if (previous == 1)
        rmdir(old); /* empty, unless the previous build could not be put
                     * back, when it stays there */
    sync_dir(parent);
    names_free(&prev);
    free(path);
    free(stage);
    free(old);
    return rc;
}

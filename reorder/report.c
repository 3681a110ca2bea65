/* report.c: TOPOMAP_REORDER_REPORT, written by rank 0.  One line per
 * reordering constructor call of the job (a JSON object, fields in
 * doc/libtopomap-reorder.7); the whole file is rewritten for each call
 * through a temporary file renamed into place, so a reader never sees half
 * a line, and a job that dies mid-call leaves the calls before it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ro_internal.h"

/* The lines written so far (this process's calls). */
static char *lines;
static size_t lines_len;

/* One order's figures; with a node topology also the bytes per level
 * and J. */
static void put_metrics(FILE *f, const char *key, const gm_metrics *m,
                        const gm_level_metrics *lv)
{
    fprintf(f, ",\"%s\":{\"offnode_bytes\":%llu,\"hop_bytes_total\":%llu,"
               "\"hop_bytes_avg\":%.6g",
            key, (unsigned long long)m->offnode_bytes,
            (unsigned long long)m->hop_bytes_total, m->hop_bytes_avg);
    if (lv) {
        fputs(",\"level_bytes\":{", f);
        for (int i = 0; i < lv->nlevels; i++) {
            if (i)
                fputc(',', f);
            tg_json_put_string(f, lv->name[i]);
            fprintf(f, ":%llu", (unsigned long long)lv->bytes[i]);
        }
        fprintf(f, "},\"comm_cost\":%llu",
                (unsigned long long)lv->comm_cost);
    }
    fputc('}', f);
}

/* The new line, appended to `lines`. */
static int format_line(const ro_report *r)
{
    char *line = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&line, &len);
    if (!f)
        return -1;
    const ro_layout *l = r->layout;
    fprintf(f, "{\"call\":\"%s\",\"size\":%d,\"tasks\":%d,\"hosts\":[",
            ro_call_name(r->call->kind), l->nprocs, r->ntasks);
    for (int h = 0; h < l->nhosts; h++) {
        fputs(h ? ",{\"name\":" : "{\"name\":", f);
        tg_json_put_string(f, l->host[h]);
        fputs(",\"ranks\":[", f);
        for (int s = 0; s < l->slots[h]; s++)
            fprintf(f, s ? ",%d" : "%d", l->proc[l->first[h] + s]);
        fputs("]}", f);
    }
    fputc(']', f);
    if (r->topology) {
        fputs(",\"node_topology\":", f);
        tg_json_put_string(f, r->topology);
    }
    fprintf(f, ",\"mapper\":\"%s\",\"reordered\":%s,\"permutation\":[",
            r->mapper, r->reordered ? "true" : "false");
    for (int t = 0; t < r->ntasks; t++)
        fprintf(f, t ? ",%d" : "%d", r->perm[t]);
    fputc(']', f);
    put_metrics(f, "identity", r->identity, r->identity_levels);
    put_metrics(f, "result", r->result, r->result_levels);
    fprintf(f, ",\"seconds\":%.6f}\n", r->seconds);
    if (fclose(f)) {
        free(line);
        return -1;
    }
    char *grown = realloc(lines, lines_len + len + 1);
    if (!grown) {
        free(line);
        return -1;
    }
    memcpy(grown + lines_len, line, len + 1);
    lines = grown;
    lines_len += len;
    free(line);
    return 0;
}

int ro_report_write(const char *path, const ro_report *r, char *why,
                    size_t size)
{
    if (format_line(r)) {
        snprintf(why, size, "%s: out of memory for the report", path);
        return -1;
    }
    size_t n = strlen(path);
    char *tmp = malloc(n + 16);
    if (!tmp) {
        snprintf(why, size, "%s: out of memory for the report", path);
        return -1;
    }
    snprintf(tmp, n + 16, "%s.tmpXXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd >= 0)
        fchmod(fd, 0644); /* mkstemp makes it 0600 */
    FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
    int ok = f && fwrite(lines, 1, lines_len, f) == lines_len;
    int saved = errno;
    if (f && fclose(f))
        ok = 0, saved = errno;
    else if (!f && fd >= 0)
        close(fd);
    if (ok && rename(tmp, path))
        ok = 0, saved = errno;
    if (!ok) {
        if (fd >= 0)
            unlink(tmp);
        snprintf(why, size, "%s: cannot write the report: %s", path,
                 strerror(saved));
    }
    free(tmp);
    return ok ? 0 : -1;
}

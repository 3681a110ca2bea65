/* report.c: TOPOMAP_REORDER_REPORT.  One line per reordering constructor
 * call of the job (a JSON object, fields in doc/libtopomap-reorder.7),
 * written by the call's rank 0, whichever process that is: calls on
 * communicators with different rank 0s, at the same time or not, all
 * land in the one file.
 *
 * Lines are added to what the file holds (remove it to start afresh):
 * knowing where a job starts would take a collective in MPI_Init, a hang
 * for ranks that do not all have the variable.  Each line is appended by
 * one write() on an O_APPEND descriptor under an exclusive flock(): lines
 * never mix, a reader that takes a shared lock sees whole lines only, and
 * a line that cannot be written whole (a full disk) is cut off again, so
 * the file only ever holds whole lines.  A job that dies mid-call leaves
 * the lines before it; a last line a killed writer left without its
 * newline is cut off by the next writer. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ro_internal.h"

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

/* The call's line, newline included: *line (free()) of *len bytes. */
static int format_line(const ro_report *r, char **line, size_t *len)
{
    *line = NULL;
    *len = 0;
    FILE *f = open_memstream(line, len);
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
        free(*line);
        *line = NULL;
        return -1;
    }
    return 0;
}

/* flock(), again when a signal interrupts it: 0, or -1 (no lock: a file
 * system without locks). */
static int lock(int fd, int how)
{
    int rc;
    while ((rc = flock(fd, how)) != 0 && errno == EINTR)
        ;
    return rc;
}

/* With the lock held: where the whole lines of the file end (its size,
 * unless a writer died mid-line: then just after the last newline). */
static off_t whole_lines_end(int fd, off_t size)
{
    char buf[4096];
    off_t end = size;
    while (end > 0) {
        size_t n = end < (off_t)sizeof buf ? (size_t)end : sizeof buf;
        ssize_t got = pread(fd, buf, n, end - (off_t)n);
        if (got != (ssize_t)n)
            return size; /* unreadable: leave it as it is */
        for (size_t i = n; i > 0; i--)
            if (buf[i - 1] == '\n')
                return end - (off_t)n + (off_t)i;
        end -= (off_t)n;
    }
    return 0;
}

int ro_report_write(const char *path, const ro_report *r, char *why,
                    size_t size)
{
    char *line;
    size_t len;
    if (format_line(r, &line, &len)) {
        snprintf(why, size, "%s: out of memory for the report", path);
        return -1;
    }
    /* A regular file (or none yet) is read too, to find a torn last line;
     * written only when that is all it allows.  A FIFO or a device is
     * only written. */
    int flags = O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY;
    struct stat st;
    int fd = -1;
    if (stat(path, &st) || S_ISREG(st.st_mode))
        fd = open(path, O_RDWR | flags, 0666);
    if (fd < 0)
        fd = open(path, O_WRONLY | flags, 0666);
    int saved = errno, ok = fd >= 0;
    char half[64] = "";
    if (ok) {
        /* Without a lock (a file system that has none) the one write()
         * on O_APPEND is still one piece on a local file. */
        int locked = lock(fd, LOCK_EX) == 0;
        off_t start = -1;
        if (locked && fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
            start = whole_lines_end(fd, st.st_size);
            if (start < st.st_size && ftruncate(fd, start))
                start = -1;
        }
        size_t done = 0;
        while (done < len) {
            ssize_t n = write(fd, line + done, len - done);
            if (n > 0)
                done += (size_t)n;
            else if (n == 0 || errno != EINTR) {
                saved = n ? errno : ENOSPC;
                break;
            }
        }
        if (done < len) {
            ok = 0;
            /* No half line left behind. */
            if (done && (start < 0 || ftruncate(fd, start)))
                snprintf(half, sizeof half, " (%zu bytes of it written)",
                         done);
        }
        /* close() reports what a network file system could not store,
         * and drops the lock. */
        if (close(fd) && ok)
            ok = 0, saved = errno;
    }
    if (!ok)
        snprintf(why, size, "%s: cannot write the report: %s%s", path,
                 strerror(saved), half);
    free(line);
    return ok ? 0 : -1;
}

/* fileio.c: atomic output files, whole-file text input with a line lexer,
 * and the seeded random number generator. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tg_internal.h"

/* ---------------------------------------------------------- atomic output */

/* The file that writing to `path` should replace: symbolic links followed,
 * to a file that may not exist yet (a dangling link is written through, as
 * a shell's redirection would), so that the link stays a link.  malloc'd;
 * NULL when out of memory. */
static char *follow_links(const char *path)
{
    char *p = strdup(path);
    for (int hop = 0; p && hop < 40; hop++) {
        struct stat st;
        if (lstat(p, &st) != 0 || !S_ISLNK(st.st_mode))
            break;
        char target[4096];
        ssize_t n = readlink(p, target, sizeof target - 1);
        if (n <= 0)
            break;
        target[n] = '\0';
        const char *slash = strrchr(p, '/');
        size_t dir = target[0] == '/' || !slash ? 0 : (size_t)(slash - p) + 1;
        char *next = malloc(dir + (size_t)n + 1);
        if (next)
            snprintf(next, dir + (size_t)n + 1, "%.*s%s", (int)dir, p, target);
        free(p);
        p = next;
    }
    return p;
}

/* What an existing destination is: 0 none or a regular file (written as a
 * temporary renamed over it), 1 something else that can be written into
 * (a pipe, a terminal, /dev/null: renaming over it would put a plain file
 * in its place), -1 a folder (err set). */
static int special(const char *path, tg_error *err)
{
    struct stat st;
    if (stat(path, &st) != 0 || S_ISREG(st.st_mode))
        return 0;
    if (S_ISDIR(st.st_mode)) {
        tg_error_set(err, TG_EIO, path, 0, "cannot write: %s",
                     strerror(EISDIR));
        return -1;
    }
    return 1;
}

/* Write straight into a special file: nothing to rename, nothing to undo. */
static int open_direct(tg_out *o, const char *path, tg_error *err)
{
    o->path = strdup(path);
    int fd = o->path ? open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC) : -1;
    if (fd < 0 || !(o->fp = fdopen(fd, "w"))) {
        int e = o->path ? errno : ENOMEM;
        if (fd >= 0)
            close(fd);
        tg_out_abort(o);
        return tg_error_set(err, e == ENOMEM ? TG_ENOMEM : TG_EIO, path, 0,
                            "cannot write: %s", strerror(e));
    }
    return 0;
}

int tg_out_open(tg_out *o, const char *path, tg_error *err)
{
    memset(o, 0, sizeof *o);
    int kind = special(path, err);
    if (kind < 0)
        return TG_EIO;
    if (kind > 0)
        return open_direct(o, path, err);
    o->path = follow_links(path);
    size_t len = o->path ? strlen(o->path) : 0;
    o->tmp = malloc(len + 16);
    if (!o->path || !o->tmp) {
        tg_out_abort(o);
        return tg_error_set(err, TG_ENOMEM, path, 0, "out of memory");
    }
    /* A hidden name beside the destination, so rename() stays in one file
     * system and an interrupted write leaves no file a user mistakes for
     * output. */
    const char *slash = strrchr(o->path, '/');
    size_t dir = slash ? (size_t)(slash - o->path) + 1 : 0;
    snprintf(o->tmp, len + 16, "%.*s.%s.XXXXXX", (int)dir, o->path,
             o->path + dir);
    int fd = mkstemp(o->tmp);
    if (fd < 0) {
        int e = errno;
        tg_out_abort(o);
        return tg_error_set(err, TG_EIO, path, 0, "cannot create: %s",
                            strerror(e));
    }
    o->fp = fdopen(fd, "w");
    if (!o->fp) {
        int e = errno;
        close(fd);
        tg_out_abort(o);
        return tg_error_set(err, TG_EIO, path, 0, "cannot create: %s",
                            strerror(e));
    }
    /* mkstemp makes 0600; output files get the usual 0666 & ~umask. */
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    setvbuf(o->fp, NULL, _IOFBF, 1 << 20);
    return 0;
}

int tg_out_check(const char *path, tg_error *err)
{
    int kind = special(path, err);
    if (kind < 0)
        return TG_EIO;
    if (kind > 0) /* opening a pipe now would end its reader's input */
        return access(path, W_OK) == 0
                   ? 0
                   : tg_error_set(err, TG_EIO, path, 0, "cannot write: %s",
                                  strerror(errno));
    tg_out o;
    int rc = tg_out_open(&o, path, err);
    if (!rc)
        tg_out_abort(&o);
    return rc;
}

/* Where a path's file is, for comparing: its folder's real path and its
 * own name, after symbolic links; malloc'd, NULL when it cannot be said. */
static char *where(const char *path)
{
    char *p = follow_links(path);
    if (!p)
        return NULL;
    const char *slash = strrchr(p, '/');
    char *dir = slash ? strndup(p, (size_t)(slash - p) + (slash == p))
                      : strdup(".");
    char *real = dir ? realpath(dir, NULL) : NULL;
    const char *name = slash ? slash + 1 : p;
    size_t len = real ? strlen(real) + strlen(name) + 2 : 0;
    char *out = real ? malloc(len) : NULL;
    if (out)
        snprintf(out, len, "%s/%s", real, name);
    free(real);
    free(dir);
    free(p);
    return out;
}

int tg_out_same(const char *a, const char *b)
{
    if (!strcmp(a, b))
        return 1;
    struct stat sa, sb;
    if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    char *wa = where(a), *wb = where(b);
    int same = wa && wb && !strcmp(wa, wb);
    free(wa);
    free(wb);
    return same;
}

/* Flush, check for write errors, fsync and close, keeping the temporary
 * file; on failure it is removed. */
static int out_close(tg_out *o, tg_error *err)
{
    int bad = ferror(o->fp) != 0;
    int e = errno;
    if (fflush(o->fp) != 0 || bad) {
        e = bad ? (e ? e : EIO) : errno;
        tg_error_set(err, TG_EIO, o->path, 0, "write failed: %s", strerror(e));
        tg_out_abort(o);
        return TG_EIO;
    }
    if (fsync(fileno(o->fp)) != 0 && errno != EINVAL) {
        tg_error_set(err, TG_EIO, o->path, 0, "write failed: %s",
                     strerror(errno));
        tg_out_abort(o);
        return TG_EIO;
    }
    int rc = fclose(o->fp);
    o->fp = NULL;
    if (rc != 0) {
        tg_error_set(err, TG_EIO, o->path, 0, "write failed: %s",
                     strerror(errno));
        tg_out_abort(o);
        return TG_EIO;
    }
    return 0;
}

/* Rename the temporary into place (nothing to do for a special file). */
static int out_rename(tg_out *o, tg_error *err)
{
    if (o->tmp && rename(o->tmp, o->path) != 0)
        return tg_error_set(err, TG_EIO, o->path, 0, "cannot write: %s",
                            strerror(errno));
    free(o->tmp);
    o->tmp = NULL;
    return 0;
}

static void out_done(tg_out *o)
{
    free(o->tmp);
    free(o->path);
    memset(o, 0, sizeof *o);
}

int tg_out_commit(tg_out *o, tg_error *err)
{
    int rc = out_close(o, err);
    if (!rc && (rc = out_rename(o, err)) != 0)
        tg_out_abort(o);
    if (!rc)
        out_done(o);
    return rc;
}

/* What a destination was before tg_out_commit_all renamed over it. */
enum { WAS_NONE, WAS_KEPT, WAS_LOST };

int tg_out_commit_all(tg_out *o, int n, tg_error *err)
{
    int rc = 0;
    for (int i = 0; i < n && !rc; i++)
        rc = out_close(&o[i], err); /* on failure, o[i] is finished */
    char **old = rc ? NULL : calloc((size_t)(n ? n : 1), sizeof *old);
    int *was = rc ? NULL : calloc((size_t)(n ? n : 1), sizeof *was);
    if (!rc && (!old || !was))
        rc = tg_error_set(err, TG_ENOMEM, o[0].path, 0, "out of memory");
    /* Each previous file is kept as a hard link beside it until every
     * rename has worked; when one fails, those renamed before it are put
     * back (or removed, where there was none), so that all the files or
     * none change. */
    int failed = rc ? 0 : n;
    for (int i = 0; i < n && !rc; i++) {
        if (!o[i].tmp)
            continue; /* a special file, written already */
        old[i] = malloc(strlen(o[i].tmp) + 5);
        if (!old[i]) {
            rc = tg_error_set(err, TG_ENOMEM, o[i].path, 0, "out of memory");
            failed = i;
            break;
        }
        snprintf(old[i], strlen(o[i].tmp) + 5, "%s.old", o[i].tmp);
        was[i] = link(o[i].path, old[i]) == 0 ? WAS_KEPT
                 : errno == ENOENT            ? WAS_NONE
                                              : WAS_LOST;
        if ((rc = out_rename(&o[i], err)) != 0)
            failed = i;
    }
    for (int j = 0; j < n; j++) {
        int undo = rc && j < failed && old && old[j];
        if (undo && was[j] == WAS_KEPT)
            rename(old[j], o[j].path);
        else if (undo && was[j] == WAS_NONE)
            unlink(o[j].path);
        else if (old && old[j] && was[j] == WAS_KEPT)
            unlink(old[j]);
        if (old)
            free(old[j]);
        if (rc && j >= failed)
            tg_out_abort(&o[j]);
        else
            out_done(&o[j]);
    }
    free(old);
    free(was);
    return rc;
}

void tg_out_abort(tg_out *o)
{
    if (o->fp)
        fclose(o->fp);
    if (o->tmp && o->tmp[0])
        unlink(o->tmp);
    free(o->tmp);
    free(o->path);
    memset(o, 0, sizeof *o);
}

/* ------------------------------------------------------------ text input */

int tg_declared_check(const char *source, long line, const char *what,
                      uint64_t declared, size_t bytes, tg_error *err)
{
    uint64_t limit = (uint64_t)TG_UNLISTED_MAX + bytes;
    if (declared <= limit)
        return 0;
    return tg_error_set(err, TG_EPARSE, source, line,
                        "%s %" PRIu64 " is more than a file of %zu bytes may "
                        "declare (at most %" PRIu64 ": %d plus one per byte)",
                        what, declared, bytes, limit, TG_UNLISTED_MAX);
}

int tg_text_load(tg_text *t, const char *path, tg_error *err)
{
    memset(t, 0, sizeof *t);
    t->source = path;
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return tg_error_set(err, TG_EIO, path, 0, "cannot open: %s",
                            strerror(errno));
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        size_t got = fread(buf + len, 1, cap - len, fp);
        len += got;
        if (len < cap)
            break;
        cap *= 2;
        char *nb = realloc(buf, cap + 1);
        if (!nb) {
            free(buf);
            buf = NULL;
        }
        buf = nb;
    }
    int failed = ferror(fp) ? (errno ? errno : EIO) : 0;
    fclose(fp);
    if (!buf)
        return tg_error_set(err, TG_ENOMEM, path, 0, "out of memory");
    if (failed) {
        free(buf);
        return tg_error_set(err, TG_EIO, path, 0, "cannot read: %s",
                            strerror(failed));
    }
    if (memchr(buf, '\0', len)) {
        free(buf);
        return tg_error_set(err, TG_EPARSE, path, 0,
                            "binary data (a NUL byte) in a text file");
    }
    buf[len] = '\0';
    t->buf = buf;
    t->len = len;
    size_t i = 0;
    while (i < len && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\n' ||
                       buf[i] == '\r'))
        i++;
    if (i == len) {
        tg_text_free(t);
        return tg_error_set(err, TG_EPARSE, path, 0, "empty file");
    }
    return 0;
}

void tg_text_free(tg_text *t)
{
    free(t->buf);
    t->buf = NULL;
    t->len = t->pos = 0;
}

char *tg_text_next(tg_text *t, const char *comments, int skip_blank)
{
    while (t->pos < t->len) {
        char *s = t->buf + t->pos;
        char *nl = memchr(s, '\n', t->len - t->pos);
        size_t n = nl ? (size_t)(nl - s) : t->len - t->pos;
        t->pos += n + (nl != NULL);
        t->line++;
        s[n] = '\0';
        if (n && s[n - 1] == '\r')
            s[n - 1] = '\0';
        char *p = s;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '\0' && skip_blank)
            continue;
        if (*p && comments && strchr(comments, *p))
            continue;
        return s;
    }
    return NULL;
}

static char *skip_blanks(char *p)
{
    while (*p == ' ' || *p == '\t')
        p++;
    return p;
}

int tg_lex_at_end(char *p)
{
    return *skip_blanks(p) == '\0';
}

/* The token starting at p, for messages: up to 24 characters. */
static const char *token_text(const char *p, char *buf, size_t size)
{
    size_t n = strcspn(p, " \t");
    if (n > 24)
        n = 24;
    if (n >= size)
        n = size - 1;
    memcpy(buf, p, n);
    buf[n] = '\0';
    return buf;
}

int tg_lex_u64(const tg_text *t, char **p, uint64_t *v, const char *what,
               tg_error *err)
{
    char *s = skip_blanks(*p);
    if (*s == '\0')
        return 0;
    char tok[32];
    if (*s == '-')
        return tg_error_set(err, TG_EPARSE, t->source, t->line,
                            "%s is negative: '%s'", what,
                            token_text(s, tok, sizeof tok));
    uint64_t x = 0;
    char *q = s;
    while (*q >= '0' && *q <= '9') {
        unsigned d = (unsigned)(*q - '0');
        if (x > (UINT64_MAX - d) / 10)
            return tg_error_set(err, TG_EOVERFLOW, t->source, t->line,
                                "%s overflows 64 bits: '%s'", what,
                                token_text(s, tok, sizeof tok));
        x = x * 10 + d;
        q++;
    }
    if (q == s || (*q != '\0' && *q != ' ' && *q != '\t'))
        return tg_error_set(err, TG_EPARSE, t->source, t->line,
                            "%s is not a non-negative integer: '%s'", what,
                            token_text(s, tok, sizeof tok));
    *v = x;
    *p = q;
    return 1;
}

int tg_lex_double(const tg_text *t, char **p, double *v, const char *what,
                  tg_error *err)
{
    char *s = skip_blanks(*p);
    if (*s == '\0')
        return 0;
    char tok[32], *q;
    errno = 0;
    double x = strtod(s, &q);
    /* ERANGE also comes with an underflow (1e-310 is read as a subnormal
     * or 0), which is a number: only an overflow is refused. */
    if (q == s || (*q != '\0' && *q != ' ' && *q != '\t') || !isfinite(x) ||
        (errno == ERANGE && fabs(x) == HUGE_VAL))
        return tg_error_set(err, TG_EPARSE, t->source, t->line,
                            "%s is not a finite number: '%s'", what,
                            token_text(s, tok, sizeof tok));
    *v = x;
    *p = q;
    return 1;
}

void tg_put_u64(FILE *fp, char sep, uint64_t v)
{
    char buf[24], *p = buf + sizeof buf;
    do
        *--p = (char)('0' + v % 10);
    while (v /= 10);
    if (sep)
        *--p = sep;
    fwrite(p, 1, (size_t)(buf + sizeof buf - p), fp);
}

/* ---------------------------------------------------------------- random */

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void tg_rng_seed(tg_rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

uint64_t tg_rng_next(tg_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double tg_rng_uniform(tg_rng *r)
{
    return (double)(tg_rng_next(r) >> 11) * 0x1.0p-53;
}

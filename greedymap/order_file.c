/* order_file.c: a user-given task list (papers/001, 4.5: "custom ones may
 * be provided by users"): one task id per line, every task of the graph
 * exactly once; '#' comments (to the end of a line) and blank lines are
 * skipped. */
#include <stdlib.h>

#include "gm_internal.h"

int gm_order_file(const char *path, int n, int *order, tg_error *err)
{
    tg_text t;
    int rc = tg_text_load(&t, path, err);
    if (rc)
        return rc;
    long *line_of = calloc((size_t)n + 1, sizeof *line_of);
    if (!line_of) {
        tg_text_free(&t);
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    }
    int k = 0;
    char *line;
    while (!rc && (line = gm_text_line(&t))) {
        uint64_t v;
        char *p = line;
        rc = tg_lex_u64(&t, &p, &v, "task id", err);
        if (rc < 0)
            break;
        rc = 0;
        if (!tg_lex_at_end(p))
            rc = tg_error_set(err, TG_EPARSE, path, t.line,
                              "expected one task id per line");
        else if (v >= (uint64_t)n)
            rc = tg_error_set(err, TG_EPARSE, path, t.line,
                              "task %llu is out of range: the graph has %d "
                              "tasks",
                              (unsigned long long)v, n);
        else if (line_of[v])
            rc = tg_error_set(err, TG_EPARSE, path, t.line,
                              "task %llu is listed twice (first on line %ld)",
                              (unsigned long long)v, line_of[v]);
        else {
            line_of[v] = t.line;
            order[k++] = (int)v;
        }
    }
    for (int task = 0; !rc && task < n; task++)
        if (!line_of[task])
            rc = tg_error_set(err, TG_EPARSE, path, 0,
                              "task %d is missing (%d of %d tasks listed)",
                              task, k, n);
    free(line_of);
    tg_text_free(&t);
    return rc;
}

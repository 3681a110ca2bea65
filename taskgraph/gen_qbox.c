/* gen_qbox.c: Qbox-like task graphs (papers/001, 4.1.1).
 *
 * Qbox arranges its processes in a rows x cols grid, task = r * cols + c.
 * Two communication types are modelled, each as its own layer:
 *   p2p:      task (r, c) exchanges p2p_bytes with its row neighbour
 *             (r, c + 1); when periodic the rows are rings, so (r, cols - 1)
 *             also talks to (r, 0);
 *   alltoall: an Alltoall inside every column, a clique of alltoall_bytes
 *             edges among the rows of that column.
 * The graph returned is the Sum of the two layers and carries both, and
 * the process grid (rows x cols; when periodic, dimension 1, along a row,
 * wraps: each row is a ring), so that decompose can cut it into boxes: a box of whole
 * column pieces keeps the Alltoall's bytes inside a node. */
#include "tg_internal.h"

static int check_options(const tg_qbox_options *o, tg_graph **out,
                         tg_error *err)
{
    if (!o || !out)
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "qbox: no options or no output given");
    if (o->rows < 1)
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "qbox: rows is %d: must be >= 1", o->rows);
    if (o->cols < 1)
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "qbox: cols is %d: must be >= 1", o->cols);
    if ((int64_t)o->rows * o->cols > TG_TASKS_MAX)
        return tg_error_set(err, TG_EOVERFLOW, NULL, 0,
                            "qbox: %d x %d tasks is more than %d", o->rows,
                            o->cols, TG_TASKS_MAX);
    /* 0 is out of range; past 2^63 - 1 a weight does not fit. */
    if (o->p2p_bytes < 1 || o->p2p_bytes > TG_WEIGHT_MAX)
        return tg_error_set(err, o->p2p_bytes ? TG_EOVERFLOW : TG_EINVAL,
                            NULL, 0, "qbox: p2p bytes is %llu: must be 1 to "
                            "2^63 - 1", (unsigned long long)o->p2p_bytes);
    if (o->alltoall_bytes < 1 || o->alltoall_bytes > TG_WEIGHT_MAX)
        return tg_error_set(err, o->alltoall_bytes ? TG_EOVERFLOW : TG_EINVAL,
                            NULL, 0, "qbox: alltoall bytes is %llu: must be "
                            "1 to 2^63 - 1",
                            (unsigned long long)o->alltoall_bytes);
    /* The column cliques hold n * (rows - 1) CSR entries; refuse sizes
     * whose arrays could not even be indexed rather than let an allocation
     * size wrap around. */
    int64_t arcs = (int64_t)o->rows * o->cols * (o->rows - 1);
    if ((uint64_t)arcs > SIZE_MAX / sizeof(uint64_t))
        return tg_error_set(err, TG_EOVERFLOW, NULL, 0,
                            "qbox: %d rows give %lld alltoall edges: too "
                            "many", o->rows, (long long)(arcs / 2));
    return 0;
}

/* The p2p layer, through the builder: with cols == 2 and periodic, the
 * ring's two edges join the same pair and the builder adds them up (two
 * messages really are sent); with cols == 1 the ring edge is a self-edge,
 * which the builder drops. */
static int p2p_layer(const tg_qbox_options *o, tg_graph **out, tg_error *err)
{
    int n = o->rows * o->cols;
    tg_builder *b = tg_builder_new(n);
    if (!b)
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    int rc = 0;
    for (int r = 0; r < o->rows && !rc; r++) {
        int base = r * o->cols;
        for (int c = 0; c + 1 < o->cols && !rc; c++)
            rc = tg_builder_add(b, base + c, base + c + 1, o->p2p_bytes, err);
        if (!rc && o->periodic)
            rc = tg_builder_add(b, base + o->cols - 1, base, o->p2p_bytes,
                                err);
    }
    if (!rc)
        rc = tg_builder_finish(b, out, err);
    tg_builder_free(b);
    return rc;
}

/* The alltoall layer, written straight into CSR form: a clique has
 * rows - 1 neighbours per task, known in advance and already in ascending
 * order (r' * cols + c for r' != r), so the builder's triples (twice the
 * final size) would only cost memory on what is the dense part. */
static int alltoall_layer(const tg_qbox_options *o, tg_graph **out,
                          tg_error *err)
{
    int n = o->rows * o->cols;
    int64_t deg = o->rows - 1;
    tg_graph *g = tg_graph_alloc(n, (int64_t)n * deg);
    if (!g)
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    int64_t e = 0;
    for (int t = 0; t < n; t++) {
        int r = t / o->cols, c = t % o->cols;
        for (int r2 = 0; r2 < o->rows; r2++) {
            if (r2 == r)
                continue;
            g->adjncy[e] = r2 * o->cols + c;
            g->adjwgt[e++] = o->alltoall_bytes;
        }
        g->xadj[t + 1] = e;
    }
    *out = g;
    return 0;
}

int tg_gen_qbox(const tg_qbox_options *o, tg_graph **out, tg_error *err)
{
    int rc = check_options(o, out, err);
    if (rc)
        return rc;
    tg_graph *layer[2] = {NULL, NULL}, *g = NULL;
    rc = p2p_layer(o, &layer[0], err);
    if (!rc)
        rc = alltoall_layer(o, &layer[1], err);
    /* The two layers never share a pair (p2p stays in a row, alltoall in a
     * column), so the Sum is their union. */
    if (!rc)
        rc = tg_sum((const tg_graph *const *)layer, 2, &g, err);
    if (!rc)
        rc = tg_graph_add_type(g, "p2p", 1.0, err);
    if (!rc)
        rc = tg_graph_add_type(g, "alltoall", 1.0, err);
    int dims[2] = {o->rows, o->cols}, periods[2] = {0, o->periodic != 0};
    if (!rc)
        rc = tg_graph_set_grid(g, 2, dims, periods, NULL, err);
    if (rc) {
        tg_graph_free(layer[0]);
        tg_graph_free(layer[1]);
        tg_graph_free(g);
        return rc;
    }
    /* tg_graph_add_layer takes each layer, also when it fails. */
    rc = tg_graph_add_layer(g, "p2p", layer[0], err);
    if (rc) {
        tg_graph_free(layer[1]);
    } else {
        rc = tg_graph_add_layer(g, "alltoall", layer[1], err);
    }
    if (rc) {
        tg_graph_free(g);
        return rc;
    }
    *out = g;
    return 0;
}

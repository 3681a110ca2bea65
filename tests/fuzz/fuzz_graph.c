/* fuzz_graph.c: libFuzzer harness of the task-graph readers (tg_read):
 * .tg.json, METIS .graph, Scotch .grf, Matrix Market .mtx with pattern and
 * with value weights.  The first byte picks the reader, the rest is the
 * file.  A graph read is written back as .tg.json and read again: the
 * reader must accept what the writer makes of anything it accepted. */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_file.h"
#include "taskgraph.h"

static const struct {
    const char *name;
    tg_format format;
    tg_mtx_weights weights;
} readers[] = {
    {"in.tg.json", TG_FORMAT_JSON, TG_MTX_PATTERN},
    {"in.graph", TG_FORMAT_METIS, TG_MTX_PATTERN},
    {"in.grf", TG_FORMAT_SCOTCH, TG_MTX_PATTERN},
    {"in.mtx", TG_FORMAT_MTX, TG_MTX_PATTERN},
    {"in.mtx", TG_FORMAT_MTX, TG_MTX_VALUES},
};
#define NREADERS (sizeof readers / sizeof readers[0])

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    unsigned k = data[0] % NREADERS;
    const char *path = fz_file(readers[k].name, data + 1, size - 1);
    tg_read_options o = {readers[k].format, readers[k].weights};
    tg_graph *g = NULL;
    tg_error err;
    if (tg_read(path, &o, &g, &err))
        return 0;
    const char *out = fz_file("out.tg.json", NULL, 0);
    tg_graph *back = NULL;
    if (tg_write(out, TG_FORMAT_JSON, g, &err) ||
        tg_read(out, NULL, &back, &err))
        fz_fail("a graph read does not survive a .tg.json round trip", &err);
    if (back->n != g->n || back->nedges != g->nedges) {
        fprintf(stderr, "fuzz_graph: %s: %d tasks, %lld edges read, %d "
                "tasks, %lld edges after a .tg.json round trip\n",
                readers[k].name, g->n, (long long)g->nedges, back->n,
                (long long)back->nedges);
        abort();
    }
    tg_graph_free(back);
    tg_graph_free(g);
    return 0;
}

/* format.c: choosing a file format by name or extension, and dispatching
 * reads and writes to the per-format modules. */
#include <string.h>
#include <strings.h>

#include "tg_internal.h"

static const struct {
    tg_format format;
    const char *name;
    const char *extensions[3];
} formats[] = {
    {TG_FORMAT_JSON, "json", {".tg.json", ".json", NULL}},
    {TG_FORMAT_METIS, "metis", {".graph", ".metis", NULL}},
    {TG_FORMAT_SCOTCH, "scotch", {".grf", ".src", NULL}},
    {TG_FORMAT_MTX, "mtx", {".mtx", ".mm", NULL}},
};
#define NFORMATS (sizeof formats / sizeof formats[0])

tg_format tg_format_from_name(const char *name)
{
    for (size_t i = 0; i < NFORMATS; i++)
        if (strcasecmp(name, formats[i].name) == 0)
            return formats[i].format;
    return TG_FORMAT_UNKNOWN;
}

tg_format tg_format_from_path(const char *path)
{
    size_t len = strlen(path);
    for (size_t i = 0; i < NFORMATS; i++)
        for (int k = 0; formats[i].extensions[k]; k++) {
            size_t el = strlen(formats[i].extensions[k]);
            if (len > el &&
                strcasecmp(path + len - el, formats[i].extensions[k]) == 0)
                return formats[i].format;
        }
    return TG_FORMAT_UNKNOWN;
}

const char *tg_format_name(tg_format f)
{
    for (size_t i = 0; i < NFORMATS; i++)
        if (formats[i].format == f)
            return formats[i].name;
    return "unknown";
}

static int unknown_format(const char *path, tg_error *err)
{
    return tg_error_set(err, TG_EINVAL, path, 0,
                        "unknown graph format: name the file .tg.json, "
                        ".graph, .grf or .mtx, or give the format");
}

int tg_read(const char *path, const tg_read_options *opts, tg_graph **out,
            tg_error *err)
{
    tg_format f = opts && opts->format ? opts->format
                                       : tg_format_from_path(path);
    tg_mtx_weights mw = opts ? opts->mtx_weights : TG_MTX_PATTERN;
    int rc;
    switch (f) {
    case TG_FORMAT_JSON:
        rc = tg_read_json(path, out, err);
        break;
    case TG_FORMAT_METIS:
        rc = tg_read_metis(path, out, err);
        break;
    case TG_FORMAT_SCOTCH:
        rc = tg_read_scotch(path, out, err);
        break;
    case TG_FORMAT_MTX:
        rc = tg_read_mtx(path, mw, out, err);
        break;
    default:
        return unknown_format(path, err);
    }
    if (rc)
        return rc;
    /* Every reader must deliver a graph that keeps the CSR invariants. */
    rc = tg_graph_check(*out, err);
    if (rc) {
        tg_graph_free(*out);
        *out = NULL;
        char text[sizeof err->text];
        snprintf(text, sizeof text, "%s", err->text);
        return tg_error_set(err, TG_EPARSE, path, 0, "%s", text);
    }
    return 0;
}

int tg_write(const char *path, tg_format format, const tg_graph *g,
             tg_error *err)
{
    tg_format f = format ? format : tg_format_from_path(path);
    switch (f) {
    case TG_FORMAT_JSON:
        return tg_write_json(path, g, err);
    case TG_FORMAT_METIS:
        return tg_write_metis(path, g, err);
    case TG_FORMAT_SCOTCH:
        return tg_write_scotch(path, g, err);
    case TG_FORMAT_MTX:
        return tg_error_set(err, TG_EINVAL, path, 0,
                            "Matrix Market is read only: write .tg.json, "
                            ".graph or .grf");
    default:
        return unknown_format(path, err);
    }
}

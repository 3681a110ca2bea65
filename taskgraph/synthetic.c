/* synthetic.c: what an hwloc synthetic topology description ("pack:2
 * core:16 pu:2") costs, counted before hwloc builds it.  hwloc gives every
 * object cpusets of as many bits as there are PUs, and its cost grows much
 * faster than the PUs (hwloc 2.9 here: "pack:2 core:2048 pu:1" 0.7 s,
 * "pack:2 core:4096 pu:1" 7 s); "pack:64 core:64 pu:64", 22 bytes, took
 * minutes and gigabytes in greedymap, topomap-place and, inside an
 * application, libtopomap-reorder.  The PUs are the product of the levels' arities (the
 * numbers after ':' outside parentheses, which hold attributes, and
 * brackets, which hold memory children). */
#include "tg_internal.h"

int tg_synthetic_check(const char *spec, const char *what, tg_error *err)
{
    double pus = 1;
    int depth = 0;
    for (const char *p = spec; *p; p++) {
        if (*p == '(' || *p == '[')
            depth++;
        else if ((*p == ')' || *p == ']') && depth)
            depth--;
        else if (*p == ':' && !depth && p[1] >= '0' && p[1] <= '9') {
            double arity = 0;
            while (p[1] >= '0' && p[1] <= '9' && arity <= 1e18)
                arity = 10 * arity + (*++p - '0');
            pus *= arity;
        }
    }
    if (pus > TG_SYNTHETIC_PUS_MAX)
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "%s '%.200s' describes %.0f PUs, more than the "
                            "%d a synthetic topology may have here (hwloc's "
                            "cost grows much faster than their number)",
                            what, spec, pus, TG_SYNTHETIC_PUS_MAX);
    return 0;
}

/* heat_cpu.c: heat's CPU variant (heat.h).  The field is host memory from
 * malloc, first touched here by the rank itself, so its pages land where
 * the process's memory binding puts them: topomap-exec binds a CPU rank's
 * memory to the NUMA node of its kind (dram, hbm, cxl, nvm) before it
 * execs the program, and the binding holds across exec.  MPI reads and
 * writes the halo rows in place. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "heat.h"

static int cpu_setup(heat_field *f, int local_rank, int staged, char *why,
                     size_t whysize)
{
    (void)local_rank;
    (void)staged;
    size_t n = ((size_t)f->rows + 2) * ((size_t)f->cols + 2);
    f->u = malloc(n * sizeof *f->u);
    f->v = malloc(n * sizeof *f->v);
    if (!f->u || !f->v) {
        free(f->u);
        free(f->v);
        f->u = f->v = NULL;
        snprintf(why, whysize, "out of memory for 2 x %zu doubles", n);
        return -1;
    }
    heat_initial(f, f->u);
    memcpy(f->v, f->u, n * sizeof *f->v);
    return 0;
}

static int cpu_step(heat_field *f, char *why, size_t whysize)
{
    (void)why;
    (void)whysize;
    size_t w = (size_t)f->cols + 2;
    const double *u = f->u;
    double *v = f->v;
    for (size_t i = 1; i <= (size_t)f->rows; i++)
        for (size_t j = 1; j <= (size_t)f->cols; j++) {
            size_t c = i * w + j;
            v[c] = 0.25 * ((u[c - w] + u[c + w]) + (u[c - 1] + u[c + 1]));
        }
    f->u = v;
    f->v = (double *)u;
    return 0;
}

static const double *cpu_view(heat_field *f, char *why, size_t whysize)
{
    (void)why;
    (void)whysize;
    return f->u;
}

static void cpu_teardown(heat_field *f)
{
    free(f->u);
    free(f->v);
    f->u = f->v = NULL;
}

/* No staging: MPI reads and writes the halo rows in place. */
const heat_variant heat_cpu = {cpu_setup, cpu_step, NULL, NULL, cpu_view,
                               cpu_teardown};

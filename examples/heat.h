/* heat.h: the variants of examples/heat (heat.c): where a rank's part of
 * the field lives and how one Jacobi step runs over it.  heat_cpu.c is
 * always built; heat_cuda.cu only when configure found CUDA.  Plain C, so
 * that nvcc and the C compiler both read it; no MPI in here. */
#ifndef TOPOMAP_HEAT_H
#define TOPOMAP_HEAT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The memory kinds of TOPOMAP_MEM_KIND (hetero/names.c spells them alike):
 * three for GPU ranks, the NUMA kinds for CPU ranks. */
typedef enum heat_mem {
    HEAT_DEVICE,
    HEAT_PINNED,
    HEAT_MANAGED,
    HEAT_DRAM,
    HEAT_HBM,
    HEAT_CXL,
    HEAT_NVM
} heat_mem;

/* One rank's rows of the global field, rows + 2 by cols + 2 doubles in
 * row-major order: local row 0 is the halo (or the fixed boundary) above,
 * row rows + 1 the one below, columns 0 and cols + 1 the fixed side
 * boundaries.  Global row of local row i: row0 + i. */
typedef struct heat_field {
    int rows, cols;
    long long row0, nrows; /* nrows: the global interior rows */
    heat_mem mem;
    double *u, *v;  /* the current and the next field, as the variant
                       allocated them */
    double *host;   /* host copy for device memory, else NULL */
    double *stage;  /* 4 x cols pinned host doubles (send up, send down,
                       receive up, receive down) when halos must pass
                       through the host, else NULL: MPI then reads and
                       writes u's rows itself */
} heat_field;

/* The initial value at global row i, column j of the (nrows + 2) x
 * (cols + 2) field (heat.c); fills u's local rows into out. */
void heat_initial(const heat_field *f, double *out);

/* A variant.  Each call returns 0, or -1 with a message in why. */
typedef struct heat_variant {
    /* Allocate u and v for f->mem and fill both with heat_initial.  The
     * GPU variant takes GPU local_rank modulo the GPUs this process sees;
     * staged asks it for pinned staging buffers (device memory when MPI is
     * not CUDA-aware). */
    int (*setup)(heat_field *f, int local_rank, int staged, char *why,
                 size_t whysize);
    /* One Jacobi step from u into v, finished when it returns; then swap
     * u and v. */
    int (*step)(heat_field *f, char *why, size_t whysize);
    /* Staged halos only: rows 1 and rows into stage[0, 2 cols); then,
     * after the exchange, stage[2 cols, 3 cols) into row 0 when a halo
     * came from above, stage[3 cols, 4 cols) into row rows + 1 when one
     * came from below. */
    int (*halo_out)(heat_field *f, char *why, size_t whysize);
    int (*halo_in)(heat_field *f, int above, int below, char *why,
                   size_t whysize);
    /* The current field, readable by the host. */
    const double *(*view)(heat_field *f, char *why, size_t whysize);
    void (*teardown)(heat_field *f);
} heat_variant;

extern const heat_variant heat_cpu;  /* heat_cpu.c */
extern const heat_variant heat_cuda; /* heat_cuda.cu, only with CUDA */

#ifdef __cplusplus
}
#endif

#endif

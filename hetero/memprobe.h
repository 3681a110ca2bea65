/* memprobe.h: the CUDA part of memprobe (memprobe_cuda.cu, compiled by
 * nvcc only when configure found CUDA), as memprobe.c calls it. */
#ifndef TOPOMAP_MEMPROBE_H
#define TOPOMAP_MEMPROBE_H

#include <stdint.h>
#include <stdio.h>

#include "hetero.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Seconds on the monotonic clock (memprobe.c). */
double mp_now(void);

/* Measure every CUDA device into out[0..*n) (at most max): its bus id,
 * UUID, model and memory; kernel bandwidth to device, pinned (zero-copy)
 * and managed memory; copy bandwidth both ways and latency, pageable and
 * pinned.  Buffers of `bytes`, best of `repeats`.  Progress lines go to
 * `progress` (may be NULL).  No device, or no driver, is no error: *n = 0
 * and `why` says so.  Returns 0, or -1 with `why` when a CUDA call fails. */
int mp_cuda_probe(uint64_t bytes, int repeats, ht_memcal_gpu *out, int max,
                  int *n, FILE *progress, char *why, size_t whysize);

#ifdef __cplusplus
}
#endif

#endif

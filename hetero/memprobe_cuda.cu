/* memprobe_cuda.cu: memprobe's GPU part (see memprobe.h), built by nvcc
 * only when configure found CUDA.  Per device: a copy kernel over device
 * memory, over pinned host memory mapped into the device (zero-copy) and
 * over managed memory whose pages start on the host; cudaMemcpy both ways
 * from pageable and from pinned host memory; the latency of 8-byte
 * copies.  Bandwidths count the bytes read plus the bytes written. */
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

#include "memprobe.h"

#define MIB 1048576.0
#define LATENCY_COPIES 1000

__global__ void copy_kernel(const double *__restrict__ a,
                            double *__restrict__ b, size_t n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += stride)
        b[i] = a[i];
}

/* Set why from a failed call; -1. */
static int failed(cudaError_t e, const char *what, char *why, size_t size)
{
    snprintf(why, size, "%s: %s", what, cudaGetErrorString(e));
    return -1;
}

#define CHECK(call)                                                            \
    do {                                                                       \
        cudaError_t e_ = (call);                                               \
        if (e_ != cudaSuccess)                                                 \
            return failed(e_, #call, why, whysize);                            \
    } while (0)

typedef struct timer {
    cudaEvent_t start, stop;
} timer;

/* End a timed run begun with an event on t->start; keep the best. */
static int lap(timer *t, double *best, char *why, size_t whysize)
{
    CHECK(cudaEventRecord(t->stop));
    CHECK(cudaEventSynchronize(t->stop));
    float ms;
    CHECK(cudaEventElapsedTime(&ms, t->start, t->stop));
    if (*best == 0 || ms / 1e3 < *best)
        *best = ms / 1e3;
    return 0;
}

/* Best seconds of `repeats` copy kernels from a to b (n doubles); with
 * `host_first`, the source pages are sent back to the host before each
 * run (managed memory). */
static int time_kernel(const double *a, double *b, size_t n, int repeats,
                       int blocks, int host_first, timer *t, double *best,
                       char *why, size_t whysize)
{
    *best = 0;
    for (int k = 0; k < repeats; k++) {
        if (host_first)
            memset((void *)a, 0, n * sizeof *a);
        CHECK(cudaEventRecord(t->start));
        copy_kernel<<<blocks, 256>>>(a, b, n);
        CHECK(cudaGetLastError());
        if (lap(t, best, why, whysize))
            return -1;
    }
    return 0;
}

/* Best seconds of `repeats` copies of `bytes`. */
static int time_copy(void *dst, const void *src, size_t bytes,
                     cudaMemcpyKind kind, int repeats, timer *t, double *best,
                     char *why, size_t whysize)
{
    *best = 0;
    for (int k = 0; k < repeats; k++) {
        CHECK(cudaEventRecord(t->start));
        CHECK(cudaMemcpy(dst, src, bytes, kind));
        if (lap(t, best, why, whysize))
            return -1;
    }
    return 0;
}

/* Mean nanoseconds of a host-to-device copy of 8 bytes, as the host waits
 * for it. */
static int latency(void *dev, const void *host, double *ns, char *why,
                   size_t whysize)
{
    CHECK(cudaMemcpy(dev, host, 8, cudaMemcpyHostToDevice)); /* warm */
    double t0 = mp_now();
    for (int k = 0; k < LATENCY_COPIES; k++)
        CHECK(cudaMemcpy(dev, host, 8, cudaMemcpyHostToDevice));
    *ns = 1e9 * (mp_now() - t0) / LATENCY_COPIES;
    return 0;
}

static void describe(int d, const cudaDeviceProp *p, ht_memcal_gpu *g)
{
    char bus[32];
    if (cudaDeviceGetPCIBusId(bus, sizeof bus, d) == cudaSuccess) {
        for (char *c = bus; *c; c++) /* hwloc writes hex in lower case */
            if (*c >= 'A' && *c <= 'F')
                *c = (char)(*c - 'A' + 'a');
        snprintf(g->busid, sizeof g->busid, "%s", bus);
    }
    const unsigned char *u = (const unsigned char *)p->uuid.bytes;
    snprintf(g->uuid, sizeof g->uuid,
             "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
             "%02x%02x%02x%02x%02x%02x",
             u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10],
             u[11], u[12], u[13], u[14], u[15]);
    snprintf(g->model, sizeof g->model, "%.127s", p->name);
    g->memory = p->totalGlobalMem;
}

/* All the figures of device d; buffers freed by the caller. */
typedef struct buffers {
    double *d1, *d2, *h1, *h2, *m1, *m2;
    void *pageable;
} buffers;

static int measure(int d, uint64_t bytes, int repeats, ht_memcal_gpu *g,
                   buffers *b, timer *t, char *why, size_t whysize)
{
    cudaDeviceProp p;
    CHECK(cudaSetDevice(d));
    CHECK(cudaGetDeviceProperties(&p, d));
    describe(d, &p, g);
    size_t n = bytes / sizeof(double);
    int blocks = p.multiProcessorCount * 8;
    double s, moved = 2.0 * (double)bytes / MIB;
    CHECK(cudaEventCreate(&t->start));
    CHECK(cudaEventCreate(&t->stop));
    CHECK(cudaMalloc((void **)&b->d1, bytes));
    CHECK(cudaMalloc((void **)&b->d2, bytes));
    CHECK(cudaMemset(b->d1, 0, bytes));
    if (time_kernel(b->d1, b->d2, n, repeats, blocks, 0, t, &s, why, whysize))
        return -1;
    g->device = moved / s;
    CHECK(cudaHostAlloc((void **)&b->h1, bytes, cudaHostAllocMapped));
    CHECK(cudaHostAlloc((void **)&b->h2, bytes, cudaHostAllocMapped));
    memset(b->h1, 0, bytes);
    double *m1, *m2;
    CHECK(cudaHostGetDevicePointer((void **)&m1, b->h1, 0));
    CHECK(cudaHostGetDevicePointer((void **)&m2, b->h2, 0));
    if (time_kernel(m1, m2, n, repeats, blocks, 0, t, &s, why, whysize))
        return -1;
    g->pinned = moved / s;
    CHECK(cudaMallocManaged((void **)&b->m1, bytes));
    CHECK(cudaMallocManaged((void **)&b->m2, bytes));
    if (time_kernel(b->m1, b->m2, n, repeats, blocks, 1, t, &s, why, whysize))
        return -1;
    g->managed = moved / s;
    if (!(b->pageable = malloc(bytes)))
        return failed(cudaErrorMemoryAllocation, "malloc", why, whysize);
    memset(b->pageable, 0, bytes);
    double one = (double)bytes / MIB;
    if (time_copy(b->d1, b->pageable, bytes, cudaMemcpyHostToDevice, repeats, t,
                  &s, why, whysize))
        return -1;
    g->h2d_pageable = one / s;
    if (time_copy(b->pageable, b->d1, bytes, cudaMemcpyDeviceToHost, repeats, t,
                  &s, why, whysize))
        return -1;
    g->d2h_pageable = one / s;
    if (time_copy(b->d1, b->h1, bytes, cudaMemcpyHostToDevice, repeats, t, &s,
                  why, whysize))
        return -1;
    g->h2d_pinned = one / s;
    if (time_copy(b->h1, b->d1, bytes, cudaMemcpyDeviceToHost, repeats, t, &s,
                  why, whysize))
        return -1;
    g->d2h_pinned = one / s;
    if (latency(b->d1, b->pageable, &g->lat_pageable, why, whysize) ||
        latency(b->d1, b->h1, &g->lat_pinned, why, whysize))
        return -1;
    return 0;
}

static void release(buffers *b, timer *t)
{
    cudaFree(b->d1);
    cudaFree(b->d2);
    cudaFreeHost(b->h1);
    cudaFreeHost(b->h2);
    cudaFree(b->m1);
    cudaFree(b->m2);
    free(b->pageable);
    if (t->start)
        cudaEventDestroy(t->start);
    if (t->stop)
        cudaEventDestroy(t->stop);
}

extern "C" int mp_cuda_probe(uint64_t bytes, int repeats, ht_memcal_gpu *out,
                             int max, int *n, FILE *progress, char *why,
                             size_t whysize)
{
    int count = 0;
    *n = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        snprintf(why, whysize, "no CUDA device (%s)",
                 e != cudaSuccess ? cudaGetErrorString(e) : "none found");
        return 0;
    }
    for (int d = 0; d < count && d < max; d++) {
        buffers b;
        timer t;
        memset(&b, 0, sizeof b);
        memset(&t, 0, sizeof t);
        ht_memcal_gpu *g = &out[d];
        memset(g, 0, sizeof *g);
        int rc = measure(d, bytes, repeats, g, &b, &t, why, whysize);
        release(&b, &t);
        if (rc)
            return -1;
        *n = d + 1;
        if (progress)
            fprintf(progress,
                    "memprobe: GPU %s (%s): device %.0f, pinned %.0f, "
                    "managed %.0f MiB/s; copies h2d/d2h pageable %.0f/%.0f, "
                    "pinned %.0f/%.0f MiB/s; latency %.0f/%.0f ns\n",
                    g->busid, g->model, g->device, g->pinned, g->managed,
                    g->h2d_pageable, g->d2h_pageable, g->h2d_pinned,
                    g->d2h_pinned, g->lat_pageable, g->lat_pinned);
    }
    return 0;
}

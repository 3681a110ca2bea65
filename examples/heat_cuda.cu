/* heat_cuda.cu: heat's GPU variant (heat.h), built by nvcc (with
 * -fmad=false) only when configure found CUDA.  The rank takes GPU
 * local_rank modulo the GPUs it sees: the one CUDA_VISIBLE_DEVICES leaves
 * it when topomap-exec placed it.  Its field lives where TOPOMAP_MEM_KIND
 * says: device (cudaMalloc; a host copy for the initial values and the
 * checksum, and halos through pinned buffers unless MPI is CUDA-aware),
 * pinned (cudaMallocHost, which the kernel reads and writes over the bus)
 * or managed (cudaMallocManaged, pages migrating on demand).  Pinned and
 * managed rows are handed to MPI as they are, once the step is done. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "heat.h"

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

/* The same expression as heat_cpu.c's, point by point. */
__global__ void jacobi(const double *__restrict__ u, double *__restrict__ v,
                       int rows, int cols)
{
    size_t w = (size_t)cols + 2;
    for (int i = blockIdx.y * blockDim.y + threadIdx.y + 1; i <= rows;
         i += gridDim.y * blockDim.y)
        for (int j = blockIdx.x * blockDim.x + threadIdx.x + 1; j <= cols;
             j += gridDim.x * blockDim.x) {
            size_t c = (size_t)i * w + j;
            v[c] = 0.25 * ((u[c - w] + u[c + w]) + (u[c - 1] + u[c + 1]));
        }
}

static size_t field_bytes(const heat_field *f)
{
    return ((size_t)f->rows + 2) * ((size_t)f->cols + 2) * sizeof(double);
}

static void gpu_teardown(heat_field *f)
{
    if (f->mem == HEAT_PINNED) {
        cudaFreeHost(f->u);
        cudaFreeHost(f->v);
    } else {
        cudaFree(f->u);
        cudaFree(f->v);
    }
    cudaFreeHost(f->stage);
    free(f->host);
    f->u = f->v = f->host = f->stage = NULL;
}

/* Allocate u, v (and the host copy and staging buffers) and fill them. */
static int allocate(heat_field *f, int staged, char *why, size_t whysize)
{
    size_t bytes = field_bytes(f);
    switch (f->mem) {
    case HEAT_DEVICE:
        CHECK(cudaMalloc((void **)&f->u, bytes));
        CHECK(cudaMalloc((void **)&f->v, bytes));
        f->host = (double *)malloc(bytes);
        if (!f->host) {
            snprintf(why, whysize, "out of memory for %zu bytes", bytes);
            return -1;
        }
        heat_initial(f, f->host);
        CHECK(cudaMemcpy(f->u, f->host, bytes, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(f->v, f->host, bytes, cudaMemcpyHostToDevice));
        break;
    case HEAT_PINNED:
        CHECK(cudaMallocHost((void **)&f->u, bytes));
        CHECK(cudaMallocHost((void **)&f->v, bytes));
        break;
    case HEAT_MANAGED:
        CHECK(cudaMallocManaged((void **)&f->u, bytes, cudaMemAttachGlobal));
        CHECK(cudaMallocManaged((void **)&f->v, bytes, cudaMemAttachGlobal));
        break;
    default:
        snprintf(why, whysize, "memory kind %d is not a GPU kind", f->mem);
        return -1;
    }
    if (f->mem != HEAT_DEVICE) { /* the host reaches them directly */
        heat_initial(f, f->u);
        memcpy(f->v, f->u, bytes);
    }
    if (staged)
        CHECK(cudaMallocHost((void **)&f->stage,
                             4 * (size_t)f->cols * sizeof(double)));
    return 0;
}

static int gpu_setup(heat_field *f, int local_rank, int staged, char *why,
                     size_t whysize)
{
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess)
        return failed(e, "no usable GPU: cudaGetDeviceCount failed", why,
                      whysize);
    if (n == 0) {
        const char *cvd = getenv("CUDA_VISIBLE_DEVICES");
        snprintf(why, whysize, "no usable GPU: none visible%s%s%s",
                 cvd ? " (CUDA_VISIBLE_DEVICES='" : "", cvd ? cvd : "",
                 cvd ? "')" : "");
        return -1;
    }
    CHECK(cudaSetDevice(local_rank % n));
    if (allocate(f, staged, why, whysize)) {
        gpu_teardown(f);
        return -1;
    }
    return 0;
}

static int gpu_step(heat_field *f, char *why, size_t whysize)
{
    dim3 block(32, 8);
    unsigned rows_blocks = (unsigned)((f->rows + 7) / 8);
    dim3 grid((unsigned)((f->cols + 31) / 32),
              rows_blocks < 65535 ? rows_blocks : 65535);
    jacobi<<<grid, block>>>(f->u, f->v, f->rows, f->cols);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    double *t = f->u;
    f->u = f->v;
    f->v = t;
    return 0;
}

static int gpu_halo_out(heat_field *f, char *why, size_t whysize)
{
    size_t n = (size_t)f->cols, w = n + 2, bytes = n * sizeof(double);
    CHECK(cudaMemcpy(f->stage, f->u + w + 1, bytes, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(f->stage + n, f->u + (size_t)f->rows * w + 1, bytes,
                     cudaMemcpyDeviceToHost));
    return 0;
}

static int gpu_halo_in(heat_field *f, int above, int below, char *why,
                       size_t whysize)
{
    size_t n = (size_t)f->cols, w = n + 2, bytes = n * sizeof(double);
    if (above)
        CHECK(cudaMemcpy(f->u + 1, f->stage + 2 * n, bytes,
                         cudaMemcpyHostToDevice));
    if (below)
        CHECK(cudaMemcpy(f->u + (size_t)(f->rows + 1) * w + 1,
                         f->stage + 3 * n, bytes, cudaMemcpyHostToDevice));
    return 0;
}

static const double *gpu_view(heat_field *f, char *why, size_t whysize)
{
    if (f->mem != HEAT_DEVICE)
        return f->u; /* the step has synchronised */
    cudaError_t e = cudaMemcpy(f->host, f->u, field_bytes(f),
                               cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) {
        failed(e, "cudaMemcpy of the field to the host", why, whysize);
        return NULL;
    }
    return f->host;
}

const heat_variant heat_cuda = {gpu_setup,   gpu_step, gpu_halo_out,
                                gpu_halo_in, gpu_view, gpu_teardown};

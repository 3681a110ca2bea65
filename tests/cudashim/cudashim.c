/* cudashim.c: a stand-in for the CUDA driver, built as libcuda.so.1, for
 * tests/commprof_memkinds.sh: libcommprof finds it as it would find the
 * driver (dlopen of libcuda.so.1 with RTLD_NOLOAD, once the test program
 * has loaded it), so its classification of send buffers and its look at
 * the GPU run without a GPU.
 *
 * The test program marks address ranges as device, pinned or managed
 * memory (cushim_mark), says whether its thread has a context and on
 * which device (cushim_context), and reads back what was asked of the
 * driver (cushim_counts): cuPointerGetAttributes calls, and calls that
 * would initialise the driver or create, retain or switch a context,
 * which libcommprof must never make.  When COMMPROF_SHIM_MARK names a
 * file, loading the library creates it: the test sees whether anyone
 * loaded it at all.
 */
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cu_abi.h"

/* The kinds cushim_mark takes. */
enum { SHIM_PINNED = 1, SHIM_DEVICE = 2, SHIM_MANAGED = 3 };

#define MAX_RANGES 16

static struct {
    cu_ptr start, size;
    int kind;
} ranges[MAX_RANGES];
static int nranges, device = -1, queries, forbidden;
static size_t used;
static int context_token;

__attribute__((constructor)) static void loaded(void)
{
    const char *mark = getenv("COMMPROF_SHIM_MARK");
    if (mark && *mark) {
        int fd = open(mark, O_WRONLY | O_CREAT, 0644);
        if (fd >= 0)
            close(fd);
    }
}

/* ------------------------------------------------ the test's controls */

int cushim_mark(const void *start, size_t size, int kind)
{
    if (nranges == MAX_RANGES)
        return -1;
    ranges[nranges].start = (cu_ptr)(size_t)start;
    ranges[nranges].size = size;
    ranges[nranges++].kind = kind;
    return 0;
}

/* dev < 0: no context in the calling thread. */
void cushim_context(int dev, size_t bytes_used)
{
    device = dev;
    used = bytes_used;
}

void cushim_counts(int *pointer_queries, int *context_calls)
{
    *pointer_queries = queries;
    *context_calls = forbidden;
}

/* -------------------------------------------- what libcommprof may call */

cu_result cuPointerGetAttributes(unsigned n, int *attrs, void **data,
                                 cu_ptr ptr)
{
    queries++;
    int k = -1;
    for (int i = 0; i < nranges && k < 0; i++)
        if (ranges[i].start <= ptr && ptr - ranges[i].start < ranges[i].size)
            k = i;
    /* As the driver does, memory it does not know gets zeros and success. */
    for (unsigned i = 0; i < n; i++) {
        switch (attrs[i]) {
        case CU_ATTR_MEMORY_TYPE:
            *(unsigned *)data[i] = k < 0 ? 0
                                   : ranges[k].kind == SHIM_PINNED
                                       ? CU_MEMORYTYPE_HOST
                                       : CU_MEMORYTYPE_DEVICE;
            break;
        case CU_ATTR_IS_MANAGED:
            *(unsigned *)data[i] = k >= 0 && ranges[k].kind == SHIM_MANAGED;
            break;
        case CU_ATTR_RANGE_START_ADDR:
            *(cu_ptr *)data[i] = k < 0 ? 0 : ranges[k].start;
            break;
        case CU_ATTR_RANGE_SIZE:
            *(size_t *)data[i] = k < 0 ? 0 : (size_t)ranges[k].size;
            break;
        default:
            return CU_ERROR_INVALID_VALUE;
        }
    }
    return 0;
}

cu_result cuCtxGetCurrent(void **ctx)
{
    *ctx = device >= 0 ? &context_token : NULL;
    return 0;
}

cu_result cuCtxGetDevice(int *dev)
{
    if (device < 0)
        return CU_ERROR_INVALID_CONTEXT;
    *dev = device;
    return 0;
}

cu_result cuDeviceGetPCIBusId(char *id, int len, int dev)
{
    snprintf(id, (size_t)len, "0000:%02x:00.0", 0x10 + dev);
    return 0;
}

cu_result cuMemGetInfo_v2(size_t *free, size_t *total)
{
    if (device < 0)
        return CU_ERROR_INVALID_CONTEXT;
    *total = (size_t)16 << 30;
    *free = *total - used;
    return 0;
}

/* -------------------------------------- what libcommprof must never call */

#define FORBIDDEN(name)                                                      \
    cu_result name(void)                                                     \
    {                                                                        \
        forbidden++;                                                         \
        return 0;                                                            \
    }
FORBIDDEN(cuInit)
FORBIDDEN(cuCtxCreate)
FORBIDDEN(cuCtxCreate_v2)
FORBIDDEN(cuCtxCreate_v3)
FORBIDDEN(cuCtxCreate_v4)
FORBIDDEN(cuCtxSetCurrent)
FORBIDDEN(cuCtxPushCurrent)
FORBIDDEN(cuCtxPushCurrent_v2)
FORBIDDEN(cuDevicePrimaryCtxRetain)
FORBIDDEN(cuDevicePrimaryCtxSetFlags)
FORBIDDEN(cuDevicePrimaryCtxSetFlags_v2)
FORBIDDEN(cuDevicePrimaryCtxReset)
FORBIDDEN(cuDevicePrimaryCtxReset_v2)

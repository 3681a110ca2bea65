/* cuda.c: what the CUDA driver says about send buffers and about the
 * process's GPU, asked only when the application has loaded the driver.
 *
 * libcommprof never links CUDA, never loads it and never creates a
 * context.  It looks for libcuda.so.1 among the loaded objects with
 * dlopen(RTLD_NOLOAD), which loads nothing: at MPI_Init, and, because an
 * application may load the driver later (the CUDA runtime does at its
 * first call), again from the wrappers at most once a millisecond
 * (cp_cuda_poll), and then only when the process has loaded something
 * since the last look: dl_iterate_phdr's count of loads costs 25 ns to
 * read, where dlopen of a library that is not loaded searches the file
 * system (26 us here).  Creating a context takes far longer than a
 * millisecond, so the driver is found before a device buffer can be sent.
 * Until it is found, a send costs one predictable branch (cp_kind) and
 * every byte is host memory.
 *
 * Once it is found, a send buffer is classified by its first byte with
 * cuPointerGetAttributes: managed memory; device memory; host memory the
 * driver knows, pinned (cudaMallocHost, cudaHostRegister); anything else
 * host (pageable) memory.  The answers are cached: per 4 KiB page in a
 * direct-mapped table of 16384 words, read without a lock, and per CUDA
 * allocation (the driver's RANGE_START_ADDR and RANGE_SIZE; the latest 64)
 * in a list under a mutex.  So the first send from a pinned, device or
 * managed allocation asks the driver, and the first send from each page
 * of pageable memory, which the driver knows no range for: a code that
 * sends from more than 64 MiB of pageable pages, or whose pages collide
 * in the table, asks again on the sends that miss (a call of the order
 * of a microsecond, made without holding a lock).  The caches do not
 * see memory change kind under them: an allocation freed and replaced at
 * the same address by one of another kind keeps its old kind while its
 * page stays in the table or its range in the list, and pageable memory
 * registered with cudaHostRegister after a send from it stays host
 * (telling would take the driver's buffer id, a call per send).
 *
 * The GPU: the context current in the thread that calls MPI_Init,
 * MPI_Abort or MPI_Finalize (cuCtxGetCurrent; the CUDA runtime makes its
 * primary context current in the threads that use it), the PCI bus id of
 * its device, and the memory in use on that device (total minus free,
 * cuMemGetInfo: every process's).
 *
 * The driver's functions are taken with dlsym into a table.  Tests put a
 * stand-in libcuda.so.1 in the process (tests/cudashim) to run all of this
 * without a GPU; the stand-in also counts the calls that would create or
 * switch contexts, which must stay at zero.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stddef.h>
#include <string.h>

#include "cp_internal.h"
#include "cu_abi.h"

const char *const cp_mem_kind_names[CP_MEM_KINDS] = {"host", "pinned",
                                                     "device", "managed"};

/* The driver's functions, taken with dlsym from the loaded library. */
static struct {
    void *lib;
    cu_result (*pointer_get_attributes)(unsigned n, int *attrs, void **data,
                                        cu_ptr ptr);
    cu_result (*ctx_get_current)(void **ctx);
    cu_result (*ctx_get_device)(int *dev);
    cu_result (*device_get_pci_bus_id)(char *id, int len, int dev);
    cu_result (*mem_get_info)(size_t *free, size_t *total);
} cu;

/* -------------------------------------------------- finding the driver */

static pthread_mutex_t look_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long long loads_seen;
static int64_t ns_at_init, ticks_at_init;

/* How many objects the process has loaded so far (glibc counts them in
 * every dl_phdr_info; the first object's is enough). */
static int count_loads(struct dl_phdr_info *info, size_t size, void *data)
{
    if (size >= offsetof(struct dl_phdr_info, dlpi_adds) +
                    sizeof info->dlpi_adds)
        *(unsigned long long *)data = info->dlpi_adds;
    return 1;
}

/* Take the driver's functions when libcuda.so.1 is loaded (a reference
 * of our own keeps it loaded until cp_cuda_end). */
static int open_driver(void)
{
    void *lib = dlopen("libcuda.so.1", RTLD_NOLOAD | RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return 0;
    *(void **)&cu.pointer_get_attributes = dlsym(lib, "cuPointerGetAttributes");
    *(void **)&cu.ctx_get_current = dlsym(lib, "cuCtxGetCurrent");
    *(void **)&cu.ctx_get_device = dlsym(lib, "cuCtxGetDevice");
    *(void **)&cu.device_get_pci_bus_id = dlsym(lib, "cuDeviceGetPCIBusId");
    *(void **)&cu.mem_get_info = dlsym(lib, "cuMemGetInfo_v2");
    if (!cu.pointer_get_attributes) {
        dlclose(lib);
        memset(&cu, 0, sizeof cu);
        return 0;
    }
    cu.lib = lib;
    return 1;
}

/* A millisecond in ticks, from the clock's progress since MPI_Init (a
 * tick is a ns until enough time has passed to tell). */
static int64_t one_ms(int64_t now)
{
    int64_t ns = cp_monotonic_ns() - ns_at_init, ticks = now - ticks_at_init;
    return ns > 1000000 && ticks > 0 ? (int64_t)((double)ticks / ns * 1e6)
                                     : 1000000;
}

void cp_cuda_look(int64_t now)
{
    if (pthread_mutex_trylock(&look_lock) != 0)
        return; /* another thread is looking */
    int first = !ns_at_init;
    if (first) {
        ns_at_init = cp_monotonic_ns();
        ticks_at_init = now;
    }
    if (!cp.cuda) {
        /* Without a count of loads (a C library other than glibc), only
         * the first look and cp_cuda_facts look. */
        unsigned long long loads = 0;
        dl_iterate_phdr(count_loads, &loads);
        if ((first || (loads && loads != loads_seen)) && open_driver())
            __atomic_store_n(&cp.cuda, 1, __ATOMIC_RELEASE);
        loads_seen = loads;
    }
    __atomic_store_n(&cp.cuda_look_at, cp.cuda ? INT64_MAX : now + one_ms(now),
                     __ATOMIC_RELAXED);
    pthread_mutex_unlock(&look_lock);
}

void cp_cuda_end(void)
{
    pthread_mutex_lock(&look_lock);
    __atomic_store_n(&cp.cuda, 0, __ATOMIC_RELEASE);
    __atomic_store_n(&cp.cuda_look_at, INT64_MAX, __ATOMIC_RELAXED);
    if (cu.lib)
        dlclose(cu.lib);
    memset(&cu, 0, sizeof cu);
    pthread_mutex_unlock(&look_lock);
}

/* ------------------------------------------------- classifying buffers */

#define PAGE_BITS 12
#define PAGE_SLOTS_BITS 14 /* 128 KiB, touched only by sends once the driver
                            * is found: 64 MiB of send buffers at best */
#define RANGES 64

/* Per slot: page number << 3 | (kind + 1); 0 when empty. */
static uint64_t pages[1 << PAGE_SLOTS_BITS];

/* CUDA allocations met so far, the latest first. */
static struct range {
    uintptr_t start, end;
    cp_mem_kind kind;
} ranges[RANGES];
static int nranges;
static pthread_mutex_t range_lock = PTHREAD_MUTEX_INITIALIZER;

/* The driver's word on the memory at a, and the allocation range it lies
 * in (start == end when there is none). */
static cp_mem_kind ask_driver(uintptr_t a, struct range *in)
{
    unsigned type = 0, managed = 0;
    cu_ptr start = 0;
    size_t size = 0;
    int attrs[] = {CU_ATTR_MEMORY_TYPE, CU_ATTR_IS_MANAGED,
                   CU_ATTR_RANGE_START_ADDR, CU_ATTR_RANGE_SIZE};
    void *data[] = {&type, &managed, &start, &size};
    *in = (struct range){0, 0, CP_MEM_HOST};
    if (cu.pointer_get_attributes(4, attrs, data, (cu_ptr)a) != 0)
        return CP_MEM_HOST; /* not a pointer the driver knows */
    cp_mem_kind kind = managed || type == CU_MEMORYTYPE_UNIFIED ? CP_MEM_MANAGED
                       : type == CU_MEMORYTYPE_DEVICE           ? CP_MEM_DEVICE
                       : type == CU_MEMORYTYPE_HOST             ? CP_MEM_PINNED
                                                             : CP_MEM_HOST;
    if (kind != CP_MEM_HOST && size && start <= a && a - start < size)
        *in = (struct range){(uintptr_t)start, (uintptr_t)start + size, kind};
    return kind;
}

/* The kind of the memory at a: a known range, else the driver's word
 * (asked without the lock, so threads do not wait on each other's
 * driver calls). */
static cp_mem_kind classify(uintptr_t a)
{
    pthread_mutex_lock(&range_lock);
    cp_mem_kind kind = CP_MEM_KINDS;
    for (int i = 0; i < nranges && kind == CP_MEM_KINDS; i++)
        if (ranges[i].start <= a && a < ranges[i].end)
            kind = ranges[i].kind;
    pthread_mutex_unlock(&range_lock);
    if (kind != CP_MEM_KINDS)
        return kind;
    struct range r;
    kind = ask_driver(a, &r);
    if (r.start < r.end) {
        pthread_mutex_lock(&range_lock);
        if (nranges < RANGES)
            nranges++;
        memmove(ranges + 1, ranges, (size_t)(nranges - 1) * sizeof *ranges);
        ranges[0] = r;
        pthread_mutex_unlock(&range_lock);
    }
    return kind;
}

void cp_kind_count(const void *buf, uint64_t bytes)
{
    uintptr_t a = (uintptr_t)buf;
    uint64_t page = (uint64_t)a >> PAGE_BITS;
    uint64_t *slot = &pages[(page * 0x9e3779b97f4a7c15ULL) >>
                            (64 - PAGE_SLOTS_BITS)];
    uint64_t e = __atomic_load_n(slot, __ATOMIC_RELAXED);
    cp_mem_kind kind;
    if (e && e >> 3 == page) {
        kind = (cp_mem_kind)((e & 7) - 1);
    } else {
        kind = classify(a);
        __atomic_store_n(slot, page << 3 | (uint64_t)(kind + 1),
                         __ATOMIC_RELAXED);
    }
    if (kind != CP_MEM_HOST)
        cp_add(&cp.kind_bytes[kind], bytes);
}

/* ---------------------------------------------------------- the GPU */

void cp_cuda_facts(int look)
{
    if (look) {
        pthread_mutex_lock(&look_lock);
        if (!cp.cuda && open_driver())
            __atomic_store_n(&cp.cuda, 1, __ATOMIC_RELEASE);
        pthread_mutex_unlock(&look_lock);
    }
    /* cu is filled before cp.cuda is set (release), and cleared only by
     * cp_cuda_end at MPI_Finalize. */
    if (!__atomic_load_n(&cp.cuda, __ATOMIC_ACQUIRE) || !cu.ctx_get_current ||
        !cu.ctx_get_device || !cu.device_get_pci_bus_id || !cu.mem_get_info)
        return;
    void *ctx = NULL;
    int dev = -1;
    size_t free = 0, total = 0;
    char id[CP_BUS_ID_LEN] = "";
    if (cu.ctx_get_current(&ctx) != 0 || !ctx || cu.ctx_get_device(&dev) ||
        cu.device_get_pci_bus_id(id, (int)sizeof id - 1, dev) ||
        cu.mem_get_info(&free, &total))
        return;
    memcpy(cp.gpu_bus_id, id, sizeof id);
    cp.gpu_mem_used = total > free ? total - free : 0;
    cp.gpu_known = 1;
}

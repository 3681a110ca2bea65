/* cu_abi.h: the types and values of the CUDA driver's API (cuda.h) that
 * libcommprof uses (cuda.c), and that the tests' stand-in driver
 * (tests/cudashim) answers with, so that neither needs CUDA to build. */
#ifndef TOPOMAP_CU_ABI_H
#define TOPOMAP_CU_ABI_H

typedef int cu_result;             /* CUresult; CUDA_SUCCESS is 0 */
typedef unsigned long long cu_ptr; /* CUdeviceptr */

enum {
    /* CUpointer_attribute */
    CU_ATTR_MEMORY_TYPE = 2,       /* unsigned: a CUmemorytype */
    CU_ATTR_IS_MANAGED = 8,        /* unsigned: 0 or 1 */
    CU_ATTR_RANGE_START_ADDR = 11, /* cu_ptr */
    CU_ATTR_RANGE_SIZE = 12,       /* size_t */
    /* CUmemorytype */
    CU_MEMORYTYPE_HOST = 1,
    CU_MEMORYTYPE_DEVICE = 2,
    CU_MEMORYTYPE_UNIFIED = 4,
    /* CUresult */
    CU_ERROR_INVALID_VALUE = 1,
    CU_ERROR_INVALID_CONTEXT = 201
};

#endif

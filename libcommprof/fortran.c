/*
 * fortran.c: the Fortran MPI functions listed in fortran.def, generated
 * from that one table.
 *
 * Why they are needed.  Open MPI's Fortran bindings (libmpi_mpifh) call
 * the C layer's PMPI_ functions directly, so the C wrappers never see a
 * call made from Fortran.  Every Fortran interface ends in
 * libmpi_mpifh's or libmpi_usempif08's exported symbols, which a library
 * loaded with LD_PRELOAD takes over:
 *   mpif.h and `use mpi` call mpi_send_ (gfortran's mangling; other
 *     compilers use mpi_send, mpi_send__ or MPI_SEND, all weak aliases of
 *     the one function ompi_send_f in libmpi_mpifh),
 *   `use mpi_f08` calls mpi_send_f08_ (libmpi_usempif08, a Fortran
 *     subroutine that passes the MPI_VAL of each handle on to ompi_send_f,
 *     or for LOGICAL arguments to pmpi_test_ and friends).
 * Each row of fortran.def becomes one function with these five names.
 * The f08 entry points take the same arguments in the same places: an f08
 * handle is a derived type holding one INTEGER, passed by reference; an
 * f08 status has the layout of INTEGER status(MPI_STATUS_SIZE); the f08
 * sentinels are the same common blocks; an absent OPTIONAL ierror is a
 * NULL pointer, as a NULL ierr is for the Fortran 77 names.
 *
 * What a wrapper does.  It converts the arguments as Open MPI's own
 * binding does (handles with MPI_*_f2c, MPI_BOTTOM and MPI_IN_PLACE to
 * their C values, ignored statuses to MPI_STATUS(ES)_IGNORE, 1-based
 * indices), calls the C function MPI_NAME -- libcommprof's own wrapper
 * where it has one, which records the call and calls PMPI_NAME, else Open
 * MPI's -- and converts the results back (new handles with MPI_*_c2f,
 * statuses, indices) as Open MPI's binding does: output handles and status
 * arrays only when the call succeeded, a single status whatever the
 * result.  So a Fortran call is recorded exactly once, by the same code as
 * a C call, and the program sees what it would see without the profiler:
 * the C layer reports errors through the same error handlers, and ierr is
 * the C return code.  Recording from the Fortran wrapper and forwarding to
 * pmpi_send_ would instead duplicate each C wrapper's accounting.
 *
 * Where Open MPI 4.1's binding breaks the standard, the wrapper follows
 * the standard: Neighbor_alltoallw converts as many datatypes as the
 * topology has out- and in-neighbours (Open MPI converts as many as the
 * communicator has members, reading past the caller's arrays), and
 * Ialltoallw and Ineighbor_alltoallw keep their converted datatype arrays
 * until the request completes (Debian's Open MPI 4.1.4 frees them at once
 * and crashes at completion when they hold derived datatypes,
 * open-mpi/ompi#8763).
 *
 * Each argument in fortran.def names how it converts (a "kind", defined
 * below as four macros: its Fortran parameter, its local declarations,
 * its C argument, and what happens after the call).
 */
#include <stdlib.h>

#include "fortran.h"
#include "mpi_fortran_names.h"

/* ------------------------------------------------------ the kinds */

/* Heap arrays are freed when the wrapper returns. */
static void free_heap(void **p)
{
    free(*p);
}
#define FC_AUTOFREE __attribute__((cleanup(free_heap)))
#define FC_OK (c_ierr == MPI_SUCCESS)
/* The C array c_x of n elements of type T that convert(x, n, stack, heap,
 * ierr) makes from the Fortran array x (see fc_types). */
#define FC_ARRAY(T, x, n, convert)                                           \
    T x##_stack[FC_STACK];                                                   \
    void *x##_heap FC_AUTOFREE = NULL;                                       \
    T *c_##x = convert(x, n, x##_stack, &x##_heap, &c_ierr);

/* BUF(x): a choice buffer; Fortran MPI_BOTTOM is C MPI_BOTTOM. */
#define FC_PARAM_BUF(x) , void *x
#define FC_DECL_BUF(x)
#define FC_ARG_BUF(x) , fc_bottom(x)
#define FC_POST_BUF(x)
/* IBUF(x): a buffer that may also be MPI_IN_PLACE. */
#define FC_PARAM_IBUF(x) , void *x
#define FC_DECL_IBUF(x)
#define FC_ARG_IBUF(x) , fc_in_place(x)
#define FC_POST_IBUF(x)
/* INT(x): an INTEGER argument. */
#define FC_PARAM_INT(x) , MPI_Fint *x
#define FC_DECL_INT(x)
#define FC_ARG_INT(x) , *x
#define FC_POST_INT(x)
/* INTS(x): an INTEGER array (counts, displacements). */
#define FC_PARAM_INTS(x) , MPI_Fint *x
#define FC_DECL_INTS(x)
#define FC_ARG_INTS(x) , x
#define FC_POST_INTS(x)
/* AINT(x), AINTS(x): INTEGER(KIND=MPI_ADDRESS_KIND), one or an array. */
#define FC_PARAM_AINT(x) , MPI_Aint *x
#define FC_DECL_AINT(x)
#define FC_ARG_AINT(x) , *x
#define FC_POST_AINT(x)
#define FC_PARAM_AINTS(x) , MPI_Aint *x
#define FC_DECL_AINTS(x)
#define FC_ARG_AINTS(x) , x
#define FC_POST_AINTS(x)
/* OUT(x): an INTEGER or LOGICAL the call writes. */
#define FC_PARAM_OUT(x) , MPI_Fint *x
#define FC_DECL_OUT(x)
#define FC_ARG_OUT(x) , x
#define FC_POST_OUT(x)
/* COMM, DTYPE, OP, WIN, GROUP, INFO(x): an input handle. */
#define FC_HANDLE(x, Kind) , PMPI_##Kind##_f2c(*x)
#define FC_PARAM_COMM(x) , MPI_Fint *x
#define FC_DECL_COMM(x)
#define FC_ARG_COMM(x) FC_HANDLE(x, Comm)
#define FC_POST_COMM(x)
#define FC_PARAM_DTYPE(x) , MPI_Fint *x
#define FC_DECL_DTYPE(x)
#define FC_ARG_DTYPE(x) FC_HANDLE(x, Type)
#define FC_POST_DTYPE(x)
#define FC_PARAM_OP(x) , MPI_Fint *x
#define FC_DECL_OP(x)
#define FC_ARG_OP(x) FC_HANDLE(x, Op)
#define FC_POST_OP(x)
#define FC_PARAM_WIN(x) , MPI_Fint *x
#define FC_DECL_WIN(x)
#define FC_ARG_WIN(x) FC_HANDLE(x, Win)
#define FC_POST_WIN(x)
#define FC_PARAM_GROUP(x) , MPI_Fint *x
#define FC_DECL_GROUP(x)
#define FC_ARG_GROUP(x) FC_HANDLE(x, Group)
#define FC_POST_GROUP(x)
#define FC_PARAM_INFO(x) , MPI_Fint *x
#define FC_DECL_INFO(x)
#define FC_ARG_INFO(x) FC_HANDLE(x, Info)
#define FC_POST_INFO(x)
/* DTYPES(x, n): an array of n datatypes (none when n is 0). */
#define FC_PARAM_DTYPES(x, n) , MPI_Fint *x
#define FC_DECL_DTYPES(x, n) FC_ARRAY(MPI_Datatype, x, n, fc_types)
#define FC_ARG_DTYPES(x, n) , c_##x
#define FC_POST_DTYPES(x, n)
/* NBTYPES(x, n, req): the same for a nonblocking call returning request
 * req: the array is kept until the request completes. */
#define FC_PARAM_NBTYPES(x, n, req) , MPI_Fint *x
#define FC_DECL_NBTYPES(x, n, req)                                           \
    void *x##_heap FC_AUTOFREE = NULL;                                       \
    MPI_Datatype *c_##x = fc_types(x, n, NULL, &x##_heap, &c_ierr);
#define FC_ARG_NBTYPES(x, n, req) , c_##x
#define FC_POST_NBTYPES(x, n, req)                                           \
    if (FC_OK && x##_heap) {                                                 \
        fc_keep(PMPI_Request_c2f(c_##req), x##_heap);                        \
        x##_heap = NULL;                                                     \
    }
/* REQ_OUT(x): a new request. */
#define FC_PARAM_REQ_OUT(x) , MPI_Fint *x
#define FC_DECL_REQ_OUT(x) MPI_Request c_##x = MPI_REQUEST_NULL;
#define FC_ARG_REQ_OUT(x) , &c_##x
#define FC_POST_REQ_OUT(x)                                                   \
    if (FC_OK)                                                               \
        *x = PMPI_Request_c2f(c_##x);
/* COMM_OUT(x): a new communicator. */
#define FC_PARAM_COMM_OUT(x) , MPI_Fint *x
#define FC_DECL_COMM_OUT(x) MPI_Comm c_##x = MPI_COMM_NULL;
#define FC_ARG_COMM_OUT(x) , &c_##x
#define FC_POST_COMM_OUT(x)                                                  \
    if (FC_OK)                                                               \
        *x = PMPI_Comm_c2f(c_##x);
/* REQ(x): a request the call may change (Start, Request_free); REQ_DONE(x)
 * one it may complete (Wait, Test). */
#define FC_PARAM_REQ(x) , MPI_Fint *x
#define FC_DECL_REQ(x) MPI_Request c_##x = PMPI_Request_f2c(*x);
#define FC_ARG_REQ(x) , &c_##x
#define FC_POST_REQ(x) FC_POST_REQ_OUT(x)
#define FC_PARAM_REQ_DONE(x) , MPI_Fint *x
#define FC_DECL_REQ_DONE(x) FC_DECL_REQ(x)
#define FC_ARG_REQ_DONE(x) , &c_##x
#define FC_POST_REQ_DONE(x)                                                  \
    if (FC_OK) {                                                             \
        fc_request_done(*x, c_##x);                                          \
        *x = PMPI_Request_c2f(c_##x);                                        \
    }
/* REQS(x, n), REQS_DONE(x, n): the same for an array of n requests. */
#define FC_PARAM_REQS(x, n) , MPI_Fint *x
#define FC_DECL_REQS(x, n) FC_ARRAY(MPI_Request, x, n, fc_requests)
#define FC_ARG_REQS(x, n) , c_##x
#define FC_POST_REQS(x, n)                                                   \
    if (FC_OK)                                                               \
        fc_requests_out(c_##x, n, x, 0);
#define FC_PARAM_REQS_DONE(x, n) , MPI_Fint *x
#define FC_DECL_REQS_DONE(x, n) FC_DECL_REQS(x, n)
#define FC_ARG_REQS_DONE(x, n) , c_##x
#define FC_POST_REQS_DONE(x, n)                                              \
    if (FC_OK)                                                               \
        fc_requests_out(c_##x, n, x, 1);
/* STATUS(x): one status, or MPI_STATUS_IGNORE. */
#define FC_PARAM_STATUS(x) , MPI_Fint *x
#define FC_DECL_STATUS(x)                                                    \
    MPI_Status c_##x;                                                        \
    MPI_Status *p_##x = fc_status_in(x, &c_##x);
#define FC_ARG_STATUS(x) , p_##x
#define FC_POST_STATUS(x) fc_status_out(p_##x, x);
/* STATUSES(x, n, done): an array of n statuses, or MPI_STATUSES_IGNORE;
 * the first `done` are copied back. */
#define FC_PARAM_STATUSES(x, n, done) , MPI_Fint *x
#define FC_DECL_STATUSES(x, n, done) FC_ARRAY(MPI_Status, x, n, fc_statuses)
#define FC_ARG_STATUSES(x, n, done) , c_##x
#define FC_POST_STATUSES(x, n, done)                                         \
    if (FC_OK)                                                               \
        fc_statuses_out(c_##x, done, x);
/* INDEX(x), INDICES(x, n): indices into a request array, 1-based in
 * Fortran; MPI_UNDEFINED stays. */
#define FC_PARAM_INDEX(x) , MPI_Fint *x
#define FC_DECL_INDEX(x)
#define FC_ARG_INDEX(x) , x
#define FC_POST_INDEX(x)                                                     \
    if (FC_OK && *x != MPI_UNDEFINED)                                        \
        ++*x;
#define FC_PARAM_INDICES(x, n) , MPI_Fint *x
#define FC_DECL_INDICES(x, n)
#define FC_ARG_INDICES(x, n) , x
#define FC_POST_INDICES(x, n)                                                \
    if (FC_OK)                                                               \
        fc_indices_out(x, n);
/* MSG_OUT(x, when): a new message handle, set when `when` holds; MSG(x)
 * one the call consumes. */
#define FC_PARAM_MSG_OUT(x, when) , MPI_Fint *x
#define FC_DECL_MSG_OUT(x, when) MPI_Message c_##x = MPI_MESSAGE_NULL;
#define FC_ARG_MSG_OUT(x, when) , &c_##x
#define FC_POST_MSG_OUT(x, when)                                             \
    if (FC_OK && (when))                                                     \
        *x = PMPI_Message_c2f(c_##x);
#define FC_PARAM_MSG(x) , MPI_Fint *x
#define FC_DECL_MSG(x) MPI_Message c_##x = PMPI_Message_f2c(*x);
#define FC_ARG_MSG(x) , &c_##x
#define FC_POST_MSG(x) FC_POST_MSG_OUT(x, 1)
/* NOARGV(): MPI_Init's argc and argv, which Fortran does not have. */
#define FC_PARAM_NOARGV()
#define FC_DECL_NOARGV()                                                     \
    int c_argc = 0;                                                          \
    char **c_argv = NULL;
#define FC_ARG_NOARGV() , &c_argc, &c_argv
#define FC_POST_NOARGV()
/* FREE_KEPT(): after MPI_Finalize, free what nonblocking calls kept. */
#define FC_PARAM_FREE_KEPT()
#define FC_DECL_FREE_KEPT()
#define FC_ARG_FREE_KEPT()
#define FC_POST_FREE_KEPT() fc_keep_free_all();
/* IERR(x): the error code, when the caller asks for it. */
#define FC_PARAM_IERR(x) , MPI_Fint *x
#define FC_DECL_IERR(x)
#define FC_ARG_IERR(x)
#define FC_POST_IERR(x)                                                      \
    if (x)                                                                   \
        *x = c_ierr;

/* Words fortran.def's counts are written in. */
#define FC_SOME(n) ((n) == MPI_UNDEFINED ? 0 : (n))

/* ------------------------------------------------- the expansion */

/* FC_EACH(P, a, b, ...) is FC_P_a FC_P_b ...: pass P of each argument's
 * kind.  Up to 16 arguments. */
#define FC_CAT(a, b) FC_CAT_(a, b)
#define FC_CAT_(a, b) a##b
#define FC_COUNT(...)                                                        \
    FC_COUNT_(__VA_ARGS__, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, \
              2, 1)
#define FC_COUNT_(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13,   \
                  a14, a15, a16, n, ...)                                     \
    n
#define FC_APPLY(P, e) FC_##P##_##e
#define FC_EACH(P, ...) FC_CAT(FC_EACH_, FC_COUNT(__VA_ARGS__))(P, __VA_ARGS__)
#define FC_EACH_1(P, e) FC_APPLY(P, e)
#define FC_EACH_2(P, e, ...) FC_APPLY(P, e) FC_EACH_1(P, __VA_ARGS__)
#define FC_EACH_3(P, e, ...) FC_APPLY(P, e) FC_EACH_2(P, __VA_ARGS__)
#define FC_EACH_4(P, e, ...) FC_APPLY(P, e) FC_EACH_3(P, __VA_ARGS__)
#define FC_EACH_5(P, e, ...) FC_APPLY(P, e) FC_EACH_4(P, __VA_ARGS__)
#define FC_EACH_6(P, e, ...) FC_APPLY(P, e) FC_EACH_5(P, __VA_ARGS__)
#define FC_EACH_7(P, e, ...) FC_APPLY(P, e) FC_EACH_6(P, __VA_ARGS__)
#define FC_EACH_8(P, e, ...) FC_APPLY(P, e) FC_EACH_7(P, __VA_ARGS__)
#define FC_EACH_9(P, e, ...) FC_APPLY(P, e) FC_EACH_8(P, __VA_ARGS__)
#define FC_EACH_10(P, e, ...) FC_APPLY(P, e) FC_EACH_9(P, __VA_ARGS__)
#define FC_EACH_11(P, e, ...) FC_APPLY(P, e) FC_EACH_10(P, __VA_ARGS__)
#define FC_EACH_12(P, e, ...) FC_APPLY(P, e) FC_EACH_11(P, __VA_ARGS__)
#define FC_EACH_13(P, e, ...) FC_APPLY(P, e) FC_EACH_12(P, __VA_ARGS__)
#define FC_EACH_14(P, e, ...) FC_APPLY(P, e) FC_EACH_13(P, __VA_ARGS__)
#define FC_EACH_15(P, e, ...) FC_APPLY(P, e) FC_EACH_14(P, __VA_ARGS__)
#define FC_EACH_16(P, e, ...) FC_APPLY(P, e) FC_EACH_15(P, __VA_ARGS__)

/* The PARAM and ARG passes give ", x" per item: drop the first comma. */
#define FC_LIST(P, ...) FC_TAIL(0 FC_EACH(P, __VA_ARGS__))
#define FC_TAIL(...) FC_TAIL_(__VA_ARGS__)
#define FC_TAIL_(zero, ...) __VA_ARGS__

/* The five names a Fortran compiler may call the function by.  MPICH's
 * Fortran 77 and `use mpi` bindings (libmpichfort) call the C layer's
 * MPI_ functions, which libcommprof's C wrappers record, so only its
 * `use mpi_f08` entry points are taken over there: those without a choice
 * buffer (mpi_wait_f08_, mpi_barrier_f08_, mpi_init_f08_, ...) call
 * PMPI_ directly; those with one are named mpi_send_f08ts_ and call the
 * C layer's MPI_ functions, so no name here replaces them. */
#ifdef OPEN_MPI
#define FC_NAMES(Name, UP, low) MPI_F_NAMES(fc_##Name, UP, low)
#else
#define FC_NAMES(Name, UP, low) MPI_F_ALIAS(mpi_##low##_f08_, fc_##Name)
#endif

#define F(Name, UP, low, ...)                                                \
    static void fc_##Name(FC_LIST(PARAM, __VA_ARGS__))                       \
    {                                                                        \
        int c_ierr = MPI_SUCCESS;                                            \
        FC_EACH(DECL, __VA_ARGS__)                                           \
        if (FC_OK)                                                           \
            c_ierr = MPI_##Name(FC_LIST(ARG, __VA_ARGS__));                  \
        FC_EACH(POST, __VA_ARGS__)                                           \
    }                                                                        \
    FC_NAMES(Name, UP, low)

#include "fortran.def"

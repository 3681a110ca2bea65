/* mpicount: a reference count of an application's MPI calls, for
 * bench/mpich_app.sh and tests/scalapack_lu.sh, independent of
 * libcommprof.  Loaded with LD_PRELOAD in front of libcommprof
 * (LD_PRELOAD="libmpicount.so libcommprof.so"), each MPI_X below counts
 * the call and passes it on to the next MPI_X in the link chain, found
 * with dlsym(RTLD_NEXT): libcommprof's wrapper, or the MPI itself without
 * the profiler.  It never goes through the PMPI interface for the calls it
 * counts, so a call libcommprof missed or counted twice shows as a
 * difference; for the sends it also adds count x type size per
 * destination, translated to its MPI_COMM_WORLD rank.
 *
 * The functions are those ScaLAPACK's BLACS calls (nm -D
 * libscalapack-*.so); a function outside the table is not counted.  At
 * MPI_Finalize each rank writes MPICOUNT_OUT.rankR (nothing without
 * MPICOUNT_OUT):
 *
 *   call MPI_Isend 812          calls per function, only those made
 *   sent 2 644928 846           bytes and messages to world rank 2
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

/* X(NAME, PARAMETERS, ARGUMENTS, SENT): SENT is the (dest, count, type,
 * comm) of the message a send call sends, or nothing. */
#define MPICOUNT_FUNCTIONS(X)                                                 \
  X(Send, (const void *b, int n, MPI_Datatype t, int d, int g, MPI_Comm c),   \
    (b, n, t, d, g, c), sent(d, n, t, c))                                     \
  X(Rsend, (const void *b, int n, MPI_Datatype t, int d, int g, MPI_Comm c),  \
    (b, n, t, d, g, c), sent(d, n, t, c))                                     \
  X(Isend, (const void *b, int n, MPI_Datatype t, int d, int g, MPI_Comm c,   \
            MPI_Request *r),                                                  \
    (b, n, t, d, g, c, r), sent(d, n, t, c))                                  \
  X(Sendrecv, (const void *sb, int sn, MPI_Datatype st, int d, int sg,        \
               void *rb, int rn, MPI_Datatype rt, int s, int rg, MPI_Comm c,  \
               MPI_Status *status),                                           \
    (sb, sn, st, d, sg, rb, rn, rt, s, rg, c, status), sent(d, sn, st, c))    \
  X(Recv, (void *b, int n, MPI_Datatype t, int s, int g, MPI_Comm c,          \
           MPI_Status *status),                                               \
    (b, n, t, s, g, c, status), (void)0)                                      \
  X(Irecv, (void *b, int n, MPI_Datatype t, int s, int g, MPI_Comm c,         \
            MPI_Request *r),                                                  \
    (b, n, t, s, g, c, r), (void)0)                                           \
  X(Testall, (int n, MPI_Request *r, int *flag, MPI_Status *st),              \
    (n, r, flag, st), (void)0)                                                \
  X(Waitall, (int n, MPI_Request *r, MPI_Status *st), (n, r, st), (void)0)    \
  X(Barrier, (MPI_Comm c), (c), (void)0)                                      \
  X(Bcast, (void *b, int n, MPI_Datatype t, int root, MPI_Comm c),            \
    (b, n, t, root, c), (void)0)                                              \
  X(Reduce, (const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op,      \
             int root, MPI_Comm c),                                           \
    (sb, rb, n, t, op, root, c), (void)0)                                     \
  X(Allreduce, (const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op,   \
                MPI_Comm c),                                                  \
    (sb, rb, n, t, op, c), (void)0)

enum {
#define X(name, params, args, what) F_##name,
  MPICOUNT_FUNCTIONS(X)
#undef X
  F_COUNT
};
static const char *const names[F_COUNT] = {
#define X(name, params, args, what) "MPI_" #name,
  MPICOUNT_FUNCTIONS(X)
#undef X
};
static long long calls[F_COUNT];

/* Per world destination; sized at the first send. */
static long long *sent_bytes, *sent_msgs;
static int world_size;

static void sent(int dest, int count, MPI_Datatype type, MPI_Comm comm)
{
  MPI_Group g, world;
  int size, wdest;

  if (dest == MPI_PROC_NULL)
    return;
  if (!sent_bytes) {
    PMPI_Comm_size(MPI_COMM_WORLD, &world_size);
    sent_bytes = calloc((size_t)world_size, sizeof *sent_bytes);
    sent_msgs = calloc((size_t)world_size, sizeof *sent_msgs);
    if (!sent_bytes || !sent_msgs) {
      fprintf(stderr, "mpicount: out of memory\n");
      abort();
    }
  }
  PMPI_Comm_group(comm, &g);
  PMPI_Comm_group(MPI_COMM_WORLD, &world);
  PMPI_Group_translate_ranks(g, 1, &dest, world, &wdest);
  PMPI_Group_free(&g);
  PMPI_Group_free(&world);
  PMPI_Type_size(type, &size);
  sent_bytes[wdest] += (long long)count * size;
  sent_msgs[wdest]++;
}

/* The next definition of NAME after this library's. */
static void *next(const char *name)
{
  void *f = dlsym(RTLD_NEXT, name);
  if (!f) {
    fprintf(stderr, "mpicount: %s not found after libmpicount\n", name);
    abort();
  }
  return f;
}

#define X(name, params, args, what)                                           \
  int MPI_##name params                                                       \
  {                                                                           \
    static int(*real) params;                                                 \
    if (!real)                                                                \
      *(void **)&real = next("MPI_" #name);                                   \
    calls[F_##name]++;                                                        \
    what;                                                                     \
    return real args;                                                         \
  }
MPICOUNT_FUNCTIONS(X)
#undef X

int MPI_Finalize(void)
{
  static int (*real)(void);
  const char *out = getenv("MPICOUNT_OUT");

  if (!real)
    *(void **)&real = next("MPI_Finalize");
  if (out && *out) {
    int rank, i;
    char path[4096];
    FILE *f;

    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    snprintf(path, sizeof path, "%s.rank%d", out, rank);
    f = fopen(path, "w");
    if (!f) {
      perror(path);
    } else {
      for (i = 0; i < F_COUNT; i++)
        if (calls[i])
          fprintf(f, "call %s %lld\n", names[i], calls[i]);
      for (i = 0; sent_msgs && i < world_size; i++)
        if (sent_msgs[i])
          fprintf(f, "sent %d %lld %lld\n", i, sent_bytes[i], sent_msgs[i]);
      if (fclose(f) != 0)
        perror(path);
    }
  }
  return real();
}

/* lifecycle.c: MPI_Init, MPI_Init_thread, MPI_Finalize and MPI_Abort. */
#include "cp_internal.h"

int MPI_Init(int *argc, char ***argv)
{
    int rc = PMPI_Init(argc, argv);
    if (rc == MPI_SUCCESS)
        cp_start();
    return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    if (rc == MPI_SUCCESS)
        cp_start();
    return rc;
}

int MPI_Finalize(void)
{
    cp_finish();
    return PMPI_Finalize();
}

/* The aborting rank leaves its partial profile, with its GPU as it is now
 * (when libcommprof has found the driver: no lock and no load here, since
 * MPI_Abort may be called from a signal handler);
 * mpirun then ends the others with SIGTERM, and they leave theirs
 * (partial.c), with their GPU as it was at MPI_Init. */
int MPI_Abort(MPI_Comm comm, int errorcode)
{
    if (cp.initialized && !cp.finalized)
        cp_cuda_facts(0);
    cp_partial_write();
    return PMPI_Abort(comm, errorcode);
}

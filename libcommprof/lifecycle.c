/* lifecycle.c: MPI_Init, MPI_Init_thread and MPI_Finalize. */
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

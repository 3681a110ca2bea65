/* launcher.c: which launcher started this job, and the output form that
 * goes with it when no output option is given.
 *
 * The launched ranks' environment tells the launcher, checked in this
 * order because launchers nest: Open MPI's mpirun inside a Slurm job (or
 * Hydra using srun to start its proxies) leaves Slurm's variables in the
 * ranks' environment beside its own.
 *   Open MPI's mpirun (4.1's ORTE, 5's PRRTE): OMPI_COMM_WORLD_SIZE; PRRTE
 *     adds PRTE_LAUNCHED, which Open MPI 4.1 does not set
 *   MPICH's Hydra: MPI_LOCALRANKID (Slurm's PMI-2 sets PMI_RANK too, not
 *     this)
 *   Slurm's srun (direct launch): SLURM_STEP_ID and SLURM_PROCID
 * Without any of them (a singleton, a launcher not listed), the MPI
 * library parmapper runs on decides: MPI_Get_library_version says "Open MPI
 * v4.1.4" or "Open MPI v5.0.11"; MPICH and its derivatives (Intel MPI,
 * MVAPICH, Cray MPICH) say MPICH and launch with Hydra. */
#include <stdlib.h>
#include <string.h>

#include "parmapper.h"

static int set(const char *name)
{
    const char *v = getenv(name);
    return v && *v;
}

/* From MPI_Get_library_version; PM_LAUNCH_NONE when it names neither. */
static pm_launcher from_library(void)
{
    char v[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    if (MPI_Get_library_version(v, &len) != MPI_SUCCESS)
        return PM_LAUNCH_NONE;
    v[len < MPI_MAX_LIBRARY_VERSION_STRING ? len : len - 1] = '\0';
    const char *o = strstr(v, "Open MPI v");
    if (o)
        return atoi(o + strlen("Open MPI v")) >= 5 ? PM_LAUNCH_OMPI5
                                                   : PM_LAUNCH_OMPI4;
    if (strstr(v, "MPICH") || strstr(v, "Intel(R) MPI") ||
        strstr(v, "MVAPICH"))
        return PM_LAUNCH_HYDRA;
    return PM_LAUNCH_NONE;
}

pm_launcher pm_launcher_detect(void)
{
    if (set("OMPI_COMM_WORLD_SIZE"))
        return set("PRTE_LAUNCHED") ? PM_LAUNCH_OMPI5 : PM_LAUNCH_OMPI4;
    if (set("MPI_LOCALRANKID"))
        return PM_LAUNCH_HYDRA;
    if (set("SLURM_STEP_ID") && set("SLURM_PROCID"))
        return PM_LAUNCH_SLURM;
    return from_library();
}

int pm_default_outputs(pm_options *o)
{
    o->launcher = pm_launcher_detect();
    if (o->rankfile || o->slurm_hostfile || o->hydra_hostfile || o->mapping ||
        o->report || o->placement)
        return 0;
    switch (o->launcher) {
    case PM_LAUNCH_OMPI4:
    case PM_LAUNCH_OMPI5: o->rankfile = "rankfile"; return 0;
    case PM_LAUNCH_HYDRA: o->hydra_hostfile = "hydra-hostfile"; return 0;
    case PM_LAUNCH_SLURM: o->slurm_hostfile = "slurm-hostfile"; return 0;
    case PM_LAUNCH_NONE: break;
    }
    return cli_usage_error("nothing to write, and neither the environment "
                           "nor the MPI library tells the launcher: give "
                           "--rankfile, --slurm-hostfile, --hydra-hostfile, "
                           "--mapping or --report");
}

void pm_print_launch_rankfile(const pm_options *o)
{
    pm_launcher v = o->launcher;
    if (v != PM_LAUNCH_OMPI4 && v != PM_LAUNCH_OMPI5)
        v = from_library(); /* the Open MPI it was built for, if one */
    if (v == PM_LAUNCH_OMPI5)
        printf("openmpi: mpirun --map-by rankfile:file=%s "
               "--bind-to core:overload-allowed\n",
               o->rankfile);
    else
        printf("openmpi: mpirun --rankfile %s\n", o->rankfile);
}

/* outputs.c: the files parmapper writes, all or none.
 *
 * Before the search every output is tried (tg_out_check: a temporary is
 * created beside its destination and removed at once; a folder is
 * refused), so that a path that cannot be written is reported before
 * minutes of search, while a job killed during the search leaves nothing
 * behind.  At the end all are written as temporaries and renamed into
 * place together (tg_out_commit_all: all or none).
 *
 * Slurm.  The Slurm outputs keep the chosen nodes (SLURM_HOSTFILE with
 * --distribution=arbitrary: the node of each rank, in rank order) and the
 * chosen cores: binding.c gives the one --cpu-bind=map_cpu: list that
 * binds every rank to its slot's CPU, or, when no one list does, the
 * topomap-exec placement that does, and the launch line says which.
 * MPICH's Hydra binds the same way (mpiexec -f FILE: a host per rank in
 * rank order; -bind-to user:LIST: the k-th process of a node to LIST's
 * k-th CPU), so its hostfile and list are the Slurm ones.
 *
 * The placement of --hetero is keyed by host and local rank; topomap-exec
 * rebinds each rank to its cores, which may differ from its rankfile slot
 * (the node is what the mapping decides). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "parmapper.h"

/* Open a temporary for every requested output, and for the binding
 * placement at bind (NULL: none).  Returns the exit code (after the
 * message), none left open on failure. */
static int open_all(const pm_options *o, const char *bind, pm_outputs *out)
{
    memset(out, 0, sizeof *out);
    const char *paths[PM_OUTS] = {o->rankfile, o->slurm_hostfile, o->mapping,
                                  o->report, o->placement, o->hydra_hostfile,
                                  bind};
    tg_error err;
    for (int i = 0; i < PM_OUTS; i++) {
        if (!paths[i])
            continue;
        if (tg_out_open(&out->f[i], paths[i], &err)) {
            pm_outputs_abort(out);
            return cli_fail(&err);
        }
        out->open[i] = 1;
    }
    return 0;
}

int pm_outputs_check(const pm_options *o)
{
    char *bind = pm_binding_path(o); /* written only when needed */
    const char *paths[PM_OUTS] = {o->rankfile, o->slurm_hostfile, o->mapping,
                                  o->report, o->placement, o->hydra_hostfile,
                                  bind};
    tg_error err;
    int rc = 0;
    pm_files_lock();
    for (int i = 0; i < PM_OUTS && !rc; i++)
        if (paths[i] && tg_out_check(paths[i], &err))
            rc = cli_fail(&err);
    pm_files_unlock(0);
    free(bind);
    return rc;
}

void pm_outputs_abort(pm_outputs *out)
{
    for (int i = 0; i < PM_OUTS; i++)
        if (out->open[i]) {
            tg_out_abort(&out->f[i]);
            out->open[i] = 0;
        }
}

static void write_rankfile(FILE *fp, const gm_machine *m,
                           const gm_place *map, int n, const pm_slots *s)
{
    for (int t = 0; t < n; t++)
        fprintf(fp, "rank %d=%s slot=%d\n", t,
                gm_machine_hostname(m, map[t].node),
                s->core[map[t].node][map[t].slot]);
}

/* The host of each rank, in rank order: Slurm's and Hydra's hostfile. */
static void write_hosts(FILE *fp, const gm_machine *m, const gm_place *map,
                        int n)
{
    for (int t = 0; t < n; t++)
        fprintf(fp, "%s\n", gm_machine_hostname(m, map[t].node));
}

static void write_mapping(FILE *fp, const gm_machine *m, const gm_place *map,
                          int n)
{
    fputs("# topomap mapping: task node slot\n", fp);
    for (int t = 0; t < n; t++)
        fprintf(fp, "%d %s %d\n", t, gm_machine_hostname(m, map[t].node),
                map[t].slot);
}

/* The launcher options that go with the Slurm or Hydra hostfile: its
 * own binding list, or its binding off and topomap-exec. */
static void print_launch(const char *head, const char *path,
                         const char *bind, const char *none,
                         const pm_binding *b)
{
    printf(head, path);
    if (b->placement) {
        printf("%s topomap-exec %s --\n", none, b->path);
        return;
    }
    fputs(bind, stdout);
    for (int k = 0; k < b->ncpus; k++)
        printf("%s%d", k ? "," : "", b->cpus[k]);
    putchar('\n');
}

/* pm_outputs_write, with the temporaries on disk. */
static int write_all(pm_outputs *out, const pm_report_input *in,
                     const pm_slots *s)
{
    const gm_machine *m = in->m;
    const gm_place *map = in->r->map;
    int n = in->g->n;
    const pm_binding *b = in->bind;
    int rc = open_all(in->o, b->placement ? b->path : NULL, out);
    if (rc)
        return rc;
    tg_error err;
    if (out->open[PM_OUT_RANKFILE])
        write_rankfile(out->f[PM_OUT_RANKFILE].fp, m, map, n, s);
    if (out->open[PM_OUT_SLURM])
        write_hosts(out->f[PM_OUT_SLURM].fp, m, map, n);
    if (out->open[PM_OUT_HYDRA])
        write_hosts(out->f[PM_OUT_HYDRA].fp, m, map, n);
    if (out->open[PM_OUT_MAPPING])
        write_mapping(out->f[PM_OUT_MAPPING].fp, m, map, n);
    if (out->open[PM_OUT_REPORT] &&
        pm_report_write(out->f[PM_OUT_REPORT].fp, in->o->report, in, &err)) {
        pm_outputs_abort(out);
        return cli_fail(&err);
    }
    if (out->open[PM_OUT_PLACEMENT] &&
        ht_placement_fwrite(out->f[PM_OUT_PLACEMENT].fp, in->o->placement,
                            in->hetero->pl, &err)) {
        pm_outputs_abort(out);
        return cli_fail(&err);
    }
    if (out->open[PM_OUT_BINDING] &&
        ht_placement_fwrite(out->f[PM_OUT_BINDING].fp, b->path, b->placement,
                            &err)) {
        pm_outputs_abort(out);
        return cli_fail(&err);
    }
    tg_out f[PM_OUTS];
    int k = 0;
    for (int i = 0; i < PM_OUTS; i++)
        if (out->open[i]) {
            f[k++] = out->f[i];
            out->open[i] = 0;
        }
    if (tg_out_commit_all(f, k, &err))
        return cli_fail(&err);
    const char *names[PM_OUTS] = {"rankfile",         "Slurm hostfile",
                                  "mapping",          "report",
                                  "placement",        "Hydra hostfile",
                                  "binding placement"};
    const char *paths[PM_OUTS] = {in->o->rankfile, in->o->slurm_hostfile,
                                  in->o->mapping, in->o->report,
                                  in->o->placement, in->o->hydra_hostfile,
                                  b->placement ? b->path : NULL};
    for (int i = 0; i < PM_OUTS; i++)
        if (paths[i])
            printf("wrote %s %s\n", names[i], paths[i]);
    if (in->o->rankfile)
        pm_print_launch_rankfile(in->o);
    if (in->o->slurm_hostfile)
        print_launch("slurm: SLURM_HOSTFILE=%s srun --distribution=arbitrary ",
                     in->o->slurm_hostfile, "--cpu-bind=map_cpu:",
                     "--cpu-bind=none", b);
    if (in->o->hydra_hostfile)
        print_launch("hydra: mpiexec -f %s ", in->o->hydra_hostfile,
                     "-bind-to user:", "-bind-to none", b);
    return 0;
}

int pm_outputs_write(pm_outputs *out, const pm_report_input *in,
                     const pm_slots *s)
{
    pm_files_lock();
    int rc = write_all(out, in, s);
    pm_files_unlock(rc == 0);
    return rc;
}

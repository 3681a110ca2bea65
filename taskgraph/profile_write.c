/* profile_write.c: writing a profile in the layout of libcommprof's
 * writer (libcommprof/writer.c): the same members in the same order, one
 * rank and one collective record per line, so that a merged profile is
 * the very text a run that reached MPI_Finalize writes, and every tool
 * reads both. */
#include <inttypes.h>
#include <stdio.h>

#include "profile_internal.h"
#include "tg_internal.h"

static void put_row(FILE *fp, const tg_prof_row *row, int n)
{
    fputc('[', fp);
    for (int i = 0; i < n; i++)
        fprintf(fp, "%s[%d, %" PRIu64 ", %" PRIu64 "]", i ? ", " : "",
                row[i].peer, row[i].bytes, row[i].count);
    fputc(']', fp);
}

/* The members placement needs (libcommprof's put_facts). */
static void put_facts(FILE *fp, const tg_prof_rank *rk)
{
    fprintf(fp, ",\n     \"compute_ns\": %" PRIu64 ", \"maxrss_kb\": %" PRIu64
                ", \"proc_kind\": ",
            rk->compute_ns, rk->maxrss_kb);
    if (rk->proc_kind)
        tg_json_put_string(fp, rk->proc_kind);
    else
        fputs("null", fp);
    fputs(", \"cuda\": ", fp);
    if (rk->cuda_bus_id) {
        fputs("{\"pci_bus_id\": ", fp);
        tg_json_put_string(fp, rk->cuda_bus_id);
        fprintf(fp, ", \"mem_used\": %" PRIu64 "}", rk->cuda_mem_used);
    } else {
        fputs("null", fp);
    }
    fputs(",\n     \"sent_by_kind\": {", fp);
    for (int k = 0; k < TG_MEM_KINDS; k++)
        fprintf(fp, "%s\"%s\": %" PRIu64, k ? ", " : "", tg_mem_kind_names[k],
                rk->sent_by_kind[k]);
    fputc('}', fp);
}

/* "types": {...} of a rank or of one of its phases. */
static void put_types(FILE *fp, const tg_profile *p, const uint64_t *ns,
                      const uint64_t *calls)
{
    fprintf(fp, "\"types\": {");
    int first = 1;
    for (int t = 0; t < p->ntypes; t++)
        if (calls[t] || ns[t]) {
            fprintf(fp, "%s", first ? "" : ", ");
            tg_json_put_string(fp, p->types[t]);
            fprintf(fp, ": {\"ns\": %" PRIu64 ", \"calls\": %" PRIu64 "}",
                    ns[t], calls[t]);
            first = 0;
        }
    fputc('}', fp);
}

/* The sent, received and rma rows, each after `sep` (the first after
 * `first`). */
static void put_rows(FILE *fp, const char *first, const char *sep,
                     const tg_prof_row *const rows[3], const int n[3])
{
    static const char *const names[3] = {"sent", "received", "rma"};
    for (int i = 0; i < 3; i++) {
        fprintf(fp, "%s\"%s\": ", i ? sep : first, names[i]);
        put_row(fp, rows[i], n[i]);
    }
}

static void put_phases(FILE *fp, const tg_profile *p, const tg_prof_rank *rk)
{
    fprintf(fp, ",\n     \"phases\": [");
    for (int i = 0; i < rk->nphases; i++) {
        const tg_prof_phase *ph = &rk->phases[i];
        fprintf(fp, "%s\n      {\"phase\": %d, ", i ? "," : "", ph->phase);
        put_types(fp, p, ph->ns, ph->calls);
        put_rows(fp, ",\n       ", ", ",
                 (const tg_prof_row *const[3]){ph->sent, ph->received, ph->rma},
                 (const int[3]){ph->nsent, ph->nreceived, ph->nrma});
        fputc('}', fp);
    }
    fputc(']', fp);
}

static void put_rank(FILE *fp, const tg_profile *p, int r)
{
    const tg_prof_rank *rk = &p->ranks[r];
    fprintf(fp, "    {\"rank\": %d, \"host\": ", r);
    tg_json_put_string(fp, rk->host);
    fprintf(fp, ", \"local_rank\": %d, \"cpus\": ", rk->local_rank);
    tg_json_put_string(fp, rk->cpus);
    fprintf(fp, ", \"wall_ns\": %" PRIu64 ", \"mpi_ns\": %" PRIu64,
            rk->wall_ns, rk->mpi_ns);
    if (rk->has_facts)
        put_facts(fp, rk);
    fprintf(fp, ",\n     ");
    put_types(fp, p, rk->ns, rk->calls);
    put_rows(fp, ",\n     ", ",\n     ",
             (const tg_prof_row *const[3]){rk->sent, rk->received, rk->rma},
             (const int[3]){rk->nsent, rk->nreceived, rk->nrma});
    if (p->nphases)
        put_phases(fp, p, rk);
    fputc('}', fp);
}

static void put_group(FILE *fp, const int *g, int n)
{
    for (int i = 0; i < n; i++)
        fprintf(fp, "%s%d", i ? ", " : "", g[i]);
}

/* Collective records; with their phase where they have one. */
static void put_records(FILE *fp, const tg_profile *p, const tg_prof_coll *k,
                        int n)
{
    for (int i = 0; i < n; i++, k++) {
        fprintf(fp, "%s\n       {", i ? "," : "");
        if (k->phase)
            fprintf(fp, "\"phase\": %d, ", k->phase);
        fprintf(fp, "\"rank\": %d, \"type\": ", k->rank);
        tg_json_put_string(fp, p->types[k->type]);
        fprintf(fp, ", \"calls\": %" PRIu64 ", \"bytes\": %" PRIu64
                    ", \"ns\": %" PRIu64, k->calls, k->bytes, k->ns);
        if (k->npeers) {
            fprintf(fp, ", \"peers\": [");
            for (int j = 0; j < k->npeers; j++)
                fprintf(fp, "%s[%d, %" PRIu64 "]", j ? ", " : "",
                        k->peers[j].index, k->peers[j].bytes);
            fputc(']', fp);
        }
        fputc('}', fp);
    }
}

static void put_comm(FILE *fp, const tg_profile *p, const tg_prof_comm *c,
                     int id)
{
    fprintf(fp, "    {\"id\": %d, \"size\": %d, \"members\": [", id, c->size);
    put_group(fp, c->members, c->size);
    fputc(']', fp);
    if (c->remote_size) {
        fprintf(fp, ", \"remote\": [");
        put_group(fp, c->remote, c->remote_size);
        fputc(']', fp);
    }
    fprintf(fp, ",\n     \"collectives\": [");
    put_records(fp, p, c->colls, c->ncolls);
    fprintf(fp, "\n     ]");
    if (p->nphases) {
        fprintf(fp, ",\n     \"phase_collectives\": [");
        put_records(fp, p, c->phase_colls, c->nphase_colls);
        fprintf(fp, "\n     ]");
    }
    fputc('}', fp);
}

static void put_carts(FILE *fp, const tg_profile *p)
{
    fprintf(fp, ",\n  \"cartesian\": [");
    for (int i = 0; i < p->ncarts; i++) {
        const tg_prof_cart *c = &p->carts[i];
        fprintf(fp, "%s\n    {\"dims\": [", i ? "," : "");
        put_group(fp, c->dims, c->ndims);
        fprintf(fp, "], \"periods\": [");
        put_group(fp, c->periods, c->ndims);
        fprintf(fp, "], \"members\": [");
        put_group(fp, c->members, c->size);
        fprintf(fp, "]}");
    }
    fprintf(fp, "\n  ]");
}

int tg_profile_write(const char *path, const tg_profile *p, tg_error *err)
{
    tg_out o;
    int rc = tg_out_open(&o, path, err);
    if (rc)
        return rc;
    FILE *fp = o.fp;
    fprintf(fp, "{\n  \"format\": \"%s\",\n  \"version\": %d,\n",
            TG_PROFILE_FORMAT, TG_PROFILE_VERSION);
    if (p->partial)
        fprintf(fp, "  \"partial\": true,\n");
    if (p->job_id[0]) {
        fprintf(fp, "  \"job\": {\"id\": \"%s\", \"start\": %lld, \"host\": ",
                p->job_id, p->job_start);
        tg_json_put_string(fp, p->job_host ? p->job_host : "");
        fprintf(fp, "},\n");
    }
    fprintf(fp, "  \"mpi_library\": ");
    tg_json_put_string(fp, p->mpi_library ? p->mpi_library : "");
    fprintf(fp, ",\n  \"world_size\": %d,\n  \"types\": [", p->world_size);
    for (int t = 0; t < p->ntypes; t++) {
        fprintf(fp, "%s", t ? ", " : "");
        tg_json_put_string(fp, p->types[t]);
    }
    if (p->nphases) {
        fprintf(fp, "],\n  \"phases\": [");
        put_group(fp, p->phases, p->nphases);
    }
    fprintf(fp, "],\n  \"ranks\": [\n");
    int left = p->nranks;
    for (int r = 0; r < p->world_size; r++)
        if (p->ranks[r].present) {
            put_rank(fp, p, r);
            fprintf(fp, "%s\n", --left ? "," : "");
        }
    fprintf(fp, "  ],\n  \"communicators\": [");
    for (int c = 0; c < p->ncomms; c++) {
        fprintf(fp, "%s\n", c ? "," : "");
        put_comm(fp, p, &p->comms[c], c);
    }
    fprintf(fp, "\n  ]");
    if (p->ncarts)
        put_carts(fp, p);
    fprintf(fp, "\n}\n");
    return tg_out_commit(&o, err);
}

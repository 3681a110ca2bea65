/* completion.c: Wait, Test, Start and Request_free.  Their time goes to
 * the type of the request they complete; completed receives count their
 * bytes from the status; a persistent send counts its bytes, a persistent
 * collective its call and bytes, at each start.
 * Statuses the caller ignores are replaced by local ones (on the stack up
 * to STACK_REQS requests) because the received bytes come from them. */
#include <stdlib.h>
#include <string.h>

#include "cp_internal.h"

#define STACK_REQS 64

/* Room for n request handles and statuses: the caller's statuses unless
 * they are ignored, else the stack buffers, else the heap. */
typedef struct scratch {
    MPI_Request before_stack[STACK_REQS];
    MPI_Status status_stack[STACK_REQS];
    MPI_Request *before;
    MPI_Status *status;
    void *heap;
} scratch;

static int scratch_init(scratch *s, int n, const MPI_Request *reqs,
                        MPI_Status *statuses)
{
    s->heap = NULL;
    s->before = s->before_stack;
    s->status = statuses;
    int need_status = statuses == MPI_STATUSES_IGNORE;
    if (n > STACK_REQS) {
        s->heap = malloc((size_t)n * (sizeof(MPI_Request) +
                                      (need_status ? sizeof(MPI_Status) : 0)));
        if (!s->heap)
            return -1;
        s->before = s->heap;
        if (need_status)
            s->status = (MPI_Status *)(s->before + n);
    } else if (need_status) {
        s->status = s->status_stack;
    }
    memcpy(s->before, reqs, (size_t)n * sizeof *reqs);
    return 0;
}

/* Is there anything to track? Without tracked requests every completion is
 * plain point-to-point and needs no bookkeeping. */
static int simple(void)
{
    return cp_req_empty();
}

int MPI_Wait(MPI_Request *request, MPI_Status *status)
{
    if (!cp_on() && simple())
        return PMPI_Wait(request, status);
    int64_t t0 = cp_now();
    uint64_t ticket = cp_req_ticket();
    MPI_Status local;
    if (status == MPI_STATUS_IGNORE)
        status = &local;
    MPI_Request before = *request;
    int rc = PMPI_Wait(request, status);
    if (rc == MPI_SUCCESS)
        cp_completed(&before, 1, NULL, status, t0, ticket);
    return rc;
}

int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    if (!cp_on() && simple())
        return PMPI_Test(request, flag, status);
    int64_t t0 = cp_now();
    uint64_t ticket = cp_req_ticket();
    MPI_Status local;
    if (status == MPI_STATUS_IGNORE)
        status = &local;
    MPI_Request before = *request;
    int rc = PMPI_Test(request, flag, status);
    if (rc == MPI_SUCCESS)
        cp_completed(&before, *flag ? 1 : 0, NULL, status, t0, ticket);
    return rc;
}

int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[])
{
    scratch s;
    if ((!cp_on() && simple()) || scratch_init(&s, count, requests, statuses))
        return PMPI_Waitall(count, requests, statuses);
    int64_t t0 = cp_now();
    uint64_t ticket = cp_req_ticket();
    int rc = PMPI_Waitall(count, requests, s.status);
    if (rc == MPI_SUCCESS)
        cp_completed(s.before, count, NULL, s.status, t0, ticket);
    free(s.heap);
    return rc;
}

int MPI_Testall(int count, MPI_Request requests[], int *flag,
                MPI_Status statuses[])
{
    scratch s;
    if ((!cp_on() && simple()) || scratch_init(&s, count, requests, statuses))
        return PMPI_Testall(count, requests, flag, statuses);
    int64_t t0 = cp_now();
    uint64_t ticket = cp_req_ticket();
    int rc = PMPI_Testall(count, requests, flag, s.status);
    if (rc == MPI_SUCCESS)
        cp_completed(s.before, *flag ? count : 0, NULL, s.status, t0, ticket);
    free(s.heap);
    return rc;
}

int MPI_Waitany(int count, MPI_Request requests[], int *index,
                MPI_Status *status)
{
    scratch s;
    if ((!cp_on() && simple()) || scratch_init(&s, count, requests, NULL))
        return PMPI_Waitany(count, requests, index, status);
    int64_t t0 = cp_now();
    uint64_t ticket = cp_req_ticket();
    MPI_Status local;
    if (status == MPI_STATUS_IGNORE)
        status = &local;
    int rc = PMPI_Waitany(count, requests, index, status);
    if (rc == MPI_SUCCESS)
        cp_completed(s.before, *index == MPI_UNDEFINED ? 0 : 1, index, status,
                     t0, ticket);
    free(s.heap);
    return rc;
}

int MPI_Testany(int count, MPI_Request requests[], int *index, int *flag,
                MPI_Status *status)
{
    scratch s;
    if ((!cp_on() && simple()) || scratch_init(&s, count, requests, NULL))
        return PMPI_Testany(count, requests, index, flag, status);
    int64_t t0 = cp_now();
    uint64_t ticket = cp_req_ticket();
    MPI_Status local;
    if (status == MPI_STATUS_IGNORE)
        status = &local;
    int rc = PMPI_Testany(count, requests, index, flag, status);
    if (rc == MPI_SUCCESS)
        cp_completed(s.before, *flag && *index != MPI_UNDEFINED ? 1 : 0, index,
                     status, t0, ticket);
    free(s.heap);
    return rc;
}

int MPI_Waitsome(int incount, MPI_Request requests[], int *outcount,
                 int indices[], MPI_Status statuses[])
{
    scratch s;
    if ((!cp_on() && simple()) ||
        scratch_init(&s, incount, requests, statuses))
        return PMPI_Waitsome(incount, requests, outcount, indices, statuses);
    int64_t t0 = cp_now();
    uint64_t ticket = cp_req_ticket();
    int rc = PMPI_Waitsome(incount, requests, outcount, indices, s.status);
    if (rc == MPI_SUCCESS)
        cp_completed(s.before, *outcount == MPI_UNDEFINED ? 0 : *outcount,
                     indices, s.status, t0, ticket);
    free(s.heap);
    return rc;
}

int MPI_Testsome(int incount, MPI_Request requests[], int *outcount,
                 int indices[], MPI_Status statuses[])
{
    scratch s;
    if ((!cp_on() && simple()) ||
        scratch_init(&s, incount, requests, statuses))
        return PMPI_Testsome(incount, requests, outcount, indices, statuses);
    int64_t t0 = cp_now();
    uint64_t ticket = cp_req_ticket();
    int rc = PMPI_Testsome(incount, requests, outcount, indices, s.status);
    if (rc == MPI_SUCCESS)
        cp_completed(s.before, *outcount == MPI_UNDEFINED ? 0 : *outcount,
                     indices, s.status, t0, ticket);
    free(s.heap);
    return rc;
}

/* The requests of MPI_Start or MPI_Startall have started: a persistent
 * send counts its bytes, a persistent collective its call and bytes, each
 * time it starts.  The call's time goes to the first tracked request's
 * type (and, a collective's, to its record), as in cp_completed. */
static void started(const MPI_Request *reqs, int n, int64_t t0, int rc)
{
    int64_t ticks = cp_now() - t0;
    cp_type type = CP_P2P;
    int typed = 0;
    for (int i = 0; rc == MPI_SUCCESS && i < n; i++) {
        cp_req_info info;
        if (!cp_req_find(reqs[i], &info))
            continue;
        if (info.persistent == CP_PERSIST_SEND)
            cp_sent_world(info.peer_world, info.bytes, info.buf);
        else if (info.persistent == CP_PERSIST_COLL)
            cp_coll_started(info.rec, info.type, info.bytes, info.peers,
                            typed ? 0 : ticks, info.buf);
        if (!typed)
            type = info.type;
        typed = 1;
    }
    cp_charge(type, ticks);
}

int MPI_Start(MPI_Request *request)
{
    if (!cp_on())
        return PMPI_Start(request);
    int64_t t0 = cp_now();
    cp_cuda_poll(t0);
    int rc = PMPI_Start(request);
    started(request, 1, t0, rc);
    return rc;
}

int MPI_Startall(int count, MPI_Request requests[])
{
    if (!cp_on())
        return PMPI_Startall(count, requests);
    int64_t t0 = cp_now();
    cp_cuda_poll(t0);
    int rc = PMPI_Startall(count, requests);
    started(requests, count, t0, rc);
    return rc;
}

int MPI_Request_free(MPI_Request *request)
{
    if (!simple())
        cp_req_forget(*request);
    return PMPI_Request_free(request);
}

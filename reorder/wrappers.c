/* wrappers.c: the C topology constructors this library replaces.  Each
 * records its arguments in an ro_call and hands it to ro_construct; the
 * Fortran bindings (fortran.c) call these. */
#include "ro_internal.h"

int MPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[],
                    const int periods[], int reorder, MPI_Comm *comm_cart)
{
    ro_call c = {.kind = RO_CART, .comm = comm_old, .ndims = ndims,
                 .dims = dims, .periods = periods};
    return ro_construct(&c, reorder, comm_cart);
}

int MPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[],
                     const int edges[], int reorder, MPI_Comm *comm_graph)
{
    ro_call c = {.kind = RO_GRAPH, .comm = comm_old, .nnodes = nnodes,
                 .index = index, .edges = edges};
    return ro_construct(&c, reorder, comm_graph);
}

int MPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree,
                                   const int sources[],
                                   const int sourceweights[], int outdegree,
                                   const int destinations[],
                                   const int destweights[], MPI_Info info,
                                   int reorder, MPI_Comm *comm_dist_graph)
{
    ro_call c = {.kind = RO_DIST_ADJACENT, .comm = comm_old,
                 .indegree = indegree, .sources = sources,
                 .sourceweights = sourceweights, .outdegree = outdegree,
                 .destinations = destinations, .destweights = destweights,
                 .info = info};
    return ro_construct(&c, reorder, comm_dist_graph);
}

int MPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[],
                          const int degrees[], const int destinations[],
                          const int weights[], MPI_Info info, int reorder,
                          MPI_Comm *comm_dist_graph)
{
    ro_call c = {.kind = RO_DIST, .comm = comm_old, .n = n,
                 .sources = sources, .degrees = degrees,
                 .destinations = destinations, .weights = weights,
                 .info = info};
    return ro_construct(&c, reorder, comm_dist_graph);
}

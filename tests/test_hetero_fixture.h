/* test_hetero_fixture.h: a small machine and instance builders shared by
 * the tests of libhetero. */
#ifndef TOPOMAP_TEST_HETERO_FIXTURE_H
#define TOPOMAP_TEST_HETERO_FIXTURE_H

#include "hetero.h"

/* The test machine as an hwloc XML file in the test's folder; its path. */
const char *htf_xml(void);
/* The test machine loaded. */
ht_node *htf_node(void);
/* n ranks spread over `hosts` hosts h0, h1, ... in blocks (local ranks
 * 0, 1, ...), no variant, no data, memory_bound 1, no sends. */
ht_input *htf_input(int n, int hosts);
void htf_send(ht_input *in, int from, int to, uint64_t bytes,
              uint64_t messages);
/* ht_problem_new that must succeed. */
ht_problem *htf_problem(const ht_input *in, const ht_node *node,
                        const ht_params *par);
/* The choice with these properties (numa for CPU, gpu for GPU). */
int htf_find(const ht_problem *p, ht_proc proc, int gpu, ht_memkind mem,
             int numa);
/* A file of ../shared/hwloc-xml ($TOPOMAP_SHARED), NULL when absent. */
const char *htf_shared(const char *file);

#endif

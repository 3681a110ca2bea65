/* example_mix.h: one value's term in the checksums of the example
 * applications (spmv, heat): the sum over values, mod 2^64, of
 * mix(bits(x) + k * 0x9e3779b97f4a7c15), k being the value's index + 1
 * and mix splitmix64's finaliser.  The sum does not depend on the order
 * of its terms, and each term on every bit of x. */
#ifndef TOPOMAP_EXAMPLE_MIX_H
#define TOPOMAP_EXAMPLE_MIX_H

#include <stdint.h>
#include <string.h>

static inline uint64_t example_term(double x, uint64_t k)
{
    uint64_t z;
    memcpy(&z, &x, sizeof z);
    z += k * 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

#endif

/* clock.c: which clock cp_now() reads, and its ticks in nanoseconds (see
 * "the clock" in cp_internal.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cp_internal.h"

#if CP_HAVE_TSC
#include <cpuid.h>
#endif

#if CP_HAVE_TSC
/* The CPU says its TSC is invariant: constant rate, and running in every
 * power state (cpuid 0x80000007, EDX bit 8; Linux's nonstop_tsc with
 * constant_tsc).  A hypervisor that does not promise it hides the bit. */
static int tsc_invariant(void)
{
    unsigned a, b, c, d;
    return __get_cpuid(0x80000007, &a, &b, &c, &d) && (d & (1u << 8));
}

/* The kernel keeps time with the TSC: it found the TSCs of all CPUs in
 * step, so a rank that moves between cores reads one clock.  Where the
 * file cannot be read (no sysfs in a container), the CPU's word is
 * taken. */
static int kernel_uses_tsc(void)
{
    FILE *f = fopen(
        "/sys/devices/system/clocksource/clocksource0/current_clocksource",
        "r");
    if (!f)
        return 1;
    char name[32] = "";
    int ok = fgets(name, sizeof name, f) && strncmp(name, "tsc\n", 4) == 0;
    fclose(f);
    return ok;
}

/* A (ticks, ns) pair read as close together as the machine allows: the
 * TSC between two CLOCK_MONOTONIC reads, the tightest of a few tries, the
 * midpoint of the two as its time.  Async-signal-safe. */
static void pair(int64_t *ticks, int64_t *ns)
{
    int64_t best = INT64_MAX;
    for (int i = 0; i < 5; i++) {
        int64_t a = cp_monotonic_ns();
        int64_t t = (int64_t)__rdtsc();
        int64_t b = cp_monotonic_ns();
        if (b - a < best) {
            best = b - a;
            *ticks = t;
            *ns = a + (b - a) / 2;
        }
    }
}
#endif

/* The pair taken at MPI_Init, when cp_now reads the TSC. */
static int64_t ticks0, ns0;

void cp_clock_init(void)
{
    const char *want = getenv("COMMPROF_CLOCK");
    int tsc = 0;
    if (want && *want && strcmp(want, "tsc") != 0 &&
        strcmp(want, "monotonic") != 0)
        cp_warn("COMMPROF_CLOCK=%s: not tsc or monotonic, chosen by the "
                "machine", want);
#if CP_HAVE_TSC
    if (want && strcmp(want, "tsc") == 0)
        tsc = 1;
    else if (!want || strcmp(want, "monotonic") != 0)
        tsc = tsc_invariant() && kernel_uses_tsc();
    if (tsc)
        pair(&ticks0, &ns0);
#else
    if (want && strcmp(want, "tsc") == 0)
        cp_warn("COMMPROF_CLOCK=tsc: no TSC on this machine, "
                "CLOCK_MONOTONIC used");
#endif
    cp.tsc = tsc;
}

cp_rate cp_clock_rate(void)
{
#if CP_HAVE_TSC
    if (cp.tsc) {
        int64_t ticks, ns;
        pair(&ticks, &ns);
        if (ticks > ticks0 && ns > ns0)
            return (cp_rate){(uint64_t)(ns - ns0), (uint64_t)(ticks - ticks0)};
        return (cp_rate){0, 1}; /* no time has passed that we could see */
    }
#endif
    return (cp_rate){1, 1};
}

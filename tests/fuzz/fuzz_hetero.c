/* fuzz_hetero.c: libFuzzer harness of libhetero's readers: the placement
 * input ("topomap-hetero-input", ht_input_read), a libcommprof profile
 * taken as placement input (ht_input_load "cpu:PATH", what topomap-place
 * reads from a profile), memprobe's calibration (ht_memcal_read) and
 * placement.json (ht_placement_read, what topomap-exec applies).  The
 * first byte picks the reader (its value mod 4), the rest is the file.
 * What is read is written back and read again where a writer exists. */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_file.h"
#include "hetero.h"

static void input(const char *path)
{
    ht_input *in = NULL, *back = NULL;
    tg_error err;
    if (ht_input_read(path, &in, &err))
        return;
    const char *out = fz_file("out.json", NULL, 0);
    if (ht_input_write(out, in, &err) || ht_input_read(out, &back, &err))
        fz_fail("an input read does not survive a round trip", &err);
    if (back->n != in->n) {
        fprintf(stderr, "fuzz_hetero: %d ranks read, %d after a round "
                "trip\n", in->n, back->n);
        abort();
    }
    ht_input_free(back);
    ht_input_free(in);
}

static void profile(const char *path)
{
    char spec[4200];
    snprintf(spec, sizeof spec, "cpu:%s", path);
    const char *inputs[] = {spec};
    ht_input *in = NULL;
    tg_error err;
    if (!ht_input_load(inputs, 1, &in, &err))
        ht_input_free(in);
}

static void memcal(const char *path)
{
    ht_memcal *cal = NULL, *back = NULL;
    tg_error err;
    if (ht_memcal_read(path, &cal, &err))
        return;
    const char *out = fz_file("out.json", NULL, 0);
    if (ht_memcal_write(out, cal, &err) || ht_memcal_read(out, &back, &err))
        fz_fail("a calibration read does not survive a round trip", &err);
    ht_memcal_free(back);
    ht_memcal_free(cal);
}

static void placement(const char *path)
{
    ht_placement *pl = NULL, *back = NULL;
    tg_error err;
    if (ht_placement_read(path, &pl, &err))
        return;
    const char *out = fz_file("out.json", NULL, 0);
    if (ht_placement_write(out, pl, &err) ||
        ht_placement_read(out, &back, &err))
        fz_fail("a placement read does not survive a round trip", &err);
    ht_placement_free(back);
    ht_placement_free(pl);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const char *path = fz_file("in.json", data + 1, size - 1);
    switch (data[0] % 4) {
    case 0: input(path); break;
    case 1: profile(path); break;
    case 2: memcal(path); break;
    case 3: placement(path); break;
    }
    return 0;
}

/* fuzz_file.h: what every libFuzzer harness of tests/fuzz/ shares.  The
 * readers take paths, so a harness writes its input to a file in a private
 * temporary folder (made at the first call, removed at exit) and passes the
 * path. */
#ifndef TOPOMAP_FUZZ_FILE_H
#define TOPOMAP_FUZZ_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "taskgraph.h"

/* Write size bytes at data to NAME in the private folder (replacing what
 * was there) and return its path (valid for the next three calls).  Aborts
 * on an I/O error: that is the harness failing, not the reader. */
const char *fz_file(const char *name, const uint8_t *data, size_t size);

/* Split data at the first NUL byte: *rest and *rest_size get what follows
 * it (NULL and 0 when there is none); returns the size of the first part. */
size_t fz_split(const uint8_t *data, size_t size, const uint8_t **rest,
                size_t *rest_size);

/* A check of the harness failed: print "fuzz: WHAT: ERR" and abort, which
 * libFuzzer reports as a crash with the input. */
void fz_fail(const char *what, const tg_error *err)
    __attribute__((noreturn));

#endif

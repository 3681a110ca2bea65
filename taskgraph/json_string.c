/* json_string.c: a JSON string written to a stream, escaped as
 * libcommprof's writer escapes it, for the files the tools write by hand
 * rather than through jansson (profiles, libtopomap-reorder's report). */
#include <stdio.h>

#include "taskgraph.h"

void tg_json_put_string(FILE *fp, const char *s)
{
    fputc('"', fp);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(fp, "\\%c", ch);
        else if (ch < 0x20)
            fprintf(fp, "\\u%04x", ch);
        else
            fputc(ch, fp);
    }
    fputc('"', fp);
}

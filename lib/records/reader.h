/* What the two readers (csv.c, sacct.c) share, inside the room: numbers
 * and times parsed from bytes that are not NUL-terminated, without the
 * locale, values shown safely in messages, and the rule for a refused row.
 * Not installed; nothing above the room calls in. */
#ifndef TCO_RECORDS_READER_H
#define TCO_RECORDS_READER_H

#include <stddef.h>
#include <stdint.h>

#include "records/records.h"

/* Results of the parsers. */
enum { PARSE_OK = 0, PARSE_SYNTAX = 1, PARSE_RANGE = 2 };

/* A decimal number: [+-]digits[.digits][(e|E)[+-]digits], nothing else (no
 * spaces, no inf or nan, no hexadecimal), whatever the locale. PARSE_RANGE
 * when it overflows a double. Correctly rounded: the double strtod reads
 * in the C locale (within an ulp for a number of over 500 bytes). */
int tco__parse_number(const char *s, size_t n, double *out);
/* Digits only, 1 to 15 of them (sacct's counts and seconds). */
int tco__parse_count(const char *s, size_t n, double *out);

/* Longest reason kept for a refused row. */
#define TCO__REASON_MAX 512

/* A row that cannot be a record: with TCO_READ_STRICT the read fails with
 * code, field as err->param_name and "line N: reason"; otherwise the row
 * is kept among the refused. Returns TCO_OK to read on, or the status to
 * stop with. */
int tco__refuse(tco_records *rs, uint32_t flags, uint64_t line, int code, const char *field, const char *reason,
                tco_error *err);

/* The argument checks both readers start with. */
int tco__read_args(tco_records **out, const char *text, uint32_t flags, tco_error *err);

#endif

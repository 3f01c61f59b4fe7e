/* Writing what the commands print: files and standard output, CBOR saved
 * by the library, and numbers and strings as JSON and CSV spell them. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tco_cmd.h"

/* ==== files ============================================================== */

static int write_all(const char *path, const void *data, size_t len)
{
    FILE *f = strcmp(path, "-") == 0 ? stdout : fopen(path, "wb");
    if (!f) {
        say("%s: cannot create: %s", path, strerror(errno));
        return EXIT_IO;
    }
    int bad = fwrite(data, 1, len, f) != len;
    bad |= f == stdout ? fflush(f) != 0 : fclose(f) != 0;
    if (bad) {
        say("%s: cannot write: %s", path, strerror(errno));
        return EXIT_IO;
    }
    return 0;
}

FILE *open_text(const char *out)
{
    if (strcmp(out, "-") == 0)
        return stdout;
    FILE *f = fopen(out, "w");
    if (!f)
        say("%s: cannot create: %s", out, strerror(errno));
    return f;
}

/* Checked even for standard output: a full disk or a closed pipe is an
 * error, not a silently short report. */
int close_text(FILE *f, const char *out)
{
    int bad = f == stdout ? fflush(f) != 0 : fclose(f) != 0;
    if (bad) {
        say("%s: cannot write: %s", out, strerror(errno));
        return EXIT_IO;
    }
    return 0;
}

int binary_to_terminal(const char *out)
{
    if (strcmp(out, "-") == 0 && isatty(STDOUT_FILENO)) {
        say("CBOR is binary: not writing it to a terminal (give -o FILE, or redirect)");
        return 1;
    }
    return 0;
}

/* Asks the size first, so the buffer is exactly the encoding. */
int write_cbor(const char *out, cbor_saver save, const void *what)
{
    tco_error err = TCO_ERROR_INIT;
    size_t len = 0;
    if (save(NULL, 0, &len, what, &err) != TCO_OK) {
        say("%s", err.message);
        return EXIT_REJECTED;
    }
    uint8_t *buf = malloc(len ? len : 1);
    if (!buf) {
        say("out of memory");
        return EXIT_IO;
    }
    int rc = save(buf, len, &len, what, &err);
    if (rc != TCO_OK)
        say("%s", err.message);
    rc = rc != TCO_OK ? EXIT_REJECTED : write_all(out, buf, len);
    free(buf);
    return rc;
}

/* ==== numbers and strings ================================================ */

const char *money(char *buf, size_t cap, double v)
{
    char digits[64];
    if (!isfinite(v))
        return num(buf, cap, v);
    snprintf(digits, sizeof digits, "%.0f", fabs(v));
    size_t n = strlen(digits), j = 0;
    if (v < 0 && j + 1 < cap)
        buf[j++] = '-';
    for (size_t i = 0; i < n && j + 2 < cap; i++) {
        if (i > 0 && (n - i) % 3 == 0)
            buf[j++] = ',';
        buf[j++] = digits[i];
    }
    buf[j] = '\0';
    return buf;
}

const char *num(char *buf, size_t cap, double v)
{
    if (isnan(v))
        return "nan";
    if (isinf(v))
        return v > 0 ? "inf" : "-inf";
    int prec = 1;
    for (; prec < 17; prec++) {
        snprintf(buf, cap, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    /* Plain digits rather than 3e+03 below a billion. */
    double a = fabs(v);
    if (a >= 1 && a < 1e9) {
        int digits = (int)floor(log10(a)) + 1;
        if (digits > prec)
            prec = digits;
    }
    snprintf(buf, cap, "%.*g", prec, v);
    return buf;
}

/* JSON has no NaN or infinity: null. */
void json_num(FILE *f, double v)
{
    char buf[32];
    fputs(isfinite(v) ? num(buf, sizeof buf, v) : "null", f);
}

void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

/* Quoted only when it must be (RFC 4180). */
void csv_str(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* Writing what the commands print: files and standard output, CBOR saved
 * by the library, and numbers and strings as JSON and CSV spell them. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tco_cmd.h"

/* ==== files ============================================================== */

/* A file is written whole or not at all: into a temporary file beside it,
 * renamed over it only once everything is written and closed, so that a
 * full disk or a failed command leaves the old file as it was. An existing
 * file is replaced only with --force; so is the file a symbolic link
 * points to (the link stays). One output file is open at a time. */
static struct {
    FILE *f;
    char tmp[4096];
    char target[4096]; /* where the temporary file is renamed to */
} pending;

static int forced;

void output_force(int force)
{
    forced = force;
}

static FILE *open_file(const char *out, const char *mode)
{
    struct stat st;
    int exists = lstat(out, &st) == 0;
    if (exists && S_ISLNK(st.st_mode) && !forced) {
        say("%s: is a symbolic link: not followed (give --force to replace the file it points to)", out);
        return NULL;
    }
    if (snprintf(pending.target, sizeof pending.target, "%s", out) >= (int)sizeof pending.target) {
        say("%s: the path is too long", out);
        return NULL;
    }
    if (exists && S_ISLNK(st.st_mode)) { /* --force: the file it points to, wherever it is */
        char *real = realpath(out, NULL);
        exists = real && stat(real, &st) == 0;
        int fits = real && snprintf(pending.target, sizeof pending.target, "%s", real) < (int)sizeof pending.target;
        free(real);
        if (!fits) {
            say("%s: the symbolic link leads nowhere that can be written", out);
            return NULL;
        }
        out = pending.target;
    }
    if (exists && S_ISDIR(st.st_mode)) {
        say("%s: is a directory: give a file name", out);
        return NULL;
    }
    if (exists && S_ISREG(st.st_mode) && !forced) {
        say("%s: exists: not replaced (give --force to replace it)", out);
        return NULL;
    }
    if (exists && !S_ISREG(st.st_mode)) { /* a device or a pipe (/dev/null): written to, never replaced */
        pending.tmp[0] = '\0';
        if (!(pending.f = fopen(out, mode)))
            say("%s: cannot open: %s", out, strerror(errno));
        return pending.f;
    }
    const char *slash = strrchr(out, '/');
    int dir = slash ? (int)(slash - out + 1) : 0;
    if (snprintf(pending.tmp, sizeof pending.tmp, "%.*s.%s.tco-XXXXXX", dir, out, out + dir) >=
        (int)sizeof pending.tmp) {
        say("%s: the path is too long", out);
        return NULL;
    }
    int fd = mkstemp(pending.tmp);
    if (fd < 0) {
        say("%s: cannot create: %s", out, strerror(errno));
        return NULL;
    }
    mode_t mask = umask(0);
    umask(mask);
    if (fchmod(fd, 0666 & ~mask) != 0 || !(pending.f = fdopen(fd, mode))) {
        say("%s: cannot create: %s", out, strerror(errno));
        close(fd);
        unlink(pending.tmp);
        return NULL;
    }
    return pending.f;
}

/* Closes f; renames it into place when ok (the command succeeded) and
 * every write and the close went through, else removes it. Returns the
 * exit status: a write that failed is an error, never a quiet 0. */
static int finish_file(FILE *f, const char *out, int ok)
{
    int bad = ferror(f) != 0;
    int saved = errno;
    if (fclose(f) != 0 && !bad) {
        bad = 1;
        saved = errno;
    }
    pending.f = NULL;
    if (!pending.tmp[0]) { /* written in place */
        if (ok && bad) {
            say("%s: cannot write: %s", out, strerror(saved));
            return EXIT_IO;
        }
        return 0;
    }
    if (ok && !bad && rename(pending.tmp, pending.target) == 0)
        return 0;
    if (ok && !bad)
        saved = errno;
    unlink(pending.tmp);
    if (!ok)
        return 0; /* the caller says why */
    say("%s: cannot write: %s (the old file, if any, is unchanged)", out, strerror(saved));
    return EXIT_IO;
}

static int write_all(const char *path, const void *data, size_t len)
{
    if (strcmp(path, "-") == 0) {
        if (fwrite(data, 1, len, stdout) != len || fflush(stdout) != 0) {
            say("%s: cannot write: %s", path, strerror(errno));
            return EXIT_IO;
        }
        return 0;
    }
    FILE *f = open_file(path, "wb");
    if (!f)
        return EXIT_IO;
    fwrite(data, 1, len, f); /* a short write sets the error finish_file reads */
    return finish_file(f, path, 1);
}

FILE *open_text(const char *out)
{
    return strcmp(out, "-") == 0 ? stdout : open_file(out, "w");
}

/* Checked even for standard output: a full disk or a closed pipe is an
 * error, not a silently short report. */
int close_text(FILE *f, const char *out)
{
    if (f != stdout)
        return finish_file(f, out, 1);
    if (fflush(f) != 0 || ferror(f)) {
        say("%s: cannot write: %s", out, strerror(errno));
        return EXIT_IO;
    }
    return 0;
}

void abandon_text(FILE *f, const char *out)
{
    if (f == stdout)
        fflush(f);
    else
        finish_file(f, out, 0);
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
    snprintf(digits, sizeof digits, "%.0f", fabs(v)); /* "inf" and "nan" as they are */
    size_t n = strlen(digits), j = 0;
    if (v < 0)
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
    int prec = 1; /* "inf" reads back at once; "nan" never does, and is "nan" at 17 digits */
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

void json_num_field(FILE *f, const char *name, double v)
{
    fprintf(f, ", \"%s\": ", name);
    json_num(f, v);
}

void json_str_field(FILE *f, const char *name, const char *v)
{
    fprintf(f, ", \"%s\": ", name);
    json_str(f, v);
}

void json_report_head(FILE *f, const char *schema)
{
    fprintf(f, "{\n  \"schema\": \"%s\",\n  \"schema_version\": %d", schema, REPORT_SCHEMA_VERSION);
}

const char *fingerprint_text(char *buf, size_t cap, uint64_t fingerprint)
{
    snprintf(buf, cap, "%016llx", (unsigned long long)fingerprint);
    return buf;
}

const char *unit_text(char *buf, size_t cap, const char *unit, const char *currency)
{
    static const char *const words[][2] = { { "accel-h", "accelerator-hour" }, { "Mtoken", "million tokens" } };
    size_t n = 0;
    buf[0] = '\0';
    for (const char *u = unit; *u && n + 1 < cap;) {
        const char *put = NULL;
        size_t used = 1;
        char one[2] = { *u, '\0' };
        if (strncmp(u, "cur", 3) == 0) {
            put = currency;
            used = 3;
        } else if (*u == '/') {
            put = " per ";
        } else {
            for (size_t k = 0; k < sizeof words / sizeof words[0] && !put; k++)
                if (strncmp(u, words[k][0], strlen(words[k][0])) == 0) {
                    put = words[k][1];
                    used = strlen(words[k][0]);
                }
        }
        n += (size_t)snprintf(buf + n, cap - n, "%s", put ? put : one);
        u += used;
        if (n >= cap)
            n = cap - 1;
    }
    return buf;
}

void prom_label(FILE *f, const char *name, const char *v, int first)
{
    fprintf(f, "%s%s=\"", first ? "" : ",", name);
    for (; *v; v++)
        if (*v == '\\' || *v == '"')
            fprintf(f, "\\%c", *v);
        else if (*v == '\n')
            fputs("\\n", f);
        else
            fputc(*v, f);
    fputc('"', f);
}

void prom_family(FILE *f, const char *name, const char *help)
{
    fprintf(f, "# HELP %s ", name);
    for (; *help; help++) /* HELP escapes only \\ and a newline */
        if (*help == '\\')
            fputs("\\\\", f);
        else if (*help == '\n')
            fputs("\\n", f);
        else
            fputc(*help, f);
    fprintf(f, "\n# TYPE %s gauge\n", name);
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

/* Byte c as a message shows it, into out (4 bytes); returns how many. */
static size_t shown_byte(char *out, unsigned char c)
{
    static const char hex[] = "0123456789abcdef";
    if (c >= 0x20 && c < 0x7f) {
        out[0] = (char)c;
        return 1;
    }
    /* a control byte or a byte of UTF-8: never raw on a terminal, never cut */
    out[0] = '\\';
    out[1] = 'x';
    out[2] = hex[c >> 4];
    out[3] = hex[c & 15];
    return 4;
}

const char *shown_text(char *buf, size_t cap, const char *s)
{
    size_t o = 0;
    for (; *s && o + 5 < cap; s++)
        o += shown_byte(buf + o, (unsigned char)*s);
    buf[o] = '\0';
    return buf;
}

void show(FILE *f, const char *s)
{
    char b[4];
    for (; *s; s++)
        fwrite(b, 1, shown_byte(b, (unsigned char)*s), f);
}

/* ==== option values ====================================================== */

int field_of(const char *assignment, const field_name *names, size_t n, const char **value)
{
    const char *eq = strchr(assignment, '=');
    if (!eq)
        return -1;
    size_t len = (size_t)(eq - assignment);
    for (size_t k = 0; k < n; k++)
        if (strlen(names[k].name) == len && strncmp(assignment, names[k].name, len) == 0) {
            *value = eq + 1;
            return (int)k;
        }
    return -1;
}

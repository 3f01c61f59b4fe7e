/* What the files of the tco command share (doc/tco.md). Private to the
 * command: nothing here is installed or part of libtco's API.
 *
 *   main.c         the commands, their options (getopt_long), help and usage
 *   input.c        reading a scenario: CBOR through the library, JSON
 *                  (jansson) through the public setters, then frozen
 *   output.c       writing: files, CBOR through the library, amounts, and
 *                  numbers and strings as JSON and CSV
 *   report.c       tco report: the table, JSON and CSV of an estimate
 *   compare.c      tco compare: scenarios side by side (tco_compare)
 *   sensitivity.c  tco sensitivity: the ranked tornado (tco_sensitivity)
 *   attribute.c    tco attribute: usage records' bill split among their tags
 *                  (tco_attribute); reading records for tco waste too
 *   waste.c        tco waste: the findings of tco_find_waste
 *   lifetime.c     tco lifetime: the cluster over its life (tco_lifetime_compute)
 *   diff.c         tco diff: two scenarios' inputs and cost lines, what changed
 *   programme.c    tco programme: stages on one cluster (tco_programme_compute);
 *                  input.c reads the file
 *   scenario.c     tco convert and tco fingerprint: a scenario file as such
 *   params.c       tco params: the parameter list, and doc/parameters.md */
#ifndef TCO_CMD_H
#define TCO_CMD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <tco.h>

#if defined(__GNUC__)
#define TCO_CMD_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define TCO_CMD_PRINTF(f, a)
#endif

/* Exit statuses (doc/tco.md); 0 is success. */
enum { EXIT_REJECTED = 1, EXIT_USAGE = 2, EXIT_IO = 3 };

/* A command's arguments as main.c parsed them; NULL where not given. */
typedef struct cmd_args {
    const char **pos; /* positional arguments, npos of them, then NULL: pos[0] and pos[1] are always
                         there to read */
    int npos;
    const char *format, *from, *to, *output, *share;
    /* tco attribute's and tco waste's options */
    const char *by, *period, *records, *idle_rule, *shared_rule, *owner, *scenario;
    int strict;
    const char **thresholds; /* tco waste's --threshold NAME=VALUE, nthresholds of them */
    int nthresholds;
    const char **focus;      /* tco attribute's --focus NAME=VALUE (the FOCUS rows' names), nfocus of them */
    int nfocus;
    /* tco lifetime's options */
    const char *years, *refresh_year, *utilisation, *discount_rate;
    const char **sets;       /* --set NAME=VALUE, applied to every scenario loaded, nsets of them */
    int nsets;
    int force;               /* --force: replace an existing output file */
} cmd_args;

/* ---- the commands: each returns the exit status ---- */
int cmd_report(const cmd_args *a);      /* report.c */
int cmd_convert(const cmd_args *a);     /* scenario.c */
int cmd_fingerprint(const cmd_args *a); /* scenario.c */
int cmd_params(const cmd_args *a);      /* params.c */
int cmd_compare(const cmd_args *a);     /* compare.c */
int cmd_sensitivity(const cmd_args *a); /* sensitivity.c */
int cmd_attribute(const cmd_args *a);   /* attribute.c */
int cmd_waste(const cmd_args *a);       /* attribute.c, printed by waste.c */
int cmd_lifetime(const cmd_args *a);    /* lifetime.c */
int cmd_diff(const cmd_args *a);        /* diff.c */
int cmd_programme(const cmd_args *a);   /* programme.c */

/* ---- attribute.c: records priced for a period ---- */
typedef struct usage_job {
    const char *path, *label, *currency;
    const tco_records *rs;
    const tco_attribution *a;
    const char *keys[2];
    uint32_t nkeys;
    double period[2];
} usage_job;

/* 123456789 cents -> "1,234,567.89". */
const char *money_cents(char *buf, size_t cap, int64_t c);
/* "YYYY-MM-DDTHH:MM:SSZ" of UTC seconds t. */
const char *iso_time(char *buf, size_t cap, double t);
/* The head of a JSON report (json_report_head, schema) and its records,
 * scenario and currency members. */
void usage_json_head(FILE *f, const usage_job *j, const char *schema);
/* The text of a tag value id; NULL for TCO_TAG_NONE. */
const char *usage_value(const usage_job *j, uint32_t id);

/* ---- waste.c ---- */
/* Prints the findings of the job's attribution; returns the exit status. */
int waste_print(const cmd_args *a, const usage_job *j);

/* ---- main.c: messages ---- */
/* "tco: " fmt "\n" on standard error. */
void say(const char *fmt, ...) TCO_CMD_PRINTF(1, 2);
/* Says fmt (with arg) unless fmt is NULL, then the usage; returns EXIT_USAGE. */
int usage(const char *fmt, const char *arg);

/* ---- input.c: files and the scenario ---- */
/* Reads all of path ("-": standard input), up to max_bytes, into a new
 * buffer. Says what is wrong and returns the exit status. */
int read_file(const char *path, size_t max_bytes, unsigned char **data, size_t *len);
/* 1 when text is a finite decimal number (no hexadecimal, white space, inf
 * or nan) whose digits the double it reads as gives back, into *v: an
 * option's value is never rounded in silence, as a JSON file's is not. */
int number_text(const char *text, double *v);

typedef struct scenario {
    tco_topology *t;
    tco_workload *w;
    tco_pricing *p;
} scenario;

/* The scenario in path ("-": standard input; NULL: the built-in one) in
 * the format a->from ("json", "cbor"; NULL: guessed), a->sets applied,
 * frozen. Says what is wrong and returns the exit status. */
int scenario_load(scenario *s, const char *path, const cmd_args *a);
void scenario_free(scenario *s);
/* The scenario in a JSON text (label names it in messages), frozen. */
int scenario_from_json(scenario *s, const unsigned char *data, size_t len, const char *label);
/* The JSON form of a scenario (scenario.c): every parameter, in the table's
 * order, the same keys and nesting as the CBOR, so JSON to CBOR to JSON is
 * stable. */
void scenario_write_json(FILE *f, const scenario *s);
/* How messages and the report name path: itself, or the built-in scenario. */
const char *scenario_label(const char *path);
/* A parameter of the handle of that kind (tco_param_info's handle). */
int scenario_get(const scenario *s, int32_t kind, int32_t key, double *v);
int scenario_get_text(const scenario *s, int32_t kind, int32_t key, const char **v);
/* "json" or "cbor": given (--from, --to), else path's extension, else (when
 * data is given) its first byte; NULL when nothing tells. */
const char *file_format(const char *given, const char *path, const unsigned char *data, size_t len);

/* A programme file (doc/format.md, "Programmes"): a JSON scenario and its
 * "stages". The cluster and the pricing table are the scenario's; each
 * stage's workload is the scenario's (--set applied) with the stage's own
 * keys set on a copy, frozen, and owned here. */
typedef struct programme_file {
    scenario s;
    size_t n;
    tco_stage *stages;        /* n, for tco_programme_compute */
    tco_workload **workloads; /* stages[i].workload */
    const char **names;       /* stages[i].name: the stage's, else its kind's */
    tco_pipeline_request *pipelines; /* n: stages[i].pipeline, for a data pipeline stage */
    tco_serve_request *servings;     /* n: stages[i].serving, for a serving stage */
    double **rates;                  /* n: a serving stage's rate series, else NULL */
    int32_t **also;                  /* n: stages[i].also_after, else NULL */
    void *json;               /* the parsed file, which the names point into */
} programme_file;
/* Reads the programme in path ("-": standard input). Every message names
 * the stage ("FILE: stages[2] (sft): ...") and the key; says what is
 * wrong and returns the exit status, with nothing left to free. */
int programme_load(programme_file *pf, const char *path, const cmd_args *a);
void programme_free(programme_file *pf);

/* ---- output.c: writing ---- */
/* 1: an existing file at an output path is replaced (--force), and a
 * symbolic link's file written; 0 (the default): refused. */
void output_force(int force);
/* Text to out ("-": standard output), written whole or not at all (a
 * temporary file renamed into place); close_text says if writing failed. */
FILE *open_text(const char *out);
int close_text(FILE *f, const char *out);
/* Closes f without keeping what was written (a command that failed half
 * way): a file is then left as it was. */
void abandon_text(FILE *f, const char *out);
/* Says so and returns 1 when out is a terminal: CBOR is binary. */
int binary_to_terminal(const char *out);
/* A library save function (size query with buf NULL, then the bytes). */
typedef int (*cbor_saver)(uint8_t *buf, size_t cap, size_t *len, const void *what, tco_error *err);
int write_cbor(const char *out, cbor_saver save, const void *what);
/* 1234567.8 -> "1,234,568": whole units with thousands separators. */
const char *money(char *buf, size_t cap, double v);
/* The shortest decimal that reads back as exactly v, in buf (32 bytes do). */
const char *num(char *buf, size_t cap, double v);
/* ---- output.c: option values ---- */
/* An option's NAME=VALUE set against the fields of a request struct. */
typedef struct field_name {
    const char *name;
    size_t offset; /* offsetof the field */
} field_name;
#define FIELD_NAME(type, field) { #field, offsetof(type, field) }
/* The index of NAME among names[0 .. n), *value pointing past the '=';
 * -1 when there is no '=' or no such name. */
int field_of(const char *assignment, const field_name *names, size_t n, const char **value);

/* s for a message on a terminal: printable ASCII kept, every other byte
 * as \xHH (so no control byte reaches the terminal and no UTF-8
 * character is cut), as much as cap holds. */
const char *shown_text(char *buf, size_t cap, const char *s);
/* All of s, shown so, on f. */
void show(FILE *f, const char *s);
void json_num(FILE *f, double v);
void json_str(FILE *f, const char *s);
/* `, "name": v`: one member after the first of a JSON object. */
void json_num_field(FILE *f, const char *name, double v);
void json_str_field(FILE *f, const char *name, const char *v);
void csv_str(FILE *f, const char *s);

/* Every JSON report opens with its schema (doc/tco.md, "Reports"):
 * `{ "schema": "libtco-<what>", "schema_version": 1`; members follow with
 * json_*_field. The version rises when a report changes shape. */
#define REPORT_SCHEMA_VERSION 1
void json_report_head(FILE *f, const char *schema);
/* A fingerprint as 16 hexadecimal digits: a 64-bit integer in JSON would be
 * rounded by JavaScript and jq. */
const char *fingerprint_text(char *buf, size_t cap, uint64_t fingerprint);
/* Prometheus text exposition (version 0.0.4): a family's HELP and TYPE
 * (every libtco metric is a gauge), and one label, escaped, with a comma
 * before it unless first. */
void prom_family(FILE *f, const char *name, const char *help);
void prom_label(FILE *f, const char *name, const char *v, int first);
/* A field table's unit for a reader: "cur/Mtoken" with currency "USD" is
 * "USD per million tokens". */
const char *unit_text(char *buf, size_t cap, const char *unit, const char *currency);

/* ---- params.c ---- */
/* A choice parameter's names, ", " between them, in `backquotes` if quoted. */
const char *param_choices(char *buf, size_t cap, int32_t key, size_t count, int quoted);

#endif

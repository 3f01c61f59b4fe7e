/* tco: scenario files and cost reports from the command line (doc/tco.md).
 *
 *   tco report [FILE] [--format table|json|csv|cbor] [-o OUT] [--from json|cbor]
 *   tco convert IN OUT [--from json|cbor] [--to json|cbor]
 *   tco fingerprint [FILE] [--from json|cbor]
 *   tco params [--format table|json|csv|markdown]
 *   tco compare A B [C...] [--format table|json|csv|markdown] [-o OUT] [--from json|cbor]
 *   tco sensitivity [FILE] [--share S] [--format table|json|csv] [-o OUT] [--from json|cbor]
 *   tco attribute RECORDS [FILE] --by KEY[,KEY] [--period START,END] [...]
 *   tco waste RECORDS [FILE] [--by KEY] [--threshold NAME=VALUE]... [...]
 *   tco lifetime [FILE] [--years N] [--utilisation U] [--refresh-year R] [--discount-rate D] [...]
 *   tco diff A B [--format table|json|markdown] [-o OUT] [--from json|cbor]
 *   tco programme FILE [--format table|json|csv] [-o OUT]
 *
 * This file: the table of commands, their options (getopt_long: --format=X
 * or --format X, anywhere among the other arguments), their help, and the
 * usage messages. tco_cmd.h says where the rest is.
 *
 * Exit status: 0 success; 1 the scenario was rejected or cannot be priced;
 * 2 wrong usage; 3 a file could not be read or written. */
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tco_cmd.h"

static const char usage_text[] =
    "usage: tco COMMAND [ARGS]\n"
    "\n"
    "  tco report [FILE] [--format table|json|csv|cbor|prometheus] [-o OUT]\n"
    "      price the scenario in FILE (the built-in one without FILE)\n"
    "  tco convert IN OUT [--from json|cbor] [--to json|cbor]\n"
    "      rewrite a scenario: JSON to canonical CBOR, CBOR to JSON (by extension,\n"
    "      or --from/--to; \"-\" is standard input or output)\n"
    "  tco fingerprint [FILE]\n"
    "      print the scenario's fingerprint and those of its three handles\n"
    "  tco params [--format table|json|csv|markdown]\n"
    "      list every parameter with its unit, default and allowed values\n"
    "  tco compare A B [C...] [--format table|json|csv|markdown] [-o OUT]\n"
    "      price scenarios side by side against the first: unit costs, category\n"
    "      differences, one-off costs, payback and break-even\n"
    "  tco sensitivity [FILE] [--share S] [--format table|json|csv] [-o OUT]\n"
    "      swing every numeric parameter by +-S (0.1) and rank them by the spread\n"
    "      of the total\n"
    "  tco attribute RECORDS [FILE] --by KEY[,KEY] [--period START,END]\n"
    "      [--idle-rule R] [--shared-rule R] [--owner V] [--records csv|sacct]\n"
    "      [--strict] [--format table|json|csv|focus|prometheus] [-o OUT]\n"
    "      split the bill of a period among the usage records' tags, to the cent\n"
    "  tco waste RECORDS [FILE] [--by KEY] [--period START,END]\n"
    "      [--threshold NAME=VALUE]... [--records csv|sacct] [--strict]\n"
    "      [--format table|json|csv] [-o OUT]\n"
    "      find the money in the records spent on nothing, largest first\n"
    "  tco lifetime [FILE] [--years N] [--utilisation U] [--refresh-year R]\n"
    "      [--discount-rate D] [--format table|json|csv] [-o OUT]\n"
    "      the cluster over its life: years, fixed and variable, unused capacity\n"
    "      and commitment, cash and net present value\n"
    "  tco diff A B [--format table|json|markdown] [-o OUT]\n"
    "      what changed from scenario A to B: the inputs, and every cost line\n"
    "  tco programme FILE [--format table|json|csv] [-o OUT]\n"
    "      a programme of stages on one cluster (the data pipeline, pretraining to\n"
    "      evaluation, sweeps alongside, serving): each stage's time and cost, the\n"
    "      store of the versions kept\n"
    "  tco COMMAND --help\n"
    "      that command's options; every command reading a scenario also takes\n"
    "      --set NAME=VALUE (repeatable) and --force (replace an existing OUT)\n"
    "  tco --help | --version\n"
    "\n"
    "FILE is a scenario in CBOR or JSON (doc/format.md); tco programme's is JSON,\n"
    "a scenario with its \"stages\". Exit status: 0 success, 1 the scenario was\n"
    "rejected or cannot be priced, 2 wrong usage, 3 a file could not be read or\n"
    "written.\n";

void say(const char *fmt, ...)
{
    /* Shown as shown_text shows a text: a file path (or any other byte of
     * a message) never reaches the terminal raw. Texts from the library
     * and from shown_text are printable already and pass unchanged. */
    va_list ap, again;
    va_start(ap, fmt);
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char msg[n > 0 ? n + 1 : 1]; /* a path may be as long as an argument */
    msg[0] = '\0';
    vsnprintf(msg, sizeof msg, fmt, again);
    va_end(again);
    fputs("tco: ", stderr);
    show(stderr, msg);
    fputc('\n', stderr);
}

int usage(const char *fmt, const char *arg)
{
    if (fmt) {
        char shown[1024]; /* an argument is shown, never sent raw to the terminal */
        fputs("tco: ", stderr);
        fprintf(stderr, fmt, arg ? shown_text(shown, sizeof shown, arg) : arg);
        fputc('\n', stderr);
    }
    fputs(usage_text, stderr);
    return EXIT_USAGE;
}

/* ==== the commands ======================================================= */

static const char *const report_formats[] = { "table", "json", "csv", "cbor", "prometheus", NULL };
static const char *const params_formats[] = { "table", "json", "csv", "markdown", NULL };
static const char *const compare_formats[] = { "table", "json", "csv", "markdown", NULL };
static const char *const sensitivity_formats[] = { "table", "json", "csv", NULL };
static const char *const attribute_formats[] = { "table", "json", "csv", "focus", "prometheus", NULL };
static const char *const waste_formats[] = { "table", "json", "csv", NULL };
static const char *const diff_formats[] = { "table", "json", "markdown", NULL };

/* max_pos of a command that takes any number of positional arguments. */
#define ANY INT_MAX

/* Options only some commands take. */
enum {
    OFFER_ATTRIBUTION = 1, /* --by, --period, --idle-rule, --shared-rule, --owner, --records, --strict */
    OFFER_THRESHOLD = 2,   /* --threshold */
    OFFER_LIFETIME = 4,    /* --years, --utilisation, --refresh-year, --discount-rate */
    OFFER_FOCUS = 8,       /* --focus */
    OFFER_SCENARIO = 16    /* --set: the command reads scenarios */
};

typedef struct command {
    const char *name;
    int (*run)(const cmd_args *);
    int min_pos, max_pos;
    const char *missing;        /* the message when fewer than min_pos are given */
    const char *const *formats; /* what --format offers; NULL: no --format */
    int share;                  /* 1: --share is offered */
    int offers;                 /* the OFFER_ options offered, besides --format, --output, --from, --to */
    const char *help;           /* tco NAME --help */
} command;

static const command commands[] = {
    { "report", cmd_report, 0, 1, NULL, report_formats, 0, OFFER_SCENARIO,
      "usage: tco report [FILE] [--format table|json|csv|cbor|prometheus] [-o OUT] [--from json|cbor]\n"
      "\n"
      "Prices the scenario in FILE (the built-in one without FILE; \"-\" is standard\n"
      "input) and prints the cost by category, the waste, and every other field.\n"
      "\n"
      "  -f, --format=FORMAT  table (the default), json, csv, cbor (the canonical\n"
      "                       CBOR result, never to a terminal), or prometheus: the\n"
      "                       text exposition, a gauge per field\n"
      "  -o, --output=OUT     write to OUT instead of standard output\n"
      "      --from=FORMAT    read FILE as json or cbor (default: by its extension,\n"
      "                       else by its first byte)\n"
      "  -h, --help           print this help\n"
      "\n"
      "An option's value follows it, or an '=': --format json, --format=json.\n" },
    { "convert", cmd_convert, 2, 2, "convert needs IN and OUT", NULL, 0, OFFER_SCENARIO,
      "usage: tco convert IN OUT [--from json|cbor] [--to json|cbor]\n"
      "\n"
      "Rewrites the scenario in IN as OUT: JSON to canonical CBOR, CBOR to JSON with\n"
      "every parameter. \"-\" is standard input (IN) or output (OUT).\n"
      "\n"
      "      --from=FORMAT    read IN as json or cbor (default: by its extension,\n"
      "                       else by its first byte)\n"
      "      --to=FORMAT      write OUT as json or cbor (default: by its extension)\n"
      "  -h, --help           print this help\n"
      "\n"
      "An option's value follows it, or an '=': --to cbor, --to=cbor.\n" },
    { "fingerprint", cmd_fingerprint, 0, 1, NULL, NULL, 0, OFFER_SCENARIO,
      "usage: tco fingerprint [FILE] [--from json|cbor]\n"
      "\n"
      "Prints the fingerprint of the scenario in FILE (the built-in one without\n"
      "FILE; \"-\" is standard input) and those of its topology, workload and\n"
      "pricing table, 16 hexadecimal digits each.\n"
      "\n"
      "      --from=FORMAT    read FILE as json or cbor (default: by its extension,\n"
      "                       else by its first byte)\n"
      "  -h, --help           print this help\n"
      "\n"
      "An option's value follows it, or an '=': --from json, --from=json.\n" },
    { "params", cmd_params, 0, 0, NULL, params_formats, 0, 0,
      "usage: tco params [--format table|json|csv|markdown]\n"
      "\n"
      "Lists every parameter: name, handle, type, unit, default and allowed values.\n"
      "\n"
      "  -f, --format=FORMAT  table (the default), json, csv, or markdown: the page\n"
      "                       doc/parameters.md, exactly\n"
      "  -h, --help           print this help\n"
      "\n"
      "An option's value follows it, or an '=': --format csv, --format=csv.\n" },
    { "compare", cmd_compare, 2, ANY, "compare needs at least two scenarios: A B [C...]", compare_formats, 0,
      OFFER_SCENARIO,
      "usage: tco compare A B [C...] [--format table|json|csv|markdown] [-o OUT] [--from json|cbor]\n"
      "\n"
      "Prices the scenarios in A, B, ... (\"-\" is standard input, once) and prints\n"
      "them side by side, each against A, the baseline: the total and the cost per\n"
      "run, per million tokens, per effective accelerator-hour and per PFLOP-day;\n"
      "the difference by category; what is paid once (migration, learning) and what\n"
      "recurs; the saving per run and per month and when it repays the one-off; and\n"
      "the utilisation and the rental rate at which owning breaks even with renting.\n"
      "Every scenario must be priced in the same currency.\n"
      "\n"
      "  -f, --format=FORMAT  table (the default), json, csv (a column per scenario),\n"
      "                       or markdown (a table for a pull-request comment)\n"
      "  -o, --output=OUT     write to OUT instead of standard output\n"
      "      --from=FORMAT    read every scenario as json or cbor (default: by its\n"
      "                       extension, else by its first byte)\n"
      "  -h, --help           print this help\n"
      "\n"
      "An option's value follows it, or an '=': --format json, --format=json.\n" },
    { "sensitivity", cmd_sensitivity, 0, 1, NULL, sensitivity_formats, 1, OFFER_SCENARIO,
      "usage: tco sensitivity [FILE] [--share S] [--format table|json|csv] [-o OUT] [--from json|cbor]\n"
      "\n"
      "Swings every numeric parameter of the scenario in FILE (the built-in one\n"
      "without FILE; \"-\" is standard input) down and up by the share S of its value,\n"
      "one at a time, prices each side, and prints the parameters ranked by the\n"
      "spread of the total, largest first: the tornado of what the answer hangs on.\n"
      "\n"
      "  -s, --share=S        the swing, a share of each value (default 0.1: +-10%)\n"
      "  -f, --format=FORMAT  table (the default), json, or csv\n"
      "  -o, --output=OUT     write to OUT instead of standard output\n"
      "      --from=FORMAT    read FILE as json or cbor (default: by its extension,\n"
      "                       else by its first byte)\n"
      "  -h, --help           print this help\n"
      "\n"
      "An option's value follows it, or an '=': --share 0.2, --share=0.2.\n" },
    { "attribute", cmd_attribute, 1, 2, "attribute needs a RECORDS file", attribute_formats, 0,
      OFFER_ATTRIBUTION | OFFER_FOCUS | OFFER_SCENARIO,
      "usage: tco attribute RECORDS [FILE | --scenario FILE] --by KEY[,KEY] [--period START,END] [--idle-rule R]\n"
      "           [--shared-rule R] [--owner V] [--records csv|sacct] [--strict]\n"
      "           [--format table|json|csv|focus|prometheus] [-o OUT] [--from json|cbor]\n"
      "\n"
      "Reads the usage records in RECORDS (Slurm sacct --parsable2 output or CSV,\n"
      "doc/records.md) and splits the bill of the period, priced by the scenario in\n"
      "FILE (the built-in one without FILE), among the groups of a tag key or a pair\n"
      "of keys: what each caused directly, its part of the idle capacity and of the\n"
      "shared services, in cents that add up to the bill exactly. Rows that cannot\n"
      "be records are listed on standard error.\n"
      "\n"
      "  -b, --by=KEY[,KEY]     the tag key (project, user...) or pair to group by\n"
      "  -p, --period=START,END the billing period, END excluded: YYYY-MM-DD,\n"
      "                         YYYY-MM-DDTHH:MM:SSZ or epoch seconds, UTC (default:\n"
      "                         from the first record's start to the last one's end)\n"
      "      --idle-rule=R      how idle capacity spreads: usage (the default), even\n"
      "                         or owner\n"
      "      --shared-rule=R    how shared services spread: usage, even or owner\n"
      "      --owner=V          with the owner rule: the value of the first key that\n"
      "                         takes it (default: the records without that tag)\n"
      "      --records=FORMAT   read RECORDS as csv or sacct (default: csv for a .csv\n"
      "                         file, else sacct if its first line has a '|')\n"
      "      --strict           a row that cannot be a record fails the command\n"
      "  -f, --format=FORMAT    table (the default), json, csv (a row per group), or\n"
      "                         focus: FinOps FOCUS 1.2 cost and usage rows (CSV), or\n"
      "                         prometheus: gauges of the bill and each group\n"
      "      --focus=NAME=VALUE who the FOCUS rows say bills whom, as often as needed:\n"
      "                         billing_account_id, billing_account_name,\n"
      "                         provider_name, invoice_id, region_id, region_name\n"
      "  -o, --output=OUT       write to OUT instead of standard output\n"
      "      --from=FORMAT      read FILE as json or cbor\n"
      "  -h, --help             print this help\n" },
    { "lifetime", cmd_lifetime, 0, 1, NULL, sensitivity_formats, 0, OFFER_LIFETIME | OFFER_SCENARIO,
      "usage: tco lifetime [FILE] [--years N] [--utilisation U] [--refresh-year R] [--discount-rate D]\n"
      "           [--format table|json|csv] [-o OUT] [--from json|cbor]\n"
      "\n"
      "Prices the cluster of the scenario in FILE (the built-in one without FILE)\n"
      "over N years (doc/model.md, section 18): each year's cost, the part of it\n"
      "paid whatever the use, the owned capacity's unused hours and the reserved\n"
      "term's unused commitment, the cash (purchases, a refresh, running costs,\n"
      "salvage) and its present value; then the life's net present value and its\n"
      "cost per effective accelerator-hour, and each category fixed and variable.\n"
      "\n"
      "  -y, --years=N          1 to 50 (default 5)\n"
      "  -u, --utilisation=U    share of the accelerator-hours used, 0 to 1 (0.7)\n"
      "      --refresh-year=R   the owned IT is bought again after R years (default:\n"
      "                         never)\n"
      "      --discount-rate=D  per year, above -1 (default: the cost_of_capital)\n"
      "  -f, --format=FORMAT    table (the default), json, or csv (a row per year)\n"
      "  -o, --output=OUT       write to OUT instead of standard output\n"
      "      --from=FORMAT      read FILE as json or cbor\n"
      "  -h, --help             print this help\n" },
    { "diff", cmd_diff, 2, 2, "diff needs two scenarios: A B", diff_formats, 0, OFFER_SCENARIO,
      "usage: tco diff A B [--format table|json|markdown] [-o OUT] [--from json|cbor]\n"
      "\n"
      "Prices the scenarios in A and B and prints what changed from A to B: every\n"
      "input whose value differs, then each cost category, the total, the cost per\n"
      "million tokens and per effective accelerator-hour, and the wall time, with\n"
      "the change and its share. Both must be priced in one currency.\n"
      "\n"
      "  -f, --format=FORMAT  table (the default), json, or markdown: the total, the\n"
      "                       lines that moved and the inputs that moved them, for a\n"
      "                       pull-request comment\n"
      "  -o, --output=OUT     write to OUT instead of standard output\n"
      "      --from=FORMAT    read A and B as json or cbor\n"
      "  -h, --help           print this help\n" },
    { "programme", cmd_programme, 1, 1, "programme needs a FILE: a scenario with its stages (JSON)",
      sensitivity_formats, 0, OFFER_SCENARIO,
      "usage: tco programme FILE [--format table|json|csv] [-o OUT]\n"
      "\n"
      "Prices the programme in FILE (\"-\" is standard input; doc/format.md,\n"
      "\"Programmes\"): a JSON scenario, whose cluster and pricing table every stage\n"
      "shares, and its \"stages\", each a kind (pretraining, context_extension,\n"
      "supervised_fine_tuning, preference_tuning, evaluation, sweep, ablation,\n"
      "data_pipeline with its \"pipeline\" and \"cpu_nodes\", serving with its\n"
      "\"serving\"), a name, the stage or stages it starts \"after\", the versions\n"
      "of its checkpoint kept, the days before its store moves to the warm and cold\n"
      "tiers, and its \"workload\" keys over the scenario's (doc/model.md, section\n"
      "21). Prints each stage's start and end, accelerators, runs, waves, cost and\n"
      "share; then the programme's total (the stages plus the store's lifecycle),\n"
      "makespan, peak and utilisation, cost per experiment, the pipeline's and the\n"
      "serving's figures, and the store and its growth per month.\n"
      "\n"
      "  -f, --format=FORMAT  table (the default), json, or csv (a row per stage)\n"
      "  -o, --output=OUT     write to OUT instead of standard output\n"
      "  -h, --help           print this help\n"
      "\n"
      "--set applies to the scenario; a stage's own workload keys override it.\n" },
    { "waste", cmd_waste, 1, 2, "waste needs a RECORDS file", waste_formats, 0, OFFER_ATTRIBUTION | OFFER_THRESHOLD | OFFER_SCENARIO,
      "usage: tco waste RECORDS [FILE | --scenario FILE] [--by KEY] [--period START,END] [--threshold NAME=VALUE]...\n"
      "           [--records csv|sacct] [--strict] [--format table|json|csv] [-o OUT]\n"
      "           [--from json|cbor]\n"
      "\n"
      "Reads the usage records in RECORDS as tco attribute does, prices them for the\n"
      "period by the scenario in FILE (the built-in one without FILE), and lists the\n"
      "money spent on nothing, largest first (doc/model.md, section 17): the\n"
      "cluster's idle capacity, accelerators held idle or over-sized, runs past a\n"
      "limit or a deadline, failures run again, checkpoints and datasets kept too\n"
      "long or twice, storage a finished project left; each with since when, its\n"
      "cost in the period and per day, and what to do about it.\n"
      "\n"
      "  -b, --by=KEY           the tag key findings are shown by (default: project,\n"
      "                         else the first record's first key)\n"
      "  -p, --period=START,END the period, as tco attribute takes it\n"
      "  -t, --threshold=NAME=VALUE  a threshold, as often as needed: idle_utilisation\n"
      "                         (0.05), idle_hours (1), oversized_utilisation (0.5),\n"
      "                         max_runtime_hours (0: none), rerun_hours (24),\n"
      "                         retention_days (30), orphan_days (14); 0 turns the\n"
      "                         last four off\n"
      "      --records=FORMAT   read RECORDS as csv or sacct\n"
      "      --strict           a row that cannot be a record fails the command\n"
      "  -f, --format=FORMAT    table (the default), json, or csv (a row per finding)\n"
      "  -o, --output=OUT       write to OUT instead of standard output\n"
      "      --from=FORMAT      read FILE as json or cbor\n"
      "  -h, --help             print this help\n" },
};

/* ==== options ============================================================ */

/* One table for every command. --format is checked against what the
 * command offers, after parsing; --output, --from and --to are accepted and
 * ignored where they mean nothing (tco params -o), as they always were, so
 * that no script that passes them breaks. */
enum { OPT_FROM = 256, OPT_TO, OPT_IDLE, OPT_SHARED, OPT_OWNER, OPT_RECORDS, OPT_STRICT, OPT_REFRESH, OPT_DISCOUNT,
       OPT_SCENARIO, OPT_FOCUS, OPT_SET, OPT_FORCE };

static const struct option options[] = {
    { "format", required_argument, NULL, 'f' },
    { "output", required_argument, NULL, 'o' },
    { "from", required_argument, NULL, OPT_FROM },
    { "to", required_argument, NULL, OPT_TO },
    { "share", required_argument, NULL, 's' },
    { "by", required_argument, NULL, 'b' },
    { "period", required_argument, NULL, 'p' },
    { "idle-rule", required_argument, NULL, OPT_IDLE },
    { "shared-rule", required_argument, NULL, OPT_SHARED },
    { "owner", required_argument, NULL, OPT_OWNER },
    { "records", required_argument, NULL, OPT_RECORDS },
    { "strict", no_argument, NULL, OPT_STRICT },
    { "threshold", required_argument, NULL, 't' },
    { "years", required_argument, NULL, 'y' },
    { "utilisation", required_argument, NULL, 'u' },
    { "refresh-year", required_argument, NULL, OPT_REFRESH },
    { "discount-rate", required_argument, NULL, OPT_DISCOUNT },
    { "scenario", required_argument, NULL, OPT_SCENARIO },
    { "focus", required_argument, NULL, OPT_FOCUS },
    { "set", required_argument, NULL, OPT_SET },
    { "force", no_argument, NULL, OPT_FORCE },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 },
};

/* '-': other arguments come back in place (as 1), so options may follow
 * them even under POSIXLY_CORRECT; ':': a missing value returns ':', apart
 * from an unknown option's '?'. */
static const char short_options[] = "-:f:o:s:b:p:t:y:u:h";

/* What every command that reads a scenario also takes. */
static const char common_help[] =
    "\n"
    "      --set=NAME=VALUE   change a parameter of every scenario read, as often\n"
    "                         as needed (tco params lists them)\n"
    "      --force            replace an existing OUT (or the file a link points to)\n"
    "\n"
    "-o OUT's extension (.json, .csv, .cbor, .md, .prom) picks the format when\n"
    "--format is not given.\n";

/* The help was printed: not an error, nothing left to do. */
enum { HELP_SHOWN = -1 };

static int one_of(const char *v, const char *const *allowed)
{
    for (; *allowed; allowed++)
        if (strcmp(v, *allowed) == 0)
            return 1;
    return 0;
}

/* What getopt_long refused with '?' (opterr is off, so it said nothing):
 * a value for an option that takes none, an unknown short option, or a
 * long one unknown or abbreviated to more than one. */
static int refused(const char *arg)
{
    if (optopt) {
        for (const struct option *o = options; o->name; o++)
            if (o->val == optopt && o->has_arg == no_argument)
                return usage("%s takes no value", arg);
        char opt[3] = { '-', (char)optopt, '\0' };
        return usage("unknown option %s", opt);
    }
    size_t n = strcspn(arg + 2, "=");
    int matches = 0;
    for (const struct option *o = options; o->name; o++)
        matches += strncmp(o->name, arg + 2, n) == 0;
    return usage(matches > 1 ? "ambiguous option %s" : "unknown option %s", arg);
}

static int positional(cmd_args *a, const command *cmd, const char *arg)
{
    if (a->npos >= cmd->max_pos)
        return usage("unexpected argument %s", arg);
    a->pos[a->npos++] = arg;
    return 0;
}

/* The format an output file's extension names ("md": markdown), or NULL. */
static const char *format_of_extension(const char *out)
{
    static const char *const known[][2] = { { "json", "json" }, { "csv", "csv" }, { "cbor", "cbor" },
                                            { "md", "markdown" }, { "prom", "prometheus" } };
    const char *dot = strrchr(out, '.'), *slash = strrchr(out, '/');
    if (!dot || (slash && slash > dot))
        return NULL;
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strcmp(dot + 1, known[i][0]) == 0)
            return known[i][1];
    return NULL;
}

/* -o OUT's extension picks the format when --format is not given, and
 * must agree with it when it is (focus rows are CSV). */
static int output_format(cmd_args *a, const command *cmd)
{
    const char *ext = a->output && strcmp(a->output, "-") != 0 ? format_of_extension(a->output) : NULL;
    if (!ext || !cmd->formats)
        return 0;
    if (!a->format) {
        if (!one_of(ext, cmd->formats))
            return usage("-o %s: its extension names a format not offered here: give --format", a->output);
        a->format = ext;
        return 0;
    }
    if (strcmp(a->format, ext) != 0 && !(strcmp(a->format, "focus") == 0 && strcmp(ext, "csv") == 0)) {
        char msg[160];
        snprintf(msg, sizeof msg, "--format %.40s, but -o %%s ends in .%.20s: give one that agrees", a->format,
                 strrchr(a->output, '.') + 1);
        return usage(msg, a->output);
    }
    return 0;
}

/* argv[0] is the command's name; pos has room for argc + 1 arguments, all
 * NULL. Returns 0, HELP_SHOWN or the exit status. */
static int parse(cmd_args *a, const char **pos, const char **lists, const command *cmd, int argc, char **argv)
{
    static const char *const files[] = { "json", "cbor", NULL };
    memset(a, 0, sizeof *a);
    a->pos = pos;
    a->thresholds = lists;      /* each option's list takes a third: an argument is at most one */
    a->focus = lists + argc;
    a->sets = lists + 2 * argc;
    opterr = 0;
    int c, rc;
    while ((c = getopt_long(argc, argv, short_options, options, NULL)) != -1) {
        switch (c) {
        case 1:
            if ((rc = positional(a, cmd, optarg)) != 0)
                return rc;
            break;
        case 'f': a->format = optarg; break;
        case 'o': a->output = optarg; break;
        case OPT_FROM: a->from = optarg; break;
        case OPT_TO: a->to = optarg; break;
        case 's': a->share = optarg; break;
        case 'b': a->by = optarg; break;
        case 'p': a->period = optarg; break;
        case OPT_IDLE: a->idle_rule = optarg; break;
        case OPT_SHARED: a->shared_rule = optarg; break;
        case OPT_OWNER: a->owner = optarg; break;
        case OPT_RECORDS: a->records = optarg; break;
        case OPT_STRICT: a->strict = 1; break;
        case 't': a->thresholds[a->nthresholds++] = optarg; break;
        case 'y': a->years = optarg; break;
        case 'u': a->utilisation = optarg; break;
        case OPT_REFRESH: a->refresh_year = optarg; break;
        case OPT_DISCOUNT: a->discount_rate = optarg; break;
        case OPT_SCENARIO: a->scenario = optarg; break;
        case OPT_FOCUS: a->focus[a->nfocus++] = optarg; break;
        case OPT_SET: a->sets[a->nsets++] = optarg; break;
        case OPT_FORCE: a->force = 1; break;
        case 'h':
            fputs(cmd->help, stdout);
            if (cmd->offers & OFFER_SCENARIO)
                fputs(common_help, stdout);
            return HELP_SHOWN;
        case ':': return usage("%s needs a value", argv[optind - 1]);
        default: return refused(argv[optind - 1]);
        }
    }
    for (; optind < argc; optind++) /* after "--" */
        if ((rc = positional(a, cmd, argv[optind])) != 0)
            return rc;
    if (a->share && !cmd->share)
        return usage("--share %s is not offered here", a->share);
    /* tco attribute and tco waste: --scenario FILE names the positional FILE. */
    if (a->scenario) {
        if (!(cmd->offers & OFFER_ATTRIBUTION))
            return usage("--scenario %s is not offered here", a->scenario);
        if (a->npos > 1)
            return usage("--scenario %s and a scenario FILE: give one", a->scenario);
        a->pos[1] = a->scenario;
    }
    const char *attribution = a->by ? "--by" : a->period ? "--period" : a->idle_rule ? "--idle-rule"
                            : a->shared_rule ? "--shared-rule" : a->owner ? "--owner" : a->records ? "--records"
                            : a->strict ? "--strict" : NULL;
    if (attribution && !(cmd->offers & OFFER_ATTRIBUTION))
        return usage("%s is not offered here", attribution);
    if (a->nthresholds && !(cmd->offers & OFFER_THRESHOLD))
        return usage("--threshold %s is not offered here", a->thresholds[0]);
    if (a->nfocus && !(cmd->offers & OFFER_FOCUS))
        return usage("--focus %s is not offered here", a->focus[0]);
    if (a->nfocus && (!a->format || strcmp(a->format, "focus") != 0))
        return usage("--focus %s names the FOCUS rows: give --format focus", a->focus[0]);
    const char *life = a->years ? "--years" : a->utilisation ? "--utilisation" : a->refresh_year ? "--refresh-year"
                     : a->discount_rate ? "--discount-rate" : NULL;
    if (life && !(cmd->offers & OFFER_LIFETIME))
        return usage("%s is not offered here", life);
    if (a->format && (!cmd->formats || !one_of(a->format, cmd->formats)))
        return usage("--format %s is not offered here", a->format);
    if ((rc = output_format(a, cmd)) != 0)
        return rc;
    if (a->nsets && !(cmd->offers & OFFER_SCENARIO))
        return usage("--set %s: this command reads no scenario", a->sets[0]);
    if ((a->from && !one_of(a->from, files)) || (a->to && !one_of(a->to, files)))
        return usage("--from and --to take json or cbor, not %s", a->from && !one_of(a->from, files) ? a->from : a->to);
    if (a->npos < cmd->min_pos)
        return usage("%s", cmd->missing);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return usage(NULL, NULL);
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 || strcmp(name, "help") == 0) {
        fputs(usage_text, stdout);
        return close_text(stdout, "-");
    }
    if (strcmp(name, "--version") == 0 || strcmp(name, "version") == 0) {
        printf("tco (libtco) %s\nscenario format version %d\n", tco_version_string(), TCO_FORMAT_VERSION);
        return close_text(stdout, "-");
    }
    /* The library loaded must be at least the one the command was built on. */
    uint32_t v = tco_version_number();
    if (v / 10000 != TCO_VERSION_MAJOR || v < TCO_VERSION_NUMBER) {
        say("built against libtco %s, running with %s", TCO_VERSION_STRING, tco_version_string());
        return EXIT_IO;
    }
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++) {
        if (strcmp(name, commands[i].name) != 0)
            continue;
        /* Room for every argument, and pos[0] and pos[1] always there;
         * and for every argument a --threshold. */
        const char **pos = calloc((size_t)argc + 1, sizeof *pos), **lists = calloc(3 * (size_t)argc, sizeof *pos);
        int rc = EXIT_IO;
        cmd_args a;
        if (!pos || !lists)
            say("out of memory");
        else if ((rc = parse(&a, pos, lists, &commands[i], argc - 1, argv + 1)) == HELP_SHOWN)
            rc = close_text(stdout, "-");
        else if (rc == 0) {
            output_force(a.force);
            rc = commands[i].run(&a);
        }
        free(pos);
        free(lists);
        return rc;
    }
    return usage("unknown command %s", name);
}

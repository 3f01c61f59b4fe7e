/* tco params: every parameter of the library's table (tco_param_info_at)
 * as a table, JSON, CSV, or Markdown: the page doc/parameters.md, exactly
 * (a test compares the two). Names of handles and types are the library's
 * (tco_handle_kind_name, tco_param_type_name). */
#include <stdio.h>
#include <string.h>

#include "tco_cmd.h"

const char *param_choices(char *buf, size_t cap, int32_t key, size_t count, int quoted)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t c = 0; c < count; c++) {
        const char *name;
        double value;
        tco_param_choice_at(&name, &value, key, c, NULL); /* c below the count: cannot fail */
        int n = snprintf(buf + used, cap - used, quoted ? "%s`%s`" : "%s%s", c ? ", " : "", name);
        if (n < 0 || (size_t)n >= cap - used)
            break;
        used += (size_t)n;
    }
    return buf;
}

static int textual(const tco_param_info *in)
{
    return in->type == TCO_TYPE_TEXT || in->type == TCO_TYPE_CHOICE;
}

/* The default as the page shows it: `text`, the number, or a stand-in
 * with what it stands for. */
static const char *default_shown(char *buf, size_t cap, const tco_param_info *in, int quoted)
{
    if (textual(in))
        snprintf(buf, cap, quoted ? "`%s`" : "%s", in->default_text);
    else if (in->default_value < in->min_value)
        snprintf(buf, cap, "%.10g (%s)", in->default_value, in->default_text);
    else
        snprintf(buf, cap, "%.10g", in->default_value);
    return buf;
}

/* "0 to 1", "0 or 1", the choices, or "text, under 64 bytes". */
static const char *allowed(char *buf, size_t cap, const tco_param_info *in, int quoted)
{
    if (in->type == TCO_TYPE_CHOICE)
        param_choices(buf, cap, in->key, in->choice_count, quoted);
    else if (in->type == TCO_TYPE_TEXT)
        snprintf(buf, cap, "text, under %d bytes", TCO_TEXT_MAX);
    else if (in->type == TCO_TYPE_BOOL)
        snprintf(buf, cap, "0 or 1");
    else if (in->default_value < in->min_value) /* a stand-in */
        snprintf(buf, cap, "%.10g, or %.10g to %.10g", in->default_value, in->min_value, in->max_value);
    else
        snprintf(buf, cap, "%.10g to %.10g%s", in->min_value, in->max_value,
                 in->type == TCO_TYPE_INT ? ", whole" : "");
    return buf;
}

/* A section's title on the page: what the handle is, then its C type. */
static void handle_title(FILE *f, int32_t kind)
{
    static const char *const what[] = { "Cluster topology", "Workload profile", "Pricing table" };
    fprintf(f, "\n## %s (tco_%s)\n\n", what[kind - 1], tco_handle_kind_name(kind)); /* a parameter's handle */
}

static void params_markdown(FILE *f)
{
    char d[96], a[512];
    fputs("# Parameters\n\n"
          "Every input of the three handles, generated from the library's one parameter table\n"
          "(`tco params --format markdown`; a test fails if this page is stale). Keys are `TCO_P_`\n"
          "followed by the name in upper case. `cur` is the pricing table's currency. The defaults\n"
          "are the built-in scenario; doc/model.md says where they come from.\n",
          f);
    int32_t handle = 0;
    for (size_t i = 0; i < tco_param_count(); i++) {
        tco_param_info in = { .size = sizeof in };
        tco_param_info_at(&in, i, NULL); /* i below the count: cannot fail */
        if (in.handle != handle) {
            handle = in.handle;
            handle_title(f, handle);
            fputs("| name | key | unit | default | allowed | description |\n|---|---|---|---|---|---|\n", f);
        }
        fprintf(f, "| `%s` | %d | %s | %s | %s | %s |\n", in.name, (int)in.key, in.unit,
                default_shown(d, sizeof d, &in, 1), allowed(a, sizeof a, &in, 1), in.description);
    }
}

static void param_json(FILE *f, const tco_param_info *in, int first)
{
    fprintf(f, "%s\n  {\"name\": \"%s\", \"key\": %d, \"handle\": \"%s\", \"type\": \"%s\", \"unit\": ",
            first ? "" : ",", in->name, (int)in->key, tco_handle_kind_name(in->handle),
            tco_param_type_name(in->type));
    json_str(f, in->unit);
    fputs(", \"default\": ", f);
    if (textual(in)) {
        json_str(f, in->default_text);
    } else {
        json_num(f, in->default_value);
        json_num_field(f, "min", in->min_value);
        json_num_field(f, "max", in->max_value);
    }
    if (in->type == TCO_TYPE_CHOICE) {
        fputs(", \"choices\": [", f);
        for (size_t c = 0; c < in->choice_count; c++) {
            const char *name;
            double value;
            tco_param_choice_at(&name, &value, in->key, c, NULL); /* c below the count: cannot fail */
            fputs(c ? ", " : "", f);
            json_str(f, name);
        }
        fputs("]", f);
    }
    json_str_field(f, "description", in->description);
    fputs("}", f);
}

static void param_csv(FILE *f, const tco_param_info *in, const char *shown, const char *values)
{
    char lo[32], hi[32];
    fprintf(f, "%s,%d,%s,%s,", in->name, (int)in->key, tco_handle_kind_name(in->handle),
            tco_param_type_name(in->type));
    csv_str(f, in->unit);
    fputc(',', f);
    csv_str(f, shown);
    fprintf(f, ",%s,%s,", textual(in) ? "" : num(lo, sizeof lo, in->min_value),
            textual(in) ? "" : num(hi, sizeof hi, in->max_value));
    csv_str(f, values);
    fputc(',', f);
    csv_str(f, in->description);
    fputc('\n', f);
}

int cmd_params(const cmd_args *a)
{
    const char *format = a->format ? a->format : "table";
    FILE *f = stdout;
    char d[96], v[512];
    if (strcmp(format, "markdown") == 0) {
        params_markdown(f);
        return close_text(f, "-");
    }
    if (strcmp(format, "json") == 0)
        fputs("[", f);
    else if (strcmp(format, "csv") == 0)
        fputs("name,key,handle,type,unit,default,min,max,allowed,description\n", f);
    else
        fprintf(f, "%-34s %-9s %-7s %-16s %-12s %s\n", "name", "handle", "type", "unit", "default", "allowed");
    for (size_t i = 0; i < tco_param_count(); i++) {
        tco_param_info in = { .size = sizeof in };
        tco_param_info_at(&in, i, NULL); /* i below the count: cannot fail */
        default_shown(d, sizeof d, &in, 0);
        allowed(v, sizeof v, &in, 0);
        if (strcmp(format, "json") == 0)
            param_json(f, &in, i == 0);
        else if (strcmp(format, "csv") == 0)
            param_csv(f, &in, d, v);
        else
            fprintf(f, "%-34s %-9s %-7s %-16s %-12s %s\n", in.name, tco_handle_kind_name(in.handle),
                    tco_param_type_name(in.type), in.unit, d, v);
    }
    if (strcmp(format, "json") == 0)
        fputs("\n]\n", f);
    return close_text(f, "-");
}

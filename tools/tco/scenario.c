/* tco convert and tco fingerprint: a scenario file as such, unpriced.
 * CBOR out is the library's canonical encoding; JSON out is written here,
 * every parameter in the parameter table's order, so JSON to CBOR to JSON
 * is stable (tests/golden is made that way). */
#include <stdio.h>
#include <string.h>

#include "tco_cmd.h"

void scenario_write_json(FILE *f, const scenario *s)
{
    fputs("{\n  \"format\": ", f);
    json_str(f, tco_scenario_format_name());
    fprintf(f, ",\n  \"version\": %d", TCO_FORMAT_VERSION);
    int32_t section = 0;
    for (size_t i = 0; i < tco_param_count(); i++) {
        tco_param_info in = { .size = sizeof in };
        tco_param_info_at(&in, i, NULL); /* i below the count: cannot fail */
        if (in.handle != section) {
            fprintf(f, "%s,\n  \"%s\": {\n", section ? "\n  }" : "", tco_handle_kind_name(in.handle));
            section = in.handle;
        } else {
            fputs(",\n", f);
        }
        fprintf(f, "    \"%s\": ", in.name);
        double v = 0;
        const char *text = "";
        if (in.type == TCO_TYPE_TEXT || in.type == TCO_TYPE_CHOICE) {
            scenario_get_text(s, in.handle, in.key, &text);
            json_str(f, text);
        } else {
            scenario_get(s, in.handle, in.key, &v);
            if (in.type == TCO_TYPE_REAL)
                json_num(f, v);
            else
                fprintf(f, "%.0f", v);
        }
    }
    fputs("\n  }\n}\n", f); /* the table has parameters: a section is open */
}

static int save_scenario(uint8_t *buf, size_t cap, size_t *len, const void *s, tco_error *err)
{
    const scenario *sc = s;
    return tco_scenario_save_cbor(buf, cap, len, sc->t, sc->w, sc->p, err);
}

int cmd_convert(const cmd_args *a)
{
    const char *out = a->pos[1];
    const char *to = file_format(a->to, out, NULL, 0);
    if (!to)
        return usage("%s: say --to json or --to cbor (no .json or .cbor extension)", out);
    if (strcmp(to, "cbor") == 0 && binary_to_terminal(out))
        return EXIT_USAGE;
    scenario s;
    int rc = scenario_load(&s, a->pos[0], a);
    if (rc)
        return rc;
    if (strcmp(to, "cbor") == 0) {
        rc = write_cbor(out, save_scenario, &s);
    } else {
        FILE *f = open_text(out);
        rc = EXIT_IO;
        if (f) {
            scenario_write_json(f, &s);
            rc = close_text(f, out);
        }
    }
    scenario_free(&s);
    return rc;
}

int cmd_fingerprint(const cmd_args *a)
{
    scenario s;
    int rc = scenario_load(&s, a->pos[0], a);
    if (rc)
        return rc;
    uint64_t fp[4] = { 0 }; /* the scenario, then its handles by kind */
    tco_scenario_fingerprint(&fp[0], s.t, s.w, s.p, NULL);
    tco_topology_fingerprint(&fp[TCO_HANDLE_TOPOLOGY], s.t, NULL);
    tco_workload_fingerprint(&fp[TCO_HANDLE_WORKLOAD], s.w, NULL);
    tco_pricing_fingerprint(&fp[TCO_HANDLE_PRICING], s.p, NULL);
    scenario_free(&s);
    printf("%-10s%016llx\n", "scenario", (unsigned long long)fp[0]);
    for (int32_t kind = TCO_HANDLE_TOPOLOGY; kind <= TCO_HANDLE_PRICING; kind++)
        printf("%-10s%016llx\n", tco_handle_kind_name(kind), (unsigned long long)fp[kind]);
    return close_text(stdout, "-");
}

/* Prints doc/parameters.md from the library's parameter table, so the
 * reference can never drift from the code (a test compares the two). */
#include <stdio.h>

#include <tco.h>

static const char *const handle_titles[] = { "", "Cluster topology (tco_topology)",
                                             "Workload profile (tco_workload)",
                                             "Pricing table (tco_pricing)" };

static void print_value(const tco_param_info *in)
{
    if (in->type == TCO_TYPE_TEXT || in->type == TCO_TYPE_CHOICE)
        printf("`%s`", in->default_text);
    else
        printf("%.10g", in->default_value);
}

int main(void)
{
    printf("# Parameters\n\n");
    printf("Every input of the three handles, generated from the library's one parameter table\n"
           "(`tools/params-doc`; a test fails if this page is stale). Keys are `TCO_P_` followed by\n"
           "the name in upper case. `cur` is the pricing table's currency. The defaults are the\n"
           "built-in scenario; doc/model.md says where they come from.\n");
    int32_t handle = 0;
    for (size_t i = 0; i < tco_param_count(); i++) {
        tco_param_info in = { .size = sizeof in };
        if (tco_param_info_at(&in, i, NULL) != TCO_OK)
            return 1;
        if (in.handle != handle) {
            handle = in.handle;
            printf("\n## %s\n\n", handle_titles[handle]);
            printf("| name | key | unit | default | allowed | description |\n");
            printf("|---|---|---|---|---|---|\n");
        }
        printf("| `%s` | %d | %s | ", in.name, (int)in.key, in.unit);
        print_value(&in);
        printf(" | ");
        if (in.type == TCO_TYPE_CHOICE) {
            for (size_t c = 0; c < in.choice_count; c++) {
                const char *name;
                double value;
                tco_param_choice_at(&name, &value, in.key, c, NULL);
                printf("%s`%s`", c ? ", " : "", name);
            }
        } else if (in.type == TCO_TYPE_TEXT) {
            printf("text, under %d bytes", TCO_TEXT_MAX);
        } else if (in.type == TCO_TYPE_BOOL) {
            printf("0 or 1");
        } else {
            printf("%.10g to %.10g%s", in.min_value, in.max_value,
                   in.type == TCO_TYPE_INT ? ", whole" : "");
        }
        printf(" | %s |\n", in.description);
    }
    return 0;
}

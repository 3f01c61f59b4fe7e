/* The program both embedding projects build: cmake/CMakeLists.txt against
 * the installed libtco (find_package(libtco), libtco::libtco), and
 * subproject/meson.build with libtco as a subproject. EMBED_HOW says which.
 * The header and the library agree on the version (and on the build's,
 * where LIBTCO_EXPECTED_VERSION is given), and the built-in scenario prices
 * to a positive total. */
#include <stdio.h>
#include <string.h>

#include <tco.h>

#ifndef LIBTCO_EXPECTED_VERSION
#define LIBTCO_EXPECTED_VERSION TCO_VERSION_STRING
#endif

int main(void)
{
    if (strcmp(tco_version_string(), LIBTCO_EXPECTED_VERSION) != 0 ||
        strcmp(TCO_VERSION_STRING, LIBTCO_EXPECTED_VERSION) != 0) {
        fprintf(stderr, "libtco %s loaded, header %s, build %s\n", tco_version_string(),
                TCO_VERSION_STRING, LIBTCO_EXPECTED_VERSION);
        return 1;
    }

    tco_error err = TCO_ERROR_INIT;
    tco_topology *t = NULL;
    tco_workload *w = NULL;
    tco_pricing *p = NULL;
    tco_estimate e = { .size = sizeof e };
    int status = 1;
    if (tco_topology_new(&t, &err) || tco_topology_freeze(t, &err) ||
        tco_workload_new(&w, &err) || tco_workload_freeze(w, &err) ||
        tco_pricing_new(&p, &err) || tco_pricing_freeze(p, &err) ||
        tco_estimate_compute(&e, t, w, p, &err))
        fprintf(stderr, "libtco: %s\n", err.message);
    else if (!(e.total > 0))
        fprintf(stderr, "the built-in scenario costs %g\n", e.total);
    else {
        printf("libtco %s " EMBED_HOW ": the built-in scenario costs %.0f\n", tco_version_string(), e.total);
        status = 0;
    }
    tco_topology_free(t);
    tco_workload_free(w);
    tco_pricing_free(p);
    return status;
}

// The public header as a C++11 program sees it.
//
// Built with -std=c++11 -pedantic -Werror -Wall -Wextra. <tco.h> comes first
// and needs nothing before it. It must compile as C++ (extern "C", no C-only
// constructs), link (C linkage of every function), keep its enum values as
// constant expressions with the pinned values, and give C++ plain structs that
// can be copied with memcpy and initialised with TCO_ERROR_INIT. The run-time
// part drives the library the way a C++ wrapper would: RAII handles and the
// caller-owned error detail.
#include <tco.h>

#include <cstddef>
#include <cstdio>
#include <cstring>
#include <memory>
#include <type_traits>

// ---- pinned values (tests/abi/header_c99.c pins every one; these are the ones
// ---- a C++ wrapper switches on) -------------------------------------------

static_assert(TCO_OK == 0, "pinned");
static_assert(TCO_E_NULL == -1, "pinned");
static_assert(TCO_E_RANGE == -2, "pinned");
static_assert(TCO_E_NOT_FINITE == -3, "pinned");
static_assert(TCO_E_INCONSISTENT == -4, "pinned");
static_assert(TCO_E_FROZEN == -5, "pinned");
static_assert(TCO_E_NOT_FROZEN == -6, "pinned");
static_assert(TCO_E_UNKNOWN_PARAM == -7, "pinned");
static_assert(TCO_E_WRONG_HANDLE == -8, "pinned");
static_assert(TCO_E_TYPE == -9, "pinned");
static_assert(TCO_E_NOMEM == -10, "pinned");
static_assert(TCO_E_SIZE == -11, "pinned");
static_assert(TCO_E_INDEX == -12, "pinned");
static_assert(TCO_HANDLE_TOPOLOGY == 1 && TCO_HANDLE_WORKLOAD == 2 && TCO_HANDLE_PRICING == 3, "pinned");
static_assert(TCO_TYPE_REAL == 1 && TCO_TYPE_TEXT == 5, "pinned");
static_assert(TCO_P_ACCELERATORS == 1000 && TCO_P_PARAMS_TOTAL == 2000 &&
                  TCO_P_ON_DEMAND_PER_ACCEL_HOUR == 3000, "pinned");
static_assert(TCO_CAT_COMPUTE == 0 && TCO_CAT_WASTE == 11, "pinned");
static_assert(TCO_WASTE_IDLE == 0 && TCO_WASTE_RETRIES == 4, "pinned");
static_assert(TCO_ACCEL_CUSTOM == 0 && TCO_ACCEL_MI300X == 5, "pinned");

// scenario files and identity
static_assert(TCO_FORMAT_VERSION == 1, "pinned");
static_assert(TCO_FIELD_DOUBLE == 1 && TCO_FIELD_UINT64 == 2 && TCO_FIELD_CATEGORIES == 3 &&
                  TCO_FIELD_WASTES == 4, "pinned");
static_assert(std::is_same<decltype(&tco_scenario_load_cbor),
                           int (*)(tco_topology **, tco_workload **, tco_pricing **, const uint8_t *,
                                   size_t, tco_error *)>::value,
              "signature");

// Enum values are usable as constant expressions, and the enums are int-sized.
static_assert(sizeof(tco_status) == sizeof(int), "enum size");
static_assert(sizeof(tco_param) == sizeof(int), "enum size");
static_assert(std::is_same<std::underlying_type<tco_param>::type, unsigned>::value ||
                  std::is_same<std::underlying_type<tco_param>::type, int>::value,
              "tco_param's underlying type");
static_assert(std::is_signed<std::underlying_type<tco_status>::type>::value,
              "tco_status holds negative values");

static_assert(TCO_VERSION_MAJOR == 1, "SONAME major");
static_assert(TCO_VERSION_NUMBER ==
                  TCO_VERSION_MAJOR * 10000 + TCO_VERSION_MINOR * 100 + TCO_VERSION_PATCH,
              "version number");

// ---- the structs are plain C data to C++ ---------------------------------

template <typename T>
struct plain_c_struct {
    static const bool value = std::is_standard_layout<T>::value && std::is_trivial<T>::value;
};
static_assert(plain_c_struct<tco_error>::value, "tco_error is a POD");
static_assert(plain_c_struct<tco_param_info>::value, "tco_param_info is a POD");
static_assert(plain_c_struct<tco_accelerator>::value, "tco_accelerator is a POD");
static_assert(plain_c_struct<tco_estimate>::value, "tco_estimate is a POD");

static_assert(offsetof(tco_error, size) == 0, "size first");
static_assert(offsetof(tco_param_info, size) == 0, "size first");
static_assert(offsetof(tco_accelerator, size) == 0, "size first");
static_assert(offsetof(tco_estimate, size) == 0, "size first");
static_assert(sizeof(tco_error::message) == TCO_ERROR_MESSAGE_MAX, "message buffer");
static_assert(sizeof(tco_error::param_name) == TCO_ERROR_PARAM_NAME_MAX, "name buffer");
static_assert(sizeof(tco_estimate::cost) == TCO_CATEGORY_SLOTS * sizeof(double), "cost slots");
static_assert(sizeof(tco_estimate::waste) == TCO_WASTE_SLOTS * sizeof(double), "waste slots");

// placement pricing (issue 5): price classes, the parts limit, the span
// slowdown keys, the structs of the hot path as plain C data, size first
static_assert(TCO_CLASS_ON_DEMAND == 0 && TCO_CLASS_RESERVED == 1 && TCO_CLASS_SPOT == 2 &&
                  TCO_CLASS_OWNED == 3, "pinned");
static_assert(TCO_PLACEMENT_MAX_PARTS == 8, "pinned");
static_assert(TCO_P_RACK_SPAN_SLOWDOWN == 1025 && TCO_P_ZONE_SPAN_SLOWDOWN == 1026 &&
                  TCO_P_REGION_SPAN_SLOWDOWN == 1027, "pinned");
static_assert(sizeof(tco_price_class) == sizeof(int), "enum size");
static_assert(plain_c_struct<tco_pool>::value && plain_c_struct<tco_job>::value &&
                  plain_c_struct<tco_placement>::value && plain_c_struct<tco_price>::value &&
                  plain_c_struct<tco_placement_batch>::value, "placement structs are PODs");
static_assert(offsetof(tco_pool, size) == 0 && offsetof(tco_job, size) == 0 &&
                  offsetof(tco_placement, size) == 0 && offsetof(tco_price, size) == 0 &&
                  offsetof(tco_placement_batch, size) == 0, "size first");
static_assert(sizeof(tco_placement::pool) == TCO_PLACEMENT_MAX_PARTS * sizeof(int32_t), "parts");
static_assert(std::is_same<decltype(&tco_placement_price_batch),
                           int (*)(double *, double *, int32_t *, const tco_pools *, const tco_topology *,
                                   const tco_pricing *, const tco_job *, size_t,
                                   const tco_placement_batch *, tco_error *)>::value,
              "signature");

// Function types are exactly what a C++ binding would declare.
static_assert(std::is_same<decltype(&tco_version_number), uint32_t (*)()>::value, "signature");
static_assert(std::is_same<decltype(&tco_topology_free), void (*)(tco_topology *)>::value, "signature");
static_assert(std::is_same<decltype(&tco_estimate_compute),
                           int (*)(tco_estimate *, const tco_topology *, const tco_workload *,
                                   const tco_pricing *, tco_error *)>::value,
              "signature");

// ---- run time --------------------------------------------------------------

namespace {

int failures = 0;

void check(bool ok, const char *what, int line)
{
    if (!ok) {
        ++failures;
        std::fprintf(stderr, "header_cxx.cpp:%d: check failed: %s\n", line, what);
    }
}
#define CHECK(cond) check((cond), #cond, __LINE__)

struct topology_free { void operator()(tco_topology *t) const { tco_topology_free(t); } };
struct workload_free { void operator()(tco_workload *w) const { tco_workload_free(w); } };
struct pricing_free { void operator()(tco_pricing *p) const { tco_pricing_free(p); } };
typedef std::unique_ptr<tco_topology, topology_free> topology_ptr;
typedef std::unique_ptr<tco_workload, workload_free> workload_ptr;
typedef std::unique_ptr<tco_pricing, pricing_free> pricing_ptr;

const char *status_word(int status)
{
    switch (static_cast<tco_status>(status)) {
    case TCO_OK: return "ok";
    case TCO_E_RANGE: return "range";
    case TCO_E_FROZEN: return "frozen";
    default: return tco_status_name(status);
    }
}

} // namespace

int main()
{
    CHECK(tco_version_number() == TCO_VERSION_NUMBER);
    CHECK(std::strcmp(tco_version_string(), TCO_VERSION_STRING) == 0);

    tco_error err = TCO_ERROR_INIT;
    CHECK(err.size == sizeof(tco_error));
    CHECK(err.code == 0 && err.param == 0 && err.param_name[0] == '\0' && err.message[0] == '\0');
    tco_error copy;
    std::memcpy(&copy, &err, sizeof copy);
    CHECK(copy.size == sizeof(tco_error));

    tco_topology *raw_t = nullptr;
    tco_workload *raw_w = nullptr;
    tco_pricing *raw_p = nullptr;
    CHECK(tco_topology_new(&raw_t, &err) == TCO_OK);
    topology_ptr t(raw_t);
    CHECK(tco_workload_new(&raw_w, &err) == TCO_OK);
    workload_ptr w(raw_w);
    CHECK(tco_pricing_new(&raw_p, &err) == TCO_OK);
    pricing_ptr p(raw_p);

    // A value out of range is refused with the detail filled in, and changes nothing.
    double before = 0, after = 0;
    CHECK(tco_workload_get(w.get(), TCO_P_MFU, &before, nullptr) == TCO_OK);
    int rc = tco_workload_set(w.get(), TCO_P_MFU, 7.0, &err);
    CHECK(std::strcmp(status_word(rc), "range") == 0);
    CHECK(err.code == TCO_E_RANGE && err.param == TCO_P_MFU);
    CHECK(std::strcmp(err.param_name, "mfu") == 0);
    CHECK(err.message[0] != '\0');
    CHECK(tco_workload_get(w.get(), TCO_P_MFU, &after, nullptr) == TCO_OK);
    CHECK(before == after);

    CHECK(tco_topology_freeze(t.get(), &err) == TCO_OK);
    CHECK(tco_workload_freeze(w.get(), &err) == TCO_OK);
    CHECK(tco_pricing_freeze(p.get(), &err) == TCO_OK);
    CHECK(std::strcmp(status_word(tco_workload_set(w.get(), TCO_P_MFU, 0.5, nullptr)), "frozen") == 0);

    tco_estimate e;
    std::memset(&e, 0, sizeof e);
    e.size = sizeof e;
    rc = tco_estimate_compute(&e, t.get(), w.get(), p.get(), &err);
    if (rc != TCO_OK)
        std::fprintf(stderr, "tco_estimate_compute: %s: %s\n", tco_status_name(rc), err.message);
    CHECK(rc == TCO_OK);
    CHECK(e.size == sizeof e);
    double sum = 0;
    for (std::size_t c = 0; c < tco_category_count(); ++c)
        sum += e.cost[c];
    CHECK(e.total > 0);
    CHECK(sum > 0.999999 * e.total && sum < 1.000001 * e.total);

    // The handles go in an order other than their creation: none keeps another alive.
    w.reset();
    t.reset();
    p.reset();

    if (failures) {
        std::fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    std::printf("header_cxx: all checks passed\n");
    return 0;
}

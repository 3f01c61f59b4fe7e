/* Built-in accelerators: vendors' published datasheet figures, dense (no
 * sparsity), memory bandwidth from the same datasheets (the B200's: the
 * DGX B200's 64 TB/s over its 8 GPUs). doc/model.md, "Accelerator
 * catalogue", cites each source. */
#include "core/core.h"

#define T 1e12
#define GB 1e9

/* List prices (USD, doc/model.md, "List prices"): AWS us-east-1 on demand
 * (the instance's hourly price over its 8 GPUs, August 2026) and EC2
 * Capacity Blocks for ML, a reservation paid in full for its term (January
 * 2026); spot and purchase prices only where a dated public figure exists
 * (0: none). */
static const tco_accelerator catalogue[] = {
    { sizeof(tco_accelerator), TCO_ACCEL_A100_SXM_80GB, "A100-SXM-80GB", "NVIDIA",
      312 * T, 0, 80 * GB, 400, "NVIDIA A100 Tensor Core GPU datasheet (2021)",
      27.44705 / 8, 14.7663 / 8, 0, 0,
      "AWS p4de.24xlarge on demand (2026-08) and Capacity Block (2026-01), us-east-1, per GPU",
      2039 * GB },
    { sizeof(tco_accelerator), TCO_ACCEL_H100_SXM, "H100-SXM", "NVIDIA",
      989 * T, 1979 * T, 80 * GB, 700, "NVIDIA H100 Tensor Core GPU datasheet (2023)",
      55.04 / 8, 31.464 / 8, 0, 27500,
      "AWS p5.48xlarge on demand (2026-08) and Capacity Block (2026-01), us-east-1, per GPU; "
      "price: Raymond James estimate, 25,000-30,000 (2023-08)",
      3350 * GB },
    { sizeof(tco_accelerator), TCO_ACCEL_H200_SXM, "H200-SXM", "NVIDIA",
      989 * T, 1979 * T, 141 * GB, 700, "NVIDIA H200 Tensor Core GPU datasheet (2024)",
      63.296 / 8, 41.612 / 8, 27.1988 / 8, 0,
      "AWS p5en.48xlarge on demand and spot (2026-08) and Capacity Block (2026-01), us-east-1, per GPU",
      4800 * GB },
    { sizeof(tco_accelerator), TCO_ACCEL_B200, "B200", "NVIDIA",
      2250 * T, 4500 * T, 180 * GB, 1000, "NVIDIA DGX B200 datasheet (2024), per GPU",
      113.9328 / 8, 74.88 / 8, 0, 35000,
      "AWS p6-b200.48xlarge on demand (2026-08) and Capacity Block (2026-01), us-east-1, per GPU; "
      "price: 30,000-40,000 as reported by CNBC (2024-10)",
      8000 * GB },
    { sizeof(tco_accelerator), TCO_ACCEL_MI300X, "MI300X", "AMD",
      1307.4 * T, 2614.9 * T, 192 * GB, 750, "AMD Instinct MI300X datasheet (2023)",
      6.00, 0, 0, 0, "Oracle Cloud BM.GPU.MI300X.8 on demand, per GPU (as reported 2026-05)",
      5300 * GB },
};

#define N (sizeof catalogue / sizeof catalogue[0])

/* "custom" is the first choice of accelerator_model but no catalogue row. */
static const tco_accelerator custom = { sizeof(tco_accelerator), TCO_ACCEL_CUSTOM, "custom", "",
                                        0, 0, 0, 0, "the accelerator_* parameters",
                                        0, 0, 0, 0, "none: the pricing table's rates", 0 };

/* Row i of the list tco_accelerator_at gives: custom first. Both callers
 * check i against tco__catalogue_count() first. */
const tco_accelerator *tco__catalogue_row(size_t i)
{
    return i == 0 ? &custom : &catalogue[i - 1];
}

size_t tco__catalogue_count(void)
{
    return N + 1;
}

size_t tco_accelerator_count(void)
{
    return tco__catalogue_count();
}

int tco_accelerator_at(tco_accelerator *out, size_t index, tco_error *err)
{
    if (!out)
        return tco__fail(err, TCO_E_NULL, "out must not be NULL");
    if (out->size < ACCELERATOR_V1_SIZE || out->size > OUTPUT_MAX_SIZE)
        return tco__output_size_fail(err, "tco_accelerator", out->size, ACCELERATOR_V1_SIZE);
    if (index > N)
        return tco__fail(err, TCO_E_INDEX, "accelerator index %zu is past the end: allowed 0 to %zu",
                         index, N);
    sized_fill(out, tco__catalogue_row(index), sizeof *out);
    return TCO_OK;
}

const tco_accelerator *tco__catalogue_find(int32_t id)
{
    for (size_t i = 0; i < N; i++)
        if (catalogue[i].id == id)
            return &catalogue[i];
    return &custom; /* the only other choice accelerator_model's check lets through */
}

/* Failures and checkpoints, in hours. doc/model.md, "Goodput". */
#include <math.h>

#include "model/model.h"

/* Independent parts with exponential lifetimes: failure rates add. */
double tco__system_mtbf(double accelerators, double accel_mtbf, double nodes, double node_mtbf,
                        double extra_rate_per_hour)
{
    return 1.0 / (accelerators / accel_mtbf + nodes / node_mtbf + extra_rate_per_hour);
}

/* Young 1974: first-order optimum checkpoint interval. */
double tco__young_interval(double delta, double mtbf)
{
    return sqrt(2 * delta * mtbf);
}

/* Daly 2006: higher-order optimum, for delta < 2M; M beyond. */
double tco__daly_interval(double delta, double mtbf)
{
    return tco__daly_from_young(delta, mtbf, 1 / mtbf, tco__young_interval(delta, mtbf));
}

/* The same from Young's y = sqrt(2 delta M), whose sqrt(delta / 2M) is
 * y / 2M: one square root for both, and the rate multiplies. */
double tco__daly_from_young(double delta, double mtbf, double rate, double young)
{
    if (delta >= 2 * mtbf)
        return mtbf;
    double x = delta * rate * 0.5, root_x = young * rate * 0.5;
    return young * (1 + root_x * (1.0 / 3) + x * (1.0 / 9)) - delta;
}

/* Daly 2006, complete model: expected wall time to finish `work` hours of work that
 * checkpoints every tau hours (each taking delta) and restarts in `restart`
 * after each failure, failures arriving at rate 1/mtbf. */
double tco__daly_wall_time(double work, double tau, double delta, double restart, double mtbf)
{
    return mtbf * exp(restart / mtbf) * expm1((tau + delta) / mtbf) * work / tau;
}

/* Job MTTF by job size, Meta's RSC-1 (16K A100, 11 months, every
 * job-stopping failure of 4 million jobs): A. Kokolis et al., "Revisiting
 * Reliability in Large-Scale Machine Learning Research Clusters", HPCA 2025
 * (arXiv 2410.21680): 7.9 h observed at 1,024 GPUs; their fitted model
 * projects 1.8 h at 16,384 and 0.23 h at 131,072 (doc/model.md, "Failures
 * by job size", says how these were read). Between rows the MTTF is
 * interpolated in log-log; below the first row it follows the first
 * segment's slope, above the last a series system's 1/n. */
static const struct {
    double gpus, hours;
} job_mttf[] = { { 1024, 7.9 }, { 16384, 1.8 }, { 131072, 0.23 } };

double tco__job_size_mtbf(double n)
{
    enum { ROWS = sizeof job_mttf / sizeof job_mttf[0] };
    if (n >= job_mttf[ROWS - 1].gpus)
        return job_mttf[ROWS - 1].hours * job_mttf[ROWS - 1].gpus / n;
    int i = 0;
    while (i < ROWS - 2 && n > job_mttf[i + 1].gpus)
        i++;
    double slope = log(job_mttf[i + 1].hours / job_mttf[i].hours) / log(job_mttf[i + 1].gpus / job_mttf[i].gpus);
    return job_mttf[i].hours * pow(n / job_mttf[i].gpus, slope);
}

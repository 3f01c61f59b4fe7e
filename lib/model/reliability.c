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
    if (delta >= 2 * mtbf)
        return mtbf;
    double x = delta / (2 * mtbf);
    return sqrt(2 * delta * mtbf) * (1 + sqrt(x) / 3 + x / 9) - delta;
}

/* Daly 2006, complete model: expected wall time to finish `work` hours of work that
 * checkpoints every tau hours (each taking delta) and restarts in `restart`
 * after each failure, failures arriving at rate 1/mtbf. */
double tco__daly_wall_time(double work, double tau, double delta, double restart, double mtbf)
{
    return mtbf * exp(restart / mtbf) * expm1((tau + delta) / mtbf) * work / tau;
}

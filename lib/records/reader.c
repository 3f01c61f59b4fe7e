/* What both readers share: numbers and times parsed straight from the
 * text (fields are not NUL-terminated, and strtod would follow the
 * caller's locale), values shown safely in reasons, and what happens to a
 * row that cannot be a record. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "records/reader.h"

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Powers of ten exact in a double (to 1e22) and in an x87 or quad long
 * double (to 1e27: 5^27 < 2^64). */
static const double p10[23] = { 1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };
static const long double p10l[28] = { 1e0L,  1e1L,  1e2L,  1e3L,  1e4L,  1e5L,  1e6L,  1e7L,  1e8L,  1e9L,
                                      1e10L, 1e11L, 1e12L, 1e13L, 1e14L, 1e15L, 1e16L, 1e17L, 1e18L, 1e19L,
                                      1e20L, 1e21L, 1e22L, 1e23L, 1e24L, 1e25L, 1e26L, 1e27L };

/* mant x 10^e in long double: within an ulp of the double (its spare bits
 * absorb all but the final rounding). The last resort, for numbers too
 * long to copy. */
static int scale_long(uint64_t mant, long e, double *out)
{
    long double x = (long double)mant;
    for (; e >= 27; e -= 27)
        x *= p10l[27];
    for (; e <= -27; e += 27)
        x /= p10l[27];
    x = e < 0 ? x / p10l[-e] : x * p10l[e];
    double v = (double)x;
    if (!isfinite(v))
        return PARSE_RANGE;
    *out = v;
    return PARSE_OK;
}

/* strtod rounds correctly but follows LC_NUMERIC: it reads a copy with the
 * locale's decimal point (as snprintf writes it) in place of '.'. The text
 * was checked already, so strtod sees only digits, a sign, the point and
 * an exponent. 0 when it cannot (a long text, an odd locale). */
static int by_strtod(const char *s, size_t n, double *out)
{
    char probe[16], buf[512];
    snprintf(probe, sizeof probe, "%.1f", 0.5);
    size_t pl = strlen(probe) - 2; /* between "0" and "5" */
    if (pl == 0 || pl > 4 || n + 4 >= sizeof buf)
        return 0;
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '.') {
            memcpy(buf + o, probe + 1, pl);
            o += pl;
        } else {
            buf[o++] = s[i];
        }
    }
    buf[o] = '\0';
    int saved = errno;
    char *end;
    double v = strtod(buf, &end);
    errno = saved; /* reading a number is no error of the caller's */
    if (end != buf + o)
        return 0;
    *out = v;
    return 1;
}

/* s[0 .. n), checked, is mant x 10^e: Clinger's fast path when both are
 * exact in a double (one rounding: correctly rounded), else strtod. */
static int scale(const char *s, size_t n, uint64_t mant, long e, double *out)
{
    if (mant == 0 || e < -400) {
        *out = 0;
        return PARSE_OK;
    }
    if (e > 400)
        return PARSE_RANGE;
    if (mant <= (UINT64_C(1) << 53) && e >= -22 && e <= 22) {
        *out = e < 0 ? (double)mant / p10[-e] : (double)mant * p10[e];
        return PARSE_OK;
    }
    double v;
    if (!by_strtod(s, n, &v))
        return scale_long(mant, e, out);
    if (!isfinite(v))
        return PARSE_RANGE;
    *out = v < 0 ? -v : v; /* the sign is the caller's */
    return PARSE_OK;
}

int tco__parse_number(const char *s, size_t n, double *out)
{
    size_t i = 0;
    int neg = 0;
    if (i < n && (s[i] == '+' || s[i] == '-'))
        neg = s[i++] == '-';
    /* Up to 19 significant digits in mant, the rest only move the point. */
    uint64_t mant = 0;
    int kept = 0;
    size_t digits = 0;
    long e = 0;
    for (; i < n && is_digit(s[i]); i++, digits++) {
        if (kept == 19)
            e += e < 100000;
        else if (mant || s[i] != '0')
            mant = mant * 10 + (uint64_t)(s[i] - '0'), kept++;
    }
    if (i < n && s[i] == '.') {
        for (i++; i < n && is_digit(s[i]); i++, digits++) {
            if (kept == 19)
                continue;
            if (mant || s[i] != '0')
                mant = mant * 10 + (uint64_t)(s[i] - '0'), kept++;
            e -= e > -100000;
        }
    }
    if (digits == 0)
        return PARSE_SYNTAX;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        int eneg = 0;
        if (++i < n && (s[i] == '+' || s[i] == '-'))
            eneg = s[i++] == '-';
        if (i == n || !is_digit(s[i]))
            return PARSE_SYNTAX;
        long x = 0;
        for (; i < n && is_digit(s[i]); i++)
            if (x < 100000)
                x = x * 10 + (s[i] - '0');
        e += eneg ? -x : x;
    }
    if (i != n)
        return PARSE_SYNTAX;
    double v;
    int rc = scale(s, n, mant, e, &v);
    if (rc)
        return rc;
    *out = neg && v != 0 ? -v : v; /* "-0" is 0 */
    return PARSE_OK;
}

int tco__parse_count(const char *s, size_t n, double *out)
{
    if (n == 0)
        return PARSE_SYNTAX;
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        if (!is_digit(s[i]))
            return PARSE_SYNTAX;
        if (i < 15)
            v = v * 10 + (uint64_t)(s[i] - '0');
    }
    if (n > 15) /* digits, but more than a double holds exactly */
        return PARSE_RANGE;
    *out = (double)v;
    return PARSE_OK;
}

/* k digits at s into *v. */
static int fixed(const char *s, int k, int *v)
{
    int x = 0;
    for (int i = 0; i < k; i++) {
        if (!is_digit(s[i]))
            return 0;
        x = x * 10 + (s[i] - '0');
    }
    *v = x;
    return 1;
}

static int days_in_month(int y, int m)
{
    static const int days[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
    int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return days[m - 1] + (m == 2 && leap);
}

/* Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar
 * (H. Hinnant's days_from_civil). */
static long days_from_civil(long y, int m, int d)
{
    y -= m <= 2;
    long era = (y >= 0 ? y : y - 399) / 400;
    long yoe = y - era * 400;
    long doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

int tco__parse_time(const char *s, size_t n, int zone, double *out)
{
    int y, mo, d, h, mi, se;
    if (n < 19 || !fixed(s, 4, &y) || s[4] != '-' || !fixed(s + 5, 2, &mo) || s[7] != '-' ||
        !fixed(s + 8, 2, &d) || s[10] != 'T' || !fixed(s + 11, 2, &h) || s[13] != ':' ||
        !fixed(s + 14, 2, &mi) || s[16] != ':' || !fixed(s + 17, 2, &se))
        return PARSE_SYNTAX;
    if (mo < 1 || mo > 12 || d < 1 || d > days_in_month(y, mo) || h > 23 || mi > 59 || se > 59)
        return PARSE_SYNTAX;
    double t = (double)days_from_civil(y, mo, d) * 86400.0 + h * 3600.0 + mi * 60.0 + se;
    size_t i = 19;
    if (zone) {
        if (i < n && s[i] == '.') {
            size_t j = i + 1;
            while (j < n && is_digit(s[j]))
                j++;
            double f;
            if (j == i + 1 || j - i - 1 > 9 || tco__parse_number(s + i, j - i, &f))
                return PARSE_SYNTAX;
            t += f;
            i = j;
        }
        if (i < n && s[i] == 'Z') {
            i++;
        } else if (i + 6 <= n && (s[i] == '+' || s[i] == '-')) {
            int oh, om;
            if (!fixed(s + i + 1, 2, &oh) || s[i + 3] != ':' || !fixed(s + i + 4, 2, &om) || oh > 23 || om > 59)
                return PARSE_SYNTAX;
            double off = oh * 3600.0 + om * 60.0;
            t -= s[i] == '+' ? off : -off;
            i += 6;
        } else {
            return PARSE_SYNTAX;
        }
    }
    if (i != n)
        return PARSE_SYNTAX;
    if (t < 0 || t > TCO__TIME_MAX)
        return PARSE_RANGE;
    *out = t;
    return PARSE_OK;
}


int tco__refuse(tco_records *rs, uint32_t flags, uint64_t line, int code, const char *field, const char *reason,
                tco_error *err)
{
    if (flags & TCO_READ_STRICT)
        return tco__fail_named(err, code, field, "line %llu: %s", (unsigned long long)line, reason);
    return tco__records_bad(rs, line, reason, err);
}

int tco__read_args(tco_records **out, const char *text, uint32_t flags, tco_error *err)
{
    if (!out || !text)
        return tco__fail(err, TCO_E_NULL, "%s must not be NULL", !out ? "out" : "text");
    if (flags & ~(uint32_t)TCO_READ_STRICT)
        return tco__fail_named(err, TCO_E_RANGE, "flags",
                               "flags = 0x%x has bits this libtco does not know: allowed TCO_READ_STRICT (0x1)",
                               (unsigned)flags);
    return TCO_OK;
}

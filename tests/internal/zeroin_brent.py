#!/usr/bin/env python3
"""The points Brent's zeroin evaluates, for tests/internal/test_zeroin.c.

Brent 1973, "Algorithms for Minimization without Derivatives", section 4.6,
the ALGOL 60 procedure zero, as written: macheps = 2^-52, t = rel |b| / 2
(a tolerance relative to the root), and no interpolation through a side
refused (g = inf). Prints each function's evaluated points and its root
(the end of the last bracket where g <= 0), as rows of the test's table."""
import math
EPS = 2.0 ** -52
def zero(f, a, fa, b, fb, rel):
    seen = []
    c, fc = a, fa
    d = e = b - a
    while True:
        if (fb > 0) == (fc > 0):
            c, fc = a, fa
            d = e = b - a
        if abs(fc) < abs(fb):
            a, b, c = b, c, b
            fa, fb, fc = fb, fc, fb
        tol = 2 * EPS * abs(b) + 0.5 * rel * abs(b)
        m = 0.5 * (c - b)
        if abs(m) <= tol or fb == 0:
            break
        if abs(e) >= tol and abs(fa) > abs(fb) and math.isfinite(fa) and math.isfinite(fc):
            s = fb / fa
            if a == c:
                p = 2 * m * s
                q = 1 - s
            else:
                q = fa / fc
                r = fb / fc
                p = s * (2 * m * q * (q - r) - (b - a) * (r - 1))
                q = (q - 1) * (r - 1) * (s - 1)
            if p > 0:
                q = -q
            else:
                p = -p
            if 2 * p < min(3 * m * q - abs(tol * q), abs(e * q)):
                e = d
                d = p / q
            else:
                d = e = m
        else:
            d = e = m
        a, fa = b, fb
        b += d if abs(d) > tol else (tol if m > 0 else -tol)
        fb = f(b)
        seen.append(b)
    return seen, (b if fb <= 0 else c)
CASES = [  # name, g, a, b, rel: as test_zeroin.c's table
    ("wallis", lambda x: x * x * x - 2 * x - 5, 2.0, 3.0, 1e-12),
    ("wallis", lambda x: x * x * x - 2 * x - 5, 2.0, 3.0, 1e-3),
    ("refused_from_2", lambda x: x - 1 if x < 2 else math.inf, 0.0, 3.0, 1e-9),
    ("half", lambda x: x - 0.5, 0.0, 1.0, 1e-9),
    ("tenths", lambda x: x - 0.3, -1.0, 2.0, 1e-12),
    ("cube_tenths", lambda x: x * x * x - 0.3, -1.0, 2.0, 1e-12),
    ("cube_tenths", lambda x: x * x * x - 0.3, 0.1, 1.5, 0.1),
    ("cube_two", lambda x: x * x * x - 2, -1.0, 2.0, 1e-12),
    ("cube_two", lambda x: x * x * x - 2, 1.0, 1000.0, 1e-6),
    ("quarters", lambda x: math.floor(4 * x) - 2.5, 0.0, 3.0, 0.1),
    ("refused_from_2_5", lambda x: x - 1.9 if x < 2.5 else math.inf, 0.0, 3.0, 1e-12),
    ("scales_apart", lambda x: (x - 1) * 1e300 if x < 1 else (x - 1) * 1e-300, 0.0, 3.0, 1e-12),
]
for name, g, a, b, rel in CASES:
    seen, root = zero(g, a, g(a), b, g(b), rel)
    print(f"{{ {name}, {a!r}, {b!r}, {rel!r}, {len(seen)}, {{ {', '.join(repr(x) for x in seen)} }}, {root!r} }},")

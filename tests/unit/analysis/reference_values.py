#!/usr/bin/env python3
"""Independent cross-check of the reference values used by the analysis tests.

Standard library only, and deliberately by other methods than the C code:
  * rank tests by brute-force enumeration of every sign vector / every
    assignment of ranks (the C code uses counting recursions);
  * Student t by Simpson integration of the density and bisection for the
    quantile (the C code uses GSL);
  * the normal distribution from statistics.NormalDist.

Most values are also R outputs printed in R's own documentation
(?wilcox.test, ?t.test on the `sleep` data); the script shows that the
remembered R figures and an independent computation agree.  Run:
    python3 tests/unit/analysis/reference_values.py
"""
import itertools
import math
import statistics

N01 = statistics.NormalDist()


def t_pdf(x, nu):
    c = math.exp(math.lgamma((nu + 1) / 2) - math.lgamma(nu / 2))
    return c / math.sqrt(nu * math.pi) * (1 + x * x / nu) ** (-(nu + 1) / 2)


def t_cdf(x, nu, steps=200000):
    # P(T <= x) = 1/2 + integral_0^x pdf
    h = x / steps
    s = t_pdf(0, nu) + t_pdf(x, nu)
    for i in range(1, steps):
        s += (4 if i % 2 else 2) * t_pdf(i * h, nu)
    return 0.5 + s * h / 3


def t_quantile(p, nu):
    lo, hi = -50.0, 50.0
    for _ in range(80):
        mid = (lo + hi) / 2
        if t_cdf(mid, nu, 20000) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def mean_sd(x):
    return statistics.mean(x), statistics.stdev(x)


def welch(x, y, level=0.95):
    mx, sx = mean_sd(x)
    my, sy = mean_sd(y)
    vx, vy = sx * sx / len(x), sy * sy / len(y)
    se = math.sqrt(vx + vy)
    df = (vx + vy) ** 2 / (vx * vx / (len(x) - 1) + vy * vy / (len(y) - 1))
    t = (mx - my) / se
    p = 2 * (1 - t_cdf(abs(t), df))
    q = t_quantile(1 - (1 - level) / 2, df)
    return t, df, p, mx - my - q * se, mx - my + q * se


def one_sample_t(d, level=0.95):
    m, s = mean_sd(d)
    n = len(d)
    se = s / math.sqrt(n)
    t = m / se
    p = 2 * (1 - t_cdf(abs(t), n - 1))
    q = t_quantile(1 - (1 - level) / 2, n - 1)
    return m, s, t, p, m - q * se, m + q * se


def midranks(v):
    order = sorted(range(len(v)), key=lambda i: v[i])
    r = [0.0] * len(v)
    i = 0
    while i < len(v):
        j = i
        while j + 1 < len(v) and v[order[j + 1]] == v[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return r


def signed_rank_brute(d):
    """Exact two-sided p by enumerating all 2^n sign vectors (no zeros)."""
    r = midranks([abs(x) for x in d])
    v = sum(ri for ri, x in zip(r, d) if x > 0)
    n = len(d)
    mu = n * (n + 1) / 4
    sums = [sum(ri for ri, s in zip(r, signs) if s)
            for signs in itertools.product((0, 1), repeat=n)]
    if v > mu:
        p = sum(1 for s in sums if s >= v) / len(sums)
    else:
        p = sum(1 for s in sums if s <= v) / len(sums)
    return v, min(1.0, 2 * p)


def mann_whitney_brute(x, y):
    """Exact two-sided p by enumerating every choice of x's ranks."""
    m, n = len(x), len(y)
    r = midranks(list(x) + list(y))
    w = sum(r[:m]) - m * (m + 1) / 2
    ws = [sum(c) - m * (m + 1) / 2
          for c in itertools.combinations(range(1, m + n + 1), m)]
    if w > m * n / 2:
        p = sum(1 for s in ws if s >= w) / len(ws)
    else:
        p = sum(1 for s in ws if s <= w) / len(ws)
    return w, min(1.0, 2 * p)


def main():
    # R: sleep data (Cushny & Peebles via Student 1908), ?t.test
    g1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0]
    g2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4]
    print("welch sleep  t df p lo hi:", welch(g1, g2))
    print("paired sleep m sd t p lo hi:",
          one_sample_t([a - b for a, b in zip(g1, g2)]))
    print("one-sample g1 m sd t p lo hi:", one_sample_t(g1))
    for nu in (4, 9, 19):
        print("t_.975,%d =" % nu, t_quantile(0.975, nu))

    # R: ?wilcox.test, Hollander & Wolfe (1973) p.29 depression data
    x = [1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30]
    y = [0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29]
    print("signed rank depression V p2:",
          signed_rank_brute([a - b for a, b in zip(x, y)]))
    # R: ?wilcox.test, Hollander & Wolfe (1973) p.69 permeability data
    x = [0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46]
    y = [1.15, 0.88, 0.90, 0.74, 1.21]
    print("mann-whitney permeability W p2:", mann_whitney_brute(x, y))

    # Tables of the signed-rank null distribution: P(V <= v), n = 10
    n = 10
    sums = [sum(i + 1 for i, s in enumerate(sg) if s)
            for sg in itertools.product((0, 1), repeat=n)]
    for v in (0, 3, 8, 10, 27):
        print("psignrank(%d, 10) =" % v,
              sum(1 for s in sums if s <= v) / len(sums))
    # n = 30: subsets of 1..30 with sum <= 36 (recursive enumeration)
    def count(start, remaining):
        c = 1
        for k in range(start, 31):
            if k > remaining:
                break
            c += count(k + 1, remaining - k)
        return c
    print("psignrank(36, 30) * 2^30 =", count(1, 36))
    # Mann-Whitney null: P(W <= w), m = 4, n = 5
    ws = [sum(c) - 10 for c in itertools.combinations(range(1, 10), 4)]
    for w in (0, 1, 2, 5, 10):
        print("pwilcox(%d, 4, 5) =" % w,
              sum(1 for s in ws if s <= w) / len(ws))

    # Median intervals: largest k with 1 - 2 P(Bin(n, 1/2) <= k - 1) >= .95
    for n in (10, 20, 100, 1000):
        def cov(k):
            return 1 - 2 * sum(math.comb(n, i) for i in range(k)) / 2 ** n
        k = max(k for k in range(1, n // 2 + 1) if cov(k) >= 0.95)
        print("median CI n=%d: x(%d), x(%d), coverage %.16g"
              % (n, k, n + 1 - k, cov(k)))

    # Paired ratios used by test_stats_tests.c
    a = [100.0, 200.0, 50.0, 80.0, 120.0]
    r = [1.10, 1.20, 0.90, 1.05, 1.15]
    lr = [math.log(v) for v in r]
    m, s, t, p, lo, hi = one_sample_t(lr)
    print("paired ratios: gm%% %.10f lo%% %.10f hi%% %.10f sd %.10f p %.10f"
          % (100 * (math.exp(m) - 1), 100 * (math.exp(lo) - 1),
             100 * (math.exp(hi) - 1), s, p))
    print("paired ratios signed rank:", signed_rank_brute(lr))


    # Welch on 1:3 vs 4:6 (R: t = -3.6742, df = 4, p-value = 0.02131,
    # CI -5.266958 -0.733042)
    print("welch 1:3 4:6 t df p lo hi:", welch([1, 2, 3], [4, 5, 6]))

    # Normal approximations, formulas evaluated by hand (see the tests):
    # signed rank d = 1,-1,2,3,3,4: V 19.5, mu 10.5, var 22.5
    z = (19.5 - 10.5 - 0.5) / math.sqrt(22.5)
    print("signed rank ties z p: %.10f %.10f" % (z, 2 * N01.cdf(-abs(z))))
    # signed rank of five equal nonzero values: V 15, mu 7.5, var 11.25
    z = (15 - 7.5 - 0.5) / math.sqrt(11.25)
    print("signed rank all tied z p: %.10f %.10f" % (z, 2 * N01.cdf(-abs(z))))
    # signed rank 1..31, 3, 10, 20 negative: V 463, mu 248, var 2604
    z = (463 - 248 - 0.5) / math.sqrt(2604)
    print("signed rank n=31 z p: %.10f %.12g" % (z, 2 * N01.cdf(-abs(z))))
    # Mann-Whitney x 1,2,2,3 y 2,3,4,5,5: W 2.5, mu 10, var 20/12 * 9.5
    z = (2.5 - 10 + 0.5) / math.sqrt(20 / 12 * 9.5)
    print("mann-whitney ties z p: %.10f %.10f" % (z, 2 * N01.cdf(-abs(z))))
    # Mann-Whitney x = 2,4..100, y = 1,3..99: W 1275, mu 1250, var 2500/12*101
    z = (1275 - 1250 - 0.5) / math.sqrt(2500 / 12 * 101)
    print("mann-whitney 50/50 z p: %.10f %.10f" % (z, 2 * N01.cdf(-abs(z))))
    print("signed rank zero dropped:", signed_rank_brute([1.5, 2.5, -0.5, 3.5]))
    print("mann-whitney x 1..6 vs 7..9:",
          mann_whitney_brute([1, 2, 3, 4, 5, 6], [7, 8, 9]))

    # USL peak for lambda 1e6, sigma 0.05, kappa 0.001
    lam, sg, kp = 1e6, 0.05, 0.001
    n = math.sqrt((1 - sg) / kp)
    print("usl peak N* %.10f X* %.6f"
          % (n, lam * n / (2 - 2 * sg + (sg - kp) * n)))
    n = math.sqrt(0.8 / 0.05)
    print("usl peak 2 N* %.10f X* %.6f"
          % (n, 1000 * n / (1 + 0.2 * (n - 1) + 0.05 * n * (n - 1))))

    z = N01.inv_cdf(0.975) + N01.inv_cdf(0.8)
    print("MDE paired sd .1 n 16: %.10f%%"
          % (100 * (math.exp(z * 0.1 / 4) - 1)))
    print("MDE unpaired mean 10 sd 1,2 n 10,20: %.10f%%"
          % (100 * z * math.sqrt(1 / 10 + 4 / 20) / 10))

    coherent()


def cox_interval(x, level=0.95):
    """Modified Cox interval of a log-normal mean (Armstrong 1992)."""
    y = [math.log(v) for v in x]
    m, s = mean_sd(y)
    n = len(y)
    v = s * s
    q = t_quantile(1 - (1 - level) / 2, n - 1)
    hw = q * math.sqrt(v / n + v * v / (2 * (n - 1)))
    return math.exp(m + v / 2 - hw), math.exp(m + v / 2 + hw)


def geo_interval(x, level=0.95):
    """Geometric mean exp(m), Student's t interval of m mapped back, and
    the geometric SD exp(s) (issue 18's second review)."""
    y = [math.log(v) for v in x]
    m, s = mean_sd(y)
    n = len(y)
    hw = t_quantile(1 - (1 - level) / 2, n - 1) * s / math.sqrt(n)
    return math.exp(m), math.exp(m - hw), math.exp(m + hw), math.exp(s)


def mde_t(sd, n, alpha=0.05, power=0.8):
    q = t_quantile(1 - alpha / 2, n - 1) + t_quantile(power, n - 1)
    return 100 * (math.exp(q * sd / math.sqrt(n)) - 1)


def coherent():
    """Issue 18: one test per row (paired t on log ratios), Cox intervals,
    t-quantile MDE, the smallest exact rank-test p."""
    print("cox 100 120 140: lo %.6f hi %.6f" % cox_interval([100, 120, 140]))
    print("cox 1000 5000: lo %.6f hi %.6f" % cox_interval([1000, 5000]))
    print("geo 100 120 140: gm %.6f lo %.6f hi %.6f gsd %.8f"
          % geo_interval([100, 120, 140]))
    print("geo 1000 5000: gm %.6f lo %.6f hi %.6f gsd %.8f"
          % geo_interval([1000, 5000]))
    print("student 1000 5000 lo:", one_sample_t([1000, 5000])[4])
    lr = [math.log(r) for r in (1.05, 1.10, 1.20)]
    m, sd, t, p, lo, hi = one_sample_t(lr)
    print("table t1: paired t p %.8f mde_t %.6f%%" % (p, mde_t(sd, 3)))
    lr = [math.log(0.9), math.log(0.85)]
    m, sd, t, p, lo, hi = one_sample_t(lr)
    print("table t2: paired t p %.8f mde_t %.6f%% lo %.6f%% hi %.6f%%"
          % (p, mde_t(sd, 2), 100 * (math.exp(lo) - 1),
             100 * (math.exp(hi) - 1)))
    # n = 5 blocks, a consistent -85% change (ratios 0.13 .. 0.17)
    lr = [math.log(r) for r in (0.13, 0.16, 0.15, 0.17, 0.14)]
    m, sd, t, p, lo, hi = one_sample_t(lr)
    print("n5 -85%%: change %.6f%% [%.6f%%, %.6f%%] p %.3e sd %.8f"
          % (100 * (math.exp(m) - 1), 100 * (math.exp(lo) - 1),
             100 * (math.exp(hi) - 1), p, sd))
    print("n5 -85%% Wilcoxon:", signed_rank_brute(lr))
    print("mde_t sd .1 n 16: %.8f%%  n 2: %.8f%%"
          % (mde_t(0.1, 16), mde_t(0.1, 2)))
    for n in range(2, 13):
        print("n %2d: signed-rank min p %.6f  Mann-Whitney n/n min p %.6f"
              % (n, 2 / 2 ** n, 2 / math.comb(2 * n, n)))


if __name__ == "__main__":
    main()

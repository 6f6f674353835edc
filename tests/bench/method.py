#!/usr/bin/env python3
"""The figures of tests/bench/method.sh (standard library only).

usage: method.py RCUPROF DIR TRIALS RESAMPLES

DIR holds, per design (old, new) and trial i: DESIGN-i/results.jsonl,
DESIGN-i/compare.json (rcuprof compare --baseline rcu-sync --format json),
DESIGN-i.seconds.

Old rule: a row is resolved when its Wilcoxon signed-rank p with Holm
(p_wilcoxon_holm) is below 0.05, as compare decided before.  New rule:
compare's `resolved` (the paired t on log ratios, Holm; Stein's two-stage
interval on an adaptive sweep).

Resampled null trials: the real blocks of every trial, pooled per thread
count; a resampled trial draws blocks with replacement and, in each block,
swaps the labels rcu-sync and rcu-nosync with probability 1/2, so "no
difference" holds exactly while the noise is this machine's.  It is written
as a results file under a real trial's header (same spec, same hash) and
decided by rcuprof compare itself: old trials with 5 blocks and the old
rule, new trials with the block counts the real new trials reached and the
new rule.
"""
import json
import math
import os
import random
import statistics
import subprocess
import sys

AA, AB, BASE = "rcu-nosync", "stock", "rcu-sync"


def load_lines(path):
    with open(path) as f:
        return [json.loads(x) for x in f if x.strip()]


def trial(d, design, i):
    base = os.path.join(d, "%s-%d" % (design, i))
    lines = load_lines(os.path.join(base, "results.jsonl"))
    with open(os.path.join(base, "compare.json")) as f:
        cmp_ = json.load(f)
    with open(base + ".seconds") as f:
        secs = float(f.read())
    points = [x for x in lines if x.get("type") == "point"]
    return {"header": lines[0], "points": points, "compare": cmp_,
            "seconds": secs,
            "blocks": 1 + max(p["block"] for p in points)}


def rule_old(c):
    p = c.get("p_wilcoxon_holm")
    return p is not None and p < 0.05


def rule_new(c):
    return bool(c.get("resolved"))


def decide(cmp_, rule):
    """Per thread count: (A/B MDE, A/B resolved, A/A resolved)."""
    out = {}
    for r in cmp_["rows"]:
        ab, aa = r["changes"].get(AB), r["changes"].get(AA)
        if ab is None or aa is None:
            continue
        out[r["threads"]] = (ab.get("mde_pct"), rule(ab), rule(aa),
                             ab.get("change_pct"))
    return out


def clopper_pearson(k, n, level=0.95):
    """Exact binomial interval by bisection on the CDF."""
    if n == 0:
        return (float("nan"), float("nan"))

    def cdf(x, p):
        return sum(math.comb(n, j) * p ** j * (1 - p) ** (n - j)
                   for j in range(x + 1))

    a = (1 - level) / 2

    def solve(f):
        lo, hi = 0.0, 1.0
        for _ in range(60):
            mid = (lo + hi) / 2
            if f(mid):
                lo = mid
            else:
                hi = mid
        return (lo + hi) / 2

    low = 0.0 if k == 0 else solve(lambda p: 1 - cdf(k - 1, p) < a)
    high = 1.0 if k == n else solve(lambda p: cdf(k, p) > a)
    return (low, high)


def rate(k, n):
    lo, hi = clopper_pearson(k, n)
    return "%d of %d = %.1f%% [%.1f, %.1f]" % (k, n, 100.0 * k / n if n else
                                                float("nan"), 100 * lo,
                                                100 * hi)


def resample(rcuprof, tmp, trials, headers, n_blocks_list, rule, count, rng,
             tag):
    """A/A false positives over `count` resampled null trials."""
    pool = {}                   # threads -> list of {variant: point}
    for t in trials:
        blocks = {}
        for p in t["points"]:
            if p.get("status") != "ok":
                continue
            blocks.setdefault((p["threads"], p["block"]), {})[p["variant"]] = p
        for (th, _), b in blocks.items():
            if BASE in b and AA in b and AB in b:
                pool.setdefault(th, []).append(b)
    k = n = 0
    path = os.path.join(tmp, "resample-%s.jsonl" % tag)
    for r in range(count):
        src = headers[r % len(headers)]
        nb = n_blocks_list[r % len(n_blocks_list)]
        lines = [src["header"]]
        seq = 0
        for blk in range(nb):
            for th in sorted(pool):
                b = rng.choice(pool[th])
                swap = rng.random() < 0.5
                for v in (BASE, AA, AB):
                    p = json.loads(json.dumps(b[v]))
                    if swap and v != AB:
                        p["variant"] = AA if v == BASE else BASE
                        p["result"]["build"]["variant"] = p["variant"]
                    p["block"], p["seq"] = blk, seq
                    seq += 1
                    lines.append(p)
        with open(path, "w") as f:
            for x in lines:
                f.write(json.dumps(x, separators=(",", ":")) + "\n")
        res = subprocess.run([rcuprof, "compare", path, "--baseline", BASE,
                              "--format", "json"], capture_output=True,
                             text=True)
        if res.returncode != 0:
            sys.exit("method.py: compare failed on a resampled trial: "
                     + res.stderr.strip())
        for th, (_, _, aa, _) in decide(json.loads(res.stdout), rule).items():
            n += 1
            k += aa
    return k, n


def main():
    rcuprof, d, ntrials, nres = sys.argv[1], sys.argv[2], int(sys.argv[3]), \
        int(sys.argv[4])
    rng = random.Random(20261202)
    designs = {"old": rule_old, "new": rule_new}
    real = {des: [trial(d, des, i) for i in range(1, ntrials + 1)]
            for des in designs}
    print()
    print("%-5s %5s %6s %7s  %s" % ("trial", "design", "blocks", "seconds",
                                     "per threads: A/B change, MDE, resolved; "
                                     "A/A resolved"))
    for i in range(ntrials):
        for des, rule in designs.items():
            t = real[des][i]
            dec = decide(t["compare"], rule)
            cells = "  ".join(
                "%dT %+.1f%% MDE %.1f%% %s, A/A %s" %
                (th, ch if ch is not None else float("nan"),
                 mde if mde is not None else float("nan"),
                 "yes" if ab else "no", "FP" if aa else "no")
                for th, (mde, ab, aa, ch) in sorted(dec.items()))
            print("%-5d %6s %6d %7.1f  %s" % (i + 1, des, t["blocks"],
                                              t["seconds"], cells))
    print()
    for des, rule in designs.items():
        ts = real[des]
        per_th = {}
        k = n = 0
        for t in ts:
            for th, (mde, ab, aa, _) in decide(t["compare"], rule).items():
                per_th.setdefault(th, []).append((mde, ab))
                n += 1
                k += aa
        mdes = "; ".join(
            "%dT median MDE %.1f%%, A/B resolved in %d of %d" %
            (th, statistics.median(m for m, _ in v if m is not None),
             sum(ab for _, ab in v), len(v))
            for th, v in sorted(per_th.items()))
        print("%s: median %.1f s and %g blocks a trial; %s" %
              (des, statistics.median(t["seconds"] for t in ts),
               statistics.median(t["blocks"] for t in ts), mdes))
        print("%s: A/A false positives, real trials: %s" % (des, rate(k, n)))
        if des == "new":
            # The old test on the same blocks: what the extra time buys
            # with Wilcoxon and Holm, apart from the test.
            ab_old = sum(ab for t in ts
                         for _, ab, _, _ in decide(t["compare"],
                                                   rule_old).values())
            print("new blocks, old test (Wilcoxon, Holm): A/B resolved in "
                  "%d of %d" % (ab_old, sum(len(decide(t["compare"],
                                                       rule_old))
                                            for t in ts)))
        nbl = [5] if des == "old" else [t["blocks"] for t in ts]
        rk, rn = resample(rcuprof, d, real["old"] + real["new"], ts, nbl,
                          rule, nres, rng, des)
        print("%s: A/A false positives, %d resampled null trials: %s" %
              (des, nres, rate(rk, rn)))
        if des == "old":
            # The coherent test at the old design's 5 blocks, for scale.
            rk, rn = resample(rcuprof, d, real["old"] + real["new"], ts,
                              [5], rule_new, nres, rng, "old-t")
            print("old blocks, new test (paired t, Holm): A/A false "
                  "positives, %d resampled: %s" % (nres, rate(rk, rn)))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""The exact-count tables of docs/case-study-24344.md, from committed files.

  counts.py probes RESULTS.jsonl...   read side and write side, per variant
                                      and thread count, summed over the ok
                                      points of the files (the probes member)
  counts.py machine RESULTS.jsonl...  per file: the machine, the build, when,
                                      the load and steal, utilisation
  counts.py sched RESULTS.jsonl...    per thread count, medians over every ok
                                      run (all variants): CPU cost, utilisation,
                                      context switches, run-queue delay
  counts.py points RESULTS.jsonl      one row per point, in run order: status,
                                      the driver's wall time, the window, writes
  counts.py load RESULTS.jsonl...     one warning line per file in which a run
                                      started at a load average (1 min) above
                                      its CPU count, naming the file; nothing
                                      for a file that stayed at or below it
  counts.py facts DIR                 the exact counts the text states, over
                                      every DIR/*/results.jsonl
  counts.py attribution REPORT.json...  bucket shares of `rcuprof attribute
                                      --json` reports, one column per report

Standard library only.  Output is a markdown table; the case study embeds it
between <!-- rcuprof:table counts ... --> markers and
tests/integration/test_case_study.sh reruns this script and compares.
"""
import json
import os
import sys
from collections import defaultdict

VARIANT_ORDER = ["stock", "stock-pristine", "rcu-sync", "rcu-nosync"]


def points(paths):
    for path in paths:
        with open(path) as f:
            for line in f:
                if not line.endswith("\n"):
                    continue  # a torn last line, as the reader ignores it
                d = json.loads(line)
                if d.get("type") == "point" and d.get("status") == "ok":
                    yield d


def workers_lock(p):
    """The lock the workers took: the summary's (method_store or other)."""
    return p["summary"]["lock"] if p.get("summary") else "other"


def per_million(num, den):
    return "-" if den == 0 else f"{1e6 * num / den:.1f}"


def probes_table(paths):
    acc = defaultdict(lambda: defaultdict(int))
    for d in points(paths):
        r = d["result"]
        p = r.get("probes")
        if p is None or p.get("sum") is None:
            continue
        a = acc[(d["variant"], d["threads"])]
        lock = workers_lock(p)
        a["runs"] += 1
        a["lock:" + lock] += 1
        s = p["sum"]["rcu"].get(lock, {})
        a["acq"] += s.get("acquisitions", 0)
        a["ret"] += s.get("retries", 0)
        a["maxret"] = max(a["maxret"], s.get("max_retries", 0))
        for v in p["process"]["rcu"].values():  # every RCU lock, whole process
            a["pret"] += v["retries"]
            a["syncs"] += v["syncs"]
            a["flips"] += v["flips"]
        st = p["sum"]["store"]
        a["gets"] += st["cache_gets"]
        a["miss"] += st["cache_misses"]
        ch = r["run"].get("churn")
        if ch:
            a["writes"] += ch["writes"]
    rows = []
    rows.append("| variant | threads | runs | lock | read acquisitions | retries | retries per 1M acquisitions | max retries in one | retries, whole process | synchronize calls | flips | writes in windows | slow-path fetches per 1M |")
    rows.append("|---|--:|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
    order = {v: i for i, v in enumerate(VARIANT_ORDER)}
    for (v, t) in sorted(acc, key=lambda k: (order.get(k[0], 99), k[0], k[1])):
        a = acc[(v, t)]
        locks = sorted(k[5:] for k in a if k.startswith("lock:"))
        rows.append("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |".format(
            v, t, a["runs"], ",".join(locks), a["acq"], a["ret"],
            per_million(a["ret"], a["acq"]), a["maxret"], a["pret"],
            a["syncs"], a["flips"], a["writes"], per_million(a["miss"], a["gets"])))
    return "\n".join(rows)


BUCKETS = ["get_hold_current_qp", "rcu_read_lock_unlock", "synchronize_rcu",
           "pthread_rwlock", "store_biglock", "refcount", "name_hashing", "other"]


def attribution_table(paths):
    cols, shares, samples = [], [], []
    for path in paths:
        with open(path) as f:
            rep = json.load(f)
        cols.append(os.path.basename(path).rsplit(".", 1)[0])
        samples.append(rep["on_cpu_samples"])
        shares.append({b["bucket"]: b for b in rep["buckets"]})
    rows = ["| bucket | " + " | ".join(cols) + " |",
            "|---|" + "--:|" * len(cols)]
    for b in BUCKETS:
        cells = []
        for s in shares:
            x = s.get(b)
            cells.append("-" if x is None or x["samples"] == 0
                         else f"{100 * x['share']:.1f}% ({x['samples']})")
        rows.append(f"| {b} | " + " | ".join(cells) + " |")
    rows.append("| on-CPU samples | " + " | ".join(str(n) for n in samples) + " |")
    return "\n".join(rows)


def facts(root):
    import glob
    f = defaultdict(int)
    files = sorted(glob.glob(os.path.join(root, "*", "results.jsonl")))
    for d in points(files):
        p = d["result"]["probes"]
        proc = p["process"]["rcu"]
        syncs = sum(x["syncs"] for x in proc.values())
        retries = sum(x["retries"] for x in proc.values())
        acq = sum(x["acquisitions"] for x in proc.values())
        f["points"] += 1
        if syncs == 0:
            f["nosync_points"] += 1
            f["nosync_acq"] += acq
            f["nosync_retries"] += retries
        else:
            f["sync_points"] += 1
            f["syncs"] += syncs
            f["flips"] += sum(x["flips"] for x in proc.values())
            f["sync_retries"] += retries
            f["sync_maxret"] = max([f["sync_maxret"]] + [x["max_retries"] for x in proc.values()])
        if d["variant"] == "stock" and d["result"]["run"]["workload"]["kind"] == "fetch":
            f["stock_fetch_points"] += 1
            f["stock_fetch_acq"] += acq
            f["stock_rwlock_reads"] += p["process"]["store"]["rwlock_reads"]
        if d["variant"] == "rcu-sync" and "method_store" in proc:
            f["rs_writes"] += p["process"]["store"]["write_locks"]
            f["rs_syncs"] += proc["method_store"]["syncs"]
        if d["variant"] == "rcu-nosync" and "method_store" in proc:
            f["rn_writes"] += p["process"]["store"]["write_locks"]
            f["rn_syncs"] += proc["method_store"]["syncs"]
    out = [
        f"- files: {len(files)}; ok points: {f['points']}.",
        f"- points whose whole process made no `ossl_synchronize_rcu` call: {f['nosync_points']};"
        f" RCU read acquisitions in them: {f['nosync_acq']}; retries: {f['nosync_retries']}.",
        f"- points with synchronize calls: {f['sync_points']}; synchronize calls: {f['syncs']};"
        f" `reader_idx` flips: {f['flips']}; retries: {f['sync_retries']};"
        f" most retries in one acquisition: {f['sync_maxret']}.",
        f"- stock, fetch workload: {f['stock_fetch_points']} points, {f['stock_fetch_acq']} RCU read"
        f" acquisitions, {f['stock_rwlock_reads']} store rwlock reads.",
        f"- rcu-sync: {f['rs_writes']} store write transactions, {f['rs_syncs']} synchronize calls.",
        f"- rcu-nosync: {f['rn_writes']} store write transactions, {f['rn_syncs']} synchronize calls"
        + (f" (one per {f['rn_writes'] / f['rn_syncs']:.1f} writes)." if f["rn_syncs"] else "."),
    ]
    return "\n".join(out)


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return None if n == 0 else (xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2)


def machine_table(paths):
    import time
    rows = ["| results file | host, kernel, CPUs | OpenSSL | points ok / all | UTC | load avg (1 min) min / median / max | steal ms, sum | utilisation at 1 / 2 threads (median) |",
            "|---|---|---|--:|---|---|--:|---|"]
    for path in paths:
        allp = okp = 0
        loads, steal, util, when, hosts, ossl = [], 0.0, defaultdict(list), [], set(), set()
        with open(path) as f:
            for line in f:
                if not line.endswith("\n"):
                    continue
                d = json.loads(line)
                if d.get("type") != "point":
                    continue
                allp += 1
                when.append(d["start_unix_ns"])
                if d["status"] != "ok":
                    continue
                okp += 1
                r = d["result"]
                e = r["env"]
                hosts.add(f"{e['hostname']}, {e['kernel']}, {e['cpus_allowed']}")
                ossl.add(r["build"].get("openssl_version") or r["build"].get("version") or "?")
                loads.append(e["loadavg"][0])
                steal += r["run"].get("steal_ms") or 0
                util[d["threads"]].append(r["run"]["utilisation"])
        t0 = time.strftime("%Y-%m-%d %H:%M", time.gmtime(min(when) / 1e9))
        t1 = time.strftime("%H:%M", time.gmtime(max(when) / 1e9))
        u = " / ".join("-" if not util.get(t) else f"{median(util[t]):.2f}" for t in (1, 2))
        rows.append(f"| {path} | {'; '.join(sorted(hosts))} | {', '.join(sorted(ossl))} | {okp} / {allp} | {t0}-{t1} | "
                    f"{min(loads):.1f} / {median(loads):.1f} / {max(loads):.1f} | {steal:.0f} | {u} |")
    return "\n".join(rows)


def load_warnings(paths):
    lines = []
    for path in paths:
        n = above = 0
        top, cpus = 0.0, None
        for d in points([path]):
            e = d["result"]["env"]
            c, la = e["cpus_allowed"], e["loadavg"][0]
            cpus = c if cpus is None else min(cpus, c)
            n += 1
            if la > c:
                above += 1
            top = max(top, la)
        if above:
            lines.append(f"- **Warning, load above the CPU count**: {path}: {above} of its {n} runs started at a "
                         f"load average (1 min) above its {cpus} CPUs, up to {top:.1f}.")
    return "\n".join(lines) if lines else "(no run started above its CPU count)"


def sched_table(paths):
    c = defaultdict(list)
    cpus = set()
    for d in points(paths):
        r = d["result"]
        cpus.add(r["env"]["cpus_allowed"])
        run = r["run"]
        s = run["sched"]
        c[d["threads"]].append((run["cpu_ns_per_op"], run["wall_ns_per_op"], run["utilisation"],
                                s["vcsw_per_kop"], s["ivcsw_per_kop"], s["runq_ns_per_kop"],
                                s["migrations_per_kop"]))
    rows = ["| threads | runs | CPU ns/op | wall ns/op | utilisation | CPUs / threads | voluntary switches per 1k ops | involuntary per 1k ops | migrations per 1k ops | run-queue delay per op, ns |",
            "|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|"]
    for t in sorted(c):
        v = c[t]
        m = [median([x[i] for x in v if x[i] is not None]) for i in range(7)]
        f = lambda x, fmt: "-" if x is None else format(x, fmt)
        rows.append(f"| {t} | {len(v)} | {m[0]:.0f} | {m[1]:.0f} | {m[2]:.3f} | {min(1.0, min(cpus) / t):.3f} | "
                    f"{f(m[3], '.3f')} | {f(m[4], '.3f')} | {f(m[6], '.3f')} | {f(None if m[5] is None else m[5] / 1000, '.0f')} |")
    return "\n".join(rows)


def points_table(path):
    rows = ["| seq | threads | variant | status | driver s | window s | wall ns/op | CPU ns/op | workers with 0 ops in window | writes in window | synchronize calls | writer wait per synchronize, us |",
            "|--:|--:|---|---|--:|--:|--:|--:|--:|--:|--:|--:|"]
    with open(path) as f:
        for line in f:
            if not line.endswith("\n"):
                continue
            d = json.loads(line)
            if d.get("type") != "point":
                continue
            r = d["result"]
            if r is None:
                rows.append(f"| {d['seq']} | {d['threads']} | {d['variant']} | {d['status']} | {d['seconds']:.1f} | - | - | - | - | - | - | - |")
                continue
            run = r["run"]
            zero = sum(1 for t in r["threads"] if t["ops"] == 0)
            ch = run.get("churn") or {}
            sm = (r.get("probes") or {}).get("summary") or {}
            wait = sm.get("writer_wait_ns_per_sync")
            rows.append(f"| {d['seq']} | {d['threads']} | {d['variant']} | {d['status']} | {d['seconds']:.1f} | "
                        f"{run['wall_ns'] / 1e9:.2f} | {run['wall_ns_per_op']:.0f} | {run['cpu_ns_per_op']:.0f} | {zero} | "
                        f"{ch.get('writes', '-')} | {sm.get('syncs', '-')} | {'-' if wait is None else format(wait / 1000, '.1f')} |")
    return "\n".join(rows)


def main(argv):
    if len(argv) == 3 and argv[1] == "points":
        print(points_table(argv[2]))
        return 0
    if len(argv) >= 3 and argv[1] == "sched":
        print(sched_table(argv[2:]))
        return 0
    if len(argv) >= 3 and argv[1] == "machine":
        print(machine_table(argv[2:]))
        return 0
    if len(argv) >= 3 and argv[1] == "load":
        print(load_warnings(argv[2:]))
        return 0
    if len(argv) == 3 and argv[1] == "facts":
        print(facts(argv[2]))
        return 0
    if len(argv) < 3 or argv[1] not in ("probes", "attribution"):
        sys.stderr.write(__doc__)
        return 2
    if argv[1] == "probes":
        print(probes_table(argv[2:]))
    else:
        print(attribution_table(argv[2:]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

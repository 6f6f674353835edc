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
  counts.py runs RESULTS.jsonl...     (--json only) one flat record per ok run

With --json, the same figures as JSON, unrounded (every kind but points and
attribution, whose JSON is the committed report itself): the source of the
numbers the prose quotes (regen-tables.py, <!-- rcuprof:src ... -->).

Standard library only.  Output is otherwise a markdown table; the case study embeds it
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


def probes_data(paths):
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
    order = {v: i for i, v in enumerate(VARIANT_ORDER)}
    out = []
    for (v, t) in sorted(acc, key=lambda k: (order.get(k[0], 99), k[0], k[1])):
        a = acc[(v, t)]
        out.append({"variant": v, "threads": t, "runs": a["runs"],
                    "lock": ",".join(sorted(k[5:] for k in a if k.startswith("lock:"))),
                    "acquisitions": a["acq"], "retries": a["ret"],
                    "max_retries": a["maxret"], "process_retries": a["pret"],
                    "syncs": a["syncs"], "flips": a["flips"], "writes": a["writes"],
                    "cache_gets": a["gets"], "cache_misses": a["miss"]})
    return out


def probes_table(paths):
    rows = []
    rows.append("| variant | threads | runs | lock | read acquisitions | retries | retries per 1M acquisitions | max retries in one | retries, whole process | synchronize calls | flips | writes in windows | slow-path fetches per 1M |")
    rows.append("|---|--:|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
    for a in probes_data(paths):
        rows.append("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |".format(
            a["variant"], a["threads"], a["runs"], a["lock"], a["acquisitions"], a["retries"],
            per_million(a["retries"], a["acquisitions"]), a["max_retries"], a["process_retries"],
            a["syncs"], a["flips"], a["writes"], per_million(a["cache_misses"], a["cache_gets"])))
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


def facts_data(root):
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
    f["files"] = len(files)
    return dict(f)


def facts(root):
    f = defaultdict(int, facts_data(root))
    out = [
        f"- files: {f['files']}; ok points: {f['points']}.",
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


def machine_data(paths):
    out = []
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
        out.append({"path": path, "hosts": sorted(hosts), "openssl": sorted(ossl),
                    "points_ok": okp, "points": allp,
                    "start_unix_ns": min(when), "end_unix_ns": max(when),
                    "load_min": min(loads), "load_median": median(loads), "load_max": max(loads),
                    "steal_ms": steal,
                    "utilisation_1": median(util[1]) if util.get(1) else None,
                    "utilisation_2": median(util[2]) if util.get(2) else None})
    return out


def machine_table(paths):
    import time
    rows = ["| results file | host, kernel, CPUs | OpenSSL | points ok / all | UTC | load avg (1 min) min / median / max | steal ms, sum | utilisation at 1 / 2 threads (median) |",
            "|---|---|---|--:|---|---|--:|---|"]
    for m in machine_data(paths):
        t0 = time.strftime("%Y-%m-%d %H:%M", time.gmtime(m["start_unix_ns"] / 1e9))
        t1 = time.strftime("%H:%M", time.gmtime(m["end_unix_ns"] / 1e9))
        u = " / ".join("-" if x is None else f"{x:.2f}" for x in (m["utilisation_1"], m["utilisation_2"]))
        rows.append(f"| {m['path']} | {'; '.join(m['hosts'])} | {', '.join(m['openssl'])} | {m['points_ok']} / {m['points']} | {t0}-{t1} | "
                    f"{m['load_min']:.1f} / {m['load_median']:.1f} / {m['load_max']:.1f} | {m['steal_ms']:.0f} | {u} |")
    return "\n".join(rows)


def load_data(paths):
    out = []
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
        out.append({"path": path, "runs": n, "above": above, "cpus": cpus, "load_max": top})
    return out


def load_warnings(paths):
    lines = [f"- **Warning, load above the CPU count**: {x['path']}: {x['above']} of its {x['runs']} runs started at a "
             f"load average (1 min) above its {x['cpus']} CPUs, up to {x['load_max']:.1f}."
             for x in load_data(paths) if x["above"]]
    return "\n".join(lines) if lines else "(no run started above its CPU count)"


def sched_data(paths):
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
    out = []
    for t in sorted(c):
        v = c[t]
        m = [median([x[i] for x in v if x[i] is not None]) for i in range(7)]
        out.append({"threads": t, "runs": len(v), "cpu_ns_per_op": m[0], "wall_ns_per_op": m[1],
                    "utilisation": m[2], "cpus_per_thread": min(1.0, min(cpus) / t),
                    "vcsw_per_kop": m[3], "ivcsw_per_kop": m[4], "migrations_per_kop": m[6],
                    "runq_ns_per_op": None if m[5] is None else m[5] / 1000})
    return out


def sched_table(paths):
    rows = ["| threads | runs | CPU ns/op | wall ns/op | utilisation | CPUs / threads | voluntary switches per 1k ops | involuntary per 1k ops | migrations per 1k ops | run-queue delay per op, ns |",
            "|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|"]
    f = lambda x, fmt: "-" if x is None else format(x, fmt)
    for r in sched_data(paths):
        rows.append(f"| {r['threads']} | {r['runs']} | {r['cpu_ns_per_op']:.0f} | {r['wall_ns_per_op']:.0f} | "
                    f"{r['utilisation']:.3f} | {r['cpus_per_thread']:.3f} | {f(r['vcsw_per_kop'], '.3f')} | "
                    f"{f(r['ivcsw_per_kop'], '.3f')} | {f(r['migrations_per_kop'], '.3f')} | {f(r['runq_ns_per_op'], '.0f')} |")
    return "\n".join(rows)


def runs_data(paths):
    """One flat record per ok run (JSON only): what the prose quotes beside the tables."""
    out = []
    for path in paths:
        for d in points([path]):
            r = d["result"]
            run = r["run"]
            s = run.get("sched") or {}
            p = r.get("probes") or {}
            proc = (p.get("process") or {}).get("rcu") or {}
            store = (p.get("process") or {}).get("store") or {}
            out.append({"file": path, "variant": d["variant"], "threads": d["threads"],
                        "block": d["block"], "seconds": d["seconds"],
                        "wall_ns_per_op": run["wall_ns_per_op"], "cpu_ns_per_op": run["cpu_ns_per_op"],
                        "utilisation": run["utilisation"], "vcsw_per_kop": s.get("vcsw_per_kop"),
                        "load1": r["env"]["loadavg"][0],
                        "writes": (run.get("churn") or {}).get("writes"),
                        "store_writes": store.get("write_locks"),
                        "syncs": sum(x["syncs"] for x in proc.values()),
                        "store_syncs": (proc.get("method_store") or {}).get("syncs")})
    return out


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


KINDS = {  # kind: (table, data, takes one argument)
    "probes": (lambda a: probes_table(a), probes_data, False),
    "machine": (lambda a: machine_table(a), machine_data, False),
    "sched": (lambda a: sched_table(a), sched_data, False),
    "load": (lambda a: load_warnings(a), load_data, False),
    "attribution": (lambda a: attribution_table(a), None, False),
    "runs": (None, runs_data, False),
    "points": (lambda a: points_table(a[0]), None, True),
    "facts": (lambda a: facts(a[0]), lambda a: facts_data(a[0]), True),
}


def main(argv):
    args = [a for a in argv[1:] if a != "--json"]
    as_json = len(args) < len(argv) - 1
    k = KINDS.get(args[0]) if args else None
    if k is None or len(args) < 2 or (k[2] and len(args) != 2) or k[1 if as_json else 0] is None:
        sys.stderr.write("counts.py: usage: counts.py KIND [--json] ARGS, KIND one of %s"
                         " (points, attribution: table only; runs: --json only; points, facts:"
                         " one argument); see the top of counts.py\n" % ", ".join(KINDS))
        return 2
    if as_json:
        print(json.dumps(k[1](args[1:]), indent=1, sort_keys=True))
    else:
        print(k[0](args[1:]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

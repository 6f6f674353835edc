#!/usr/bin/env python3
"""Regenerate every marked table and number of docs/case-study-24344.md and
README.md in place, or (--check) say which numbers disagree with the data.

usage: python3 docs/case-study-24344/regen-tables.py [--check] [RCUPROF [DOC...]]
(from the top of the clone; RCUPROF defaults to build/bin/rcuprof, the
documents to docs/case-study-24344.md and README.md)

Each block between <!-- rcuprof:table KIND ARGS --> and
<!-- /rcuprof:table --> is replaced by what tests/integration/
test_case_study.sh (and test_cli_ux.sh for README) compares it with: `rcuprof compare ARGS`,
`rcuprof report ARGS --out TMP` then TMP/results.md,
`python3 docs/case-study-24344/counts.py ARGS`, or, for `file PATH`, the
committed file PATH itself (a table a command wrote into a committed
folder, e.g. `rcuprof whatif ... --out DIR` and DIR/whatif.md: the page
must show that command, with `--out DIR`).

Numbers in the prose come from JSON, never from a table's text.  A source
is named once, anywhere in the document:

  <!-- rcuprof:src NAME compare ARGS -->   rcuprof compare ARGS --format json
  <!-- rcuprof:src NAME counts KIND ARGS -->  counts.py KIND ARGS --json
  <!-- rcuprof:src NAME json PATH... -->   committed JSON files (whatif.json,
                                          attribution reports; J is the list
                                          of them when there are several)

and each number is  <!-- num NAME EXPR | FORMAT -->TEXT<!-- /num -->:
EXPR is a Python expression over that JSON (J; a dict's keys are names
too, and a dict's keys are attributes: J.rows[0].threads), with min, max,
sum, len, sorted, zip, abs, round, median, span(SEQ) (its min and max), pick(SEQ, key=value...) (the one
element whose fields match), every(SEQ, key=value...) (all of them), and for
compare sources row(T), cell(T, V) and iv(T, V) (change_pct, lo, hi);
FORMAT is a str.format template when it holds "{" (e.g. "{:+.1f}% [{:+.1f},
{:+.1f}]" over a tuple), else a format spec (",d", ".1f").  TEXT is what
EXPR formats to; --check prints every marker whose TEXT differs, and exits 1.

The document is written atomically (temporary file, then rename).
"""
import json
import os
import re
import subprocess
import sys
import tempfile

DOCS = ["docs/case-study-24344.md", "README.md"]
PAT = re.compile(r"(<!-- rcuprof:table (.*?) -->\n)(.*?)(<!-- /rcuprof:table -->)",
                 re.S)
SRC = re.compile(r"<!-- rcuprof:src (\S+) (\S+) (.*?) -->")
NUM = re.compile(r"(<!-- num (\S+) (.*?) -->)(.*?)(<!-- /num -->)", re.S)


class Obj(dict):
    """A JSON object whose keys read as attributes too."""
    def __getattr__(self, k):
        try:
            return self[k]
        except KeyError:
            raise AttributeError(k)


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


def span(xs):
    xs = list(xs)
    return (min(xs), max(xs))


def every(seq, **kw):
    return [x for x in seq if all(x.get(k) == v for k, v in kw.items())]


def pick(seq, **kw):
    m = every(seq, **kw)
    if len(m) != 1:
        raise ValueError("%d elements match %r, not 1" % (len(m), kw))
    return m[0]


def source_json(rcuprof, kind, args):
    if kind == "compare":
        out = subprocess.run([rcuprof, "compare"] + args + ["--format", "json"],
                             check=True, capture_output=True, text=True).stdout
    elif kind == "counts":
        out = subprocess.run([sys.executable, "docs/case-study-24344/counts.py"]
                             + args + ["--json"], check=True,
                             capture_output=True, text=True).stdout
    elif kind == "json" and args:
        js = []
        for path in args:
            with open(path) as f:
                js.append(json.load(f, object_hook=Obj))
        out = None
    else:
        raise ValueError("unknown source kind %r (compare, counts, json PATH...)" % kind)
    j = json.loads(out, object_hook=Obj) if out is not None else js[0] if len(js) == 1 else js
    env = {"__builtins__": {}, "J": j, "min": min, "max": max, "sum": sum, "len": len,
           "sorted": sorted, "abs": abs, "round": round, "median": median,
           "pick": pick, "every": every, "span": span, "zip": zip}
    if isinstance(j, dict):
        env.update((k, v) for k, v in j.items() if k.isidentifier())
    if kind == "compare":
        env["row"] = lambda t: pick(j["rows"], threads=t)
        env["cell"] = lambda t, v: pick(j["rows"], threads=t)["cells"][v]
        env["iv"] = lambda t, v: tuple(pick(j["rows"], threads=t)["changes"][v][k]
                                       for k in ("change_pct", "change_lo_pct", "change_hi_pct"))
    return env


def numbers(rcuprof, doc, text):
    """(new text, [(marker, old, new)...]) with every num marker refilled."""
    sources = {}
    for m in SRC.finditer(text):
        name, kind, args = m.group(1), m.group(2), m.group(3).split()
        if name in sources:
            sys.exit("regen-tables.py: %s: source %s named twice" % (doc, name))
        sources[name] = (kind, args)
    envs, diffs = {}, []

    def one(m):
        name, body = m.group(2), m.group(3)
        if name not in sources:
            sys.exit("regen-tables.py: %s: %s: no <!-- rcuprof:src %s ... -->"
                     % (doc, m.group(1), name))
        expr, sep, fmt = body.rpartition(" | ")
        try:
            if name not in envs:
                envs[name] = source_json(rcuprof, *sources[name])
            val = eval(expr if sep else body, dict(envs[name]))
            if not sep:
                new = str(val)
            elif "{" in fmt:
                new = fmt.format(*val) if isinstance(val, (tuple, list)) else fmt.format(val)
            else:
                new = format(val, fmt)
        except subprocess.CalledProcessError as e:
            sys.exit("regen-tables.py: source %s failed: %s"
                     % (name, (e.stderr or "").strip()))
        except Exception as e:
            sys.exit("regen-tables.py: %s: %s: %s" % (doc, m.group(1), e))
        if new != m.group(4):
            diffs.append((m.group(1), m.group(4), new))
        return m.group(1) + new + m.group(5)

    return NUM.sub(one, text), diffs


def render(rcuprof, kind, args):
    if kind == "compare":
        return subprocess.run([rcuprof, "compare"] + args, check=True,
                              capture_output=True, text=True).stdout
    if kind == "report":
        with tempfile.TemporaryDirectory() as d:
            subprocess.run([rcuprof, "report"] + args + ["--out", d],
                           check=True, capture_output=True, text=True)
            with open(os.path.join(d, "results.md")) as f:
                return f.read()
    if kind == "counts":
        return subprocess.run([sys.executable,
                               "docs/case-study-24344/counts.py"] + args,
                              check=True, capture_output=True,
                              text=True).stdout
    if kind == "file":
        if len(args) != 1:
            sys.exit("regen-tables.py: file takes one path, got %r" % args)
        with open(args[0]) as f:
            return f.read()
    sys.exit("regen-tables.py: unknown table kind %r" % kind)


def check(rcuprof, doc):
    with open(doc) as f:
        text = f.read()
    _, diffs = numbers(rcuprof, doc, text)
    for marker, old, new in diffs:
        print("%s: %r in the text, %r from the data: %s" % (doc, old, new, marker))
    print("regen-tables.py: %d numbers checked in %s, %d differ"
          % (len(NUM.findall(text)), doc, len(diffs)))
    return not diffs


def regen(rcuprof, doc):
    with open(doc) as f:
        text = f.read()

    def one(m):
        kind, *args = m.group(2).split()
        try:
            body = render(rcuprof, kind, args)
        except OSError as e:
            sys.exit("regen-tables.py: %s %s failed: %s"
                     % (kind, " ".join(args), e))
        except subprocess.CalledProcessError as e:
            sys.exit("regen-tables.py: %s %s failed: %s"
                     % (kind, " ".join(args), (e.stderr or "").strip()))
        return m.group(1) + body + m.group(4)

    new, n = PAT.subn(one, text)
    new, diffs = numbers(rcuprof, doc, new)
    tmp = doc + ".tmp"
    with open(tmp, "w") as f:
        f.write(new)
    os.replace(tmp, doc)
    print("regen-tables.py: %d tables and %d numbers regenerated in %s, %d numbers changed"
          % (n, len(NUM.findall(new)), doc, len(diffs)))


def main():
    argv = sys.argv[1:]
    checking = argv[:1] == ["--check"]
    argv = argv[1:] if checking else argv
    rcuprof = argv[0] if argv else "build/bin/rcuprof"
    ok = True
    for doc in argv[1:] or DOCS:
        if checking:
            ok = check(rcuprof, doc) and ok
        else:
            regen(rcuprof, doc)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

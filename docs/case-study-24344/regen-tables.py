#!/usr/bin/env python3
"""Regenerate every marked table of docs/case-study-24344.md and README.md
in place.

usage: python3 docs/case-study-24344/regen-tables.py [RCUPROF [DOC...]]
(from the top of the clone; RCUPROF defaults to build/bin/rcuprof, the
documents to docs/case-study-24344.md and README.md)

Each block between <!-- rcuprof:table KIND ARGS --> and
<!-- /rcuprof:table --> is replaced by what tests/integration/
test_case_study.sh (and test_cli_ux.sh for README) compares it with: `rcuprof compare ARGS`,
`rcuprof report ARGS --out TMP` then TMP/results.md,
`python3 docs/case-study-24344/counts.py ARGS`, or, for `file PATH`, the
committed file PATH itself (a table a command wrote into a committed
folder, e.g. `rcuprof whatif ... --out DIR` and DIR/whatif.md: the page
must show that command, with `--out DIR`).  The prose around the
tables is not touched: read the diff and fix the figures it quotes.
The document is written atomically (temporary file, then rename).
"""
import os
import re
import subprocess
import sys
import tempfile

DOCS = ["docs/case-study-24344.md", "README.md"]
PAT = re.compile(r"(<!-- rcuprof:table (.*?) -->\n)(.*?)(<!-- /rcuprof:table -->)",
                 re.S)


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
    tmp = doc + ".tmp"
    with open(tmp, "w") as f:
        f.write(new)
    os.replace(tmp, doc)
    print("regen-tables.py: %d tables regenerated in %s" % (n, doc))


def main():
    rcuprof = sys.argv[1] if len(sys.argv) > 1 else "build/bin/rcuprof"
    for doc in sys.argv[2:] or DOCS:
        regen(rcuprof, doc)


if __name__ == "__main__":
    main()

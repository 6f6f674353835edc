#!/usr/bin/env python3
"""Lines per C function definition, longest first.

    tests/tools/function-lengths.py [-n N] [DIR...]   (default: src probes analysis)

A definition, in this tree's OpenSSL style, is a header that starts in
column 0 and is followed by a line holding only "{"; it ends at the next
line holding only "}".  The count runs from the header's first line to the
closing brace, both included.  Tests are not counted unless named.
"""
import os
import re
import sys

NAME = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*\(")


def functions(path):
    lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
    i = 0
    while i < len(lines):
        if lines[i] == "{":
            # Walk back over the header: contiguous non-blank lines, the
            # first of them in column 0 and not a preprocessor line.
            j = i - 1
            while j > 0 and lines[j - 1].strip() != "" \
                    and not lines[j].startswith(("}", "#")) \
                    and (lines[j].startswith((" ", "\t")) or "(" not in lines[j]):
                j -= 1
            header = " ".join(l.strip() for l in lines[j:i])
            m = NAME.search(header)
            end = i + 1
            while end < len(lines) and lines[end] != "}":
                end += 1
            if m and "=" not in header:
                yield m.group(1), j + 1, end - j + 1
            i = end
        i += 1


def main(argv):
    n = 5
    if len(argv) >= 2 and argv[0] == "-n":
        n = int(argv[1])
        argv = argv[2:]
    if argv and argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    roots = argv or ["src", "probes", "analysis"]
    rows = []
    for root in roots:
        if not os.path.isdir(root):
            print(f"function-lengths: {root}: no such folder: "
                  "name folders of C sources", file=sys.stderr)
            return 2
        for d, _, files in os.walk(root):
            for f in sorted(files):
                if f.endswith(".c"):
                    p = os.path.join(d, f)
                    rows += [(length, name, p, line)
                             for name, line, length in functions(p)]
    rows.sort(key=lambda r: (-r[0], r[2], r[3]))
    for length, name, path, line in rows[:n]:
        print(f"{length:5d}  {name}  {path}:{line}")
    print(f"{len(rows)} functions; mean {sum(r[0] for r in rows) / max(1, len(rows)):.1f} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

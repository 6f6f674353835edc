#!/usr/bin/env python3
"""The include rule: no folder includes a folder above it.

    tests/tools/check-layers.py [SOURCE_DIR]
    tests/tools/check-layers.py --self-test   (the rule catches a planted
                                               violation, and only it)

Rooms and their layers (DEVELOPERS.md, "Layers"); data flows one way, from
the commands and the driver down to the shared helpers:

    4  src/cli (commands)     src/stress (the driver, workloads/ included)
    3  analysis/report (the writers)
    2  analysis (statistics, the decoder, compare, scaling, explain's
       detection and rules, the attribution)
    1  probes                 src/placement
    0  src/common

A file may include its own room's headers and those of a lower layer,
never a higher one nor another room of its own layer (so src/cli and
src/stress, the two sides of the process boundary, never include each
other).  Headers that are not in these folders (OpenSSL's, the system's,
generated ones) are not counted.  Prints every violation; exits 1 if any.
"""
import os
import re
import sys

ROOMS = [  # (folder, layer): longest folder first wins
    ("analysis/report", 3),
    ("analysis", 2),
    ("src/common", 0),
    ("src/placement", 1),
    ("src/stress", 4),
    ("src/cli", 4),
    ("probes", 1),
]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def room_of(rel):
    for folder, layer in sorted(ROOMS, key=lambda r: -len(r[0])):
        if rel == folder or rel.startswith(folder + "/"):
            return folder, layer
    return None, None


def main(argv):
    root = os.path.abspath(argv[1] if len(argv) > 1 else ".")
    files = []
    for folder, _ in ROOMS:
        for d, _, names in os.walk(os.path.join(root, folder)):
            for n in names:
                if n.endswith((".c", ".h", ".def")):
                    files.append(os.path.relpath(os.path.join(d, n), root))
    files = sorted(set(files))
    by_name = {}
    for f in files:
        by_name.setdefault(os.path.basename(f), []).append(f)

    def resolve(src, inc):
        near = os.path.normpath(os.path.join(os.path.dirname(src), inc))
        if near in files:
            return near
        hits = [f for f in by_name.get(os.path.basename(inc), [])
                if f.endswith("/" + inc) or f == inc]
        return hits[0] if len(hits) == 1 else (hits[0] if hits else None)

    bad = checked = 0
    for f in files:
        froom, flayer = room_of(f)
        for lineno, line in enumerate(open(os.path.join(root, f),
                                           errors="replace"), 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            h = resolve(f, m.group(1))
            if h is None:
                continue        # not ours: OpenSSL's, generated, system
            hroom, hlayer = room_of(h)
            checked += 1
            if hroom == froom or hlayer < flayer:
                continue
            bad += 1
            print(f"{f}:{lineno}: includes {m.group(1)} ({hroom}, layer "
                  f"{hlayer}) from {froom} (layer {flayer}): "
                  f"{'a room above it' if hlayer > flayer else 'another room of its layer'}")
    print(f"{checked} includes of {len(files)} files checked, {bad} against the rule")
    return 1 if bad else 0


def self_test():
    """A tiny tree: probes including the driver's header must be caught,
    the driver including probes, and a workload its room's header, not."""
    import tempfile

    with tempfile.TemporaryDirectory() as root:
        tree = {
            "src/stress/stress.h": "",
            "src/stress/workloads/w.c": '#include "stress.h"\n',
            "src/stress/main.c": '#include "rcuprof_p.h"\n#include "u.h"\n',
            "src/common/u.h": "",
            "src/cli/c.c": '#include "stress.h"\n',
            "probes/rcuprof_p.h": "",
            "probes/p.c": '#include "stress.h"\n#include "u.h"\n',
        }
        for rel, text in tree.items():
            os.makedirs(os.path.dirname(os.path.join(root, rel)),
                        exist_ok=True)
            open(os.path.join(root, rel), "w").write(text)
        import io
        import contextlib

        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            rc = main(["", root])
        lines = [l for l in out.getvalue().splitlines() if ": includes " in l]
        want = {"probes/p.c:1", "src/cli/c.c:1"}
        got = {l.split(": includes ")[0] for l in lines}
        ok = rc == 1 and got == want
        print(("ok" if ok else "FAIL") + f": self-test: rc {rc}, caught {sorted(got)}, wanted {sorted(want)}")
        return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(self_test() if sys.argv[1:] == ["--self-test"] else main(sys.argv))

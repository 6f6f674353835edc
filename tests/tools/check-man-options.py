#!/usr/bin/env python3
"""Check docs/rcuprof.1 against the CLI's own option table, both ways.

usage: check-man-options.py RCUPROF [MANPAGE]

For every command, the options its `--help` lists (and its line of the
global `rcuprof --help`) must each be a .TP item of the man page's section
for the command (driver options: of "Driver options"), and every .TP item
of a command's section must be an option its `--help` lists (of "Driver
options": one `run --help` lists).  The help text is printed from the
option rows (src/common/rcuprof_opts.def and each command's rows in
src/cli/), so this is the man page against the option table.

On a mismatch it prints each one, and for an option the page lacks a .TP
stub made from the help line, to paste and edit; exit 1.  Exit 0 when the
page and the help agree.  Run after adding an option:
    python3 tests/tools/check-man-options.py build/bin/rcuprof
"""
import re
import subprocess
import sys

# command words -> title regex of its man page section
COMMANDS = [
    ("variants", r"^rcuprof variants( |$)"),
    ("variant add NAME", r"^rcuprof variant add( |$)"),
    ("events", r"^rcuprof events( |$)"),
    ("run", r"^rcuprof run( |$)"),
    ("sweep", r"^rcuprof sweep( |$)"),
    ("compare", r"^rcuprof compare( |$)"),
    ("report", r"^rcuprof report( |$)"),
    ("explain", r"^rcuprof explain( |$)"),
    ("whatif", r"^rcuprof whatif( |$)"),
    ("attribute", r"^rcuprof attribute( |$)"),
    ("pack", r"^rcuprof pack( |$)"),
    ("bundle", r"^rcuprof bundle( |$)"),
    ("import", r"^rcuprof import( |$)"),
    ("host", r"^rcuprof host( |$)"),
]
DRIVER = r"^Driver options"
GLOBAL = r"^GLOBAL OPTIONS"
# a long name, or a short letter (run takes upper-case ones too: -N, -W)
OPT = re.compile(r"(?<![\w-])(--[a-z][a-z0-9-]*|-[a-zA-Z])\b")


def roff_text(s):
    s = s.replace("\\-", "-")
    s = re.sub(r"\\f[BIRP]", "", s)
    s = re.sub(r"^\.[A-Z]{1,2} ", "", s)
    return s


def man_sections(path):
    """title -> the options of the tag lines after each .TP"""
    sec, title, tag = {}, None, False
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        m = re.match(r"^\.S[SH] (.*)", line)
        if m:
            title = roff_text(m.group(1)).strip('"')
            sec.setdefault(title, set())
            tag = False
            continue
        if line.startswith(".TP"):
            tag = True
            continue
        if tag and title is not None:
            sec[title] |= set(OPT.findall(roff_text(line)))
            tag = False
    return sec


def tags(sections, regex):
    out = set()
    for title, opts in sections.items():
        if re.search(regex, title):
            out |= opts
    return out


def helptext(rcuprof, words):
    r = subprocess.run([rcuprof] + words + ["--help"], capture_output=True,
                       text=True)
    if r.returncode != 0:
        sys.exit("check-man-options: %s --help exits %d: %s"
                 % (" ".join(words), r.returncode, r.stderr.strip()))
    return r.stdout


def help_options(text):
    """(own, driver, lines): options of the help's rows, the ones listed
    under its 'driver options' heading apart, and each option's row."""
    own, driver, rows, in_driver = set(), set(), {}, False
    for line in text.splitlines():
        if line.lower().startswith("driver options"):
            in_driver = True
            continue
        m = re.match(r"^  (--?[a-zA-Z][^ ]*(?: [^ ]+)*?)(?:\s{2,}|$)", line)
        if m:
            # '  -n, --threads N   text': every option before the gap
            for o in OPT.findall(m.group(1)):
                (driver if in_driver else own).add(o)
                rows[o] = line.strip()
        elif line.startswith("usage:"):
            own |= set(OPT.findall(line))
    return own, driver, rows


def stub(row):
    """A .TP item for a help row: '--name ARG   text' -> roff."""
    m = re.match(r"(?:(-[a-zA-Z]), )?(--?[a-zA-Z][a-z0-9-]*)(?: (\S+))?\s{2,}(.*)", row)
    if not m:
        return ".TP\n.B %s\n" % row.replace("-", "\\-")
    letter, name, arg, text = m.groups()
    if letter:
        name = '"%s, %s"' % (letter, name)
    head = (".BI %s \" %s\"" % (name.replace("-", "\\-"), arg) if arg
            else ".B %s" % name.replace("-", "\\-"))
    return ".TP\n%s\n%s\n" % (head, text.replace("-", "\\-"))


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    rcuprof = sys.argv[1]
    man = sys.argv[2] if len(sys.argv) == 3 else "docs/rcuprof.1"
    sections = man_sections(man)
    bad = []
    glob = helptext(rcuprof, [])
    gown, _, _ = help_options(glob)
    for o in sorted(gown - tags(sections, GLOBAL)):
        bad.append("rcuprof --help lists %s; GLOBAL OPTIONS has no .TP for it" % o)
    for o in sorted(tags(sections, GLOBAL) - gown):
        bad.append("GLOBAL OPTIONS documents %s, which rcuprof --help does not list" % o)
    run_help = help_options(helptext(rcuprof, ["run"]))
    run_all = run_help[0] | run_help[1]
    driver_tags = tags(sections, DRIVER)
    for words, regex in COMMANDS:
        name = words.replace(" NAME", "")
        if not tags(sections, regex) and not any(re.search(regex, t) for t in sections):
            bad.append("no .SS section for rcuprof %s" % name)
            continue
        own, driver, rows = help_options(helptext(rcuprof, words.split()))
        syn = [l for l in glob.splitlines()
               if re.match(r"^  rcuprof %s( |$)" % re.escape(name), l)]
        for l in syn:
            own |= set(OPT.findall(l))
        have = tags(sections, regex)
        # run's rows are the driver options too: its section and "Driver
        # options" together document them
        if name == "run":
            have_all = have | driver_tags
            want = own | driver
        else:
            have_all = have | (driver_tags if driver else set())
            want = own | driver
        for o in sorted(want - have_all):
            bad.append("%s --help lists %s; the man page's section for it has no .TP item\n%s"
                       % (name, o, stub(rows.get(o, o))))
        for o in sorted(have - want):
            bad.append("the man page's section 'rcuprof %s' documents %s, which %s --help does not list"
                       % (name, o, name))
    for o in sorted(driver_tags - run_all):
        bad.append("the man page's Driver options documents %s, which run --help does not list" % o)
    for b in bad:
        print("check-man-options: " + b)
    if bad:
        return 1
    print("check-man-options: man page and --help agree (%d sections)" % len(COMMANDS))
    return 0


if __name__ == "__main__":
    sys.exit(main())

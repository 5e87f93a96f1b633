#!/usr/bin/env python3
"""Fails when the modules' numbered binds grow: issue 26 asks for one helper family to bind SQL,
and storage/bind.hpp's bind_parameters(q, a, b, c) binds a row of values in order, optionals as
NULL, where q->bind(1, a); q->bind(2, b); ... numbered each value by hand. Kept by a meson test
(tests/meson.build, suite 'checks').

usage: numbered_binds.py [--root DIR]

Counts the calls with a literal parameter number, `bind(3, ...)`, `bind_or_null(q, 3, ...)`,
`bind_nonempty_or_null(q, 3, ...)` and `bind_parameter(q, 3, ...)`, in src/modules, and fails when there are more than CEILING.
A single `q->bind(1, id)` is clear as it is and may stay; a converted module lowers CEILING to
what remains, so the count only goes down.
"""
import argparse
import os
import re
import sys

# What remained once the modules' runs of numbered binds became bind_parameters (issue 26; 176 then,
# 98 once the inserts of co-owners, documents, outbox messages and webhooks became rows too):
# single binds, binds in a loop, and some rows with a value bound under a condition.
CEILING = 98
NUMBERED = re.compile(r"\bbind\(\s*[0-9]+|\bbind_(?:nonempty_)?or_null\([^,()]+,\s*[0-9]+|\bbind_parameter\([^,()]+,\s*[0-9]+")


def count(root):
    """(total, {path: count}) of the numbered binds under root/src/modules."""
    per_file = {}
    for folder, dirs, files in os.walk(os.path.join(root, "src", "modules")):
        dirs.sort()
        for name in sorted(files):
            if name.endswith((".cpp", ".hpp")):
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as f:
                    n = len(NUMBERED.findall(f.read()))
                if n:
                    per_file[os.path.relpath(path, root)] = n
    return sum(per_file.values()), per_file


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    args = parser.parse_args()
    total, per_file = count(args.root)
    if total > CEILING:
        print(f"{total} numbered binds in src/modules, more than the {CEILING} left: bind a row with "
              "bind_parameters (storage/bind.hpp). The most:")
        for path, n in sorted(per_file.items(), key=lambda item: -item[1])[:10]:
            print(f"  {path}: {n}")
        return 1
    print(f"{total} numbered binds in src/modules (at most {CEILING})"
          + ("; lower CEILING in tools/numbered_binds.py to it" if total < CEILING else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Fails when a module reads a tool call's arguments other than through tools/arguments.hpp (issue 26:
one helper family for reading arguments). Kept by a meson test (tests/meson.build, suite 'checks').

usage: argument_reads.py [--root DIR]

A handler reads its arguments with `call.arguments()` (Arguments: text, optional_text, nonblank,
flag, rows...), which checks each key against the tool's input schema and names a refused argument
by its JSON Pointer. `call.args`, the raw JSON, is the registry's: in src/modules it is refused, as
is a string-keyed read of it (`args["unitId"]`, `args.value("page", 1)`, `args.contains(...)`).
"""
import argparse
import os
import re
import sys

# json's value(key, default) takes two arguments; Arguments::value(key) one.
RAW = re.compile(r"\bcall\.args\b|\bargs\[\s*\"|\bargs\.(?:contains|find|at)\(|\bargs\.value\([^(),]*,|\boptional_arg<")


def findings(root):
    """[(path, line number, line)] of raw argument reads under root/src/modules."""
    found = []
    for folder, dirs, files in os.walk(os.path.join(root, "src", "modules")):
        dirs.sort()
        for name in sorted(files):
            if not name.endswith((".cpp", ".hpp")):
                continue
            path = os.path.join(folder, name)
            with open(path, encoding="utf-8") as f:
                for number, line in enumerate(f, 1):
                    if RAW.search(line.split("//", 1)[0]):
                        found.append((os.path.relpath(path, root), number, line.strip()))
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    args = parser.parse_args()
    found = findings(args.root)
    for path, number, line in found:
        print(f"{path}:{number}: {line}")
    if found:
        print(f"{len(found)} raw argument read(s) in src/modules: read them with call.arguments() "
              "(tools/arguments.hpp), which checks the key against the tool's schema.")
        return 1
    print("every argument in src/modules is read through call.arguments()")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Writes tests/catalogue.json, the one pinned copy of the tool contract (names, modules, scopes,
admin-only, REST routes), from the registry: `python3 tests/update_catalogue.py build/syndic-mcp`.
registry_test.cpp compares the registry with it, so a tool renamed, re-scoped or re-routed by
accident fails there. After adding a module (or changing a tool's surface on purpose), run this
and read the diff: it must show exactly the tools you meant to add or change."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import catalogue  # noqa: E402


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: update_catalogue.py path/to/syndic-mcp")
    tools = catalogue(os.path.abspath(sys.argv[1]))
    lines = [json.dumps({k: t[k] for k in ("name", "module", "scope", "adminOnly", "route", "created")},
                        ensure_ascii=False) for t in tools]
    about = ("The tool contract pinned (names, modules, scopes, admin-only, REST routes; created: the route "
             "answers 201), generated from the registry by tests/update_catalogue.py and compared with it by "
             "tests/unit/registry_test.cpp. Every other test reads the registry itself. After adding a module, "
             "run python3 tests/update_catalogue.py build/syndic-mcp and check the diff.")
    text = '{\n  "about": ' + json.dumps(about) + ',\n  "tools": [\n    ' + ",\n    ".join(lines) + "\n  ]\n}\n"
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "catalogue.json"), "w", encoding="utf-8") as f:
        f.write(text)
    print(f"{len(tools)} tools written to tests/catalogue.json")


if __name__ == "__main__":
    main()

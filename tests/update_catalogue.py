#!/usr/bin/env python3
"""Writes each module's pinned copy of the tool contract (names, scopes, admin-only, REST routes),
tests/unit/<module with _>/catalogue.json, from the registry:
`python3 tests/update_catalogue.py build/syndic-mcp`. registry_test.cpp compares the registry with
them, so a tool renamed, re-scoped or re-routed by accident fails there. After adding a module (or
changing a tool's surface on purpose), run this and read the diff: it must show exactly the tools
you meant to add or change, in that module's folder alone."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import catalogue  # noqa: E402

ABOUT = ("The {module} module's tool contract pinned (names, scopes, admin-only, REST routes; created: the route "
         "answers 201), generated from the registry by tests/update_catalogue.py and compared with it by "
         "tests/unit/registry_test.cpp. Every other test reads the registry itself.")


def pinned_files(binary):
    """{path of each module's catalogue.json: its text}, as the registry of `binary` makes them."""
    by_module = {}
    for t in catalogue(os.path.abspath(binary)):
        by_module.setdefault(t["module"], []).append(t)
    unit = os.path.join(os.path.dirname(os.path.abspath(__file__)), "unit")
    files = {}
    for module, listed in by_module.items():
        lines = [json.dumps({k: t[k] for k in ("name", "scope", "adminOnly", "route", "created")}, ensure_ascii=False)
                 for t in listed]
        files[os.path.join(unit, module.replace("-", "_"), "catalogue.json")] = (
            '{\n  "about": ' + json.dumps(ABOUT.format(module=module)) + ',\n  "module": ' + json.dumps(module) +
            ',\n  "tools": [\n    ' + ",\n    ".join(lines) + "\n  ]\n}\n")
    return files


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: update_catalogue.py path/to/syndic-mcp")
    files = pinned_files(sys.argv[1])
    for path, text in files.items():
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    print(f"{len(files)} modules' tools written to tests/unit/<module>/catalogue.json")


if __name__ == "__main__":
    main()

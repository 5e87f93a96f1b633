#!/usr/bin/env python3
"""The stdio transport's limits, through the real executable: a line longer than 4 MiB is refused
(JSON-RPC -32600 with limitBytes) without being held whole, and the server goes on; a line just
under the limit is served; the read-ahead is bounded, so a client that writes far faster than it
reads is held back by the pipe instead of filling the server's memory.

usage: run_stdio_tests.py SYNDIC_MCP
"""
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import checks  # noqa: E402
from checks import check  # noqa: E402

BIN = sys.argv[1]
MIB = 1024 * 1024



def status(pid, field):
    with open(f"/proc/{pid}/status") as f:
        for row in f:
            if row.startswith(field + ":"):
                return int(row.split()[1]) * 1024
    return 0


def ping(i, pad=0):
    params = {"pad": "x" * pad} if pad else {}
    return (json.dumps({"jsonrpc": "2.0", "id": i, "method": "ping", "params": params}) + "\n").encode()


with tempfile.TemporaryDirectory() as tmp:
    env = dict(os.environ, SYNDIC_DB=os.path.join(tmp, "s.db"))
    server = subprocess.Popen([BIN, "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, env=env)

    # 5 MiB in one line, written in pieces: refused once the limit is passed, the rest dropped.
    long_line = b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"' + b"y" * (5 * MIB) + b'"}}\n'
    for start in range(0, len(long_line), MIB):
        server.stdin.write(long_line[start:start + MIB])
    server.stdin.write(ping(2))
    server.stdin.flush()
    refusal = json.loads(server.stdout.readline())
    check("a 5 MiB line is refused as an invalid request", refusal.get("error", {}).get("code") == -32600
          and refusal.get("id") is None, str(refusal)[:300])
    check("...saying how long a line may be", refusal.get("error", {}).get("data", {}).get("limitBytes") == 4 * MIB)
    check("...and the next line is served", json.loads(server.stdout.readline()) == {"jsonrpc": "2.0", "id": 2, "result": {}})
    check("...by a server that never held the line whole", status(server.pid, "VmHWM") < 40 * MIB,
          f"{status(server.pid, 'VmHWM')} bytes")

    server.stdin.write(ping(3, pad=4 * MIB - 200))
    server.stdin.flush()
    check("a line just under 4 MiB is served", json.loads(server.stdout.readline()).get("id") == 3)
    server.stdin.close()
    server.wait(timeout=30)
    check("the server ends cleanly at end of input", server.returncode == 0)

    # Read-ahead: 1,000 lines of 64 KiB (about 64 MiB) written while nothing is read. The answers
    # (tools/list, tens of kilobytes each) soon fill stdout's pipe; the server then stops reading
    # once its read-ahead is full, and the writer is held back by stdin's pipe.
    server = subprocess.Popen([BIN, "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, env=env)
    lines = [(json.dumps({"jsonrpc": "2.0", "id": i, "method": "tools/list", "params": {"pad": "z" * 65536}}) + "\n").encode()
             for i in range(1000)]
    written = [0]

    def write_all():
        try:
            for line in lines:
                server.stdin.write(line)
                server.stdin.flush()
                written[0] += len(line)
            server.stdin.close()
        except BrokenPipeError:
            pass

    writer = threading.Thread(target=write_all)
    writer.start()
    time.sleep(2)
    held_back = written[0]
    resident = status(server.pid, "VmRSS")
    check("a client that does not read is held back by the pipe", held_back < 32 * MIB, f"{held_back} bytes written")
    check("...while the server's memory stays bounded", resident < 64 * MIB, f"{resident} bytes resident")
    answers = 0
    for line in server.stdout:
        answers += json.loads(line).get("id") is not None
    writer.join()
    server.wait(timeout=60)
    check("...and every request is answered once it reads", answers == 1000, f"{answers} answers")

checks.finish()

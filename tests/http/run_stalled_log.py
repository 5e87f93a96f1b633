#!/usr/bin/env python3
"""Logging never blocks serving or stopping (issue 28, point 7), through the real executable: an
HTTP bridge whose stderr is a pipe nobody reads (a stalled log shipper, a paused terminal).

usage: run_stalled_log.py SYNDIC_MCP

Checks: 3,000 requests on the bridge while its stderr pipe (64 KiB) is full are all answered (the
build before froze after about 590 access lines); once the pipe is read again the bridge says how
many lines it dropped and logs the next requests; SIGTERM while the pipe is full again stops it
with status 0 within 10 s (the build before ignored it).

Python 3 standard library only.
"""
import http.client
import os
import signal
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from http_support import *  # noqa: E402,F401,F403

REQUESTS = 3000


def answered(port, count, deadline=5):
    """How many of `count` GET /api/units (no key: 401, one access line each) are answered, each
    within `deadline` seconds, on one keep-alive connection; stops at the first that is not."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=deadline)
    done = 0
    try:
        for _ in range(count):
            conn.request("GET", "/api/units")
            r = conn.getresponse()
            r.read()
            if r.status != 401:
                break
            done += 1
    except (OSError, http.client.HTTPException):
        pass
    finally:
        conn.close()
    return done


def wait_listening(port, proc, timeout=20):
    end = time.monotonic() + timeout
    while time.monotonic() < end and proc.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return True
        except OSError:
            time.sleep(0.1)
    return False


def terminated(proc):
    """SIGTERM, then the exit status within 10 s (None: still running, then killed)."""
    proc.send_signal(signal.SIGTERM)
    try:
        return proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        return None


def main_groups(s, k, demo, tmp, db):
    section("a bridge whose stderr nobody reads")
    port = free_port()
    # stderr is a pipe this script does not read until told: it fills at 64 KiB.
    proc = subprocess.Popen([BIN, "http", "--db", db, "--listen", f"127.0.0.1:{port}"], stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=ENV)
    if not check("the bridge listens", wait_listening(port, proc)):
        terminated(proc)
        return [s]
    started = time.monotonic()
    n = answered(port, REQUESTS)
    check(f"all {REQUESTS} requests answered while stderr is full (the build before stopped near 590)", n == REQUESTS,
          f"{n} answered")
    print(f"     ({n} answers in {time.monotonic() - started:.1f} s)", flush=True)

    # Read the pipe again: the bridge tells what it dropped and logs again.
    lines = []
    reader = threading.Thread(target=lambda: lines.extend(l.decode("utf-8", "replace") for l in proc.stderr), daemon=True)
    reader.start()
    time.sleep(0.5)
    later = answered(port, 3)
    end = time.monotonic() + 10
    while time.monotonic() < end and not any("log line(s) dropped" in l for l in lines):
        answered(port, 1)
        time.sleep(0.2)
    note = next((l for l in lines if "log line(s) dropped" in l), "")
    check("once stderr is read again: a line says how many log lines were dropped", later == 3 and bool(note),
          f"{later} answered; last lines {lines[-3:]!r}")
    check("...and the next requests are logged again", any(" access " in l and "/api/units" in l for l in lines[-20:]),
          repr(lines[-3:]))

    section("SIGTERM with stderr full")
    port = free_port()
    proc2 = subprocess.Popen([BIN, "http", "--db", db, "--listen", f"127.0.0.1:{port}"], stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=ENV)
    if check("a second bridge listens", wait_listening(port, proc2)):
        n = answered(port, 1500)
        code = terminated(proc2)
        check("SIGTERM while stderr is full: the bridge stops within 10 s, status 0 (the build before ignored it)",
              code == 0, f"{n} answered before; status {code}")
    code = terminated(proc)
    check("the first bridge stops on SIGTERM, status 0", code == 0, f"status {code}")
    return [s]


if __name__ == "__main__":
    main(main_groups)

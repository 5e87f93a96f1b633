#!/usr/bin/env python3
"""Pipes a .jsonl session through the real syndic-mcp executable and compares its answers.

usage: run_transcript.py SYNDIC_MCP SESSION.jsonl [--expected FILE] [--update]

The session runs on a fresh database holding the demo syndicate, with its admin key in
SYNDIC_API_KEY (a first line "#! no-key" runs it without credentials; "#! args ..." adds
server arguments; "#! relative-dates" writes each day within 800 days of today, Montreal's, as
<today+N>). Lines starting with "#" are comments; "#! no-answer" says the next request
gets no answer (it was cancelled); "#! clock +10d+1h" serves the rest of the session from a new
server on the same database whose clock starts that far from now (faketime: a meeting's day). A request may use ${N.path} for a value
from the structuredContent of the answer to request id N (e.g. ${3.data.0.id}), so a session can
create a record and then change it, ${now+10d} for the time ten days from now (UTC), and ${today+10d} for
the day ten days from today (Montreal's). Answers are compared, line by line, with the expected file
(default: tests/transcripts/<name>.expected.jsonl) after UUIDs, times and keys are replaced by
<uuid>, <time> and <key>. --update rewrites the expected file instead.
"""
import argparse
import datetime
import json
import os
import re
import subprocess
import sys
import tempfile
import zoneinfo

UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
TIME = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})")
KEY = re.compile(r"sk_[0-9A-Za-z]{32,}")
PLACEHOLDER = re.compile(r"\$\{(\w+)\.([^}]*)\}")
TIME_PLACEHOLDER = re.compile(r"\$\{now([+-]\d+)d\}")
DAY_PLACEHOLDER = re.compile(r"\$\{today([+-]\d+)d\}")
DAYS = re.compile(r'("daysAhead":)-?\d+(\.\d+)?|-?\d+\.\d+( days away)')


DATE = re.compile(r"(?<![\d-])(\d{4})-(\d{2})-(\d{2})(?![\d:T])")
relative_dates = False  # the "#! relative-dates" directive
data_dir = None  # the session's temporary data folder, written <data> (a document's path)
# "#! clock +10d+1h" (a line of its own): the server is restarted on the same database with its
# clock that far from now (Debian's faketime), as a meeting's day comes.
CLOCK_DIRECTIVE = re.compile(r"^#! clock \+(\d+)d(?:\+(\d+)h)?$")


def montreal_today():
    return datetime.datetime.now(zoneinfo.ZoneInfo("America/Montreal")).date()


def moved_clock(days, hours):
    """Now plus `days` and `hours`, in UTC, on Montreal's day `days` from today: late in the evening
    the hours would cross Montreal's midnight and every <today+N> of the rest of the session would
    be one more than its expected file says, so the clock stops at that day's last second instead."""
    montreal = zoneinfo.ZoneInfo("America/Montreal")
    moved = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=days, hours=hours)
    day = montreal_today() + datetime.timedelta(days=days)
    if moved.astimezone(montreal).date() != day:
        moved = datetime.datetime.combine(day, datetime.time(23, 59, 59), tzinfo=montreal)
    return moved.astimezone(datetime.timezone.utc)


def relative(match):
    """A day near today (the syndicate's, Montreal's) as <today+N>: a session whose records are dated
    from ${now+Nd} answers the same on any day."""
    try:
        day = datetime.date(int(match.group(1)), int(match.group(2)), int(match.group(3)))
    except ValueError:
        return match.group(0)
    offset = (day - montreal_today()).days
    return f"<today{offset:+d}>" if abs(offset) <= 800 else match.group(0)


def normalize(line):
    if data_dir:
        line = line.replace(data_dir, "<data>")
    line = DAYS.sub(lambda m: (m.group(1) or "") + "<days>" + (m.group(3) or ""), line)
    line = KEY.sub("<key>", TIME.sub("<time>", UUID.sub("<uuid>", line)))
    return DATE.sub(relative, line) if relative_dates else line


def expects_answer(line):
    try:
        message = json.loads(line)
    except ValueError:
        return True
    if isinstance(message, list):
        return len(message) == 0 or any(not isinstance(m, dict) or "id" in m for m in message)
    return not isinstance(message, dict) or "id" in message


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("session")
    ap.add_argument("--expected")
    ap.add_argument("--update", action="store_true")
    args = ap.parse_args()

    name = os.path.splitext(os.path.basename(args.session))[0]
    expected_path = args.expected or os.path.join(os.path.dirname(os.path.abspath(__file__)), name + ".expected.jsonl")
    with open(args.session, encoding="utf-8") as f:
        lines = [l.rstrip("\n") for l in f]

    with tempfile.TemporaryDirectory() as tmp:
        global data_dir
        data_dir = tmp
        env = dict(os.environ, SYNDIC_DB=os.path.join(tmp, "syndic.db"), SYNDIC_MODULES="")
        env.pop("SYNDIC_API_KEY", None)
        key = subprocess.run([args.binary, "demo", "--log-level", "warn"], env=env, check=True,
                             capture_output=True, text=True).stdout.strip()
        server_args = ["serve", "--log-level", "warn"]
        if lines and lines[0].startswith("#! "):
            for directive in lines[0][3:].split(";"):
                directive = directive.strip()
                if directive == "no-key":
                    key = ""
                elif directive == "relative-dates":
                    global relative_dates
                    relative_dates = True
                elif directive.startswith("args "):
                    server_args += directive[5:].split()
        if key:
            env["SYNDIC_API_KEY"] = key

        def start(clock=None):
            # `clock`: the server's clock starts then (Debian's faketime), "YYYY-MM-DD HH:MM:SS" UTC.
            prefix = ["faketime", clock] if clock else []
            return subprocess.Popen(prefix + [args.binary] + server_args, env=env, stdin=subprocess.PIPE,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8")

        def finish(proc):
            proc.stdin.close()
            rest = proc.stdout.read()
            code = proc.wait(timeout=30)
            if code != 0:
                sys.exit(f"{args.session}: the server exited with {code}: {proc.stderr.read()}")
            return [normalize(l) for l in rest.splitlines() if l]

        proc = start()
        results = {}
        actual = []

        def substitute(match):
            value = results.get(match.group(1))
            if value is None:
                sys.exit(f"{args.session}: no result for request id {match.group(1)} to take {match.group(0)} from")
            for part in match.group(2).split("."):
                value = value[int(part)] if isinstance(value, list) else value[part]
            return value if isinstance(value, str) else json.dumps(value)

        skip_answer = False
        for line in lines:
            if line.strip() == "#! no-answer":
                skip_answer = True
            clock = CLOCK_DIRECTIVE.match(line.strip())
            if clock:  # the same database, served again with the clock moved (a meeting's day)
                actual += finish(proc)
                moved = moved_clock(int(clock.group(1)), int(clock.group(2) or 0))
                proc = start(moved.strftime("%Y-%m-%d %H:%M:%S"))
                continue
            if not line.strip() or line.startswith("#"):
                continue
            line = TIME_PLACEHOLDER.sub(lambda m: (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(
                days=int(m.group(1)))).strftime("%Y-%m-%dT%H:%M:%SZ"), line)
            line = DAY_PLACEHOLDER.sub(lambda m: (montreal_today() + datetime.timedelta(days=int(m.group(1)))).isoformat(), line)
            line = PLACEHOLDER.sub(substitute, line)
            proc.stdin.write(line + "\n")
            proc.stdin.flush()
            if skip_answer or not expects_answer(line):
                skip_answer = False
                continue
            while True:  # notifications (progress) come before the answer
                answer = proc.stdout.readline()
                if not answer:
                    sys.exit(f"{args.session}: the server closed its output before answering: {line}\n{proc.stderr.read()}")
                answer = answer.rstrip("\n")
                try:
                    message = json.loads(answer)
                except ValueError:
                    sys.exit(f"{args.session}: the server wrote a line that is not JSON: {answer}")
                actual.append(normalize(answer))
                if isinstance(message, dict) and isinstance(message.get("result"), dict):
                    results[str(message.get("id"))] = message["result"].get("structuredContent", message["result"])
                if not (isinstance(message, dict) and "method" in message and "id" not in message):
                    break
        actual += finish(proc)

    if args.update:
        with open(expected_path, "w", encoding="utf-8") as f:
            f.write("\n".join(actual) + "\n")
        print(f"wrote {expected_path} ({len(actual)} answers)")
        return
    with open(expected_path, encoding="utf-8") as f:
        expected = [l.rstrip("\n") for l in f if l.strip()]
    failures = 0
    for i in range(max(len(expected), len(actual))):
        want = expected[i] if i < len(expected) else "<nothing>"
        got = actual[i] if i < len(actual) else "<nothing>"
        if want != got:
            failures += 1
            print(f"answer {i + 1} differs:\n  expected: {want}\n  actual:   {got}")
    print(f"{len(actual) - failures} passed, {failures} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()

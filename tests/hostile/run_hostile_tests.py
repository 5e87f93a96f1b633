#!/usr/bin/env python3
"""Hostile input through the real executable (issue 7, point 1), over stdio and over HTTP (the MCP
endpoint and the REST routes that take a JSON body): text that is not JSON, truncated JSON,
invalid UTF-8 (in strings, in keys, overlong forms, surrogates), NUL bytes, deep nesting (up to a
million levels), numbers out of range, very long strings, unknown fields, wrong types, big
batches, blank and CRLF lines, and a 100 MB line (a 100 MB body, and a chunked one, over HTTP).

Each input must get its own error (JSON-RPC code, machine code, HTTP status), the very next
ordinary request must be served, nothing may change in the database, and the server's peak
resident memory (VmHWM) must stay bounded. Prints figures: inputs tried per transport, peak
memory, time.

usage: run_hostile_tests.py SYNDIC_MCP
"""
import http.client
import json
import os
import queue
import re
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import checks  # noqa: E402
from checks import check, every_row  # noqa: E402

BIN = os.path.abspath(sys.argv[1])
MIB = 1024 * 1024
BIG = 100 * MIB             # "a 100 MB line"
LINE_LIMIT = 4 * MIB        # the stdio transport's longest line (decisions: limits)
BODY_LIMIT = 4 * MIB        # the bridge's largest body
MAX_DEPTH = 64              # deepest nesting a message may have
BATCH_LIMIT = 100           # most messages in one batch
MAX_VALUES = 100_000        # most values (arrays, objects, strings, numbers...) in one message
RSS_BOUND = 96 * MIB        # peak resident memory allowed to either server through everything here
TIMEOUT = 60                # seconds: only keeps a hung server from hanging the run
ENV = {k: v for k, v in os.environ.items() if k not in ("SYNDIC_API_KEY", "SYNDIC_DB", "SYNDIC_MODULES")}

counts = {"stdio": 0, "http-mcp": 0, "http-rest": 0}


def peak_rss(pid):
    with open(f"/proc/{pid}/status") as f:
        for row in f:
            if row.startswith("VmHWM:"):
                return int(row.split()[1]) * 1024
    return 0


def message(method, params=None, id_="h"):
    m = {"jsonrpc": "2.0", "id": id_, "method": method}
    if params is not None:
        m["params"] = params
    return json.dumps(m).encode()


def call(name, arguments, id_="h"):
    return message("tools/call", {"name": name, "arguments": arguments}, id_)


def call_raw(name, arguments_text, id_='"h"'):
    """A tools/call whose arguments are given as raw bytes, so they may be anything."""
    return (b'{"jsonrpc":"2.0","id":' + id_.encode() + b',"method":"tools/call","params":{"name":"' + name.encode() +
            b'","arguments":' + arguments_text + b'}}')


# ---------------------------------------------------------------------------------------------
# What each input must get. An expectation is (JSON-RPC code, message, HTTP status on /mcp); the
# stdio answer must carry the code and message, with id null unless `id` says otherwise.

PARSE = (-32700, "Parse error", 400)
INVALID = (-32600, "Invalid Request", 200)
UNKNOWN_TOOL = (-32602, "UNKNOWN_TOOL", 200)
NO_METHOD = (-32601, "Method not found", 200)
VALIDATION = (-32000, "VALIDATION_FAILED", 200)
FRACTION = (-32000, "FRACTION_OUT_OF_RANGE", 200)
SERVED = "served"           # an ordinary answer with a result
NOTHING = "nothing"         # no answer at all (stdio only: blank lines)


def cases(unit):
    """(label, bytes of one message, expectation, extra checks on the error or None)."""
    person = {"unitId": unit, "firstName": "Hostile", "lastName": "Input"}
    create = lambda raw: call_raw("create_co_owner", raw)  # noqa: E731
    limit_values = lambda e: e.get("data", {}).get("limitValues") == MAX_VALUES  # noqa: E731
    with_field = lambda field: (lambda e: e.get("data", {}).get("field") == field)  # noqa: E731
    nest = lambda n, open_, close: b'{"jsonrpc":"2.0","id":"h","method":"ping","params":{"a":' + open_ * n + close * n + b'}}'  # noqa: E731
    out = [
        # Not JSON, or not all of it.
        ("not JSON", b"hello, server", PARSE, None),
        ("truncated JSON", message("ping")[:-7], PARSE, None),
        ("a message cut after its last brace", message("ping")[:-1], PARSE, None),
        ("trailing garbage after a message", message("ping") + b" x", PARSE, None),
        ("two messages on one line", message("ping") + b" " + message("ping"), PARSE, None),
        ("single quotes", b"{'jsonrpc':'2.0','id':1,'method':'ping'}", PARSE, None),
        ("a trailing comma", b'{"jsonrpc":"2.0","id":1,"method":"ping",}', PARSE, None),
        ("a comment", b'{"jsonrpc":"2.0","id":1,"method":"ping"} // hi', PARSE, None),
        ("a byte-order mark", b"\xef\xbb\xbf" + message("ping"), SERVED, None),
        # Invalid UTF-8: in a string value, in a key, outside strings, overlong forms, surrogates.
        ("invalid UTF-8 (0xFF) in a string", create(json.dumps(person).encode().replace(b"Hostile", b"Host\xffile")), PARSE, None),
        ("a lone continuation byte in a string", create(json.dumps(person).encode().replace(b"Hostile", b"Host\x80ile")), PARSE, None),
        ("a truncated 2-byte sequence in a string", create(json.dumps(person).encode().replace(b"Hostile", b"Host\xc3")), PARSE, None),
        ("invalid UTF-8 in a key", create(json.dumps(person).encode().replace(b'"firstName"', b'"first\xfeName"')), PARSE, None),
        ("invalid UTF-8 in the method name", b'{"jsonrpc":"2.0","id":"h","method":"pi\xffng"}', PARSE, None),
        ("invalid UTF-8 outside strings", b"\xff" + message("ping"), PARSE, None),
        ("overlong 2-byte '/' (C0 AF)", create(json.dumps(person).encode().replace(b"Hostile", b"Ho\xc0\xafstile")), PARSE, None),
        ("overlong 3-byte '/' (E0 80 AF)", create(json.dumps(person).encode().replace(b"Hostile", b"Ho\xe0\x80\xafstile")), PARSE, None),
        ("overlong 4-byte '/' (F0 80 80 AF)", create(json.dumps(person).encode().replace(b"Hostile", b"Ho\xf0\x80\x80\xafstile")), PARSE, None),
        ("overlong NUL (C0 80)", create(json.dumps(person).encode().replace(b"Hostile", b"Ho\xc0\x80stile")), PARSE, None),
        ("a UTF-8 encoded surrogate (ED A0 80)", create(json.dumps(person).encode().replace(b"Hostile", b"Ho\xed\xa0\x80stile")), PARSE, None),
        ("a code point past U+10FFFF (F4 90 80 80)", create(json.dumps(person).encode().replace(b"Hostile", b"Ho\xf4\x90\x80\x80stile")), PARSE, None),
        ("an escaped lone high surrogate \\ud800", create(json.dumps(person).encode().replace(b"Hostile", b"Ho\\ud800stile")), PARSE, None),
        ("an escaped lone low surrogate \\udc00", create(json.dumps(person).encode().replace(b"Hostile", b"Ho\\udc00stile")), PARSE, None),
        ("reversed surrogates \\udc00\\ud800", create(json.dumps(person).encode().replace(b"Hostile", b"\\udc00\\ud800")), PARSE, None),
        ("a valid escaped pair \\ud83d\\ude00 in a search", call("list_co_owners", {"search": "\U0001F600"}), SERVED, None),
        # NUL bytes, raw (never valid JSON) and escaped.
        ("a raw NUL inside a string", create(json.dumps(person).encode().replace(b"Hostile", b"Host\x00ile")), PARSE, None),
        ("a raw NUL between members", message("ping").replace(b'"id"', b'\x00"id"'), PARSE, None),
        ("a raw NUL at the start", b"\x00" + message("ping"), PARSE, None),
        ("a raw NUL after the message", message("ping") + b"\x00", PARSE, None),
        ("a raw NUL then garbage after the message", message("ping") + b"\x00garbage", PARSE, None),
        ("a line of NUL bytes", b"\x00" * 1000, PARSE, None),
        ("an escaped NUL (\\u0000) in firstName", create(json.dumps(person).encode().replace(b"Hostile", b"Host\\u0000ile")),
         VALIDATION, with_field("/firstName")),
        # Nesting: refused before parsing, whatever the depth (and never a stack overflow).
        (f"nesting {MAX_DEPTH} deep in params (at the limit)", nest(MAX_DEPTH - 2, b"[", b"]"), SERVED, None),
        (f"nesting {MAX_DEPTH + 1} deep", nest(MAX_DEPTH - 1, b"[", b"]"), PARSE, None),
        ("10,000 levels of [", b"[" * 10_000, PARSE, None),
        ("10,000 levels of [ closed", b"[" * 10_000 + b"]" * 10_000, PARSE, None),
        ("10,000 levels of {\"a\":", b'{"a":' * 10_000, PARSE, None),
        ("10,000 levels of {\"a\": closed", b'{"a":' * 10_000 + b"1" + b"}" * 10_000, PARSE, None),
        ("1,000,000 levels of [", b"[" * 1_000_000, PARSE, None),
        ("1,000,000 levels of {", b"{" * 1_000_000, PARSE, None),
        ("1,000,000 levels of [ in params, closed", nest(1_000_000, b"[", b"]"), PARSE, None),
        ("600,000 levels of {\"a\": in params, closed", nest(600_000, b'{"a":', b"}").replace(b'"a":}', b'"a":1}'), PARSE, None),
        ("brackets inside a string do not count", call("list_co_owners", {"search": "[" * 150}), SERVED, None),
        # Numbers out of range, and numbers JSON does not have.
        ("id 1e400", b'{"jsonrpc":"2.0","id":1e400,"method":"ping"}', PARSE, None),
        ("fractionPercent 1e400", create(json.dumps(person).encode()[:-1] + b',"fractionPercent":1e400}'), PARSE, None),
        ("fractionPercent -1e400", create(json.dumps(person).encode()[:-1] + b',"fractionPercent":-1e400}'), PARSE, None),
        ("fractionPercent 1e308", create(json.dumps({**person, "fractionPercent": 1e308}).encode()), FRACTION, with_field("/fractionPercent")),
        ("fractionPercent -1e308", create(json.dumps({**person, "fractionPercent": -1e308}).encode()), FRACTION, with_field("/fractionPercent")),
        ("fractionPercent 2^64", create(json.dumps({**person, "fractionPercent": 2 ** 64}).encode()), FRACTION, with_field("/fractionPercent")),
        ("fractionPercent 100.0000001", create(json.dumps({**person, "fractionPercent": 100.0000001}).encode()), FRACTION, with_field("/fractionPercent")),
        ("fractionPercent NaN", create(json.dumps(person).encode()[:-1] + b',"fractionPercent":NaN}'), PARSE, None),
        ("fractionPercent Infinity", create(json.dumps(person).encode()[:-1] + b',"fractionPercent":Infinity}'), PARSE, None),
        ("fractionPercent -Infinity", create(json.dumps(person).encode()[:-1] + b',"fractionPercent":-Infinity}'), PARSE, None),
        ("a number with a leading zero", b'{"jsonrpc":"2.0","id":01,"method":"ping"}', PARSE, None),
        ("a hexadecimal number", b'{"jsonrpc":"2.0","id":0x1,"method":"ping"}', PARSE, None),
        ("page 2^63 (one past int64)", call("list_co_owners", {"page": 2 ** 63}), VALIDATION, with_field("/page")),
        ("page 2^64", call("list_co_owners", {"page": 2 ** 64}), VALIDATION, with_field("/page")),
        ("page 2^64 - 1", call("list_co_owners", {"page": 2 ** 64 - 1}), VALIDATION, with_field("/page")),
        ("page -2^63", call("list_co_owners", {"page": -(2 ** 63)}), VALIDATION, with_field("/page")),
        ("page 10^30", call_raw("list_co_owners", b'{"page":1000000000000000000000000000000}'), VALIDATION, with_field("/page")),
        ("page of 400 digits", call_raw("list_co_owners", b'{"page":' + b"9" * 400 + b"}"), PARSE, None),
        ("page 1.5", call("list_co_owners", {"page": 1.5}), VALIDATION, with_field("/page")),
        ("page 1e308", call_raw("list_co_owners", b'{"page":1e308}'), VALIDATION, with_field("/page")),
        ("pageSize 2^63 - 1", call("list_co_owners", {"pageSize": 2 ** 63 - 1}), VALIDATION, with_field("/pageSize")),
        ("pageSize 0", call("list_co_owners", {"pageSize": 0}), VALIDATION, with_field("/pageSize")),
        ("pageSize 2.0 counts as 2", call("list_co_owners", {"pageSize": 2.0}), SERVED, None),
        ("id 2^64 (not an integer JSON-RPC can echo)", b'{"jsonrpc":"2.0","id":18446744073709551616,"method":"ping"}', INVALID, None),
        ("id 1.5", b'{"jsonrpc":"2.0","id":1.5,"method":"ping"}', INVALID, None),
        # Very long strings: refused by the schema's maxLength, never stored.
        ("firstName of 1 MB", create(json.dumps({**person, "firstName": "x" * MIB}).encode()), VALIDATION, with_field("/firstName")),
        ("firstName of 101 characters", create(json.dumps({**person, "firstName": "é" * 101}).encode()), VALIDATION, with_field("/firstName")),
        ("lastName of 1 MB of spaces", create(json.dumps({**person, "lastName": " " * MIB}).encode()), VALIDATION, with_field("/lastName")),
        ("email of 1 MB", create(json.dumps({**person, "email": "a" * MIB + "@x.ca"}).encode()), (-32000, "INVALID_EMAIL", 200),
         with_field("/email")),
        ("search of 1 MB", call("list_co_owners", {"search": "a" * MIB}), VALIDATION, with_field("/search")),
        ("unitId of 1 MB", call("get_unit", {"unitId": "u" * MIB}), VALIDATION, with_field("/unitId")),
        ("a 1 MB tool name", call("x" * MIB, {}), UNKNOWN_TOOL, None),
        ("a 1 MB method name", message("m" * MIB), NO_METHOD, None),
        ("a 1 MB id is echoed", message("ping", id_="i" * MIB), SERVED, None),
        # Unknown fields.
        ("an unknown argument", create(json.dumps({**person, "isAdmin": True}).encode()), VALIDATION, with_field("/isAdmin")),
        ("an unknown argument on a read", call("list_co_owners", {"limit": 5}), VALIDATION, with_field("/limit")),
        ("an unknown field in a bulk row (refused row by row)", call("bulk_create_co_owners", {"coOwners": [{**person, "x": 1}]}),
         ("rows", [("VALIDATION_FAILED", "/coOwners/0/x")]), None),
        ("an unknown envelope field is ignored", message("ping")[:-1] + b',"extra":{"a":[1,2]}}', SERVED, None),
        ("an unknown params field is ignored", message("tools/call", {"name": "get_fraction_sum", "arguments": {}, "extra": 1}), SERVED, None),
        # A key twice in one object: a gateway keeping the first and this server the last would read
        # two different calls, so it is not JSON this server reads (issue 15).
        ("a duplicated key in the message", b'{"jsonrpc":"2.0","id":"h","method":"nothing","method":"ping"}', PARSE, None),
        ("a duplicated key in params (the tool's name twice)",
         b'{"jsonrpc":"2.0","id":"h","method":"tools/call","params":{"name":"delete_co_owner","arguments":{},"name":"get_fraction_sum"}}',
         PARSE, None),
        ("a duplicated key in the tool arguments",
         create(json.dumps(person).encode()[:-1] + b',"firstName":"Other"}'), PARSE, None),
        ("a duplicated key deep in the arguments (a batch of rows)",
         call_raw("bulk_create_co_owners", b'{"coOwners":[{"unitId":"' + unit.encode() + b'","firstName":"A","lastName":"B","lastName":"C"}]}'),
         PARSE, None),
        ("the same key in two objects is not a duplicate", message("tools/call", {"name": "list_co_owners", "arguments": {"search": "x"}}), SERVED, None),
        # Control characters and bidi overrides: refused in every text field; names hold one line.
        ("a control character (ESC) in firstName", create(json.dumps(dict(person, firstName="Host\u001b[31mile")).encode()),
         VALIDATION, with_field("/firstName")),
        ("a C1 control (U+0085) in lastName", create(json.dumps(dict(person, lastName="In\u0085put")).encode()),
         VALIDATION, with_field("/lastName")),
        ("a line feed in firstName", create(json.dumps(dict(person, firstName="Host\nile")).encode()),
         VALIDATION, with_field("/firstName")),
        ("a right-to-left override (U+202E) in lastName", create(json.dumps(dict(person, lastName="In\u202eput")).encode()),
         VALIDATION, with_field("/lastName")),
        ("DEL in the e-mail", create(json.dumps(dict(person, email="a\u007fb@example.org")).encode()),
         (-32000, "INVALID_EMAIL", 200), with_field("/email")),
        # Wrong types, in the envelope and in the arguments.
        ("a bare number", b"5", INVALID, None),
        ("a bare string", b'"ping"', INVALID, None),
        ("null", b"null", INVALID, None),
        ("an empty object", b"{}", INVALID, None),
        ("an empty batch", b"[]", INVALID, None),
        ("jsonrpc 2.0 as a number", b'{"jsonrpc":2.0,"id":"h","method":"ping"}', INVALID, None),
        ("jsonrpc 1.0", b'{"jsonrpc":"1.0","id":"h","method":"ping"}', INVALID, None),
        ("method a number", b'{"jsonrpc":"2.0","id":"h","method":5}', INVALID, None),
        ("id an object", b'{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}', INVALID, None),
        ("id true", b'{"jsonrpc":"2.0","id":true,"method":"ping"}', INVALID, None),
        ("params a string", b'{"jsonrpc":"2.0","id":"h","method":"ping","params":"x"}', INVALID, None),
        ("tool name a number", message("tools/call", {"name": 5, "arguments": {}}), (-32602, "Invalid params", 200), None),
        ("arguments an array", message("tools/call", {"name": "list_units", "arguments": [1]}), VALIDATION, None),
        ("arguments a string", message("tools/call", {"name": "list_units", "arguments": "x"}), VALIDATION, None),
        ("firstName a number", create(json.dumps({**person, "firstName": 5}).encode()), VALIDATION, with_field("/firstName")),
        ("firstName an object", create(json.dumps({**person, "firstName": {"a": 1}}).encode()), VALIDATION, with_field("/firstName")),
        ("isPrimary a string", create(json.dumps({**person, "isPrimary": "yes"}).encode()), VALIDATION, with_field("/isPrimary")),
        ("fractionPercent a string", create(json.dumps({**person, "fractionPercent": "50"}).encode()), VALIDATION, with_field("/fractionPercent")),
        ("page a string", call("list_co_owners", {"page": "2"}), VALIDATION, with_field("/page")),
        ("page null", call("list_co_owners", {"page": None}), VALIDATION, with_field("/page")),
        # Batches.
        (f"a batch of {BATCH_LIMIT} pings (the most one batch may hold)",
         b"[" + b",".join(message("ping", id_=i) for i in range(BATCH_LIMIT)) + b"]", ("batch", BATCH_LIMIT), None),
        (f"a batch of {BATCH_LIMIT + 1} pings", b"[" + b",".join(message("ping", id_=i) for i in range(BATCH_LIMIT + 1)) + b"]",
         INVALID, lambda e: e.get("data", {}).get("limitMessages") == BATCH_LIMIT),
        ("a batch of 5,000 creations (none may run)",
         b"[" + b",".join(call("create_co_owner", {**person, "lastName": f"Batch {i}"}, id_=i) for i in range(5_000)) + b"]",
         INVALID, lambda e: e.get("data", {}).get("limitMessages") == BATCH_LIMIT),
        ("a batch of 10,000 pings", b"[" + b",".join(message("ping", id_=i) for i in range(10_000)) + b"]",
         INVALID, lambda e: e.get("data", {}).get("limitMessages") == BATCH_LIMIT),
        ("a batch of 10,000 creations (more values than a message may hold)",
         b"[" + b",".join(call("create_co_owner", {**person, "lastName": f"Batch {i}"}, id_=i) for i in range(10_000)) + b"]",
         PARSE, limit_values),
        ("a batch of 10,000 tools/list (none may run)",
         b"[" + b",".join(message("tools/list", id_=i) for i in range(10_000)) + b"]",
         INVALID, lambda e: e.get("data", {}).get("limitMessages") == BATCH_LIMIT),
        ("a batch of a million numbers", b"[" + b"1," * 999_999 + b"1]", PARSE, limit_values),
        ("a batch of a million empty objects", b"[" + b"{}," * 999_999 + b"{}]", PARSE, limit_values),
        # Many values that are not a batch: as many as a line can take, refused before parsing.
        ("a million empty arrays in params", b'{"jsonrpc":"2.0","id":"h","method":"ping","params":{"a":[' + b"[]," * 999_999 + b"[]]}}",
         PARSE, limit_values),
        ("a million numbers in arguments",
         call_raw("bulk_create_co_owners", b'{"coOwners":[' + b"1," * 999_999 + b"1]}"), PARSE, limit_values),
    ]
    return out


# ---------------------------------------------------------------------------------------------
# Stdio

class Stdio:
    def __init__(self, db, key):
        self.proc = subprocess.Popen([BIN, "--db", db, "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, env=dict(ENV, SYNDIC_API_KEY=key))
        self.answers = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.probes = 0

    def _read(self):
        for line in self.proc.stdout:
            self.answers.put(line)
        self.answers.put(None)

    def write(self, data):
        for start in range(0, len(data), MIB):
            self.proc.stdin.write(data[start:start + MIB])
        self.proc.stdin.flush()

    def exchange(self, payload):
        """Writes `payload` (one or more lines), then a ping; the answers before the ping's, and
        whether the ping was answered."""
        self.probes += 1
        probe = f"probe-{self.probes}"
        self.write(payload + message("ping", id_=probe) + b"\n")
        before = []
        while True:
            try:
                line = self.answers.get(timeout=TIMEOUT)
            except queue.Empty:
                return before, False
            if line is None:
                return before, False
            try:
                answer = json.loads(line.decode("utf-8"))   # strictly: an answer is valid UTF-8 JSON
            except (ValueError, UnicodeDecodeError):
                before.append({"unreadable": line[:200]})
                continue
            if isinstance(answer, dict) and answer.get("id") == probe:
                return before, answer.get("result") == {}
            before.append(answer)


def id_of(payload):
    """The id a message carries, if it is an object with a string id (as the cases' are)."""
    try:
        m = json.loads(payload)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None
    return m.get("id") if isinstance(m, dict) and isinstance(m.get("id"), str) else None


def judge(label, answers, expectation, extra, transport, payload_id=None):
    """Checks the answers to one input (a list of parsed answers) against its expectation."""
    if expectation == NOTHING:
        return check(f"{transport}: {label}: no answer", answers == [], str(answers)[:300])
    if len(answers) != 1:
        return check(f"{transport}: {label}: one answer", False, f"{len(answers)} answers: {str(answers)[:300]}")
    a = answers[0]
    if isinstance(expectation, tuple) and expectation[0] == "batch":
        ok = isinstance(a, list) and len(a) == expectation[1] and all(x.get("result") == {} for x in a)
        return check(f"{transport}: {label}: {expectation[1]} answers", ok, str(a)[:300])
    if isinstance(expectation, tuple) and expectation[0] == "rows":  # a bulk: rows refused one by one, none created
        r = a.get("result", {}).get("structuredContent", {}) if isinstance(a, dict) else {}
        ok = r.get("createdCount") == 0 and [(x.get("code"), x.get("field")) for x in r.get("errors", [])] == expectation[1]
        return check(f"{transport}: {label}: no row created, each refused", ok, str(a)[:300])
    if expectation == SERVED:
        return check(f"{transport}: {label}: served", isinstance(a, dict) and "result" in a, str(a)[:300])
    code, text, _ = expectation
    if not isinstance(a, dict):
        return check(f"{transport}: {label}: {code} {text}", False, str(a)[:400])
    e = a.get("error", {})
    # The id is echoed when the message is an object with a valid id; null otherwise.
    want_id = None if code == -32700 or not isinstance(payload_id, str) else payload_id
    ok = e.get("code") == code and e.get("message") == text and a.get("id") == want_id and (extra is None or extra(e))
    return check(f"{transport}: {label}: {code} {text}", ok, str(a)[:400])


def stdio_round(db, key, unit):
    started = time.monotonic()
    server = Stdio(db, key)
    for label, payload, expectation, extra in cases(unit):
        answers, served = server.exchange(payload + b"\n")
        counts["stdio"] += 1
        judge(label, answers, expectation, extra, "stdio", id_of(payload))
        check(f"stdio: after {label}: the next line is served", served)

    # Lines that are blank, CRLF-ended, or padded: blank ones get no answer, others are served.
    framing = [
        ("an empty line", b"\n", NOTHING),
        ("many empty lines", b"\n" * 10_000, NOTHING),
        ("a line of spaces and tabs", b" \t \t   \n", NOTHING),
        ("a lone CR", b"\r\n", NOTHING),
        ("CRLF ending", message("ping") + b"\r\n", SERVED),
        ("leading and trailing spaces", b"   " + message("ping") + b" \t \r\n", SERVED),
        ("a line of other whitespace (vertical tab, form feed)", b"\x0b\x0c\n", PARSE),
        ("a line of 1 MB of spaces", b" " * MIB + b"\n", NOTHING),
        ("a CR in the middle of a message", message("ping").replace(b",", b",\r", 1) + b"\n", SERVED),
    ]
    for label, payload, expectation in framing:
        answers, served = server.exchange(payload)
        counts["stdio"] += 1
        judge(label, answers, expectation, None, "stdio")
        check(f"stdio: after {label}: the next line is served", served)

    # Lines past the limit: refused with the limit, never held whole.
    for label, payload in [
        ("a line of 4 MiB + 1 byte", b'{"jsonrpc":"2.0","id":"h","method":"ping","params":{"a":"' + b"x" * LINE_LIMIT + b'"}}'),
        ("a line of 100 MB", b'{"jsonrpc":"2.0","id":"h","method":"tools/call","params":{"name":"create_co_owner","arguments":'
         b'{"firstName":"' + b"x" * BIG + b'","lastName":"Big","unitId":"' + unit.encode() + b'"}}}'),
        ("a line of 100 MB of [", b"[" * BIG),
        ("a line of 100 MB of NUL bytes", b"\x00" * BIG),
    ]:
        answers, served = server.exchange(payload + b"\n")
        counts["stdio"] += 1
        a = answers[0] if len(answers) == 1 else {}
        e = a.get("error", {}) if isinstance(a, dict) else {}
        check(f"stdio: {label}: -32600 with data.limitBytes, id null",
              len(answers) == 1 and e.get("code") == -32600 and e.get("data", {}).get("limitBytes") == LINE_LIMIT
              and a.get("id") is None, str(answers)[:300])
        check(f"stdio: after {label}: the next line is served", served)

    peak = peak_rss(server.proc.pid)
    check(f"stdio: peak resident memory through {counts['stdio']} inputs stays under {RSS_BOUND // MIB} MB",
          peak < RSS_BOUND, f"{peak / MIB:.1f} MB")
    server.proc.stdin.close()
    status = server.proc.wait(timeout=TIMEOUT)
    check("stdio: the server then ends cleanly at end of input", status == 0, str(status))

    # A 100 MB line with no newline before the end of input: refused too, then a clean end.
    server = Stdio(db, key)
    server.write(b"[" * BIG)
    server.proc.stdin.close()
    counts["stdio"] += 1
    last = server.answers.get(timeout=TIMEOUT)
    a = json.loads(last) if last else {}
    check("stdio: a 100 MB last line without a newline: -32600 with data.limitBytes",
          a.get("error", {}).get("data", {}).get("limitBytes") == LINE_LIMIT, str(a)[:300])
    check("stdio: ...then a clean end", server.proc.wait(timeout=TIMEOUT) == 0)
    return peak, time.monotonic() - started


# ---------------------------------------------------------------------------------------------
# HTTP

class Bridge:
    def __init__(self, db):
        self.proc = subprocess.Popen([BIN, "http", "--db", db, "--listen", "127.0.0.1:0", "--workers", "4"],
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=ENV)
        self.base = None
        deadline = time.monotonic() + 20
        for raw in self.proc.stderr:
            m = re.search(r"serving (http\S+)", raw.decode("utf-8", "replace"))
            if m:
                self.base = m.group(1)
                break
            if time.monotonic() > deadline:
                break
        threading.Thread(target=lambda: [None for _ in self.proc.stderr], daemon=True).start()  # keep stderr drained
        u = urllib.parse.urlsplit(self.base)
        self.addr = ("127.0.0.1", u.port)
        self.prefix = u.path.rstrip("/")

    def request(self, method, path, body=None, key=None, headers=None, content_type="application/json"):
        hdrs = {"Authorization": f"Bearer {key}"} if key else {}
        if body is not None and content_type:
            hdrs["Content-Type"] = content_type
        hdrs.update(headers or {})
        conn = http.client.HTTPConnection(*self.addr, timeout=TIMEOUT)
        try:
            conn.request(method, self.prefix + path, body=body, headers=hdrs,
                         encode_chunked=hdrs.get("Transfer-Encoding") == "chunked")
            r = conn.getresponse()
            return r.status, r.read()
        except (OSError, http.client.HTTPException) as e:
            return 0, repr(e).encode()
        finally:
            conn.close()


def parsed(body):
    try:
        return json.loads(body.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return None


def http_round(db, key, unit):
    started = time.monotonic()
    bridge = Bridge(db)
    check("http: the bridge starts", bridge.base is not None)

    def next_served(label):
        status, body = bridge.request("POST", "/mcp", message("ping"), key)
        status2, body2 = bridge.request("GET", "/declaration/fraction-sum", None, key)
        check(f"http: after {label}: the next requests are served", status == 200 and (parsed(body) or {}).get("result") == {}
              and status2 == 200 and "sum" in (parsed(body2) or {}), f"{status} {body[:200]} {status2} {body2[:200]}")

    # The MCP endpoint: the same messages as a body each.
    for label, payload, expectation, extra in cases(unit):
        status, body = bridge.request("POST", "/mcp", payload, key)
        counts["http-mcp"] += 1
        answer = parsed(body)
        want = 200 if expectation == SERVED or isinstance(expectation, tuple) and expectation[0] in ("batch", "rows") else expectation[2]
        if judge(label, [answer], expectation, extra, "http /mcp", id_of(payload)):
            check(f"http /mcp: {label}: status {want}", status == want, f"{status} {body[:200]}")
        next_served(f"/mcp {label}")

    # The REST routes that take a JSON body.
    person = {"unitId": unit, "firstName": "Hostile", "lastName": "Input"}
    good = json.dumps(person).encode()
    rest = [
        ("not JSON", "POST", "/co-owners", b"hello", 400, "INVALID_JSON"),
        ("truncated JSON", "POST", "/co-owners", good[:-3], 400, "INVALID_JSON"),
        ("a JSON array, not an object", "POST", "/co-owners", b"[" + good + b"]", 400, "INVALID_JSON"),
        ("a JSON string", "POST", "/co-owners", b'"x"', 400, "INVALID_JSON"),
        ("invalid UTF-8 in a value", "POST", "/co-owners", good.replace(b"Hostile", b"Host\xffile"), 400, "INVALID_JSON"),
        ("invalid UTF-8 in a key", "POST", "/co-owners", good.replace(b'"lastName"', b'"last\xc3Name"'), 400, "INVALID_JSON"),
        ("an overlong encoding", "POST", "/co-owners", good.replace(b"Hostile", b"Ho\xc0\xafstile"), 400, "INVALID_JSON"),
        ("an encoded surrogate", "POST", "/co-owners", good.replace(b"Hostile", b"Ho\xed\xb0\x80stile"), 400, "INVALID_JSON"),
        ("an escaped lone surrogate", "POST", "/co-owners", good.replace(b"Hostile", b"\\udfff"), 400, "INVALID_JSON"),
        ("a raw NUL in a value", "POST", "/co-owners", good.replace(b"Hostile", b"Ho\x00stile"), 400, "INVALID_JSON"),
        ("a raw NUL after the body", "POST", "/co-owners", good + b"\x00", 400, "INVALID_JSON"),
        ("a raw NUL then garbage after the body", "POST", "/co-owners", good + b"\x00}}garbage", 400, "INVALID_JSON"),
        ("an escaped NUL in firstName", "POST", "/co-owners", good.replace(b"Hostile", b"Ho\\u0000stile"), 400, "VALIDATION_FAILED"),
        ("10,000 levels of [", "POST", "/co-owners", b"[" * 10_000, 400, "INVALID_JSON"),
        ("600,000 levels of {\"a\": closed", "POST", "/co-owners", b'{"a":' * 600_000 + b"1" + b"}" * 600_000, 400, "INVALID_JSON"),
        ("1,000,000 levels of [ in a field", "POST", "/co-owners", good[:-1] + b',"x":' + b"[" * 1_000_000 + b"]" * 1_000_000 + b"}",
         400, "INVALID_JSON"),
        ("a million values in a field", "POST", "/co-owners/bulk", b'{"coOwners":[' + b"{}," * 999_999 + b"{}]}", 400, "INVALID_JSON"),
        ("fractionPercent 1e400", "POST", "/co-owners", good[:-1] + b',"fractionPercent":1e400}', 400, "INVALID_JSON"),
        ("fractionPercent NaN", "POST", "/co-owners", good[:-1] + b',"fractionPercent":NaN}', 400, "INVALID_JSON"),
        ("fractionPercent 1e308", "POST", "/co-owners", good[:-1] + b',"fractionPercent":1e308}', 400, "FRACTION_OUT_OF_RANGE"),
        ("fractionPercent -2^64", "POST", "/co-owners", good[:-1] + b',"fractionPercent":-18446744073709551616}', 400,
         "FRACTION_OUT_OF_RANGE"),
        ("unit fractionPercent 1e308", "PATCH", f"/units/{unit}", b'{"fractionPercent":1e308}', 400, "FRACTION_OUT_OF_RANGE"),
        ("unit fractionPercent Infinity", "PATCH", f"/units/{unit}", b'{"fractionPercent":Infinity}', 400, "INVALID_JSON"),
        ("unit floor 2^64", "PATCH", f"/units/{unit}", b'{"floor":18446744073709551616}', 400, "VALIDATION_FAILED"),
        ("firstName of 1 MB", "POST", "/co-owners", json.dumps({**person, "firstName": "x" * MIB}).encode(), 400, "VALIDATION_FAILED"),
        ("firstName of 101 characters", "POST", "/co-owners", json.dumps({**person, "firstName": "x" * 101}).encode(), 400,
         "VALIDATION_FAILED"),
        ("an unknown field", "POST", "/co-owners", json.dumps({**person, "role": "admin"}).encode(), 400, "VALIDATION_FAILED"),
        ("an unknown field in a bulk row (refused row by row)", "POST", "/co-owners/bulk",
         json.dumps({"coOwners": [{**person, "x": 1}]}).encode(), 200,
         lambda r: r.get("createdCount") == 0 and [(e["code"], e["field"]) for e in r.get("errors", [])] == [("VALIDATION_FAILED", "/coOwners/0/x")]),
        ("a field of the wrong type", "POST", "/co-owners", json.dumps({**person, "isPrimary": "yes"}).encode(), 400,
         "VALIDATION_FAILED"),
        ("unitId null", "POST", "/co-owners", json.dumps({**person, "unitId": None}).encode(), 400, "VALIDATION_FAILED"),
        ("a bulk of 10,000 rows", "POST", "/co-owners/bulk",
         json.dumps({"coOwners": [{**person, "lastName": f"B {i}"} for i in range(10_000)]}).encode(), 422, "BULK_LIMIT_EXCEEDED"),
        ("a 4 MiB + 1 byte body", "POST", "/co-owners", good[:-1] + b',"x":"' + b"x" * BODY_LIMIT + b'"}', 413, "PAYLOAD_TOO_LARGE"),
        ("page 2^64 in the query string", "GET", "/co-owners?page=18446744073709551616", None, 400, "VALIDATION_FAILED"),
        ("page 1e400 in the query string", "GET", "/co-owners?page=1e400", None, 400, "VALIDATION_FAILED"),
        ("pageSize -1 in the query string", "GET", "/co-owners?pageSize=-1", None, 400, "VALIDATION_FAILED"),
        ("a NUL in the query string", "GET", "/co-owners?search=a%00b", None, 400, "VALIDATION_FAILED"),
        ("invalid UTF-8 in the query string", "GET", "/co-owners?search=%FF%FE", None, 400, "VALIDATION_FAILED"),
        ("an overlong form in the query string", "GET", "/co-owners?search=%C0%AF", None, 400, "VALIDATION_FAILED"),
        ("a surrogate in the query string", "GET", "/co-owners?search=%ED%A0%80", None, 400, "VALIDATION_FAILED"),
        ("invalid UTF-8 in a query name", "GET", "/co-owners?%FF=1", None, 400, "VALIDATION_FAILED"),
        ("invalid UTF-8 in the path", "GET", "/co-owners/%FF%FE", None, 400, "VALIDATION_FAILED"),
        ("invalid UTF-8 in the path of a DELETE", "DELETE", "/co-owners/%C3", None, 400, "VALIDATION_FAILED"),
        ("invalid UTF-8 in the path of a PATCH", "PATCH", "/units/%ED%BF%BF", b'{"floor":1}', 400, "VALIDATION_FAILED"),
    ]
    for label, method, path, body, want_status, want_code in rest:
        status, answer = bridge.request(method, path, body, key, content_type="application/json" if body is not None else None)
        counts["http-rest"] += 1
        j = parsed(answer) if isinstance(parsed(answer), dict) else {}
        ok = want_code(j) if callable(want_code) else j.get("error", {}).get("code") == want_code
        check(f"http REST {method} {path[:40]}: {label}: {want_status} {want_code if isinstance(want_code, str) else ''}",
              status == want_status and ok, f"{status} {answer[:300]}")
        next_served(f"REST {label}")

    # 100 MB bodies: with Content-Length, and chunked (no length given). Refused with 413, or the
    # connection closed while still sending; never read whole.
    def body_100mb():
        piece = b"x" * MIB
        yield b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":"'
        for _ in range(BIG // MIB):
            yield piece
        yield b'"}}'

    for label, path, chunked in [("/mcp, Content-Length", "/mcp", False), ("/mcp, chunked", "/mcp", True),
                                 ("/co-owners, Content-Length", "/co-owners", False), ("/co-owners, chunked", "/co-owners", True)]:
        headers = {"Transfer-Encoding": "chunked"} if chunked else {"Content-Length": str(BIG + 58)}
        status, answer = bridge.request("POST", path, body_100mb(), key, headers=headers)
        counts["http-mcp" if path == "/mcp" else "http-rest"] += 1
        refused = status == 413 and "PAYLOAD_TOO_LARGE" in answer.decode("utf-8", "replace")
        closed = status == 0  # the server answered 413 and closed while the client was still sending
        check(f"http: a 100 MB body ({label}): 413 PAYLOAD_TOO_LARGE, or closed unread", refused or closed,
              f"{status} {answer[:200]}")
        next_served(f"a 100 MB body ({label})")

    peak = peak_rss(bridge.proc.pid)
    total = counts["http-mcp"] + counts["http-rest"]
    check(f"http: peak resident memory through {total} inputs stays under {RSS_BOUND // MIB} MB", peak < RSS_BOUND,
          f"{peak / MIB:.1f} MB")
    bridge.proc.terminate()
    check("http: the bridge stops cleanly on SIGTERM", bridge.proc.wait(timeout=TIMEOUT) == 0)
    return peak, time.monotonic() - started


with tempfile.TemporaryDirectory() as tmp:
    db = os.path.join(tmp, "hostile.db")
    key = subprocess.run([BIN, "--db", db, "demo"], capture_output=True, text=True, check=True, env=ENV).stdout.strip()
    lister = subprocess.run([BIN, "--db", db, "serve"], input=call("list_units", {}) + b"\n", capture_output=True,
                            env=dict(ENV, SYNDIC_API_KEY=key), timeout=TIMEOUT)
    unit = json.loads(lister.stdout)["result"]["structuredContent"]["data"][0]["id"]
    # The bridge runs the daily tick when it starts: today's derived events are written first, so
    # that the bridge's own tick finds nothing new and any change below is a hostile input's.
    subprocess.run([BIN, "--db", db, "tick"], capture_output=True, check=True, env=ENV, timeout=TIMEOUT)
    before = every_row(db)

    stdio_peak, stdio_seconds = stdio_round(db, key, unit)
    check("stdio: nothing changed in the database", every_row(db) == before)
    http_peak, http_seconds = http_round(db, key, unit)
    after = every_row(db)
    check("http: nothing changed in the database", after == before,
          str({t: len(after.get(t, [])) - len(before.get(t, [])) for t in set(after) | set(before)
               if after.get(t) != before.get(t)}))
    rows = sum(len(v) for v in after.values())
    print(f"stdio: {counts['stdio']} hostile inputs in {stdio_seconds:.1f} s, peak resident memory {stdio_peak / MIB:.1f} MB")
    print(f"http: {counts['http-mcp']} on /mcp and {counts['http-rest']} on REST routes in {http_seconds:.1f} s, "
          f"peak resident memory {http_peak / MIB:.1f} MB")
    print(f"database: {len(after)} tables, {rows} rows, unchanged")

checks.finish()

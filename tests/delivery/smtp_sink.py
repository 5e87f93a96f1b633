#!/usr/bin/python3
"""A real SMTP server on loopback for the delivery tests (Debian's python3-aiosmtpd): every message
it accepts is appended to a JSON-lines file (envelope sender, recipients, the message's bytes as
text); with --refuse CODE it answers every RCPT TO with that code instead (550: refused for good,
451: try again later); with --delay S it takes S seconds (real time) before answering each DATA, as a
slow server does.

usage: smtp_sink.py PORT_FILE OUT_FILE [--refuse CODE] [--delay S] [--user U --password P]
Writes the port it listens on to PORT_FILE once ready; stops on SIGTERM."""
import argparse
import asyncio
import json
import logging
import os
import signal
import socket
import threading
import time
import warnings

warnings.filterwarnings("ignore")
logging.disable(logging.WARNING)

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword


class Sink:
    def __init__(self, out, refuse, delay=0.0):
        self.out = out
        self.refuse = refuse
        self.delay = delay
        self.lock = threading.Lock()

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if self.refuse:
            return {"550": "550 5.1.1 <%s>: mailbox unavailable" % address,
                    "451": "451 4.3.0 try again later"}[self.refuse]
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        if self.delay:
            await asyncio.sleep(self.delay)
        with self.lock, open(self.out, "a", encoding="utf-8") as f:
            f.write(json.dumps({"from": envelope.mail_from, "to": envelope.rcpt_tos, "at": time.time(),
                                "data": envelope.content.decode("utf-8", "replace")}) + "\n")
        return "250 2.0.0 queued as sink"


def main():
    p = argparse.ArgumentParser()
    p.add_argument("port_file")
    p.add_argument("out_file")
    p.add_argument("--refuse", choices=["550", "451"])
    p.add_argument("--delay", type=float, default=0.0)
    p.add_argument("--user")
    p.add_argument("--password")
    a = p.parse_args()
    kwargs = {}
    if a.user:
        def authenticate(server, session, envelope, mechanism, auth_data):
            ok = isinstance(auth_data, LoginPassword) and auth_data.login.decode() == a.user and \
                auth_data.password.decode() == a.password
            return AuthResult(success=ok)
        kwargs = {"authenticator": authenticate, "auth_require_tls": False, "auth_required": True}
    probe = socket.socket()  # a free port (aiosmtpd's controller cannot listen on port 0)
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    controller = Controller(Sink(a.out_file, a.refuse, a.delay), hostname="127.0.0.1", port=port, **kwargs)
    controller.start()
    with open(a.port_file + ".tmp", "w") as f:
        f.write(str(port))
    os.replace(a.port_file + ".tmp", a.port_file)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    stop.wait()
    controller.stop()


if __name__ == "__main__":
    main()

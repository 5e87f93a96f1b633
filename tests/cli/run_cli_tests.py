#!/usr/bin/env python3
"""The command line as a user types it (decisions 1): init, keys, users, clients, demo, tools, quorum, water-heater-age,
serve's options, --version and --help, each through the real executable on a fresh database.

usage: run_cli_tests.py SYNDIC_MCP
"""
import json
import os
import pty
import select
import subprocess
import sys
import tempfile
import termios
import time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import checks  # noqa: E402
from checks import catalogue, check  # noqa: E402

BIN = sys.argv[1]



def run(*args, env=None, stdin=None):
    return subprocess.run([BIN, *args], env=env, input=stdin, capture_output=True, text=True, timeout=60)


def call(env, key, tool, arguments, *extra):
    request = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": tool, "arguments": arguments}})
    answer = run("serve", "--modules", "all", *extra, env=dict(env, SYNDIC_API_KEY=key), stdin=request + "\n").stdout
    return json.loads(answer.splitlines()[0])


def error_code(answer):
    return answer.get("error", {}).get("message")


def keys_revoke_section(env):
    """keys revoke takes the prefix keys list shows (sk_l56E0…), with or without the ellipsis; an ambiguous one revokes nothing."""
    made = [json.loads(run("keys", "create", "--name", "p%d" % i, "--json", env=env).stdout) for i in range(2)]
    listed = run("keys", "list", env=env).stdout
    shown = next(line.split()[1] for line in listed.splitlines() if line.startswith(made[0]["apiKeyId"]))
    check("keys list shows the prefix with an ellipsis", shown.startswith("sk_") and shown.endswith("\u2026"), listed)
    r = run("keys", "revoke", shown, env=env)
    check("keys revoke sk_xxxxx… (as listed) revokes that key", r.returncode == 0, r.stderr)
    check("...which is refused at once", error_code(call(env, made[0]["apiKey"], "list_units", {})) == "NOT_AUTHENTICATED")
    check("...and the other key still works", "result" in call(env, made[1]["apiKey"], "list_units", {}))
    before = run("keys", "list", "--json", env=env).stdout
    r = run("keys", "revoke", "sk_", env=env)
    check("an ambiguous prefix is refused, saying so", r.returncode == 1 and "active keys match" in r.stderr, r.stderr)
    check("...and revokes nothing", run("keys", "list", "--json", env=env).stdout == before)
    r = run("keys", "revoke", made[1]["apiKey"][:8], env=env)
    check("keys revoke sk_xxxxx (no ellipsis)", r.returncode == 0 and
          error_code(call(env, made[1]["apiKey"], "list_units", {})) == "NOT_AUTHENTICATED", r.stderr)


def pdf_module_section(env, admin):
    """The minutes' PDF renderer is a module loaded on first use: without it the call fails as an
    internal error whose reason is in the log, nothing is kept, and the other tools answer."""
    made = call(env, admin, "create_meeting", {"title": "AGA sans PDF", "type": "aga", "scheduledAt": "2027-03-02T19:00:00-05:00",
                                               "location": "Salle communautaire", "agenda": ["Ouverture"]})
    meeting = json.loads(made["result"]["content"][0]["text"])["id"] if "result" in made else ""
    request = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                          "params": {"name": "generate_minutes", "arguments": {"meetingId": meeting, "draft": True}}})
    lines = request + "\n" + request.replace("generate_minutes", "get_meeting").replace('"draft": true', '"id": "%s"' % meeting) + "\n"
    lines = lines.replace('"meetingId": "%s", "id"' % meeting, '"id"')
    r = run("serve", "--modules", "all", env=dict(env, SYNDIC_API_KEY=admin, SYNDIC_PDF_MODULE="/nonexistent/syndic-pdf.so"), stdin=lines)
    answers = [json.loads(line) for line in r.stdout.splitlines()]
    check("without the PDF module generate_minutes is an internal error",
          len(answers) == 2 and answers[0].get("error", {}).get("code") == -32603, r.stdout)
    check("...whose reason is in the log", "PDF rendering unavailable: /nonexistent/syndic-pdf.so: not found" in r.stderr, r.stderr[-500:])
    check("...and the next call is answered", len(answers) == 2 and "result" in answers[1], r.stdout)
    again = call(env, admin, "generate_minutes", {"meetingId": meeting, "draft": True})
    check("with the module beside the executable the minutes are made", "result" in again, str(again))


def walkthrough_twice(tmp):
    """The README's commands that create syndicates and keys, run twice as a new user would, create them once."""
    folder = os.path.join(tmp, "walk")
    os.makedirs(folder)
    env = dict(os.environ, SYNDIC_DB=os.path.join(folder, "syndic.db"))
    name = "Syndicat de la copropriété Les Érables"
    keys = []
    for attempt in (1, 2):
        init = run("init", "--name", name, env=env)
        check("init %s" % ("creates the syndicate" if attempt == 1 else "again refuses, creating nothing"),
              (init.returncode == 0) == (attempt == 1), init.stderr)
        keys.append(run("demo", env=env).stdout.strip())          # KEY=$(build/syndic-mcp demo)
        keys.append(run("demo", "--key-file", os.path.join(folder, "demo-admin.key"), "--log-level", "warn",
                        env=env).stdout.strip())                    # what tools/run does
    check("demo prints the same key every time", len(set(keys)) == 1 and keys[0].startswith("sk_"), str(keys))
    listed = json.loads(run("keys", "list", "--json", env=env).stdout)
    syndicates = sorted({k["syndicateId"] for k in listed})
    check("twice through the walk-through: two syndicates (yours and the demo), one admin key each",
          len(listed) == 2 and len(syndicates) == 2, json.dumps(listed))
    r = run("init", "--name", "  syndicat de la COPROPRIÉTÉ les érables ", env=env)
    check("init refuses the same name in other case or spacing", r.returncode == 1 and "exists already" in r.stderr, r.stderr)
    r = run("init", "--name", name, "--force", "--json", env=env)
    check("init --force creates another syndicate of that name", r.returncode == 0 and
          len(json.loads(run("keys", "list", "--json", env=env).stdout)) == 3, r.stderr)


def tools_run_builds_the_server_alone(tmp):
    """tools/run builds the server alone, not the tests and benchmarks (6 min 52 s on a fresh machine)."""
    root = os.path.join(tmp, "repo")
    os.makedirs(os.path.join(root, "tools"))
    os.makedirs(os.path.join(root, "build"))
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools")
    for script in ("run", "build", "compiler_cache"):
        with open(os.path.join(here, script)) as src, open(os.path.join(root, "tools", script), "w") as dst:
            dst.write(src.read())
        os.chmod(os.path.join(root, "tools", script), 0o755)
    # tools/setup installs packages: here it has nothing to install. ninja records what it is asked
    # to build; the server it "builds" is the real one.
    fake = os.path.join(tmp, "fakebin")
    os.makedirs(fake)
    for path, text in ((os.path.join(root, "tools", "setup"), "#!/bin/sh\nexit 0\n"),
                       (os.path.join(fake, "ninja"), "#!/bin/sh\necho \"$@\" >> %s/ninja.log\n" % tmp)):
        with open(path, "w") as f:
            f.write(text)
        os.chmod(path, 0o755)
    open(os.path.join(root, "build", "build.ninja"), "w").close()
    os.symlink(os.path.abspath(BIN), os.path.join(root, "build", "syndic-mcp"))
    os.makedirs(os.path.join(tmp, "run"))
    env = dict(os.environ, PATH=fake + ":" + os.environ["PATH"], SYNDIC_DB=os.path.join(tmp, "run", "syndic.db"))
    env.pop("SYNDIC_API_KEY", None)
    r = subprocess.run([os.path.join(root, "tools", "run")], env=env, input='{"jsonrpc":"2.0","id":1,"method":"ping"}\n',
                       capture_output=True, text=True, timeout=60)
    asked = open(os.path.join(tmp, "ninja.log")).read().split() if os.path.exists(os.path.join(tmp, "ninja.log")) else []
    # `server`: the executable and the modules it loads (the meson test server-target checks the alias).
    check("tools/run asks ninja for the target server alone (not the tests)", asked[-1:] == ["server"], " ".join(asked) + r.stderr)
    check("...and serves", '"result"' in r.stdout, r.stdout + r.stderr)


def clients_section(env):
    """clients create|list|disable: applications registered by an administrator."""
    r = run("clients", "create", "--name", "Gestion Plus", "--redirect-uri", "https://app.example.org/callback", env=env)
    public_id = r.stdout.strip()
    check("clients create: a public client prints its client_id alone", r.returncode == 0 and len(public_id) == 36, r.stderr)
    r = run("clients", "create", "--name", "Comptable Pro", "--redirect-uri", "https://books.example.org/cb",
            "--redirect-uri", "http://127.0.0.1:9000/cb", "--confidential", "--json", env=env)
    made = json.loads(r.stdout) if r.returncode == 0 else {}
    check("clients create --confidential --json: the secret once", len(made.get("clientSecret", "")) == 43, r.stdout + r.stderr)
    r = run("clients", "create", "--name", "X", "--redirect-uri", "http://evil.example.com/cb", env=env)
    check("clients create refuses an http redirect URI off loopback", r.returncode != 0 and "Redirect URIs" in r.stderr, r.stderr)
    r = run("clients", "list", "--json", env=env)
    listed = json.loads(r.stdout) if r.returncode == 0 else []
    check("clients list --json: both, never a secret",
          [c["name"] for c in listed] == ["Gestion Plus", "Comptable Pro"] and made.get("clientSecret", "?") not in r.stdout
          and listed[1]["redirectUris"] == ["https://books.example.org/cb", "http://127.0.0.1:9000/cb"], r.stdout)
    r = run("clients", "disable", public_id, env=env)
    again = run("clients", "disable", public_id, env=env)
    check("clients disable, then again: refused the second time", r.returncode == 0 and again.returncode != 0, again.stderr)
    check("clients list shows it disabled", "DISABLED" in run("clients", "list", env=env).stdout)


def settings_section(env):
    """`settings [NAME [VALUE]]`: every setting with its value and default, one, or one set after its check."""
    r = run("settings", env=env)
    lines = {line.split()[0]: line.split() for line in r.stdout.splitlines() if line.strip()}
    check("settings lists every setting with its value and default",
          r.returncode == 0 and lines.get("requiredQuorumPercent", [])[1:4] == ["40.5", "(default", "51)"]
          and lines.get("waterHeaterReplacementYears", [])[1:4] == ["12", "(default", "10)"], r.stdout + r.stderr)
    listed = json.loads(run("settings", "--json", env=env).stdout or "[]")
    age = [s for s in listed if s.get("name") == "waterHeaterReplacementYears"]
    check("settings --json gives value, default, bounds and module",
          age and age[0]["value"] == 12 and age[0]["default"] == 10 and age[0]["minimum"] == 1 and age[0]["maximum"] == 30
          and age[0]["module"] == "water-heaters" and age[0]["isSet"] is True, str(listed)[:400])
    check("settings NAME shows one", run("settings", "waterHeaterReplacementYears", env=env).stdout.strip() == "12")
    r = run("settings", "waterHeaterReplacementYears", "15", env=env)
    check("settings NAME VALUE sets it, and the shortcut sees it",
          r.returncode == 0 and r.stdout.strip() == "15" and run("water-heater-age", env=env).stdout.strip() == "15",
          r.stdout + r.stderr)
    for bad in ("0", "31", "12.5", "douze"):
        r = run("settings", "waterHeaterReplacementYears", bad, env=env)
        check(f"settings refuses waterHeaterReplacementYears {bad}: exit 1, a clear message, nothing changed",
              r.returncode == 1 and "waterHeaterReplacementYears" in r.stderr and "Nothing was changed" in r.stderr
              and run("settings", "waterHeaterReplacementYears", env=env).stdout.strip() == "15", r.stderr)
    # A setting with a format is checked here as through update_settings: an NEQ's 10 digits, an e-mail.
    for name, bad in (("neq", "12"), ("neq", "1171-234-56x"), ("mailFrom", "pas une adresse"), ("portalUrl", "portail.example")):
        r = run("settings", name, bad, env=env)
        check(f"settings refuses {name} {bad!r}: exit 1, nothing stored",
              r.returncode == 1 and name in r.stderr and run("settings", name, env=env).stdout.strip() in ("", "null"),
              r.stdout + r.stderr)
    r = run("settings", "neq", "1171 234 567", env=env)
    check("settings keeps an NEQ's digits alone", r.returncode == 0 and r.stdout.strip() == "1171234567", r.stdout + r.stderr)
    run("settings", "neq", "", env=env)
    r = run("settings", "noSuchSetting", env=env)
    check("settings refuses an unknown name, listing the known ones",
          r.returncode == 1 and "requiredQuorumPercent" in r.stderr, r.stderr)
    r = run("settings", "requiredQuorumPercent", "66.666667", env=env)
    check("settings sets the quorum; `quorum` shows it as before",
          r.returncode == 0 and run("quorum", env=env).stdout.strip() == "66.666667", r.stdout + r.stderr)
    run("quorum", "40.5", env=env)
    run("water-heater-age", "12", env=env)


def audit_section(env, admin, tmp):
    """Changes made from the command line are in the audit trail, as the operating-system user (issue 15)."""
    import pwd
    actor = "os:" + pwd.getpwuid(os.geteuid()).pw_name

    def events(tool):
        answer = call(env, admin, "list_audit_events", {"tool": tool, "pageSize": 200})
        return json.loads(answer["result"]["content"][0]["text"])["data"] if "result" in answer else [answer]

    everything = json.dumps(call(env, admin, "list_audit_events", {"pageSize": 200}))
    for tool, record_type, action in (("cli:keys create", "api-key", "create"), ("cli:keys revoke", "api-key", "update"),
                                      ("cli:users create", "user", "create"), ("cli:users disable", "user", "update"),
                                      ("cli:clients create", "oauth-client", "create"),
                                      ("cli:clients disable", "oauth-client", "update"),
                                      ("cli:quorum", "setting", "create"), ("cli:water-heater-age", "setting", "create"),
                                      ("cli:settings", "setting", "update")):
        found = events(tool)
        check(f"audit trail: `{tool[4:]}` is there, by {actor}",
              found and all(e.get("actor", {}).get("kind") == "system" and e.get("actor", {}).get("id") == actor
                            and e.get("recordType") == record_type for e in found)
              and any(e.get("action") == action for e in found), str(found)[:600])
    check("audit trail: never a password's or key's hash", "argon2" not in everything and "keyHash" not in everything
          and "passwordHash" not in everything and "secretHash" not in everything, everything[:300])
    quorum = events("cli:quorum")
    check("audit trail: the quorum's change, before and after",
          quorum and quorum[-1].get("changes", {}).get("value") == {"before": None, "after": "40.5"}
          and quorum[-1].get("recordId", "").endswith("/requiredQuorumPercent"), str(quorum)[:400])
    refused = run("quorum", "0", env=env)
    check("a refused command leaves no event", refused.returncode != 0 and len(events("cli:quorum")) == len(quorum))
    copy = os.path.join(tmp, "audit-copy.db")
    backed = run("backup", "--to", copy, env=env)
    restored = run("restore", "--from", copy, "--replace", env=env)
    found = events("cli:restore")
    check("audit trail: a restore, by the operating-system user, naming the backup",
          backed.returncode == 0 and restored.returncode == 0 and len(found) == 1 and found[0].get("action") == "restore"
          and found[0].get("actor", {}).get("id") == actor and found[0]["changes"]["restoredFrom"]["after"] == copy,
          str(found)[:400] + restored.stderr)


def users_section(env, tmp):
    """users create|list|disable on the database of one syndicate."""
    password = "motdepasse-secret"
    r = run("users", "create", "--email", "  Marie.Tremblay@Example.org ", "--name", "Marie Tremblay", "--role", "admin",
            env=env, stdin=password + "\n")
    marie = r.stdout.strip()
    check("users create reads the password from stdin and prints the id", r.returncode == 0 and len(marie) == 36
          and "\n" not in marie, r.stderr)
    r = run("users", "create", "--email", "jean@example.org", "--name", "Jean Roy", "--language", "en", "--json",
            env=env, stdin=password + "\r\nignored second line\n")
    jean = json.loads(r.stdout)["userId"] if r.returncode == 0 else ""
    check("users create --json", r.returncode == 0 and len(jean) == 36, r.stderr)
    r = run("users", "create", "--email", "MARIE.TREMBLAY@example.org", "--name", "Autre", env=env, stdin=password + "\n")
    check("a duplicate e-mail (any case) is refused", r.returncode == 1 and "already exists" in r.stderr and r.stdout == "", r.stderr)
    r = run("users", "create", "--email", "marie@", "--name", "X", env=env, stdin=password + "\n")
    check("an invalid e-mail is refused", r.returncode == 1 and "not valid" in r.stderr, r.stderr)
    r = run("users", "create", "--email", "x@example.org", "--name", "X", env=env, stdin="court\n")
    check("a short password is refused", r.returncode == 1 and "at least 10 characters" in r.stderr, r.stderr)
    r = run("users", "create", "--email", "x@example.org", "--name", "X", env=env, stdin="")
    check("no password on stdin is refused", r.returncode == 1 and "no password" in r.stderr, r.stderr)
    r = run("users", "create", "--email", "x@example.org", "--name", "X", "--role", "owner", env=env, stdin=password + "\n")
    check("an unknown role is refused", r.returncode != 0 and r.stdout == "")

    # On a terminal: asked twice, without echo, and both must agree.
    def on_terminal(email, first, second):
        master, slave = pty.openpty()
        p = subprocess.Popen([BIN, "users", "create", "--email", email, "--name", "Terminal"], env=env,
                             stdin=slave, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        os.close(slave)
        stderr = b""
        for answer in (first, second):
            deadline = time.monotonic() + 10
            while stderr.count(b": ") < (1 if answer is first else 2) and time.monotonic() < deadline:
                if select.select([p.stderr], [], [], 0.5)[0]:
                    stderr += os.read(p.stderr.fileno(), 4096)
            os.write(master, answer.encode() + b"\n")
        out, err = p.communicate(timeout=30)
        echoed = b""
        while select.select([master], [], [], 0.2)[0]:
            try:
                chunk = os.read(master, 4096)
            except OSError:
                break
            if not chunk:
                break
            echoed += chunk
        echo_back = bool(termios.tcgetattr(master)[3] & termios.ECHO)
        os.close(master)
        return p.returncode, out.decode(), (stderr + err).decode(), echoed.decode(), echo_back

    code, out, err, echoed, echo_back = on_terminal("claire@example.org", password, password)
    check("users create on a terminal asks twice", code == 0 and len(out.strip()) == 36 and "again" in err, err)
    check("...without echoing the password", password not in echoed and password not in err, repr(echoed))
    check("...and gives the echo back", echo_back)
    code, out, err, echoed, echo_back = on_terminal("paul@example.org", password, password + "x")
    check("two different passwords are refused", code == 1 and "differ" in err and out == "", err)

    r = run("users", "list", env=env)
    check("users list shows each user", r.returncode == 0 and "Marie.Tremblay@Example.org" in r.stdout
          and "jean@example.org" in r.stdout and "claire@example.org" in r.stdout and "paul@" not in r.stdout, r.stderr)
    check("...never a hash", "argon2" not in r.stdout)
    r = run("users", "list", "--json", env=env)
    users = json.loads(r.stdout) if r.returncode == 0 else []
    check("users list --json", [u["email"] for u in users] == ["Marie.Tremblay@Example.org", "jean@example.org", "claire@example.org"])
    check("...with role, language and no hash", users[0]["role"] == "admin" and users[1]["language"] == "en"
          and users[0]["disabledAt"] is None and "argon2" not in r.stdout and not any("password" in k.lower() for k in users[0]))
    check("users list --syndicate", run("users", "list", "--syndicate", "no-such", "--json", env=env).stdout.strip() == "[]")

    r = run("users", "disable", "marie.tremblay@EXAMPLE.org", env=env)
    check("users disable by e-mail", r.returncode == 0, r.stderr)
    r = run("users", "disable", jean, env=env)
    check("users disable by id", r.returncode == 0, r.stderr)
    r = run("users", "disable", jean, env=env)
    check("a disabled user cannot be disabled again", r.returncode == 1 and "no enabled user" in r.stderr, r.stderr)
    check("an unknown user cannot be disabled", run("users", "disable", "nobody@example.org", env=env).returncode == 1)
    users = json.loads(run("users", "list", "--json", env=env).stdout)
    check("users list shows who is disabled", [u["disabledAt"] is not None for u in users] == [True, True, False])
    check("...in its text too", run("users", "list", env=env).stdout.count("DISABLED") == 2)


with tempfile.TemporaryDirectory() as tmp:
    db = os.path.join(tmp, "data", "syndic.db")
    env = dict(os.environ, SYNDIC_DB=db)
    env.pop("SYNDIC_API_KEY", None)
    env.pop("SYNDIC_MODULES", None)

    r = run("--version", env=env)
    check("--version", r.returncode == 0 and r.stdout.startswith("syndic-mcp "), r.stdout)
    r = run("--help", env=env)
    check("--help lists the sub-commands", r.returncode == 0 and all(s in r.stdout for s in ("serve", "http", "init", "keys", "users", "demo", "tools", "quorum",
                                                                    "water-heater-age")))

    # openapi prints the REST routes' OpenAPI document without any database.
    check("--help lists openapi", "openapi" in r.stdout)
    r = run("openapi", env=env)
    document = json.loads(r.stdout) if r.returncode == 0 else {}
    check("openapi prints an OpenAPI 3.1 document", document.get("openapi") == "3.1.0", r.stderr)
    check("...for http://127.0.0.1:8080/api by default", document.get("servers", [{}])[0].get("url") == "http://127.0.0.1:8080"
          and "/api/co-owners/{id}" in document.get("paths", {}))
    check("...without creating a database", not os.path.exists(db))
    r = run("openapi", "--base-url", "https://example.org/syndic/api", "--modules", "units", env=env)
    paths = json.loads(r.stdout)["paths"] if r.returncode == 0 else {}
    check("openapi --base-url --modules", "/syndic/api/units/{id}" in paths and not any("co-owners" in p for p in paths), r.stderr)
    r = run("openapi", "--base-url", "127.0.0.1:8080/api", env=env)
    check("openapi refuses a base URL without scheme", r.returncode == 1 and "base URL" in r.stderr and r.stdout == "", r.stderr)

    # serve opens the database only when a call needs it, and never creates one (decisions 9).
    r = run("serve", "--modules", "all", env=dict(env, SYNDIC_API_KEY="sk_" + "a" * 43),
            stdin='{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n'
                  '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_units","arguments":{}}}\n')
    answers = [json.loads(line) for line in r.stdout.splitlines()]
    check("serve without a database still lists its tools", len(answers[0]["result"]["tools"]) == len(catalogue(BIN)))
    check("...and refuses calls", error_code(answers[1]) == "NOT_AUTHENTICATED")
    check("...without creating the database", not os.path.exists(db))
    check("stdout holds only protocol lines", len(answers) == 2)

    r = run("keys", "list", env=env)
    check("keys list without a database fails", r.returncode != 0 and "init" in r.stderr)
    check("...and creates no database", not os.path.exists(db))
    r = run("users", "create", "--email", "a@example.org", "--name", "A", env=env, stdin="motdepasse-secret\n")
    check("users create without a database fails", r.returncode != 0 and "init" in r.stderr and r.stdout == "", r.stderr)
    r = run("users", "list", env=env)
    check("users list without a database fails", r.returncode != 0 and "init" in r.stderr)
    check("...and creates no database", not os.path.exists(db))

    r = run("init", "--name", "Syndicat Les Érables", "--json", env=env)
    init = json.loads(r.stdout)
    check("init --json", r.returncode == 0 and init["apiKey"].startswith("sk_") and len(init["apiKey"]) >= 35)
    admin = init["apiKey"]
    check("the admin key works", "result" in call(env, admin, "get_fraction_sum", {}))

    r = run("keys", "create", "--role", "member", "--scopes", "read:co-owners", "--name", "lecture", "--json", env=env)
    reader = json.loads(r.stdout)["apiKey"]
    check("a read-only key reads", "result" in call(env, reader, "list_units", {}))
    check("a read-only key cannot write", error_code(call(env, reader, "create_unit", {"number": "1", "type": "apartment"})) == "INSUFFICIENT_SCOPE")

    member = run("keys", "create", env=env).stdout.strip()
    check("keys create prints the secret alone", member.startswith("sk_") and "\n" not in member)
    unit = call(env, admin, "create_unit", {"number": "101", "type": "apartment"})["result"]["structuredContent"]
    person = call(env, admin, "create_co_owner", {"unitId": unit["id"], "firstName": "Marie", "lastName": "Tremblay"})
    person_id = person["result"]["structuredContent"]["id"]
    check("a member cannot archive a co-owner", error_code(call(env, member, "delete_co_owner", {"id": person_id})) == "ADMIN_REQUIRED")
    check("an admin can", "result" in call(env, admin, "delete_co_owner", {"id": person_id}))

    r = run("keys", "list", "--json", env=env)
    keys = json.loads(r.stdout)
    check("keys list shows every key", len(keys) == 3)
    check("keys list never shows a secret", all(k not in r.stdout for k in (admin, reader, member)))
    reader_id = next(k["apiKeyId"] for k in keys if k["name"] == "lecture")
    r = run("keys", "revoke", reader_id[:8], env=env)
    check("keys revoke by prefix", r.returncode == 0)
    check("a revoked key is refused at once", error_code(call(env, reader, "list_units", {})) == "NOT_AUTHENTICATED")
    check("an unknown scope is refused", run("keys", "create", "--scopes", "read:everything", env=env).returncode != 0)

    keys_revoke_section(env)
    users_section(env, tmp)
    clients_section(env)
    walkthrough_twice(tmp)
    tools_run_builds_the_server_alone(tmp)

    r = run("quorum", env=env)
    check("quorum shows 51 by default", r.stdout.strip() == "51")
    run("quorum", "40.5", env=env)
    check("quorum sets it", run("quorum", env=env).stdout.strip() == "40.5")
    check("quorum 0 is refused", run("quorum", "0", env=env).returncode != 0)

    r = run("water-heater-age", env=env)
    check("water-heater-age shows 10 by default", r.returncode == 0 and r.stdout.strip() == "10", r.stdout + r.stderr)
    made = call(env, admin, "create_water_heater", {"unitId": None, "manufactureDate": "2016-01-10"})
    replace_by = json.loads(made["result"]["content"][0]["text"])["replaceBy"] if "result" in made else None
    check("...a tank made 2016-01-10 is due 2026-01-10", replace_by == "2026-01-10", str(made))
    r = run("water-heater-age", "12", env=env)
    check("water-heater-age 12 sets it", r.returncode == 0 and run("water-heater-age", env=env).stdout.strip() == "12")
    listed = call(env, admin, "list_water_heaters", {})
    data = json.loads(listed["result"]["content"][0]["text"])["data"] if "result" in listed else []
    check("...and the tank is now due 2028-01-10", [w["replaceBy"] for w in data] == ["2028-01-10"], str(listed))
    check("water-heater-age 0 and 31 are refused",
          run("water-heater-age", "0", env=env).returncode != 0 and run("water-heater-age", "31", env=env).returncode != 0
          and run("water-heater-age", env=env).stdout.strip() == "12")

    settings_section(env)
    audit_section(env, admin, tmp)
    pdf_module_section(env, admin)

    first = run("demo", "--json", env=env)
    second = run("demo", "--json", env=env)
    check("demo reuses its syndicate", json.loads(first.stdout)["syndicateId"] == json.loads(second.stdout)["syndicateId"])
    key_file = os.path.join(tmp, "demo.key")
    k1 = run("demo", "--key-file", key_file, env=env).stdout.strip()
    k2 = run("demo", "--key-file", key_file, env=env).stdout.strip()
    check("demo --key-file keeps its key", k1 == k2 and k1.startswith("sk_"))
    check("...readable by its owner only", (os.stat(key_file).st_mode & 0o777) == 0o600)
    # The quick start's demo beside the user's own syndicate (issue 27): the commands take the one
    # that is not the demo, and say so; with two of the user's own they need --syndicate.
    made = run("keys", "create", "--json", env=env)
    check("beside the demo, keys create uses the syndicate that is not the demo, and says which",
          made.returncode == 0 and made.stdout.startswith("{") and "besides the demo" in made.stderr, made.stdout + made.stderr)
    check("...and so do settings and quorum", run("quorum", env=env).returncode == 0 and
          run("settings", "mailFrom", env=env).returncode == 0)
    two = dict(env, SYNDIC_DB=os.path.join(tmp, "two.db"))
    run("init", "--name", "Premier", env=two)
    run("init", "--name", "Second", env=two)
    both = run("keys", "create", env=two)
    check("keys create needs --syndicate once there are two besides the demo, and lists them",
          both.returncode != 0 and "Premier" in both.stderr and "Second" in both.stderr, both.stderr)

    tools = json.loads(run("tools", "--json", "--modules", "all", env=env).stdout)
    listing = run("tools", "--modules", "all", env=env).stdout.splitlines()
    check("tools --json: every tool with its scope, as the listing shows it",
          len(tools) > 0 and all(any(line.split()[:2] == [t["name"], t["requiredScope"]] for line in listing) for t in tools))
    check("tools --json: each tool's REST route",
          {t["name"]: (t["http"]["method"], t["http"]["path"]) for t in tools}.get("update_co_owner") == ("PATCH", "/co-owners/{id}"))
    check("tools: the catalogue shows each route",
          "PATCH /meetings/{id}" in run("tools", env=env).stdout)
    units_only = run("tools", "--modules", "units", env=env).stdout
    check("tools --modules units", units_only.count("_unit") == 5 and "meeting" not in units_only)
    check("an unknown module is refused", run("tools", "--modules", "spaceships", env=env).returncode != 0)

    listing = run("serve", "--modules", "units", env=env, stdin='{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n').stdout
    check("serve --modules offers only those tools", len(json.loads(listing)["result"]["tools"]) == 5)
    # The tool surface (docs/decisions.md, "Tool surface"): the default set, presets, --read-only.
    names = lambda out: {line.split()[0] for line in out.splitlines() if line.startswith("  ")}
    everything, default = names(run("tools", "--modules", "all", env=env).stdout), names(run("tools", env=env).stdout)
    check("tools without --modules: the default set", "create_unit" in default and "list_meetings" in default
          and "list_water_heaters" not in default and default < everything)
    check("SYNDIC_MODULES=all: every tool", names(run("tools", env=dict(env, SYNDIC_MODULES="all")).stdout) == everything)
    # The presets and the catalogue's modules as schemas/presets.json names them, and the modules built
    # as the registry says: a module built later changes no line here.
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "schemas", "presets.json"),
              encoding="utf-8") as f:
        presets = json.load(f)
    tools = catalogue(BIN)
    treasurer = {t["name"] for t in tools if t["module"] in presets["presets"]["treasurer"]["modules"]}
    check("--modules treasurer: the built part of the preset", treasurer and
          names(run("tools", "--modules", "treasurer", env=env).stdout) == treasurer, sorted(treasurer))
    not_built = sorted(set(presets["modules"]) - {t["module"] for t in tools})
    if not_built:
        check(f"--modules {not_built[0]} (in the catalogue, not built yet) is refused",
              run("tools", "--modules", not_built[0], env=env).returncode != 0)
    check("--modules board: the board's tools, not in the default set",
          names(run("tools", "--modules", "board", env=env).stdout) == {t for t in everything if t in (
              "get_board", "appoint_director", "update_director", "end_director_mandate", "record_interest_disclosure",
              "list_interest_disclosures", "set_management_mandate")} and "get_board" not in default)
    reading = names(run("tools", "--modules", "all", "--read-only", env=env).stdout)
    check("--read-only: lists and gets only", reading and all(t.split("_")[0] in ("list", "get", "calculate") for t in reading), reading)
    check("SYNDIC_READ_ONLY=1 as --read-only",
          names(run("tools", "--modules", "all", env=dict(env, SYNDIC_READ_ONLY="1")).stdout) == reading)
    check("SYNDIC_READ_ONLY=maybe is refused", run("tools", env=dict(env, SYNDIC_READ_ONLY="maybe")).returncode != 0)
    listing = run("serve", "--read-only", env=dict(env, SYNDIC_API_KEY=admin),
                  stdin='{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_unit","arguments":{"number":"X","type":"parking"}}}\n').stdout
    check("serve --read-only: a write tool cannot be called", "error" in json.loads(listing), listing)
    other = os.path.join(tmp, "other.db")
    r = run("init", "--name", "Autre", "--db", other, env=env)
    check("--db may follow the sub-command", r.returncode == 0 and os.path.exists(other))

    # The default database (decisions 1): $XDG_DATA_HOME, else ~/.local/share.
    home = os.path.join(tmp, "home")
    bare = {k: v for k, v in env.items() if k not in ("SYNDIC_DB", "XDG_DATA_HOME")}
    run("demo", env=dict(bare, HOME=home))
    check("default database under ~/.local/share", os.path.exists(os.path.join(home, ".local/share/syndic-mcp/syndic.db")))
    xdg = os.path.join(tmp, "xdg")
    run("demo", env=dict(bare, HOME=home, XDG_DATA_HOME=xdg))
    check("default database under $XDG_DATA_HOME", os.path.exists(os.path.join(xdg, "syndic-mcp/syndic.db")))

    # --log-file takes the logs; stderr and stdout stay clean.
    log = os.path.join(tmp, "server.log")
    r = run("serve", "--log-file", log, env=env, stdin='{"jsonrpc":"2.0","id":1,"method":"ping"}\n')
    check("--log-file: logs in the file", os.path.exists(log) and "serving MCP on stdio" in open(log).read())
    check("--log-file: nothing on stderr", r.stderr == "", r.stderr)

    # One line per tools/call at info: tool, outcome (ok or the code), milliseconds, key id; no arguments.
    call_log = os.path.join(tmp, "calls.log")
    keys = json.loads(run("keys", "list", "--json", env=env).stdout)
    admin_id = next(k["apiKeyId"] for k in keys if k["prefix"] == admin[:8])
    lines = "\n".join(json.dumps({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {"name": n, "arguments": a}})
                      for i, (n, a) in enumerate([("list_units", {"search": "Zorglub-4512"}),
                                                  ("get_unit", {"id": "Zorglub-9871"})])) + "\n"
    run("serve", "--log-file", call_log, env=dict(env, SYNDIC_API_KEY=admin), stdin=lines)
    logged = open(call_log).read() if os.path.exists(call_log) else ""
    import re
    check("each tools/call is logged at info with its outcome, time and key",
          re.search(r"\[info\] tools/call list_units ok [0-9.]+ ms key " + admin_id, logged) is not None
          and re.search(r"\[info\] tools/call get_unit UNIT_NOT_FOUND [0-9.]+ ms key " + admin_id, logged) is not None, logged)
    check("...never its arguments nor the key", "Zorglub" not in logged and admin not in logged, logged)

checks.finish()

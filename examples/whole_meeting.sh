#!/usr/bin/env bash
# A whole general meeting through the real executable, one request piped per step:
# create, notice, attendance, quorum, resolutions, then on the meeting's day (the server's clock
# moved there with Debian's faketime: a meeting is held on its day, not before) votes, held,
# minutes (PDF) and send_minutes.
#
#   examples/whole_meeting.sh [path/to/syndic-mcp]
#
# Without SYNDIC_DB it works on a fresh database in a temporary folder holding the demo
# syndicate, with a demo admin key. With SYNDIC_DB it uses SYNDIC_API_KEY if given, else a demo
# admin key of that database. Needs python3 to read answers and faketime for the meeting's day.
set -euo pipefail
bin=${1:-"$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/build/syndic-mcp"}
if [ -z "${SYNDIC_DB:-}" ]; then
  export SYNDIC_DB="$(mktemp -d)/syndic.db"
  unset SYNDIC_API_KEY  # a key from elsewhere means nothing in a new database
fi
export SYNDIC_API_KEY=${SYNDIC_API_KEY:-"$("$bin" demo --log-level warn)"}

# call TOOL 'ARGUMENTS' → the tool's result (structuredContent) on stdout; stops on a refusal.
# With `on_day` set ("YYYY-MM-DD HH:MM:SS", UTC), the server runs with its clock starting then,
# a minute later at each call (each call is a new process, and the steps follow one another).
on_day=
steps=$(mktemp)  # calls made on the meeting's day so far (call runs in a subshell: kept in a file)
echo 0 >"$steps"
trap 'rm -f "$steps"' EXIT
call() {
  local request answer clock=()
  request=$(printf '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"%s","arguments":%s}}' "$1" "$2")
  request=${request//$'\n'/ }  # one JSON-RPC message per line
  if [ -n "$on_day" ]; then
    local n
    n=$(<"$steps")
    echo $((n + 1)) >"$steps"
    clock=(faketime "$(date -u -d "$on_day UTC + $n minutes" '+%Y-%m-%d %H:%M:%S')")
  fi
  answer=$(printf '%s\n' "$request" | "${clock[@]}" "$bin" serve --log-level warn)
  python3 -c '
import json, sys
answer = json.loads(sys.argv[1])
if "error" in answer:
    error = answer["error"]
    sys.exit(sys.argv[2] + " refused: " + error["message"] + ": " + error.get("data", {}).get("detail", ""))
print(json.dumps(answer["result"]["structuredContent"], ensure_ascii=False))' "$answer" "$1"
}
# pick 'PYTHON EXPRESSION on r' < JSON → its value
pick() { python3 -c "import json,sys; r=json.load(sys.stdin); print($1)"; }

when=$(date -u -d '+30 days' +%Y-%m-%dT23:00:00Z)
meeting=$(call create_meeting "{\"title\":\"Assemblée générale annuelle\",\"type\":\"aga\",\"scheduledAt\":\"$when\",
  \"location\":\"Salle communautaire, 4520 rue Saint-Denis, Montréal\",
  \"agenda\":[\"Ouverture et quorum\",\"Budget\",\"Toiture\",\"Varia\"]}")
id=$(pick 'r["id"]' <<<"$meeting")
echo "1. created meeting $id for $(pick 'r["scheduledAt"]' <<<"$meeting") ($(pick 'r["status"]' <<<"$meeting"))"

notice=$(call send_meeting_notice "{\"meetingId\":\"$id\",\"sendBy\":\"email\",\"includeAgenda\":true}")
echo "2. notice sent: $(pick 'r["queued"]' <<<"$notice") e-mails queued; without e-mail: $(pick '", ".join(x["name"] for x in r["withoutEmail"]) or "nobody"' <<<"$notice")"

owners=$(call list_co_owners '{}')
attendees=$(pick 'json.dumps([{"coOwnerId": c["id"], "attendance": "present"} for c in r["data"][:5]]
  + [{"coOwnerId": r["data"][5]["id"], "attendance": "proxy", "proxyHolder": r["data"][0]["firstName"] + " " + r["data"][0]["lastName"]}]
  + [{"coOwnerId": c["id"], "attendance": "absent"} for c in r["data"][6:]])' <<<"$owners")
call record_attendance "{\"meetingId\":\"$id\",\"attendees\":$attendees}" >/dev/null
quorum=$(call calculate_quorum "{\"meetingId\":\"$id\"}")
echo "3. attendance recorded; quorum: $(pick 'str(r["total"]) + "% of " + str(r["required"]) + "% required, reached: " + str(r["quorumReached"])' <<<"$quorum")"

budget=$(call add_resolution "{\"meetingId\":\"$id\",\"title\":\"Adoption du budget\",\"description\":\"Il est résolu d'adopter le budget présenté, incluant une contribution de 25 000 \$ au fonds de prévoyance.\",\"majorityRequired\":\"simple\"}")
roof=$(call add_resolution "{\"meetingId\":\"$id\",\"title\":\"Réfection de la toiture\",\"majorityRequired\":\"absolute\"}")
total=$(pick 'r["total"]' <<<"$quorum")
on_day=$(date -u -d "$when + 1 hour" '+%Y-%m-%d %H:%M:%S')  # the meeting's evening: votes are taken there
echo "   (the server's clock moves to $on_day UTC, the meeting's day)"
votes_budget=$(call record_votes "{\"resolutionId\":\"$(pick 'r["id"]' <<<"$budget")\",\"votesFor\":$(pick "round($total*0.7, 6)" <<<"$quorum"),\"votesAgainst\":$(pick "round($total*0.3, 6)" <<<"$quorum"),\"votesAbstain\":0}")
votes_roof=$(call record_votes "{\"resolutionId\":\"$(pick 'r["id"]' <<<"$roof")\",\"votesFor\":$(pick "round($total*0.6, 6)" <<<"$quorum"),\"votesAgainst\":$(pick "round($total*0.4, 6)" <<<"$quorum"),\"votesAbstain\":0}")
echo "4. votes: budget $(pick 'r["outcome"]' <<<"$votes_budget"), roof $(pick 'r["outcome"]' <<<"$votes_roof")"

call update_meeting "{\"id\":\"$id\",\"status\":\"held\"}" >/dev/null
echo "5. meeting held"

minutes=$(call generate_minutes "{\"meetingId\":\"$id\",\"draft\":false,\"language\":\"fr\"}")
echo "6. minutes: $(pick 'r["path"]' <<<"$minutes") ($(pick 'r["pages"]' <<<"$minutes") page(s), $(pick 'r["sizeBytes"]' <<<"$minutes") bytes)"

sent=$(call send_minutes "{\"meetingId\":\"$id\",\"sendBy\":\"email\"}")
echo "7. minutes sent: $(pick 'r["queued"]' <<<"$sent") e-mails queued; status: $(pick 'r["meeting"]["status"]' <<<"$sent")"
[ "$(pick 'r["meeting"]["status"]' <<<"$sent")" = minutes-sent ]

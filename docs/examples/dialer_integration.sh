#!/usr/bin/env bash
# A dialer integration from start to finish, with curl and the example
# receiver (receiver.py) on this machine:
#
#   1. a webhook signing secret for the tenant, and the receiver started
#      with it;
#   2. a voice provider configuration and a campaign whose webhook_url is
#      the receiver;
#   3. leads imported from CSV, the import watched until done, and the rows
#      it rejected;
#   4. the campaign activated and watched while it dials;
#   5. its calls read back, and the events the receiver printed.
#
#   VCS_PUBLIC_URL=http://127.0.0.1:8080 VCS_API_KEY=<tenant key> \
#     docs/examples/dialer_integration.sh
#
# The service sends webhooks to loopback only when the operator allows it
# (`outbound-allow = 127.0.0.0/8`). The voice provider is provider_b, which
# this service simulates: each lead's `custom_fields.simulated_outcomes`
# scripts its calls.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
api=${VCS_PUBLIC_URL:-http://127.0.0.1:8080}/api/v2
: "${VCS_API_KEY:?set VCS_API_KEY to a tenant API key}"
port=${RECEIVER_PORT:-8090}
work=$(mktemp -d)
receiver_pid=
cleanup() {
  [ -n "$receiver_pid" ] && kill "$receiver_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# curl with the key; the answer on standard output, any non-2xx fatal.
call() { # call METHOD PATH [BODY] [CONTENT-TYPE]
  curl -sS --fail-with-body -X "$1" "$api$2" \
    -H @<(printf 'Authorization: Bearer %s\n' "$VCS_API_KEY") \
    -H "Content-Type: ${4:-application/json}" ${3:+--data-binary "$3"}
}
json() { python3 -c "import json, sys; d = json.load(sys.stdin); print($1)"; }
step() { printf '\n== %s\n' "$*"; }

step "1. A signing secret (shown once) and the receiver"
secret=$(call POST /webhook-secret '{"grace_period_seconds":0}' | json 'd["data"]["webhook_secret"]')
WEBHOOK_SECRET=$secret python3 "$here/receiver.py" --port "$port" >"$work/events" &
receiver_pid=$!
for _ in $(seq 50); do
  curl -s -o /dev/null "http://127.0.0.1:$port/" && break
  sleep 0.1
done

step "2. A voice provider and a campaign that reports to the receiver"
provider=$(call POST /voice-pod '{"voice_provider":"provider_b","provider_b_api_key":"example"}' |
  json 'd["data"]["voice_provider_id"]')
campaign=$(call POST /voice-campaigns "{\"name\":\"Example dialer\",\"assistant_id\":\"asst_example\",
  \"phone_number_id\":\"pn_example\",\"tenant_voice_provider_id\":\"$provider\",
  \"max_call_attempts\":1,\"webhook_url\":\"http://127.0.0.1:$port/hooks\"}" |
  json 'd["data"]["campaign_id"]')
echo "campaign $campaign"

step "3. Leads from CSV: one malformed, one repeated"
import=$(call POST "/voice-campaigns/$campaign/leads/bulk" 'phone_number,first_name,custom_fields.crm_id,custom_fields.simulated_outcomes
+14155552671,Ada,CRM-1,human
+14155552672,Grace,CRM-2,voicemail
+14155552673,Linus,CRM-3,no_answer
not-a-number,Nobody,CRM-4,human
+14155552671,Ada again,CRM-5,human
' text/csv | json 'd["import_id"]')
for _ in $(seq 100); do
  status=$(call GET "/voice-campaigns/$campaign/leads/imports/$import" | json 'd["status"]')
  [ "$status" = done ] && break
  sleep 0.1
done
call GET "/voice-campaigns/$campaign/leads/imports/$import" |
  json '{k: d[k] for k in ("status", "accepted", "inserted", "rejected")}'
call GET "/voice-campaigns/$campaign/leads/imports/$import/rejected-rows" |
  json '"\n".join("row %s: %s: %s" % (r["index"], r["reason"], r["message"]) for r in d["data"])'

step "4. Dialing: the campaign activated and watched until no lead is left to call"
call PATCH "/voice-campaigns/$campaign/status" '{"status":"ACTIVE"}' >/dev/null
for _ in $(seq 300); do
  progress=$(call GET "/voice-campaigns/$campaign")
  left=$(json 'd["data"]["dialable_count"] + d["data"]["lead_counts"]["IN_PROGRESS"]' <<<"$progress")
  [ "$left" = 0 ] && break
  sleep 0.2
done
json 'd["data"]["lead_counts"]' <<<"$progress"
[ "$left" = 0 ] || { echo "example: the campaign still has leads to call" >&2; exit 1; }

step "5. The calls, newest first, and the events received"
call GET "/voice-campaigns/$campaign/calls" |
  json '"\n".join("%s %s %s %s min" % (c["phone_number"], c["status"], c["outcome"], c["billed_minutes"]) for c in d["data"])'
for _ in $(seq 100); do # the last events may still be on their way
  grep -q '"lead.answered"' "$work/events" && grep -q '"import.completed"' "$work/events" &&
    [ "$(grep -c '"call.ended"' "$work/events")" -ge 3 ] && break
  sleep 0.1
done
python3 -c '
import json, sys
for line in open(sys.argv[1]):
    e = json.loads(line)
    d = e["data"]
    print(e["type"], d.get("phone_number", ""), d.get("custom_fields", {}).get("crm_id", ""))
' "$work/events"
grep -q '"import.completed"' "$work/events" && grep -q '"lead.answered"' "$work/events" ||
  { echo "example: the receiver did not get the expected events" >&2; exit 1; }
printf '\nexample: done\n'

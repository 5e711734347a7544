"""The noisy neighbour drills: a victim tenant's paced mix alone, while
another tenant attacks from a process of its own, and after."""

import json

from vcs_tools.deployment import memory_mb, reset_peak_rss
from vcs_tools.drills.attackers import (attack, spelling_attack, taken_email_attack,
                                        value_bomb_attack)
from vcs_tools.drills.tenants import neighbours, victim_verdict


# A noisy neighbour: a victim tenant's paced mix alone, then while an
# attacker tenant in another process sends every heavy request kind the
# API accepts plus an unpaced flood, then after the attack.
def neighbour(drills):
    victim, attacker = neighbours(drills)
    outcome, windows = victim.beside(drills.args.duration, attack,
                                     (drills.dep.public_port, attacker.key, attacker.campaign))
    figures, ok = victim_verdict(drills, victim, windows, outcome["answers"])
    drills.record("noisy neighbour (heavy requests and a flood from another tenant)",
                  "python (two processes)", figures, "nothing", ok)


# Bulk bodies built to exhaust memory from another tenant, several at
# once: one lead holding a 60 MB array, or millions of small values. Each
# is refused while it is read (or waits its turn: 503 with Retry-After
# from the large-body memory budget), memory stays flat (peak RSS, VmHWM,
# within 512 MB of the RSS before), the victim is unaffected.
def value_bomb(drills):
    victim, attacker = neighbours(drills)
    pid = drills.dep.proc.pid
    rss0 = drills.dep.rss_mb()
    reset_peak_rss(pid)
    outcome, windows = victim.beside(drills.args.duration, value_bomb_attack,
                                     (drills.dep.public_port, attacker.key, attacker.campaign))
    peak = memory_mb(pid, "VmHWM")
    figures, ok = victim_verdict(drills, victim, windows, outcome["answers"], retry_later=True)
    figures.update(attack_answer_p50_ms=outcome["answer_p50_ms"],
                   rss_mb=f"{rss0:.0f} -> peak {peak:.0f}")
    if not drills.args.ci:
        ok = ok and peak - rss0 <= 512
    drills.record("value bombs (60 MB arrays, millions of values) from another tenant",
                  "python (two processes)", figures, "nothing", ok)


# Another tenant floods with its own key spelled every way the scheme
# allows and with junk keys, a new connection per request: answered 200,
# 429 past its share, 401 for junk; the victim is unaffected.
def header_spelling_flood(drills):
    victim, attacker = neighbours(drills)
    outcome, windows = victim.beside(drills.args.duration, spelling_attack,
                                     (drills.dep.public_port, attacker.key, attacker.campaign))
    figures, ok = victim_verdict(drills, victim, windows, outcome["answers"])
    figures["attack_answer_p50_ms"] = outcome["answer_p50_ms"]
    drills.record("Authorization header spellings and junk keys from another tenant",
                  "python (two processes), 16 threads", figures, "nothing", ok)


# Another tenant creates, again and again, a client whose 25 users'
# e-mails it has taken already: each is refused (400) before any password
# is hashed, quickly; the victim is unaffected.
def taken_email_flood(drills):
    victim, attacker = neighbours(drills)
    body = json.dumps({"client_users": [{"email": f"taken{i}@attacker.io",
                                         "password": "correct horse"} for i in range(25)],
                       "client_details": {"name": "Taken", "email": "taken@attacker.io"},
                       "client_asset_group": {"name": "taken"}})
    attacker.api.ok("POST", "/api/v2/clients/create", body.encode())
    outcome, windows = victim.beside(drills.args.duration, taken_email_attack,
                                     (drills.dep.public_port, attacker.key, body))
    figures, ok = victim_verdict(drills, victim, windows, outcome["answers"])
    figures["attack_answer_p50_ms"] = outcome["answer_p50_ms"]
    drills.record("client creates with taken e-mails from another tenant",
                  "python (two processes), 8 threads", figures, "nothing", ok)

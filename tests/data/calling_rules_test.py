"""The calling rules checker and page (scripts/lib/calling_rules.py) on
small data made here: it refuses a rule without a source or dates, and
the page and the version line say what the data holds."""

import copy
import datetime
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "lib"))
import calling_rules  # noqa: E402

WEEK = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")

SOUND = {
    "version": "2026-12-04.1",
    "reviewed_on": "2026-12-01",
    "notice": "A safety net, not legal advice.",
    "holiday_calendars": {
        "xx": {"source": {"title": "An act", "url": "https://example.gov/act"},
               "holidays": [{"id": "founding", "rule": "07-01"}]},
    },
    "rules": [
        {"id": "xx-hours", "jurisdiction": {"country": "XX", "region": None}, "purposes": ["telemarketing"],
         "kind": "hours", "hours": {d: [["08:00", "21:00"]] for d in WEEK},
         "source": {"title": "A rule", "url": "https://example.gov/rule"},
         "effective_from": "2003-10-01", "effective_to": None},
        {"id": "xx-yy-sundays", "jurisdiction": {"country": "XX", "region": "YY"},
         "purposes": ["telemarketing", "informational"], "kind": "day_ban",
         "banned_days": {"weekdays": ["sun"], "holidays": ["xx:founding"]},
         "source": {"title": "A statute", "url": "https://example.gov/statute"},
         "effective_from": "2020-01-01", "effective_to": "2030-01-01"},
        {"id": "xx-yy-cap", "jurisdiction": {"country": "XX", "region": "YY"}, "purposes": ["telemarketing"],
         "kind": "contact_cap", "cap": {"calls": 3, "window_hours": 24, "per": "number", "subject": "same_subject"},
         "source": {"title": "A statute", "url": "https://example.gov/statute"},
         "effective_from": "2021-07-01", "effective_to": None},
    ],
}


def with_rule(change):
    data = copy.deepcopy(SOUND)
    change(data["rules"][0])
    return data


class CheckTest(unittest.TestCase):
    def test_sound_data_has_no_problem(self):
        self.assertEqual(calling_rules.check(SOUND), [])

    def test_a_rule_without_a_source_is_refused(self):
        for change in (lambda r: r.pop("source"), lambda r: r["source"].pop("url"),
                       lambda r: r["source"].update(url="http://example.gov/rule")):
            problems = calling_rules.check(with_rule(change))
            self.assertTrue(any("no source" in p for p in problems), problems)

    def test_a_rule_without_dates_is_refused(self):
        problems = calling_rules.check(with_rule(lambda r: r.pop("effective_from")))
        self.assertTrue(any("no effective_from" in p for p in problems), problems)
        problems = calling_rules.check(with_rule(lambda r: r.pop("effective_to")))
        self.assertTrue(any("no effective_to" in p for p in problems), problems)
        problems = calling_rules.check(with_rule(lambda r: r.update(effective_to="2000-01-01")))
        self.assertTrue(any("after effective_from" in p for p in problems), problems)

    def test_each_kind_must_say_what_it_allows(self):
        problems = calling_rules.check(with_rule(lambda r: r["hours"].pop("sun")))
        self.assertTrue(any("every weekday" in p for p in problems), problems)
        problems = calling_rules.check(with_rule(lambda r: r["hours"].update(mon=[["21:00", "08:00"]])))
        self.assertTrue(any("start before end" in p for p in problems), problems)
        data = copy.deepcopy(SOUND)
        data["rules"][1]["banned_days"]["holidays"] = ["xx:unknown"]
        self.assertTrue(any("in no holiday calendar" in p for p in calling_rules.check(data)))
        data = copy.deepcopy(SOUND)
        data["rules"][2]["cap"]["calls"] = 0
        self.assertTrue(any("cap.calls" in p for p in calling_rules.check(data)))

    def test_a_zone_belongs_to_one_country_with_a_source(self):
        data = copy.deepcopy(SOUND)
        data["country_zones"] = {"about": "Zones.", "source": {"title": "zone.tab", "url": "https://example.org/zone.tab"},
                                 "countries": {"XX": ["Europe/Xx", "America/Yy"]}}
        self.assertEqual(calling_rules.check(data), [])
        self.assertIn("- XX: `Europe/Xx`, `America/Yy`", calling_rules.render(data))
        data["country_zones"]["countries"]["ZZ"] = ["America/Yy"]
        self.assertTrue(any("in both XX and ZZ" in p for p in calling_rules.check(data)))
        data["country_zones"]["source"] = {}
        self.assertTrue(any("country_zones: no source" in p for p in calling_rules.check(data)))

    def test_ids_are_unique(self):
        data = copy.deepcopy(SOUND)
        data["rules"][1]["id"] = "xx-hours"
        self.assertTrue(any("used twice" in p for p in calling_rules.check(data)))


class PageTest(unittest.TestCase):
    def test_the_page_lists_every_rule_with_its_source(self):
        page = calling_rules.render(SOUND)
        for rule in SOUND["rules"]:
            self.assertIn(f"`{rule['id']}`", page)
            self.assertIn(rule["source"]["url"], page)
        self.assertIn("at most 3 calls per number on the same subject in any 24 hours", page)
        self.assertIn("no calls on sun, xx:founding", page)
        self.assertIn("2020-01-01 – 2030-01-01", page)
        self.assertIn("calls only every day 08:00–21:00", page)

    def test_weekdays_with_the_same_hours_are_one_run(self):
        data = copy.deepcopy(SOUND)
        hours = {d: [["09:00", "21:30"]] for d in WEEK[:5]}
        hours.update(sat=[["10:00", "18:00"]], sun=[])
        data["rules"][0]["hours"] = hours
        self.assertEqual(calling_rules.check(data), [])
        self.assertIn("calls only mon–fri 09:00–21:30; sat 10:00–18:00; sun none", calling_rules.render(data))

    def test_the_version_line_says_the_age(self):
        line = calling_rules.version_line(SOUND, datetime.date(2026, 12, 4))
        self.assertEqual(line, "calling rules 2026-12-04.1, reviewed 2026-12-01 (3 days ago), 3 rules")


if __name__ == "__main__":
    unittest.main()

// The tenant's events as server-sent events (GET /api/v2/events/stream):
// new events as they commit, resumed after Last-Event-ID without a loss or
// a repeat, a bounded number of streams per tenant, and the key's
// permission and campaigns as on the pull feed.

#include "service_fixture.hpp"
#include "sse_reader.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace vcs::test {
namespace {

using namespace std::chrono_literals;

class event_stream_test : public service_test {
protected:
  std::unique_ptr<sse_reader> open(const std::string& key, const header_list& more = {},
                                   const std::string& target = "/api/v2/events/stream") {
    header_list headers{{"Authorization", "Bearer " + key}};
    headers.insert(headers.end(), more.begin(), more.end());
    return std::make_unique<sse_reader>(svc.public_port(), target, headers);
  }
  std::string campaign(const std::string& key) {
    auto r = pub("POST", "/api/v2/voice-campaigns", key, R"({"name":"streamed"})");
    EXPECT_EQ(r.status, 201u) << r.body;
    return str(parse(r.body)["data"], "campaign_id");
  }
  // One bulk import of `count` leads, waited for: one import.completed.
  std::string import(const std::string& key, const std::string& campaign, int first) {
    auto r = pub("POST", "/api/v2/voice-campaigns/" + campaign + "/leads/bulk", key,
                 numbered_leads(2, first));
    EXPECT_EQ(r.status, 200u) << r.body;
    const auto id = str(parse(r.body), "import_id");
    wait_import("/api/v2/voice-campaigns/" + campaign, key, id);
    return id;
  }
  // The import ids of the next `count` events of `s` (each awaited 10 s).
  static std::vector<std::string> imports_of(sse_reader& s, int count,
                                             std::vector<std::string>* cursors = nullptr) {
    std::vector<std::string> ids;
    for (int i = 0; i < count; ++i) {
      auto e = s.next_feed_event(10s);
      if (!e)
        break;
      EXPECT_EQ(e->type, "import.completed");
      auto doc = parse(e->data);
      EXPECT_EQ(str(doc, "cursor"), e->id);
      ids.push_back(str(doc["payload"]["data"], "import_id"));
      if (cursors)
        cursors->push_back(e->id);
    }
    return ids;
  }
};

TEST_F(event_stream_test, new_events_arrive_as_they_commit_and_a_stream_resumes_after_its_last) {
  auto t = create_tenant();
  auto c = campaign(t.key);
  auto before = import(t.key, c, 5550100);

  // A stream without a cursor starts at the end: the earlier import is not
  // sent again.
  auto s = open(t.key);
  ASSERT_EQ(s->status(), 200u) << s->rest();
  EXPECT_EQ(s->header("content-type"), "text/event-stream; charset=utf-8");
  EXPECT_EQ(s->header("cache-control"), "no-store");
  std::vector<std::string> made;
  for (int i = 0; i < 3; ++i)
    made.push_back(import(t.key, c, 5550200 + 10 * i));
  std::vector<std::string> cursors;
  EXPECT_EQ(imports_of(*s, 3, &cursors), made);
  EXPECT_FALSE(s->next_feed_event(1500ms)) << "nothing else";
  s->close();

  // While no stream is open, two more; a stream resumed after the first of
  // the three gets the rest once, in order.
  made.push_back(import(t.key, c, 5550300));
  made.push_back(import(t.key, c, 5550310));
  auto resumed = open(t.key, {{"Last-Event-ID", cursors[0]}});
  ASSERT_EQ(resumed->status(), 200u) << resumed->rest();
  EXPECT_EQ(imports_of(*resumed, 4), std::vector<std::string>(made.begin() + 1, made.end()));
  EXPECT_FALSE(resumed->next_feed_event(1500ms));

  // `after` does the same, from the feed's start.
  auto whole = open(t.key, {}, "/api/v2/events/stream?after=0-0");
  auto all = imports_of(*whole, 6);
  ASSERT_EQ(all.size(), 6u);
  EXPECT_EQ(all.front(), before);
}

TEST_F(event_stream_test, streams_are_bounded_per_tenant_and_refused_as_the_feed_is) {
  auto t = create_tenant();
  std::vector<std::unique_ptr<sse_reader>> held;
  for (int i = 0; i < 8; ++i) {
    held.push_back(open(t.key));
    ASSERT_EQ(held.back()->status(), 200u) << i;
  }
  auto ninth = open(t.key);
  EXPECT_EQ(ninth->status(), 429u);
  EXPECT_EQ(ninth->header("retry-after"), "5");
  EXPECT_NE(ninth->rest().find("at most 8 event streams"), std::string::npos) << ninth->rest();
  // Another tenant is not held back by this one's streams.
  auto other = create_tenant();
  EXPECT_EQ(open(other.key)->status(), 200u);
  // A closed stream gives its place back.
  held.back()->close();
  held.pop_back();
  bool again = false;
  for (int i = 0; i < 50 && !again; ++i) {
    again = open(t.key)->status() == 200u;
    if (!again)
      std::this_thread::sleep_for(100ms);
  }
  EXPECT_TRUE(again);

  auto bad = open(other.key, {{"Last-Event-ID", "yesterday"}});
  EXPECT_EQ(bad.get()->status(), 400u);
  EXPECT_NE(bad->rest().find("Invalid cursor"), std::string::npos);
  auto narrow = pub("POST", "/api/v2/api-keys", other.key,
                    R"({"name":"no feed","permissions":["campaigns:read"]})");
  ASSERT_EQ(narrow.status, 201u) << narrow.body;
  auto refused = open(str(parse(narrow.body)["data"], "key"));
  EXPECT_EQ(refused->status(), 403u);
  EXPECT_EQ(open("vcs_" + std::string(48, '0'))->status(), 401u);
}

TEST_F(event_stream_test, a_key_held_to_a_campaign_streams_only_its_events) {
  auto t = create_tenant();
  auto mine = campaign(t.key);
  auto theirs = campaign(t.key);
  auto key = pub("POST", "/api/v2/api-keys", t.key,
                 R"({"name":"one","campaign_ids":[")" + mine + R"("]})");
  ASSERT_EQ(key.status, 201u) << key.body;
  auto s = open(str(parse(key.body)["data"], "key"));
  ASSERT_EQ(s->status(), 200u);
  import(t.key, theirs, 5550400);
  auto seen = import(t.key, mine, 5550410);
  EXPECT_EQ(imports_of(*s, 1), std::vector<std::string>{seen});
  EXPECT_FALSE(s->next_feed_event(1500ms));
}

TEST_F(event_stream_test, each_batch_is_followed_by_the_progress_of_the_campaigns_it_names) {
  auto t = create_tenant();
  auto c = campaign(t.key);
  auto events_only = pub("POST", "/api/v2/api-keys", t.key,
                         R"({"name":"events only","permissions":["webhooks:read"]})");
  ASSERT_EQ(events_only.status, 201u) << events_only.body;
  auto s = open(t.key);
  auto narrow = open(str(parse(events_only.body)["data"], "key"));
  ASSERT_EQ(s->status(), 200u) << s->rest();
  ASSERT_EQ(narrow->status(), 200u) << narrow->rest();
  import(t.key, c, 5550500);

  auto e = s->next(10s);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->type, "import.completed");
  auto p = s->next(10s);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->type, "campaign.progress");
  EXPECT_EQ(p->id, "") << "a snapshot is no place in the feed";
  auto figures = parse(p->data);
  EXPECT_EQ(str(figures, "id"), c);
  EXPECT_EQ(figures["lead_count"].GetInt64(), 2);
  EXPECT_EQ(figures["lead_counts"]["IDLE"].GetInt64(), 2);
  EXPECT_EQ(figures["dialable_count"].GetInt64(), 2);
  // The same as the campaign read.
  auto read = parse(pub("GET", "/api/v2/voice-campaigns/" + c, t.key).body);
  EXPECT_EQ(figures["lead_counts"], read["data"]["lead_counts"]);

  // A key without campaigns:read gets the event and no figures.
  auto only = narrow->next(10s);
  ASSERT_TRUE(only);
  EXPECT_EQ(only->type, "import.completed");
  EXPECT_FALSE(narrow->next(1500ms));
}

TEST_F(event_stream_test, a_stream_ends_when_its_key_is_disabled) {
  auto t = create_tenant();
  auto made = pub("POST", "/api/v2/api-keys", t.key, R"({"name":"streamer"})");
  ASSERT_EQ(made.status, 201u) << made.body;
  auto doc = parse(made.body);
  auto s = open(str(doc["data"], "key"));
  ASSERT_EQ(s->status(), 200u);
  ASSERT_EQ(
      pub("PATCH", "/api/v2/api-keys/" + str(doc["data"], "id"), t.key, R"({"status":"Disabled"})")
          .status,
      200u);
  // Read again every 5 s: ended within 10.
  EXPECT_FALSE(s->next(10s));
  EXPECT_TRUE(s->ended()) << "the stream is still open";
}

// A stream lasts at most event-stream-lifetime-ms, however valid its key: a
// leaked key's stream does not run for ever, and the client resumes from
// its Last-Event-ID.
TEST_F(event_stream_test, a_stream_ends_at_its_lifetime_and_resumes_from_its_last_event) {
  service_process brief{{{"VCS_EVENT_STREAM_LIFETIME_MS", "3000"}}};
  auto t = create_tenant();
  const auto c = campaign(t.key);
  sse_reader s{
      brief.public_port(), "/api/v2/events/stream", {{"Authorization", "Bearer " + t.key}}};
  ASSERT_EQ(s.status(), 200u) << s.rest();
  const auto first = import(t.key, c, 1000);
  auto e = s.next_feed_event(10s);
  ASSERT_TRUE(e);
  EXPECT_EQ(str(parse(e->data)["payload"]["data"], "import_id"), first);
  const auto started = std::chrono::steady_clock::now();
  while (!s.ended() && std::chrono::steady_clock::now() - started < 10s)
    s.next(1s);
  EXPECT_TRUE(s.ended()) << "the stream outlived its lifetime";
  const auto second = import(t.key, c, 2000);
  sse_reader again{brief.public_port(),
                   "/api/v2/events/stream",
                   {{"Authorization", "Bearer " + t.key}, {"Last-Event-ID", e->id}}};
  ASSERT_EQ(again.status(), 200u);
  auto next = again.next_feed_event(10s);
  ASSERT_TRUE(next);
  EXPECT_EQ(str(parse(next->data)["payload"]["data"], "import_id"), second);
}

} // namespace
} // namespace vcs::test

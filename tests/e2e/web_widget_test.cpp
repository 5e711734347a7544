// POST /api/v2/web-widgets: config defaults and validation, INBOUND only,
// one widget per campaign even under concurrent creates on two nodes.

#include "service_fixture.hpp"

#include <atomic>
#include <thread>

namespace vcs::test {
namespace {

class web_widget_test : public service_test {
protected:
  std::string campaign(const std::string& key, const std::string& type = "INBOUND") {
    auto r =
        pub("POST", "/api/v2/voice-campaigns", key, R"({"name":"widget","type":")" + type + "\"}");
    EXPECT_EQ(r.status, 201u) << r.body;
    return str(parse(r.body)["data"], "campaign_id");
  }
  http_response create(const std::string& key, const std::string& body) {
    return pub("POST", "/api/v2/web-widgets", key, body);
  }
};

TEST_F(web_widget_test, absent_config_keys_take_their_defaults) {
  auto t = create_tenant();
  auto c = campaign(t.key);
  auto r = create(t.key, R"({"voice_campaign_id":")" + c +
                             R"(","config":{},"voice_assistant_id":"va_1"})");
  ASSERT_EQ(r.status, 201u) << r.body;
  auto d = parse(r.body);
  EXPECT_EQ(str(d, "status"), "success");
  const auto& data = d["data"];
  EXPECT_FALSE(str(data, "web_widget_id").empty());
  EXPECT_EQ(str(data, "voice_campaign_id"), c);
  EXPECT_FALSE(str(data, "created_at").empty());
  const auto& cfg = data["config"];
  ASSERT_EQ(cfg["mode"].Size(), 1u);
  EXPECT_STREQ(cfg["mode"][0].GetString(), "voice");
  EXPECT_EQ(str(cfg, "theme"), "light");
  EXPECT_EQ(str(cfg, "position"), "bottom-right");
  EXPECT_FALSE(str(cfg, "title").empty());
  EXPECT_FALSE(str(cfg, "subtitle").empty());
  EXPECT_FALSE(str(cfg, "ctaButtonText").empty());
  EXPECT_EQ(str(cfg, "accentColor"), "#2563EB");
  EXPECT_EQ(str(cfg, "ctaButtonColor"), "#2563EB");
}

TEST_F(web_widget_test, given_config_values_are_kept) {
  auto t = create_tenant();
  auto c = campaign(t.key);
  auto r = create(t.key, R"({"voice_campaign_id":")" + c +
                             R"(","voice_assistant_id":"va","chat_assistant_id":"ca",
    "config":{"mode":["voice","chat"],"theme":"dark","position":"top-left","title":"Hi",
              "subtitle":"Ask us","ctaButtonText":"Go","accentColor":"#fff","ctaButtonColor":"#00AA11"}})");
  ASSERT_EQ(r.status, 201u) << r.body;
  auto d = parse(r.body);
  const auto& cfg = d["data"]["config"];
  EXPECT_EQ(cfg["mode"].Size(), 2u);
  EXPECT_EQ(str(cfg, "theme"), "dark");
  EXPECT_EQ(str(cfg, "position"), "top-left");
  EXPECT_EQ(str(cfg, "title"), "Hi");
  EXPECT_EQ(str(cfg, "accentColor"), "#fff");
  EXPECT_EQ(str(cfg, "ctaButtonColor"), "#00AA11");
}

TEST_F(web_widget_test, validation_names_each_bad_field) {
  auto t = create_tenant();
  auto missing = create(t.key, "{}");
  ASSERT_EQ(missing.status, 400u);
  auto m = parse(missing.body);
  EXPECT_EQ(str(m, "message"), "Invalid data");
  EXPECT_TRUE(m["errors"].HasMember("voice_campaign_id"));
  EXPECT_TRUE(m["errors"].HasMember("config"));

  auto c = campaign(t.key);
  auto r = create(t.key, R"({"voice_campaign_id":")" + c + R"(","config":{"mode":["voice","video"],
    "theme":"neon","position":"middle","title":")" +
                             std::string(61, 't') +
                             R"(","accentColor":"blue","ctaButtonColor":"#12345","colour":"x"}})");
  ASSERT_EQ(r.status, 400u) << r.body;
  auto d = parse(r.body);
  for (const char* f : {"config.mode", "config.theme", "config.position", "config.title",
                        "config.accentColor", "config.ctaButtonColor", "config.colour"})
    EXPECT_TRUE(d["errors"].HasMember(f)) << f << " " << r.body;

  auto chat = create(t.key, R"({"voice_campaign_id":")" + c + R"(","config":{"mode":["chat"]}})");
  ASSERT_EQ(chat.status, 400u);
  EXPECT_TRUE(parse(chat.body)["errors"].HasMember("chat_assistant_id"));
  auto voice = create(t.key, R"({"voice_campaign_id":")" + c + R"(","config":{}})");
  ASSERT_EQ(voice.status, 400u);
  EXPECT_TRUE(parse(voice.body)["errors"].HasMember("voice_assistant_id"));
  EXPECT_EQ(create(t.key, R"({"voice_campaign_id":")" + c + R"(","config":[]})").status, 400u);
}

TEST_F(web_widget_test, outbound_campaigns_take_no_widget) {
  auto t = create_tenant();
  auto c = campaign(t.key, "OUTBOUND");
  auto r = create(t.key,
                  R"({"voice_campaign_id":")" + c + R"(","config":{},"voice_assistant_id":"va"})");
  ASSERT_EQ(r.status, 400u) << r.body;
  EXPECT_TRUE(parse(r.body)["errors"].HasMember("voice_campaign_id"));
}

TEST_F(web_widget_test, unknown_or_foreign_campaign_is_not_found) {
  auto t = create_tenant();
  auto other = create_tenant();
  auto foreign = campaign(other.key);
  for (const std::string& c :
       {foreign, std::string{"Vm9pY2VDYW1wYWlnbjo5OTk5OTk5OQ=="}, std::string{"junk"}}) {
    auto r = create(t.key, R"({"voice_campaign_id":")" + c +
                               R"(","config":{},"voice_assistant_id":"va"})");
    ASSERT_EQ(r.status, 404u) << c << " " << r.body;
    EXPECT_NE(str(parse(r.body), "message").find("not found"), std::string::npos);
  }
}

TEST_F(web_widget_test, one_widget_per_campaign_even_under_concurrent_creates) {
  auto t = create_tenant();
  auto c = campaign(t.key);
  auto body = R"({"voice_campaign_id":")" + c + R"(","config":{},"voice_assistant_id":"va"})";
  service_process second_node;
  std::atomic<int> created{0}, conflicts{0}, other{0};
  std::vector<std::thread> clients;
  for (int i = 0; i < 20; ++i)
    clients.emplace_back([&, i] {
      http_client client{"127.0.0.1", i % 2 ? second_node.public_port() : svc.public_port()};
      auto r = client.request("POST", "/api/v2/web-widgets", body, bearer(t.key));
      if (r.status == 201)
        ++created;
      else if (r.status == 409 &&
               parse(r.body)["errors"][0].GetString() == std::string{"Duplicate web widget"})
        ++conflicts;
      else
        ++other;
    });
  for (auto& th : clients)
    th.join();
  EXPECT_EQ(created.load(), 1);
  EXPECT_EQ(conflicts.load(), 19);
  EXPECT_EQ(other.load(), 0);
  auto again = create(t.key, body);
  EXPECT_EQ(again.status, 409u);
  EXPECT_FALSE(str(parse(again.body), "message").empty());
}

} // namespace
} // namespace vcs::test

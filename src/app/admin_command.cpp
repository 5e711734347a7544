#include "app/admin_command.hpp"

#include "app/admin_output.hpp"
#include "http/inputs/json.hpp"
#include "outbound/operator_api_client.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <functional>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>

namespace vcs::app {

namespace {

// A mistake in the command line: nothing is sent.
struct usage_error : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

using option_values = std::map<std::string, std::string>;

struct admin_request {
  std::string method;
  std::string target;
  std::string body;
  std::optional<table_view> view;
};

// A path segment or query value, percent-encoded.
std::string encoded(std::string_view text) {
  static constexpr char hex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char ch : text) {
    if (std::isalnum(ch) || ch == '-' || ch == '_' || ch == '.' || ch == '~') {
      out += static_cast<char>(ch);
    } else {
      out += '%';
      out += hex[ch >> 4];
      out += hex[ch & 15];
    }
  }
  return out;
}

// The target with the given options as its query, in the API's names.
std::string with_query(std::string target, const option_values& given,
                       const std::vector<std::pair<std::string, std::string>>& names) {
  char sep = '?';
  for (const auto& [option, param] : names) {
    auto it = given.find(option);
    if (it == given.end())
      continue;
    target += sep + param + "=" + encoded(it->second);
    sep = '&';
  }
  return target;
}

// A JSON object body, member by member, through the service's own writer.
class json_body {
public:
  json_body() { out_.w().StartObject(); }
  json_body& text(std::string_view name, const std::string& v) {
    out_.field(name, v);
    return *this;
  }
  json_body& number(std::string_view name, int64_t v) {
    out_.field(name, v);
    return *this;
  }
  json_body& flag(std::string_view name, bool v) {
    out_.field(name, v);
    return *this;
  }
  json_body& null(std::string_view name) {
    out_.null_field(name);
    return *this;
  }
  std::string take() {
    out_.w().EndObject();
    return out_.take();
  }

private:
  http::json_out out_;
};

int64_t whole_number(const std::string& what, const std::string& text) {
  int64_t n = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc{} || ptr != text.data() + text.size())
    throw usage_error(what + " must be an integer, got '" + text + "'");
  return n;
}

const table_view tenant_table{
    "tenants", {"tenant_id", "name", "plan", "campaign_limit", "active", "created_at"}};
const table_view member_table{"members",
                              {"id", "email", "role", "status", "created_at", "last_sign_in_at"}};
const table_view key_table{"api_keys", {"id", "name", "masked_key", "status", "created_at"}};
const table_view import_table{"imports",
                              {"import.import_id", "tenant_id", "import.campaign_id",
                               "import.status", "import.accepted", "import.inserted",
                               "import.pending", "attempts", "claimed_by", "import.created_at"}};
const table_view delivery_table{"deliveries",
                                {"id", "event_type", "status", "attempts", "last_status",
                                 "next_attempt_at", "created_at", "url"}};

std::string tenant_path(const std::string& tenant) {
  return "/admin/v1/tenants/" + encoded(tenant);
}

admin_request patch_tenant(const std::string& tenant, std::string body) {
  return {"PATCH", tenant_path(tenant), std::move(body), std::nullopt};
}

admin_request patch_key(const std::string& key, const char* status) {
  return {"PATCH", "/admin/v1/api-keys/" + encoded(key), json_body{}.text("status", status).take(),
          std::nullopt};
}

// One command: its words, operands and options, and the request it makes.
struct command {
  std::vector<std::string> words;
  std::vector<std::string> operands;
  std::vector<std::string> options;
  const char* help;
  std::function<admin_request(const std::vector<std::string>&, const option_values&)> build;
};

const std::vector<command>& commands() {
  using args = std::vector<std::string>;
  static const std::vector<command> all{
      {{"tenants", "list"},
       {},
       {"active", "after", "limit"},
       "tenants in id order; --active=true|false, --after=TENANT pages on",
       [](const args&, const option_values& o) {
         return admin_request{
             "GET",
             with_query("/admin/v1/tenants", o,
                        {{"active", "active"}, {"after", "after"}, {"limit", "limit"}}),
             {},
             tenant_table};
       }},
      {{"tenants", "create"},
       {"NAME"},
       {"plan", "campaign-limit"},
       "a tenant and its first key (shown only now); --plan=FREE|STARTER|PRO|ENTERPRISE",
       [](const args& a, const option_values& o) {
         auto plan = o.find("plan");
         if (plan == o.end())
           throw usage_error("tenants create needs --plan=FREE|STARTER|PRO|ENTERPRISE");
         json_body body;
         body.text("name", a[0]).text("plan", plan->second);
         if (auto limit = o.find("campaign-limit"); limit != o.end())
           body.number("campaign_limit", whole_number("--campaign-limit", limit->second));
         return admin_request{"POST", "/admin/v1/tenants", body.take(), std::nullopt};
       }},
      {{"tenants", "show"},
       {"TENANT"},
       {},
       "one tenant",
       [](const args& a, const option_values&) {
         return admin_request{"GET", tenant_path(a[0]), {}, std::nullopt};
       }},
      {{"tenants", "set-plan"},
       {"TENANT", "PLAN"},
       {},
       "change a tenant's plan",
       [](const args& a, const option_values&) {
         return patch_tenant(a[0], json_body{}.text("plan", a[1]).take());
       }},
      {{"tenants", "set-campaign-limit"},
       {"TENANT", "N|plan"},
       {},
       "a tenant's own campaign limit, or back to its plan's",
       [](const args& a, const option_values&) {
         json_body body;
         if (a[1] == "plan")
           body.null("campaign_limit");
         else
           body.number("campaign_limit", whole_number("the campaign limit", a[1]));
         return patch_tenant(a[0], body.take());
       }},
      {{"tenants", "activate"},
       {"TENANT"},
       {},
       "let a tenant's keys in again",
       [](const args& a, const option_values&) {
         return patch_tenant(a[0], json_body{}.flag("active", true).take());
       }},
      {{"tenants", "deactivate"},
       {"TENANT"},
       {},
       "refuse every key of a tenant from its next request",
       [](const args& a, const option_values&) {
         return patch_tenant(a[0], json_body{}.flag("active", false).take());
       }},
      {{"keys", "list"},
       {"TENANT"},
       {},
       "a tenant's API keys, masked",
       [](const args& a, const option_values&) {
         return admin_request{"GET", tenant_path(a[0]) + "/api-keys", {}, key_table};
       }},
      {{"keys", "create"},
       {"TENANT", "NAME"},
       {},
       "a new API key (shown only now)",
       [](const args& a, const option_values&) {
         return admin_request{"POST", tenant_path(a[0]) + "/api-keys",
                              json_body{}.text("name", a[1]).take(), std::nullopt};
       }},
      {{"keys", "enable"},
       {"KEY"},
       {},
       "let a disabled key in again",
       [](const args& a, const option_values&) { return patch_key(a[0], "Active"); }},
      {{"keys", "disable"},
       {"KEY"},
       {},
       "refuse a key from its next request",
       [](const args& a, const option_values&) { return patch_key(a[0], "Disabled"); }},
      {{"keys", "delete"},
       {"KEY"},
       {},
       "delete a key for good",
       [](const args& a, const option_values&) {
         return admin_request{"DELETE", "/admin/v1/api-keys/" + encoded(a[0]), {}, std::nullopt};
       }},
      {{"members", "list"},
       {"TENANT"},
       {},
       "the people who sign in to a tenant's console",
       [](const args& a, const option_values&) {
         return admin_request{"GET", tenant_path(a[0]) + "/members", {}, member_table};
       }},
      {{"members", "add"},
       {"TENANT", "EMAIL"},
       {"role"},
       "a member (an owner unless --role=admin|viewer) and its one-time set-up link, valid "
       "24 h (shown only now)",
       [](const args& a, const option_values& o) {
         auto role = o.find("role");
         return admin_request{
             "POST", tenant_path(a[0]) + "/members",
             json_body{}
                 .text("email", a[1])
                 .text("role", role == o.end() ? std::string{"owner"} : role->second)
                 .take(),
             std::nullopt};
       }},
      {{"members", "setup-link"},
       {"TENANT", "MEMBER"},
       {},
       "a new one-time set-up link for a member who lost its password (shown only now)",
       [](const args& a, const option_values&) {
         return admin_request{"POST",
                              tenant_path(a[0]) + "/members/" + encoded(a[1]) + "/setup-link",
                              {},
                              std::nullopt};
       }},
      {{"webhook-secret", "issue"},
       {"TENANT"},
       {"grace-period-seconds"},
       "a new webhook signing secret (shown only now); the old one signs beside it for the "
       "grace period",
       [](const args& a, const option_values& o) {
         json_body body;
         if (auto grace = o.find("grace-period-seconds"); grace != o.end())
           body.number("grace_period_seconds",
                       whole_number("--grace-period-seconds", grace->second));
         return admin_request{"POST", tenant_path(a[0]) + "/webhook-secret", body.take(),
                              std::nullopt};
       }},
      {{"billing", "sweep"},
       {},
       {"now"},
       "run a billing sweep now; --now=ISO-8601 acts as that time (only on a service with "
       "allow-test-clock, a setting for tests)",
       [](const args&, const option_values& o) {
         json_body body;
         if (auto now = o.find("now"); now != o.end())
           body.text("now", now->second);
         return admin_request{"POST", "/admin/v1/billing/sweep", body.take(), std::nullopt};
       }},
      {{"imports", "list"},
       {},
       {"tenant", "status", "limit"},
       "every tenant's bulk imports, newest first, with the node holding each; "
       "--status=queued|running|done|failed",
       [](const args&, const option_values& o) {
         return admin_request{
             "GET",
             with_query("/admin/v1/imports", o,
                        {{"tenant", "tenant_id"}, {"status", "status"}, {"limit", "limit"}}),
             {},
             import_table};
       }},
      {{"deliveries", "list"},
       {"TENANT"},
       {"status", "limit"},
       "a tenant's webhook deliveries, newest first",
       [](const args& a, const option_values& o) {
         return admin_request{"GET",
                              with_query(tenant_path(a[0]) + "/webhook-deliveries", o,
                                         {{"status", "status"}, {"limit", "limit"}}),
                              {},
                              delivery_table};
       }},
      {{"deliveries", "replay"},
       {"TENANT", "DELIVERY"},
       {},
       "send a delivery again",
       [](const args& a, const option_values&) {
         return admin_request{"POST",
                              tenant_path(a[0]) + "/webhook-deliveries/" + encoded(a[1]) +
                                  "/replay",
                              {},
                              std::nullopt};
       }},
  };
  return all;
}

// Options every command takes.
const std::vector<std::string> common_options{"json", "timeout"};

struct parsed_admin {
  const command* cmd = nullptr;
  std::vector<std::string> operands;
  option_values given;
};

parsed_admin parse_admin(const std::vector<std::string>& args) {
  std::vector<std::string> words;
  parsed_admin out;
  for (const auto& arg : args) {
    if (arg.rfind("--", 0) != 0) {
      words.push_back(arg);
      continue;
    }
    auto eq = arg.find('=');
    auto name = arg.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
    out.given[name] = eq == std::string::npos ? "true" : arg.substr(eq + 1);
  }
  for (const auto& c : commands()) {
    if (words.size() < c.words.size() || !std::equal(c.words.begin(), c.words.end(), words.begin()))
      continue;
    out.cmd = &c;
    out.operands.assign(words.begin() + static_cast<std::ptrdiff_t>(c.words.size()), words.end());
    break;
  }
  if (!out.cmd) {
    std::string said;
    for (const auto& w : words)
      said += (said.empty() ? "" : " ") + w;
    throw usage_error(said.empty() ? "no admin command given"
                                   : "unknown admin command '" + said + "'");
  }
  const auto& c = *out.cmd;
  std::string name = c.words[0] + " " + c.words[1];
  if (out.operands.size() != c.operands.size())
    throw usage_error(name + " takes " + std::to_string(c.operands.size()) + " operand(s), got " +
                      std::to_string(out.operands.size()));
  for (const auto& [option, value] : out.given) {
    const bool known =
        std::find(c.options.begin(), c.options.end(), option) != c.options.end() ||
        std::find(common_options.begin(), common_options.end(), option) != common_options.end();
    if (!known)
      throw usage_error(name + " has no option --" + option);
  }
  return out;
}

} // namespace

std::string admin_usage() {
  std::ostringstream out;
  out << "Usage: voice-campaign-service admin <command> [operands] [--option=value ...]\n\n"
         "Calls a running node's operator API (operator-url, or operator-listen) with the\n"
         "configuration's operator token (VCS_OPERATOR_TOKEN or operator-token).\n"
         "Every command takes --json (print the API's answer as it is) and --timeout=SECONDS\n"
         "(default 120). Ids may be global ids or plain integers.\n\nCommands:\n";
  for (const auto& c : commands()) {
    out << "  " << c.words[0] << " " << c.words[1];
    for (const auto& o : c.operands)
      out << " " << o;
    for (const auto& o : c.options)
      out << " [--" << o << "=...]";
    out << "\n      " << c.help << "\n";
  }
  out << "\nExit status: 0 done, 1 refused by the API or not reached, 2 a usage mistake.\n";
  return out.str();
}

int run_admin(const config& c, const std::vector<std::string>& args, std::ostream& out,
              std::ostream& err) {
  if (args.empty() || args.front() == "help" ||
      std::find(args.begin(), args.end(), "--help") != args.end()) {
    out << admin_usage();
    return 0;
  }
  try {
    auto parsed = parse_admin(args);
    auto request = parsed.cmd->build(parsed.operands, parsed.given);
    if (c.operator_token.empty())
      throw usage_error("no operator token: set VCS_OPERATOR_TOKEN or operator-token");
    auto at = outbound::operator_endpoint_of(c.operator_url, c.server.operator_listen);
    std::chrono::seconds timeout{120};
    if (auto t = parsed.given.find("timeout"); t != parsed.given.end())
      timeout = std::chrono::seconds{whole_number("--timeout", t->second)};
    if (timeout.count() < 1)
      throw usage_error("--timeout must be at least 1 second");
    auto answer = outbound::call_operator_api(at, c.operator_token, request.method, request.target,
                                              request.body, timeout);
    if (answer.status >= 300) {
      print_refusal(answer.status, answer.body, err);
      return 1;
    }
    if (parsed.given.count("json"))
      out << answer.body << "\n";
    else
      print_answer(answer.body, request.view, out);
    return 0;
  } catch (const usage_error& e) {
    err << "voice-campaign-service admin: " << e.what() << " (see admin --help)\n";
    return 2;
  } catch (const std::invalid_argument& e) {
    err << "voice-campaign-service admin: " << e.what() << "\n";
    return 2;
  } catch (const std::runtime_error& e) {
    err << "voice-campaign-service admin: " << e.what() << "\n";
    return 1;
  }
}

} // namespace vcs::app

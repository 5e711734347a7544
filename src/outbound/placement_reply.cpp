#include "outbound/placement_reply.hpp"

#include "outbound/report_members.hpp"

#include <caf/send.hpp>
#include <rapidjson/document.h>

namespace vcs::outbound {

void refuse_call(const actors::campaign_actor& sink, int64_t call_id, std::string why,
                 domain::placement_refusal refusal) {
  actors::call_update u;
  u.what = actors::call_update::kind::refused;
  u.call_id = call_id;
  u.error = std::move(why);
  u.refusal = refusal;
  u.resends_left = actors::call_update::in_process_resends;
  caf::anon_send(sink, actors::call_atom::value, u);
}

void accept_call(const actors::campaign_actor& sink, int64_t call_id, std::string provider_call_id,
                 bool ringing) {
  actors::call_update u;
  u.what = ringing ? actors::call_update::kind::ringing : actors::call_update::kind::accepted;
  u.call_id = call_id;
  u.provider_call_id = std::move(provider_call_id);
  u.resends_left = actors::call_update::in_process_resends;
  caf::anon_send(sink, actors::call_atom::value, u);
}

std::string refusal_reason(std::string_view kind, int status, std::string_view error,
                           std::string_view body) {
  std::string out{kind};
  out += ": ";
  if (status == 0)
    return out.append(error);
  return out.append("HTTP ").append(std::to_string(status)).append(" ").append(body.substr(0, 200));
}

std::pair<std::string, std::string> bearer_key(const std::string& key) {
  return {"Authorization", "Bearer " + key};
}

void send_placement(outbound_client& client, const actors::call_placement& call, std::string url,
                    std::pair<std::string, std::string> auth, std::string body,
                    const actors::campaign_actor& sink, std::string_view kind,
                    const char* id_member, bool ringing) {
  actors::outbound_post post;
  post.tenant_id = call.tenant_id;
  post.url = std::move(url);
  post.headers = {std::move(auth), {"Content-Type", "application/json"}};
  post.body = std::move(body);
  client.post(std::move(post), [sink, id = call.call_id, kind = std::string{kind}, id_member,
                                ringing](actors::outbound_result r) {
    if (r.status < 200 || r.status > 299)
      return refuse_call(sink, id, refusal_reason(kind, r.status, r.error, r.body),
                         domain::refusal_of_status(r.status));
    rapidjson::Document doc;
    doc.Parse(r.body.data(), r.body.size());
    if (doc.HasParseError())
      return accept_call(sink, id, "", ringing);
    // provider_c answers 200 {"success": false, "message": ...} for a call
    // it did not place, provider_d {"status": "error", "message": ...}.
    if (doc.IsObject())
      if (auto ok = doc.FindMember("success");
          (ok != doc.MemberEnd() && ok->value.IsFalse()) || string_member(doc, "status") == "error")
        return refuse_call(
            sink, id,
            refusal_reason(kind, r.status, {}, string_member(doc, "message").value_or("refused")));
    accept_call(sink, id, string_member(doc, id_member).value_or(""), ringing);
  });
}

} // namespace vcs::outbound

#include "domain/call_result.hpp"

#include "domain/trim.hpp"
#include "domain/url.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>

namespace vcs::domain {

namespace {

void keep_if(std::optional<std::string>& field, bool ok, const char* name,
             std::vector<std::string>& dropped) {
  if (field && !ok) {
    field.reset();
    dropped.emplace_back(name);
  }
}

bool fits(const std::optional<std::string>& field, std::size_t limit) {
  return !field || field->size() <= limit;
}

bool equals_any(std::string_view text, std::initializer_list<std::string_view> words) {
  return std::any_of(words.begin(), words.end(), [&](std::string_view w) {
    return w.size() == text.size() &&
           std::equal(w.begin(), w.end(), text.begin(), [](char a, char b) {
             return a == std::tolower(static_cast<unsigned char>(b));
           });
  });
}

} // namespace

std::vector<std::string> keep_within_limits(call_result& r) {
  namespace limit = call_result_limits;
  std::vector<std::string> dropped;
  keep_if(r.summary, fits(r.summary, limit::summary), "summary", dropped);
  keep_if(r.transcript, fits(r.transcript, limit::transcript), "transcript", dropped);
  keep_if(r.recording_url,
          fits(r.recording_url, limit::recording_url) &&
              (!r.recording_url || is_http_url(*r.recording_url)),
          "recording_url", dropped);
  keep_if(r.success_evaluation, fits(r.success_evaluation, limit::success_evaluation),
          "success_evaluation", dropped);
  keep_if(r.structured_data, fits(r.structured_data, limit::structured_data), "structured_data",
          dropped);
  keep_if(r.ended_reason, fits(r.ended_reason, limit::ended_reason), "ended_reason", dropped);
  return dropped;
}

std::optional<std::string> cost_text(double cost) {
  if (!std::isfinite(cost) || cost < 0 || cost > call_result_limits::cost)
    return std::nullopt;
  std::array<char, 32> text{};
  std::snprintf(text.data(), text.size(), "%.4f", cost);
  return std::string{text.data()};
}

std::optional<std::string> scripted_evaluation(std::string_view list, int32_t attempt) {
  if (attempt < 1)
    return std::nullopt;
  std::string_view item;
  std::size_t start = 0;
  for (int32_t index = 0; index < attempt; ++index) {
    const std::size_t comma = list.find(',', start);
    item = list.substr(start, comma - start);
    if (comma == std::string_view::npos)
      break;
    start = comma + 1;
  }
  item = trim_spaces(item);
  if (item.empty())
    return std::nullopt;
  return std::string{item};
}

evaluation_verdict verdict_of(std::string_view evaluation) noexcept {
  evaluation = trim_spaces(evaluation);
  if (equals_any(evaluation, {"true", "pass", "passed", "success", "successful", "yes"}))
    return evaluation_verdict::success;
  if (equals_any(evaluation, {"false", "fail", "failed", "failure", "unsuccessful", "no"}))
    return evaluation_verdict::failure;
  return evaluation_verdict::unclear;
}

std::string_view to_string(evaluation_verdict v) noexcept {
  switch (v) {
  case evaluation_verdict::success:
    return "success";
  case evaluation_verdict::failure:
    return "failure";
  case evaluation_verdict::unclear:
    break;
  }
  return "unclear";
}

} // namespace vcs::domain

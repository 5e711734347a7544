#include "domain/timestamp.hpp"

#include <cstdint>

#include <date/date.h>

namespace vcs::domain {
namespace {

using date::sys_days;
using std::chrono::hours;
using std::chrono::microseconds;
using std::chrono::minutes;
using std::chrono::seconds;

// Forward-only reader over the input. A failed read consumes nothing, so
// optional parts can be probed.
class cursor {
public:
  explicit cursor(std::string_view text) noexcept : text_(text) {}

  bool done() const noexcept { return pos_ == text_.size(); }

  bool skip(char c) noexcept {
    if (done() || text_[pos_] != c)
      return false;
    ++pos_;
    return true;
  }

  // Exactly `n` decimal digits.
  bool number(std::size_t n, int& out) noexcept {
    if (text_.size() - pos_ < n)
      return false;
    int value = 0;
    for (std::size_t k = 0; k < n; ++k) {
      const char c = text_[pos_ + k];
      if (c < '0' || c > '9')
        return false;
      value = value * 10 + (c - '0');
    }
    pos_ += n;
    out = value;
    return true;
  }

private:
  std::string_view text_;
  std::size_t pos_ = 0;
};

// "YYYY-MM-DD", rejecting dates that do not exist (month 13, Feb 30).
std::optional<sys_days> read_date(cursor& in) noexcept {
  int y = 0, m = 0, d = 0;
  if (!(in.number(4, y) && in.skip('-') && in.number(2, m) && in.skip('-') && in.number(2, d)))
    return std::nullopt;
  const date::year_month_day ymd{date::year{y}, date::month{static_cast<unsigned>(m)},
                                 date::day{static_cast<unsigned>(d)}};
  if (!ymd.ok())
    return std::nullopt;
  return sys_days{ymd};
}

// One or more digits after the '.'; digits beyond microseconds are dropped
// because that is the resolution we store.
std::optional<microseconds> read_fraction(cursor& in) noexcept {
  int64_t micros = 0;
  int count = 0;
  for (int digit = 0; in.number(1, digit); ++count)
    if (count < 6)
      micros = micros * 10 + digit;
  if (count == 0)
    return std::nullopt;
  for (int k = count; k < 6; ++k)
    micros *= 10;
  return microseconds{micros};
}

// "HH:MM:SS[.frac]" as the time since midnight.
std::optional<microseconds> read_time(cursor& in) noexcept {
  int h = 0, m = 0, s = 0;
  if (!(in.number(2, h) && in.skip(':') && in.number(2, m) && in.skip(':') && in.number(2, s)) ||
      h > 23 || m > 59 || s > 59)
    return std::nullopt;
  microseconds fraction{0};
  if (in.skip('.')) {
    const auto f = read_fraction(in);
    if (!f)
      return std::nullopt;
    fraction = *f;
  }
  return hours{h} + minutes{m} + seconds{s} + fraction;
}

// "±HH" or "±HH:MM": how far local time is ahead of UTC.
std::optional<minutes> read_offset(cursor& in) noexcept {
  int sign = 1;
  if (in.skip('-'))
    sign = -1;
  else if (!in.skip('+'))
    return std::nullopt;
  int h = 0, m = 0;
  if (!in.number(2, h) || (in.skip(':') && !in.number(2, m)) || h > 23 || m > 59)
    return std::nullopt;
  return sign * (hours{h} + minutes{m});
}

// ISO 8601 zone: absent or 'Z' mean UTC, otherwise an offset.
std::optional<minutes> read_iso_zone(cursor& in) noexcept {
  if (in.done() || in.skip('Z'))
    return minutes{0};
  return read_offset(in);
}

} // namespace

timestamp now() noexcept {
  return std::chrono::floor<microseconds>(std::chrono::system_clock::now());
}

std::optional<timestamp> parse_pg_timestamp(std::string_view text) noexcept {
  cursor in{text};
  const auto day = read_date(in);
  if (!day || !in.skip(' '))
    return std::nullopt;
  const auto time = read_time(in);
  if (!time)
    return std::nullopt;
  const auto offset = read_offset(in);
  if (!offset || !in.done())
    return std::nullopt;
  return timestamp{*day} + *time - *offset;
}

namespace {

void put_digits(char*& out, int64_t value, int width) {
  for (int i = width - 1; i >= 0; --i) {
    out[i] = static_cast<char>('0' + value % 10);
    value /= 10;
  }
  out += width;
}

// "YYYY-MM-DD<sep>HH:MM:SS" followed by ".ffffff" when `micros`, then
// `suffix`. Written by hand: date::format goes through an ostringstream and
// dominated the cost of rendering a page of leads.
std::string render(timestamp t, char sep, bool micros, std::string_view suffix) {
  const auto day = std::chrono::floor<date::days>(t);
  const date::year_month_day ymd{day};
  const auto since_midnight = t - day;
  const int64_t us = since_midnight.count();
  const int64_t secs = us / 1'000'000;
  char buf[40];
  char* out = buf;
  put_digits(out, static_cast<int>(ymd.year()), 4);
  *out++ = '-';
  put_digits(out, static_cast<unsigned>(ymd.month()), 2);
  *out++ = '-';
  put_digits(out, static_cast<unsigned>(ymd.day()), 2);
  *out++ = sep;
  put_digits(out, secs / 3600, 2);
  *out++ = ':';
  put_digits(out, secs / 60 % 60, 2);
  *out++ = ':';
  put_digits(out, secs % 60, 2);
  if (micros) {
    *out++ = '.';
    put_digits(out, us % 1'000'000, 6);
  }
  std::string text{buf, out};
  text += suffix;
  return text;
}

// Date, optional time and zone; the instant they name in UTC.
std::optional<timestamp> read_iso8601(std::string_view text) noexcept {
  cursor in{text};
  const auto day = read_date(in);
  if (!day)
    return std::nullopt;
  if (in.done())
    return timestamp{*day};
  if (!(in.skip('T') || in.skip(' ')))
    return std::nullopt;
  const auto time = read_time(in);
  if (!time)
    return std::nullopt;
  const auto offset = read_iso_zone(in);
  if (!offset || !in.done())
    return std::nullopt;
  return timestamp{*day} + *time - *offset;
}

} // namespace

std::string format_utc(timestamp t) {
  return render(t, 'T', true, "Z");
}

std::string format_offset(timestamp t) {
  return render(t, 'T', true, "+00:00");
}

std::string format_billing(timestamp t) {
  return render(t, 'T', false, "");
}

std::optional<timestamp> parse_iso8601(std::string_view text) noexcept {
  // Years 1 to 9999 once the offset is applied: what ISO 8601's four digits
  // write and what is stored and rendered back in the same style.
  constexpr auto first = sys_days{date::year{1} / 1 / 1};
  constexpr auto past_last = sys_days{date::year{10000} / 1 / 1};
  const auto t = read_iso8601(text);
  if (!t || *t < first || *t >= past_last)
    return std::nullopt;
  return t;
}

std::optional<timestamp> parse_iso8601_instant(std::string_view text) noexcept {
  // "YYYY-MM-DDTHH:MM" at least, then Z or ±HH:MM (a date's own dashes
  // are at positions 4 and 7, never 6 from the end of a longer text).
  const auto n = text.size();
  const bool zoned = n > 16 && (text.back() == 'Z' || text.back() == 'z' ||
                                ((text[n - 6] == '+' || text[n - 6] == '-') && text[n - 3] == ':'));
  return zoned ? parse_iso8601(text) : std::nullopt;
}

std::string to_pg_timestamp(timestamp t) {
  return render(t, ' ', true, "+00");
}

std::optional<int64_t> parse_unix_seconds(std::string_view text) noexcept {
  constexpr std::size_t max_digits = 18;
  if (text.empty() || text.size() > max_digits)
    return std::nullopt;
  int64_t value = 0;
  for (const char c : text) {
    if (c < '0' || c > '9')
      return std::nullopt;
    value = value * 10 + (c - '0');
  }
  return value;
}

} // namespace vcs::domain

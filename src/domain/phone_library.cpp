#include "domain/phone_library.hpp"

#include <phonenumbers/matcher_api.h>
#include <phonenumbers/phonemetadata.pb.h>
#include <re2/re2.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

namespace i18n::phonenumbers {

// The library's RegexBasedMatcher (regex_based_matcher.cc, v8.12.57) on RE2,
// which libphonenumber also supports as its engine, instead of ICU. It
// finds a compiled pattern by the address of the metadata string it came
// from, where the library's cache hashes the whole pattern (up to a few
// kilobytes) on every lookup; the text is compared to rule out a reused
// address. One thread at a time uses an instance (phone_util_lease).
class re2_matcher final : public MatcherApi {
public:
  bool MatchNationalNumber(const std::string& number, const PhoneNumberDesc& desc,
                           bool allow_prefix_match) const override {
    const std::string& pattern = desc.national_number_pattern();
    // Non-empty input does not prefix-match an empty pattern.
    if (pattern.empty())
      return false;
    const RE2& re = compiled(pattern);
    if (RE2::FullMatch(number, re))
      return true;
    re2::StringPiece input{number};
    return RE2::Consume(&input, re) && allow_prefix_match;
  }

  // Whether `number` starts with a match of `pattern` (the library's
  // RegExp::Consume).
  bool starts_with(const std::string& number, const std::string& pattern) const {
    re2::StringPiece input{number};
    return RE2::Consume(&input, compiled(pattern));
  }

  // PhoneNumberUtil::MaybeStripNationalPrefixAndCarrierCode (v8.12.57)
  // without the carrier code. The library's own goes through ICU: a new
  // matcher and a UTF-16 copy of the number for each of its up to four
  // pattern calls, half of a valid number's parse.
  void strip_national_prefix(const PhoneMetadata& metadata, std::string& number) const {
    const std::string& prefix = metadata.national_prefix_for_parsing();
    if (number.empty() || prefix.empty())
      return;
    const RE2& re = compiled(prefix);
    // A number its region's pattern takes keeps its prefix unless the
    // pattern also takes the result; asked only once a prefix is found.
    const PhoneNumberDesc& general = metadata.general_desc();
    auto keeps_prefix = [&](const std::string& result) {
      return MatchNationalNumber(number, general, false) &&
             !MatchNationalNumber(result, general, false);
    };
    const std::string& rule = metadata.national_prefix_transform_rule();
    std::string carrier, captured;
    re2::StringPiece input{number};
    if (!rule.empty() &&
        (RE2::Consume(&input, re, &carrier, &captured) || RE2::Consume(&input, re, &captured)) &&
        !captured.empty()) {
      std::string transformed{number};
      RE2::Replace(&transformed, re, rewrite_of(rule));
      if (!keeps_prefix(transformed))
        number = std::move(transformed);
      return;
    }
    re2::StringPiece rest{number};
    if (RE2::Consume(&rest, re, &carrier) || RE2::Consume(&rest, re)) {
      std::string stripped{rest};
      if (!keeps_prefix(stripped))
        number = std::move(stripped);
    }
  }

private:
  // A transform rule's "$1" groups in RE2's rewrite syntax ("\\1"), as the
  // library's RE2 adapter writes them.
  static std::string rewrite_of(const std::string& rule) {
    std::string out{rule};
    std::replace(out.begin(), out.end(), '$', '\\');
    return out;
  }

  const RE2& compiled(const std::string& pattern) const {
    auto& slot = cache_[&pattern];
    if (!slot || slot->pattern() != pattern)
      slot = std::make_unique<RE2>(pattern);
    return *slot;
  }

  mutable std::unordered_map<const std::string*, std::unique_ptr<RE2>> cache_;
};

// libphonenumber 8.12 keeps its constructor and its parsing steps private
// and names this class as a friend for its own tests, which are not part of
// the installed library. Defining it here makes instances besides the
// singleton, and calls those steps instead of copying their rules (the
// national prefix patterns and length tables are the library's data; the
// national prefix step itself is re2_matcher's port, for speed);
// tests/unit/phone_library_test.cpp compares the results with Parse.
class PhoneNumberUtilTest {
public:
  using error_type = PhoneNumberUtil::ErrorType;

  // Never deleted: each instance's constructor makes its logger the
  // library's global one. Its matcher is `matcher`.
  static const PhoneNumberUtil* make(const re2_matcher*& matcher) {
    auto* util = new PhoneNumberUtil();
    auto* own = new re2_matcher();
    util->matcher_api_.reset(own);
    matcher = own;
    return util;
  }

  // GetNumberTypeHelper (v8.12.57) answering anything but UNKNOWN. Only
  // whether some type takes the number matters, so fixed-line and mobile,
  // which nearly every number is, are tried first rather than after the
  // eight rarer types: two pattern matches for a valid number instead of
  // ten.
  static bool of_some_type(const PhoneNumberUtil& util, const std::string& national,
                           const PhoneMetadata& metadata) {
    if (!util.IsNumberMatchingDesc(national, metadata.general_desc()))
      return false;
    if (util.IsNumberMatchingDesc(national, metadata.fixed_line()))
      return true;
    // The library skips mobile when its pattern is fixed-line's.
    if (!metadata.same_mobile_and_fixed_line_pattern() &&
        util.IsNumberMatchingDesc(national, metadata.mobile()))
      return true;
    for (const PhoneNumberDesc* desc :
         {&metadata.premium_rate(), &metadata.toll_free(), &metadata.shared_cost(),
          &metadata.voip(), &metadata.personal_number(), &metadata.pager(), &metadata.uan(),
          &metadata.voicemail()})
      if (util.IsNumberMatchingDesc(national, *desc))
        return true;
    return false;
  }

  // IsValidNumberForRegion (v8.12.57) with of_some_type.
  static bool valid_for(const PhoneNumberUtil& util, const PhoneNumber& number,
                        const std::string& national, const std::string& region) {
    const int country_code = number.country_code();
    const PhoneMetadata* metadata = util.GetMetadataForRegionOrCallingCode(country_code, region);
    if (!metadata || (region != PhoneNumberUtil::kRegionCodeForNonGeoEntity &&
                      country_code != util.GetCountryCodeForValidRegion(region)))
      return false;
    return of_some_type(util, national, *metadata);
  }

  // GetRegionCodeForNumber with GetRegionCodeForNumberFromRegionList
  // (v8.12.57), the leading digits matched by `matcher`, then the region's
  // validity (valid_for), which is already answered when the region was
  // the first whose number types take the number.
  static vcs::domain::phone_util_lease::verdict verdict_for(const PhoneNumberUtil& util,
                                                            const re2_matcher& matcher,
                                                            const std::vector<std::string>& regions,
                                                            const PhoneNumber& number) {
    if (regions.empty())
      return {"ZZ", false};
    std::string national;
    util.GetNationalSignificantNumber(number, &national);
    if (regions.size() == 1)
      return {regions.front(), valid_for(util, number, national, regions.front())};
    for (const auto& region : regions) {
      const PhoneMetadata* metadata = util.GetMetadataForRegion(region);
      if (metadata->has_leading_digits()) {
        if (matcher.starts_with(national, metadata->leading_digits()))
          return {region, valid_for(util, number, national, region)};
      } else if (of_some_type(util, national, *metadata)) {
        return {region, true};
      }
    }
    return {"ZZ", false};
  }

  // TestNumberLength(number, metadata) (a function local to the library's
  // source) answering neither TOO_SHORT, IS_POSSIBLE_LOCAL_ONLY nor
  // INVALID_LENGTH: a length of the general description, or longer than
  // all of them.
  static bool possible_length(std::size_t size, const PhoneNumberDesc& general) {
    const auto length = static_cast<int>(size);
    const auto& lengths = general.possible_length();
    const auto& local = general.possible_length_local_only();
    if (lengths.empty() || lengths.Get(0) == -1 ||
        std::find(local.begin(), local.end(), length) != local.end())
      return false;
    return length > *(lengths.end() - 1) ||
           std::find(lengths.begin(), lengths.end(), length) != lengths.end();
  }

  // Mirrors PhoneNumberUtil::ParseHelper (v8.12.57) from the point where a
  // number written with a leading '+' has been found and normalised.
  static error_type parse(const vcs::domain::phone_util_lease& lease, std::string_view digits,
                          PhoneNumber& out) {
    const PhoneNumberUtil& util = *lease;
    // IsViablePhoneNumber: after a '+' its pattern wants three digits.
    if (digits.size() < 3)
      return PhoneNumberUtil::NOT_A_NUMBER;
    // ExtractCountryCode: the shortest leading digits (at most three) that
    // name a calling code with a region; none starts with 0.
    if (digits.front() == '0')
      return PhoneNumberUtil::INVALID_COUNTRY_CODE_ERROR;
    const auto longest = std::min(PhoneNumberUtil::kMaxLengthCountryCode, digits.size());
    int country_code = 0;
    std::size_t code_length = 1;
    for (; code_length <= longest; ++code_length) {
      country_code = country_code * 10 + (digits[code_length - 1] - '0');
      if (!lease.regions_of(country_code).empty())
        break;
    }
    if (code_length > longest)
      return PhoneNumberUtil::INVALID_COUNTRY_CODE_ERROR;
    std::string national{digits.substr(code_length)};
    // GetRegionCodeForCountryCode: the calling code's main region.
    const std::string& region = lease.regions_of(country_code).front();
    const PhoneMetadata* metadata = util.GetMetadataForRegionOrCallingCode(country_code, region);
    if (national.size() < PhoneNumberUtil::kMinLengthForNsn)
      return PhoneNumberUtil::TOO_SHORT_NSN;
    if (metadata) {
      std::string stripped{national};
      lease.matcher().strip_national_prefix(*metadata, stripped);
      // The stripped number is kept only when its length is possible.
      if (possible_length(stripped.size(), metadata->general_desc()))
        national = std::move(stripped);
    }
    if (national.size() < PhoneNumberUtil::kMinLengthForNsn)
      return PhoneNumberUtil::TOO_SHORT_NSN;
    if (national.size() > PhoneNumberUtil::kMaxLengthForNsn)
      return PhoneNumberUtil::TOO_LONG_NSN;
    out.Clear();
    out.set_country_code(country_code);
    util.SetItalianLeadingZerosForPhoneNumber(national, &out);
    uint64 value = 0;
    std::from_chars(national.data(), national.data() + national.size(), value);
    out.set_national_number(value);
    return PhoneNumberUtil::NO_PARSING_ERROR;
  }
};

} // namespace i18n::phonenumbers

namespace vcs::domain {

// Enough for every core of the machines this runs on; callers beyond that
// wait for a slot, as all of them did on the singleton's mutex.
struct phone_util_slot {
  std::mutex held;
  const i18n::phonenumbers::PhoneNumberUtil* util = nullptr;
  const i18n::phonenumbers::re2_matcher* matcher = nullptr;
  // GetRegionCodesForCountryCallingCode by calling code, asked once each:
  // the library copies the codes into a new list on every call (25 strings
  // for +1), a third of a valid number's whole check.
  std::unordered_map<int, std::vector<std::string>> regions;
};

namespace {

std::array<phone_util_slot, 16>& slots() {
  static std::array<phone_util_slot, 16> all;
  return all;
}

} // namespace

phone_util_lease::phone_util_lease() {
  auto& all = slots();
  slot_ = nullptr;
  for (auto& s : all)
    if (s.held.try_lock()) {
      slot_ = &s;
      break;
    }
  if (!slot_) {
    slot_ = &all[std::hash<std::thread::id>{}(std::this_thread::get_id()) % all.size()];
    slot_->held.lock();
  }
  if (!slot_->util)
    slot_->util = i18n::phonenumbers::PhoneNumberUtilTest::make(slot_->matcher);
  util_ = slot_->util;
}

phone_util_lease::~phone_util_lease() {
  slot_->held.unlock();
}

const std::vector<std::string>& phone_util_lease::regions_of(int calling_code) const {
  auto [it, fresh] = slot_->regions.try_emplace(calling_code);
  if (fresh) {
    std::list<std::string> regions;
    util_->GetRegionCodesForCountryCallingCode(calling_code, &regions);
    it->second.assign(regions.begin(), regions.end());
  }
  return it->second;
}

const i18n::phonenumbers::re2_matcher& phone_util_lease::matcher() const {
  return *slot_->matcher;
}

phone_util_lease::verdict
phone_util_lease::verdict_of(const i18n::phonenumbers::PhoneNumber& number) const {
  return i18n::phonenumbers::PhoneNumberUtilTest::verdict_for(
      *util_, matcher(), regions_of(number.country_code()), number);
}

i18n::phonenumbers::PhoneNumberUtil::ErrorType parse_e164(const phone_util_lease& util,
                                                          std::string_view text,
                                                          i18n::phonenumbers::PhoneNumber& out) {
  return i18n::phonenumbers::PhoneNumberUtilTest::parse(util, text.substr(1), out);
}

} // namespace vcs::domain

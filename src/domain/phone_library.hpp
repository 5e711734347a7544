#pragma once

#include <string>
#include <string_view>
#include <vector>

// libphonenumber 8.12 installs a NullLogger by default, so parse failures
// write nothing to stderr and no logger needs to be set.
#include <phonenumbers/phonenumberutil.h>

namespace i18n::phonenumbers {
class re2_matcher;
} // namespace i18n::phonenumbers

namespace vcs::domain {

struct phone_util_slot;

// One of the process's libphonenumber instances, this thread's alone while
// the lease lives. The library's singleton keeps its compiled regular
// expressions in caches behind one mutex, held while it hashes a pattern
// of up to a few kilobytes on every lookup: two threads validating a bulk
// body took as long as one. An instance per concurrent caller (created on
// first need, kept for the process's life, as the singleton is) makes
// them independent, and its number patterns are matched with RE2 (the
// library's other supported engine) from a cache keyed by the pattern's
// address.
class phone_util_lease {
public:
  phone_util_lease();
  ~phone_util_lease();
  phone_util_lease(const phone_util_lease&) = delete;
  phone_util_lease& operator=(const phone_util_lease&) = delete;

  const i18n::phonenumbers::PhoneNumberUtil& operator*() const noexcept { return *util_; }
  const i18n::phonenumbers::PhoneNumberUtil* operator->() const noexcept { return util_; }

  // GetRegionCodeForNumber(number, &region) and
  // IsValidNumberForRegion(number, region): the same answers, with the
  // leading digits of regions that share a calling code matched by the
  // instance's RE2 patterns instead of the library's ICU cache, and a
  // region found by its number types not checked a second time.
  struct verdict {
    std::string region; // "ZZ": none
    bool valid = false;
  };
  verdict verdict_of(const i18n::phonenumbers::PhoneNumber& number) const;

  // GetRegionCodesForCountryCallingCode(calling_code), kept by the instance.
  const std::vector<std::string>& regions_of(int calling_code) const;

  // The instance's RE2 patterns, which parse_e164 strips national prefixes
  // with.
  const i18n::phonenumbers::re2_matcher& matcher() const;

private:
  phone_util_slot* slot_;
  const i18n::phonenumbers::PhoneNumberUtil* util_;
};

// util->Parse(text, "ZZ", out) for text in strict E.164 form (a '+', then 2
// to 15 digits, the first not 0), with the same result and the same error,
// at less cost (a valid number's whole check fell from 15.2 to 9.5 µs):
// Parse first looks for a number inside free
// text (extensions, punctuation, letters, a second number, an
// international dialling prefix) with a dozen regular expressions that
// cannot match such text. The steps that can change the result (calling
// code, national prefix, lengths) are libphonenumber's own, its national
// prefix step on RE2 (re2_matcher::strip_national_prefix).
i18n::phonenumbers::PhoneNumberUtil::ErrorType parse_e164(const phone_util_lease& util,
                                                          std::string_view text,
                                                          i18n::phonenumbers::PhoneNumber& out);

} // namespace vcs::domain

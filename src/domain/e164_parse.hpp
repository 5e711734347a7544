#pragma once

#include <string_view>

// libphonenumber 8.12 installs a NullLogger by default, so parse failures
// write nothing to stderr and no logger needs to be set.
#include <phonenumbers/phonenumberutil.h>

namespace vcs::domain {

// libphonenumber's Parse(text, "ZZ", out) for text in strict E.164 form
// (a '+', then 2 to 15 digits, the first not 0), with the same result and
// the same error, at about a third of the cost: Parse first looks for a
// number inside free text (extensions, punctuation, letters, a second
// number, an international dialling prefix) with a dozen regular
// expressions that cannot match such text. The steps that can change the
// result (calling code, national prefix, lengths) are libphonenumber's own.
i18n::phonenumbers::PhoneNumberUtil::ErrorType parse_e164(std::string_view text,
                                                          i18n::phonenumbers::PhoneNumber& out);

} // namespace vcs::domain

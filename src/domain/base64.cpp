#include "domain/base64.hpp"

#include "domain/sodium_support.hpp"

#include <sodium.h>

namespace vcs::domain {

std::string to_base64(std::string_view bytes) {
  ensure_sodium();
  std::string out(sodium_base64_encoded_len(bytes.size(), sodium_base64_VARIANT_ORIGINAL), '\0');
  sodium_bin2base64(out.data(), out.size(), bytes_of(bytes), bytes.size(),
                    sodium_base64_VARIANT_ORIGINAL);
  out.pop_back(); // the terminating NUL
  return out;
}

std::optional<std::string> from_base64(std::string_view text) {
  ensure_sodium();
  while (!text.empty() && text.back() == '=')
    text.remove_suffix(1);
  std::string out(text.size() * 3 / 4 + 1, '\0');
  std::size_t length = 0;
  const char* end = nullptr;
  if (sodium_base642bin(reinterpret_cast<unsigned char*>(out.data()), out.size(), text.data(),
                        text.size(), nullptr, &length, &end,
                        sodium_base64_VARIANT_ORIGINAL_NO_PADDING) != 0 ||
      end != text.data() + text.size())
    return std::nullopt;
  out.resize(length);
  return out;
}

} // namespace vcs::domain

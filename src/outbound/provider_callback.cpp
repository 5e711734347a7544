#include "outbound/provider_callback.hpp"

#include "outbound/provider_a_gateway.hpp"
#include "outbound/provider_b_gateway.hpp"
#include "outbound/provider_c_gateway.hpp"
#include "outbound/provider_d_gateway.hpp"

namespace vcs::outbound {

const std::array<const provider_callback*, 4>& provider_callbacks() {
  static constexpr std::array<const provider_callback*, 4> all{
      &provider_a_callback, &provider_b_callback, &provider_c_callback, &provider_d_callback};
  return all;
}

} // namespace vcs::outbound

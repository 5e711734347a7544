#include "domain/lead.hpp"

#include <string_view>

#include <benchmark/benchmark.h>

namespace {

void check_phone_valid(benchmark::State& state) {
  constexpr std::string_view number = "+14155552671";
  for (auto _ : state)
    benchmark::DoNotOptimize(vcs::domain::check_phone(number));
}
BENCHMARK(check_phone_valid);

// Parsed in full, then rejected by the region's number patterns.
void check_phone_invalid(benchmark::State& state) {
  constexpr std::string_view number = "+15555555555";
  for (auto _ : state)
    benchmark::DoNotOptimize(vcs::domain::check_phone(number));
}
BENCHMARK(check_phone_invalid);

void is_email(benchmark::State& state) {
  constexpr std::string_view address = "first.last+tag@sub.example.co.uk";
  for (auto _ : state)
    benchmark::DoNotOptimize(vcs::domain::is_email(address));
}
BENCHMARK(is_email);

} // namespace

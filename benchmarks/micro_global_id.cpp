#include "domain/global_id.hpp"

#include <benchmark/benchmark.h>

namespace {

using vcs::domain::entity;

void encode_global_id(benchmark::State& state) {
  int64_t id = 1'000'000;
  for (auto _ : state)
    benchmark::DoNotOptimize(vcs::domain::encode_global_id(entity::campaign, ++id));
}
BENCHMARK(encode_global_id);

void decode_global_id(benchmark::State& state) {
  const auto text = vcs::domain::encode_global_id(entity::campaign, 1'234'567'890);
  for (auto _ : state) {
    benchmark::DoNotOptimize(text.data());
    benchmark::DoNotOptimize(vcs::domain::decode_global_id(entity::campaign, text));
  }
}
BENCHMARK(decode_global_id);

// Rejection path: a well-formed ID of another kind, decoded in full before
// the type check fails.
void decode_global_id_wrong_kind(benchmark::State& state) {
  const auto text = vcs::domain::encode_global_id(entity::lead, 1'234'567'890);
  for (auto _ : state) {
    benchmark::DoNotOptimize(text.data());
    benchmark::DoNotOptimize(vcs::domain::decode_global_id(entity::campaign, text));
  }
}
BENCHMARK(decode_global_id_wrong_kind);

} // namespace

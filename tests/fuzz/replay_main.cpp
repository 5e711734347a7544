// Runs a fuzz target's LLVMFuzzerTestOneInput once over every file of the
// given files and directories, as a libFuzzer binary does with -runs=0: the
// corpus and the crash regressions replay in the normal build (any
// compiler, no libFuzzer), as the ctest fuzz_replay.<target>. A missing
// directory is skipped (a target may have no regression yet); no input at
// all is a failure.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace fs = std::filesystem;

namespace {

bool hidden(const fs::path& p) {
  auto name = p.filename().string();
  return !name.empty() && name.front() == '.';
}

std::vector<fs::path> inputs_of(const fs::path& p) {
  std::vector<fs::path> files;
  if (fs::is_directory(p)) {
    for (const auto& e : fs::recursive_directory_iterator(p))
      if (e.is_regular_file() && !hidden(e.path()))
        files.push_back(e.path());
  } else {
    files.push_back(p);
  }
  std::sort(files.begin(), files.end());
  return files;
}

} // namespace

int main(int argc, char** argv) {
  std::size_t runs = 0;
  for (int i = 1; i < argc; ++i) {
    fs::path arg{argv[i]};
    if (!fs::exists(arg)) {
      std::printf("replay: %s does not exist, skipped\n", argv[i]);
      continue;
    }
    for (const auto& file : inputs_of(arg)) {
      std::ifstream in{file, std::ios::binary};
      std::string bytes{std::istreambuf_iterator<char>{in}, std::istreambuf_iterator<char>{}};
      // Named before it runs: a crash's output ends with its input.
      std::printf("replay: %s (%zu bytes)\n", file.c_str(), bytes.size());
      std::fflush(stdout);
      // An exact-size copy, so that reading past the end is caught where
      // a sanitizer is on.
      std::vector<uint8_t> data(bytes.begin(), bytes.end());
      LLVMFuzzerTestOneInput(data.data(), data.size());
      ++runs;
    }
  }
  std::printf("replay: %zu inputs, no crash\n", runs);
  return runs == 0 ? 1 : 0;
}

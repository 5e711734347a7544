#include "command_run.hpp"

#include "service_process.hpp"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace vcs::test {

command_result run_service_command(const std::string& env, const std::string& args) {
  char err_path[] = "/tmp/vcs-command-err-XXXXXX";
  int fd = ::mkstemp(err_path);
  if (fd >= 0)
    ::close(fd);
  auto cmd =
      "env -i PATH=/usr/bin:/bin " + env + " " + service_binary() + " " + args + " 2>" + err_path;
  command_result r;
  FILE* p = ::popen(cmd.c_str(), "r");
  std::array<char, 4096> buf{};
  while (auto n = std::fread(buf.data(), 1, buf.size(), p))
    r.out.append(buf.data(), n);
  int st = ::pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  std::ifstream in{err_path};
  std::ostringstream text;
  text << in.rdbuf();
  r.err = text.str();
  ::unlink(err_path);
  return r;
}

} // namespace vcs::test

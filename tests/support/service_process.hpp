#pragma once

#include <chrono>
#include <map>
#include <string>
#include <sys/types.h>

namespace vcs::test {

// The service binary started as a child process on free loopback ports,
// against the test database (VCS_TEST_DATABASE_URL), with its output in a
// log file the tests can read.
class service_process {
public:
  // `extra_env` adds or overrides VCS_* variables.
  explicit service_process(std::map<std::string, std::string> extra_env = {});
  ~service_process();
  service_process(const service_process&) = delete;
  service_process& operator=(const service_process&) = delete;

  unsigned short public_port() const noexcept { return public_port_; }
  unsigned short operator_port() const noexcept { return operator_port_; }
  const std::string& operator_token() const noexcept { return operator_token_; }
  const std::string& log_path() const noexcept { return log_path_; }
  std::string log_contents() const;

  // Sends SIGTERM and waits for the exit; returns the exit status (or -1 on
  // timeout, after which the process is killed).
  int terminate(std::chrono::seconds timeout = std::chrono::seconds(30));
  void send_signal(int sig);
  // Exit status once the process has exited, or -1 while it runs.
  int wait_exit(std::chrono::milliseconds timeout);

private:
  pid_t pid_ = -1;
  int exit_status_ = -1;
  unsigned short public_port_ = 0;
  unsigned short operator_port_ = 0;
  std::string operator_token_;
  std::string log_path_;
};

// The test database URL; the test fails when it is not set.
std::string database_url();

// The service binary (VCS_SERVICE_BINARY).
std::string service_binary();

unsigned short free_port();

} // namespace vcs::test

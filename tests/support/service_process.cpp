#include "service_process.hpp"

#include "http_client.hpp"

#include <algorithm>
#include <arpa/inet.h>
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <netinet/in.h>
#include <random>
#include <sstream>
#include <stdexcept>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace vcs::test {

std::string database_url() {
  const char* url = std::getenv("VCS_TEST_DATABASE_URL");
  if (!url || !*url)
    throw std::runtime_error("VCS_TEST_DATABASE_URL is not set (run the tests via scripts/test)");
  return url;
}

std::string service_binary() {
  const char* bin = std::getenv("VCS_SERVICE_BINARY");
  if (!bin || !*bin)
    throw std::runtime_error("VCS_SERVICE_BINARY is not set (run the tests via scripts/test)");
  return bin;
}

unsigned short free_port() {
  // Below the kernel's ephemeral range (as scripts/lib/pg.sh): a port the
  // kernel hands out is free now, but the tests' own clients take ephemeral
  // ports by the thousand, and one of them holding it makes the service's
  // bind fail (seen in crash_consistency_test, which restarts nodes under
  // load).
  unsigned low = 32768;
  if (std::ifstream range{"/proc/sys/net/ipv4/ip_local_port_range"}; range)
    range >> low;
  // 10000-19999: scripts/lib/pg.sh takes its clusters' ports from 20000 up.
  const unsigned first = 10000, last = std::min(19999u, low - 1);
  if (last <= first)
    throw std::runtime_error("no port range below the ephemeral ports");
  static std::mt19937 rng{std::random_device{}()};
  std::uniform_int_distribution<unsigned> pick{first, last};
  for (int attempt = 0; attempt < 200; ++attempt) {
    const auto port = static_cast<unsigned short>(pick(rng));
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(port);
    const bool free = ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
    ::close(fd);
    if (free)
      return port;
  }
  throw std::runtime_error("cannot find a free port");
}

service_process::service_process(std::map<std::string, std::string> extra_env) {
  public_port_ = free_port();
  operator_port_ = free_port();
  operator_token_ =
      "test-operator-token-" + std::to_string(::getpid()) + "-" + std::to_string(public_port_);
  char tmpl[] = "/tmp/vcs-service-XXXXXX";
  int log_fd = ::mkstemp(tmpl);
  if (log_fd < 0)
    throw std::runtime_error("cannot create a log file");
  log_path_ = tmpl;

  std::map<std::string, std::string> env{
      {"VCS_DATABASE_URL", database_url()},
      {"VCS_PUBLIC_LISTEN", "127.0.0.1:" + std::to_string(public_port_)},
      {"VCS_OPERATOR_LISTEN", "127.0.0.1:" + std::to_string(operator_port_)},
      {"VCS_OPERATOR_TOKEN", operator_token_},
      {"VCS_SECRET_KEY", std::string(64, 'a')},
      {"VCS_LOG_LEVEL", "info"},
      {"VCS_REQUEST_WORKERS", "4"},
      {"VCS_DB_POOL_SIZE", "2"},
      // Nodes of other tests share the database: their dialer and webhook
      // rounds stay out of the way of the dialer tests' own nodes.
      {"VCS_DIAL_INTERVAL_MS", "3600000"},
      {"VCS_WEBHOOK_INTERVAL_MS", "3600000"},
      // The tests choose the instants of sweeps and dial rounds.
      {"VCS_ALLOW_TEST_CLOCK", "true"},
  };
  for (auto& [k, v] : extra_env)
    env[k] = v;
  std::vector<std::string> env_strings;
  for (char** e = environ; *e; ++e)
    if (std::string_view{*e}.rfind("VCS_", 0) != 0)
      env_strings.emplace_back(*e);
  for (auto& [k, v] : env)
    env_strings.push_back(k + "=" + v);
  std::vector<char*> envp;
  for (auto& s : env_strings)
    envp.push_back(s.data());
  envp.push_back(nullptr);
  auto bin = service_binary();
  std::string serve = "serve";
  std::vector<char*> argv{bin.data(), serve.data(), nullptr};

  const pid_t test_process = ::getpid();
  pid_ = ::fork();
  if (pid_ == 0) {
    // The node dies with the test process however that ends: a node left
    // running would take later tests' work (webhooks, dial rounds) from the
    // shared database.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != test_process)
      ::_exit(127);
    ::dup2(log_fd, STDOUT_FILENO);
    ::dup2(log_fd, STDERR_FILENO);
    ::execve(bin.c_str(), argv.data(), envp.data());
    ::_exit(127);
  }
  ::close(log_fd);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < deadline) {
    if (wait_exit(std::chrono::milliseconds(0)) >= 0)
      throw std::runtime_error("service exited during start-up:\n" + log_contents());
    try {
      http_client c{"127.0.0.1", operator_port_};
      if (c.get("/healthz").status == 200)
        return;
    } catch (const std::exception&) {
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  // The destructor does not run for a constructor that throws: stop the
  // child here, or it outlives the test run.
  auto log = log_contents();
  ::kill(pid_, SIGKILL);
  wait_exit(std::chrono::seconds(5));
  throw std::runtime_error("service did not become healthy:\n" + log);
}

service_process::~service_process() {
  if (pid_ > 0 && wait_exit(std::chrono::milliseconds(0)) < 0)
    terminate(std::chrono::seconds(10));
  ::unlink(log_path_.c_str());
}

std::string service_process::log_contents() const {
  std::ifstream in{log_path_};
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void service_process::send_signal(int sig) {
  if (pid_ > 0)
    ::kill(pid_, sig);
}

int service_process::wait_exit(std::chrono::milliseconds timeout) {
  if (pid_ <= 0)
    return exit_status_;
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (true) {
    int status = 0;
    pid_t r = ::waitpid(pid_, &status, WNOHANG);
    if (r == pid_) {
      pid_ = -1;
      exit_status_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      return exit_status_;
    }
    if (std::chrono::steady_clock::now() >= deadline)
      return -1;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

int service_process::terminate(std::chrono::seconds timeout) {
  send_signal(SIGTERM);
  int status = wait_exit(timeout);
  if (status < 0) {
    send_signal(SIGKILL);
    wait_exit(std::chrono::seconds(5));
    return -1;
  }
  return status;
}

} // namespace vcs::test

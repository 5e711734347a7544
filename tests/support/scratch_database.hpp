#pragma once

// A database of its own for one test, dropped at the end: for what the
// shared test database's other rows would change (the migrations it has
// seen, the statistics plans are made from).

#include "service_process.hpp"
#include "storage/database.hpp"

#include <gtest/gtest.h>
#include <soci/soci.h>

#include <exception>
#include <memory>
#include <string>

namespace vcs::test {

class scratch_database {
public:
  explicit scratch_database(std::string name) : name_(std::move(name)) {
    auto admin = storage::open_session(database_url());
    *admin << "DROP DATABASE IF EXISTS " + name_ + " WITH (FORCE)";
    *admin << "CREATE DATABASE " + name_;
    url_ = database_url();
    url_ = url_.substr(0, url_.rfind('/') + 1) + name_;
  }
  ~scratch_database() {
    try {
      auto admin = storage::open_session(database_url());
      *admin << "DROP DATABASE " + name_ + " WITH (FORCE)";
    } catch (const std::exception& e) {
      ADD_FAILURE() << "dropping " << name_ << ": " << e.what();
    }
  }
  scratch_database(const scratch_database&) = delete;
  scratch_database& operator=(const scratch_database&) = delete;

  const std::string& url() const { return url_; }
  // A session on it, set up as the service's are.
  std::unique_ptr<soci::session> open() const { return storage::open_session(url_); }

private:
  std::string name_;
  std::string url_;
};

} // namespace vcs::test

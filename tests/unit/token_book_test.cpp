// What a node remembers of the keys it read: a tenant for a while, an
// unknown token for a few seconds, and never more than its capacity.
#include "http/server/token_book.hpp"

#include <gtest/gtest.h>

#include <string>

namespace vcs::http {
namespace {

using namespace std::chrono_literals;
using standing = token_book::standing;

TEST(TokenBook, a_key_read_is_known_as_its_tenant_until_it_expires) {
  token_book book{{.known_for = 60s, .unknown_for = 5s, .capacity = 100}};
  const auto t0 = token_book::clock::time_point{} + 1h;
  EXPECT_EQ(book.look_up("h1", t0).is, standing::unseen);
  book.learn_known("h1", 42, t0);
  const auto e = book.look_up("h1", t0 + 59s);
  EXPECT_EQ(e.is, standing::known);
  EXPECT_EQ(e.tenant_id, 42);
  EXPECT_EQ(book.look_up("h1", t0 + 60s).is, standing::unseen);
}

TEST(TokenBook, an_unknown_token_is_refused_only_briefly_and_a_key_read_later_wins) {
  token_book book{{.known_for = 60s, .unknown_for = 5s, .capacity = 100}};
  const auto t0 = token_book::clock::time_point{} + 1h;
  book.learn_unknown("h2", t0);
  EXPECT_EQ(book.look_up("h2", t0 + 4s).is, standing::unknown);
  EXPECT_EQ(book.look_up("h2", t0 + 5s).is, standing::unseen);
  book.learn_known("h2", 7, t0 + 6s);
  EXPECT_EQ(book.look_up("h2", t0 + 7s).is, standing::known);
  // A deleted key: the next read finds none.
  book.learn_unknown("h2", t0 + 8s);
  EXPECT_EQ(book.look_up("h2", t0 + 9s).is, standing::unknown);
}

TEST(TokenBook, a_flood_of_tokens_keeps_at_most_its_capacity_and_the_newest) {
  token_book book{{.known_for = 60s, .unknown_for = 60s, .capacity = 10}};
  const auto t0 = token_book::clock::time_point{} + 1h;
  for (int i = 0; i < 1000; ++i)
    book.learn_unknown("junk" + std::to_string(i), t0);
  int remembered = 0;
  for (int i = 0; i < 1000; ++i)
    remembered += book.look_up("junk" + std::to_string(i), t0).is == standing::unknown;
  EXPECT_LE(remembered, 10);
  EXPECT_GE(remembered, 5);
  EXPECT_EQ(book.look_up("junk999", t0).is, standing::unknown);
}

} // namespace
} // namespace vcs::http

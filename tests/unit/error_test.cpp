#include "domain/error.hpp"

#include <gtest/gtest.h>

namespace {

using namespace vcs::domain;
using strings = std::vector<std::string>;

TEST(FieldErrors, StartsEmpty) {
  EXPECT_TRUE(field_errors{}.empty());
}

TEST(FieldErrors, GroupsMessagesByFieldInInsertionOrder) {
  field_errors fields;
  fields.add("name", "is required");
  fields.add("email", "is invalid");
  fields.add("name", "is too long");

  ASSERT_FALSE(fields.empty());
  const auto& entries = fields.entries();
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].first, "name");
  EXPECT_EQ(entries[0].second, (strings{"is required", "is too long"}));
  EXPECT_EQ(entries[1].first, "email");
  EXPECT_EQ(entries[1].second, strings{"is invalid"});
}

TEST(Error, DefaultsToInternalWithNothingOptional) {
  const error e;
  EXPECT_EQ(e.code, errc::internal);
  EXPECT_TRUE(std::holds_alternative<std::monostate>(e.errors));
  EXPECT_TRUE(std::holds_alternative<std::monostate>(e.detail));
  EXPECT_FALSE(e.valid_values);
}

TEST(Error, BuildersSetTheirMembersOnTemporaries) {
  const error e = error{errc::conflict, "Web widget already exists"}
                      .with_errors({"Duplicate web widget"})
                      .with_detail("details");
  EXPECT_EQ(e.code, errc::conflict);
  EXPECT_EQ(e.message, "Web widget already exists");
  EXPECT_EQ(std::get<strings>(e.errors), strings{"Duplicate web widget"});
  EXPECT_EQ(std::get<std::string>(e.detail), "details");
}

TEST(Error, BuildersSetTheirMembersOnLvalues) {
  error e{errc::bad_request, "Invalid data"};
  field_errors fields;
  fields.add("name", "name");
  error& same = e.with_field_errors(fields).with_detail(strings{"phone_number", "campaign_id"});
  EXPECT_EQ(&same, &e);
  EXPECT_EQ(std::get<field_errors>(e.errors).entries(), fields.entries());
  EXPECT_EQ(std::get<strings>(e.detail), (strings{"phone_number", "campaign_id"}));
}

TEST(Error, LaterBuilderReplacesEarlierErrors) {
  field_errors fields;
  fields.add("status", "invalid");
  error e{errc::bad_request, "x"};
  e.with_errors({"a"}).with_field_errors(fields);
  EXPECT_TRUE(std::holds_alternative<field_errors>(e.errors));
}

TEST(Error, CommonErrorsUseTheSpecWording) {
  const error internal = internal_error();
  EXPECT_EQ(internal.code, errc::internal);
  EXPECT_EQ(internal.message, "Internal server error");
  EXPECT_TRUE(std::holds_alternative<std::monostate>(internal.errors));

  field_errors fields;
  fields.add("name", "name");
  const error invalid = invalid_data(fields);
  EXPECT_EQ(invalid.code, errc::bad_request);
  EXPECT_EQ(invalid.message, "Invalid data");
  EXPECT_EQ(std::get<field_errors>(invalid.errors).entries(), fields.entries());

  const error missing = not_found("Campaign not found");
  EXPECT_EQ(missing.code, errc::not_found);
  EXPECT_EQ(missing.message, "Campaign not found");
}

TEST(Result, HoldsValueOrError) {
  result<int> good = 7;
  ASSERT_TRUE(good.ok());
  EXPECT_EQ(*good, 7);

  result<int> bad = not_found("Lead not found");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.err().code, errc::not_found);
  EXPECT_EQ(bad.err().message, "Lead not found");
}

} // namespace

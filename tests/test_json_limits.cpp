// parse_json (experiments/common/json_fields.h): the checked parser of every JSON input.  Nesting
// up to the limit and no further, strings not counted as nesting, repeated keys refused at any
// depth, and otherwise the same value as nlohmann's own parser.
#include <gtest/gtest.h>

#include <string>

#include "input_limits.h"
#include "json_fields.h"

namespace tb::opt {
namespace {

using nlohmann::json;

constexpr int kLimit = limits::kMaxJsonDepth;

// `depth` arrays nested in one another, the innermost holding `inner`.
std::string nested(int depth, const std::string& inner = "") {
  return std::string(static_cast<std::size_t>(depth), '[') + inner + std::string(static_cast<std::size_t>(depth), ']');
}

std::string problem(const std::string& text) {
  try {
    parse_json(text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(ParseJson, NestingUpToTheLimit) {
  EXPECT_EQ(problem(nested(kLimit)), "no error");
  EXPECT_EQ(problem(nested(kLimit + 1)), "JSON nested deeper than 64 levels");
  // Objects count as arrays do: an object holding 63 arrays is 64 levels, 64 arrays is 65.
  EXPECT_EQ(problem("{\"a\": " + nested(kLimit - 1) + "}"), "no error");
  EXPECT_EQ(problem("{\"a\": " + nested(kLimit) + "}"), "JSON nested deeper than 64 levels");
  // Siblings do not add up: only the open containers count.
  EXPECT_EQ(problem("[" + nested(kLimit - 1) + ", " + nested(kLimit - 1) + "]"), "no error");
}

TEST(ParseJson, TooDeepStopsThereWithoutCrashing) {
  EXPECT_EQ(problem(nested(1'000'000)), "JSON nested deeper than 64 levels");
  EXPECT_EQ(problem(std::string(1'000'000, '[')), "JSON nested deeper than 64 levels");
}

TEST(ParseJson, BracketsInStringsAreNotNesting) {
  const std::string brackets = "\"" + std::string(1000, '[') + std::string(1000, '{') + "\"";
  const json j = parse_json(nested(kLimit, brackets));
  const json* inner = &j;
  for (int i = 0; i < kLimit; ++i) inner = &(*inner)[0];
  EXPECT_EQ(inner->get<std::string>().size(), 2000u);
  EXPECT_EQ(problem("{\"k]]]}}}\": \"[[[{{{\", \"x\": [\"]\"]}"), "no error");
}

TEST(ParseJson, RepeatedKeysAreRefusedAtAnyDepth) {
  EXPECT_EQ(problem(R"({"lambda": 4, "lambda": 8})"), "duplicate key 'lambda' in a JSON object");
  EXPECT_EQ(problem(R"({"a": [{"b": {"c": 1, "d": 2, "c": 3}}]})"), "duplicate key 'c' in a JSON object");
  // The same key in different objects is fine, and so is a key equal to a value.
  EXPECT_EQ(problem(R"({"a": {"b": 1}, "c": {"b": 2}, "d": [{"b": 3}, {"b": 4}], "b": "b"})"), "no error");
  // A long key is shown shortened.
  const std::string key(1000, 'k');
  EXPECT_EQ(problem("{\"" + key + "\": 1, \"" + key + "\": 2}"),
            "duplicate key '" + std::string(40, 'k') + "...' in a JSON object");
}

TEST(ParseJson, SyntaxErrors) {
  EXPECT_EQ(problem(""), "not valid JSON (empty)");
  EXPECT_EQ(problem("{\"a\": [1, 2"), "not valid JSON (truncated)");
  EXPECT_EQ(problem("{\"a\": [1, 2."), "not valid JSON (truncated)");
  EXPECT_EQ(problem("{} x"), "not valid JSON (corrupt at byte 4)");
  EXPECT_EQ(problem("[1, 2,]"), "not valid JSON (corrupt at byte 7)");
}

TEST(ParseJson, SameValueAsNlohmann) {
  const std::string text =
      R"({"null": null, "t": true, "f": false, "i": -7, "u": 18446744073709551615, "x": 0.1,
          "s": "\u00e9\n", "a": [1, [2, {"k": []}], {}], "o": {"p": {"q": [null]}}})";
  const json j = parse_json(text);
  EXPECT_EQ(j, json::parse(text));
  EXPECT_TRUE(j["u"].is_number_unsigned());
  EXPECT_TRUE(j["i"].is_number_integer());
  EXPECT_TRUE(j["x"].is_number_float());
  EXPECT_EQ(parse_json("3"), json(3));
  EXPECT_EQ(parse_json(nested(kLimit)), json::parse(nested(kLimit)));
}

}  // namespace
}  // namespace tb::opt

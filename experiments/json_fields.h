// Reading the JSON files tetrisbench wrote earlier (checkpoints, run results, run metadata)
// as untrusted input: bounded read, parse errors and every field checked for type and range.
// Errors are InputError with one line "<what> '<file>': <field>: <problem>".
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "error.h"

namespace tb::opt {

// The file parsed as JSON; throws InputError naming `what` and the file (missing, not a
// regular file, too large, empty or not JSON, or not an object).
nlohmann::json read_json_file(const std::string& path, std::string_view what);

// Typed, range-checked members of an object.  `name` is the field path used in messages.
const nlohmann::json& json_member(const nlohmann::json& j, std::string_view key, std::string_view name);
std::int64_t json_integer(const nlohmann::json& v, std::int64_t lo, std::int64_t hi, std::string_view name);
double json_real(const nlohmann::json& v, double lo, double hi, std::string_view name);
std::vector<double> json_reals(const nlohmann::json& v, std::size_t size, std::string_view name);

}  // namespace tb::opt

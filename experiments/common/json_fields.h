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

// `text` parsed as JSON with two checks nlohmann's parser lacks: at most
// limits::kMaxJsonDepth nested arrays and objects (a deeper value parses, then overflows the
// stack when it is copied), and no key twice in one object (nlohmann keeps the last one).
// Throws InputError whose message is the problem alone ("JSON nested deeper than 64
// levels"); the caller names the input.
nlohmann::json parse_json(std::string_view text);

// The file parsed by parse_json; throws InputError naming `what` and the file (missing, not
// a regular file, too large, empty, not JSON or refused by parse_json, or not an object).
nlohmann::json read_json_file(const std::string& path, std::string_view what);

// Typed, range-checked members of an object.  `name` is the field path used in messages.
const nlohmann::json& json_member(const nlohmann::json& j, std::string_view key, std::string_view name);
std::int64_t json_integer(const nlohmann::json& v, std::int64_t lo, std::int64_t hi, std::string_view name);
double json_real(const nlohmann::json& v, double lo, double hi, std::string_view name);
std::vector<double> json_reals(const nlohmann::json& v, std::size_t size, std::string_view name);

// A record's optional "progress" object (mean_lines, pieces, capped_games), checked when present.
void check_progress(const nlohmann::json& record, const std::string& where);

}  // namespace tb::opt

#include "json_fields.h"

#include <cmath>

#include "checked_number.h"
#include "file_io.h"

namespace tb::opt {

using Json = nlohmann::json;

Json read_json_file(const std::string& path, std::string_view what) {
  const std::string text = read_input_file(path, what);
  Json j = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded())
    throw InputError(std::string(what) + " '" + path + "' is not valid JSON (" +
                     (text.empty() ? "empty" : "truncated or corrupt") + ")");
  if (!j.is_object()) throw InputError(std::string(what) + " '" + path + "' is not a JSON object");
  return j;
}

const Json& json_member(const Json& j, std::string_view key, std::string_view name) {
  if (!j.is_object()) throw InputError(std::string(name) + ": expected an object");
  const auto it = j.find(std::string(key));
  if (it == j.end()) throw InputError(std::string(name) + ": missing");
  return *it;
}

std::int64_t json_integer(const Json& v, std::int64_t lo, std::int64_t hi, std::string_view name) {
  if (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(hi))
    throw InputError(std::string(name) + " must be an integer in " + range_text(lo, hi));
  if (!v.is_number_integer())
    throw InputError(std::string(name) + " must be an integer in " + range_text(lo, hi) + ", not " + v.type_name());
  return check_integer(v.get<std::int64_t>(), lo, hi, name);
}

double json_real(const Json& v, double lo, double hi, std::string_view name) {
  if (!v.is_number())
    throw InputError(std::string(name) + " must be a finite number in " + range_text(lo, hi) + ", not " + v.type_name());
  return check_real(v.get<double>(), lo, hi, name);
}

std::vector<double> json_reals(const Json& v, std::size_t size, std::string_view name) {
  if (!v.is_array() || v.size() != size)
    throw InputError(std::string(name) + " must be an array of " + std::to_string(size) + " finite numbers");
  std::vector<double> out;
  out.reserve(size);
  for (const Json& x : v) out.push_back(json_real(x, -HUGE_VAL, HUGE_VAL, name));
  return out;
}

}  // namespace tb::opt

#include "json_fields.h"

#include <cmath>

#include "checked_number.h"
#include "file_io.h"
#include "input_limits.h"

namespace tb::opt {

using Json = nlohmann::json;

namespace {

// A SAX handler that builds the value as nlohmann's own DOM parser does, in one pass, and
// stops at the first level past the depth limit or the first repeated key.
class CheckedBuilder {
 public:
  explicit CheckedBuilder(std::size_t size) : size_(size) {}

  bool null() { return put(nullptr); }
  bool boolean(bool v) { return put(v); }
  bool number_integer(Json::number_integer_t v) { return put(v); }
  bool number_unsigned(Json::number_unsigned_t v) { return put(v); }
  bool number_float(Json::number_float_t v, const Json::string_t&) { return put(v); }
  bool string(Json::string_t& v) { return put(std::move(v)); }
  bool binary(Json::binary_t& v) { return put(std::move(v)); }
  bool start_object(std::size_t) { return open(Json::value_t::object); }
  bool start_array(std::size_t) { return open(Json::value_t::array); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }
  // The key goes in at once (its value follows), so a second one with the same name is found
  // by the same lookup that inserts it.
  bool key(Json::string_t& k) {
    const auto [it, fresh] = open_.back()->get_ref<Json::object_t&>().emplace(std::move(k), nullptr);
    if (!fresh) return fail("duplicate key '" + shown(it->first) + "' in a JSON object");
    slot_ = &it->second;
    return true;
  }
  // `position` counts from 1, and the end of the text as one more.
  bool parse_error(std::size_t position, const std::string&, const Json::exception&) {
    return fail(position > size_ ? "not valid JSON (truncated)"
                                 : "not valid JSON (corrupt at byte " + std::to_string(position) + ")");
  }

  Json& value() { return root_; }
  const std::string& problem() const { return problem_; }

 private:
  // Where a new value goes: the root, the end of the open array, or the open object's key.
  // A pointer into an array stays valid while it is on open_: only the innermost open
  // container grows.
  Json* place(Json v) {
    if (open_.empty()) {
      root_ = std::move(v);
      return &root_;
    }
    if (Json& top = *open_.back(); top.is_array()) {
      top.push_back(std::move(v));
      return &top.back();
    }
    *slot_ = std::move(v);
    return slot_;
  }
  bool put(Json v) {
    place(std::move(v));
    return true;
  }
  bool open(Json::value_t type) {
    if (open_.size() == limits::kMaxJsonDepth)
      return fail("JSON nested deeper than " + std::to_string(limits::kMaxJsonDepth) + " levels");
    open_.push_back(place(Json(type)));
    return true;
  }
  bool close() {
    open_.pop_back();
    return true;
  }
  bool fail(std::string problem) {
    problem_ = std::move(problem);
    return false;
  }

  std::size_t size_;  // of the text
  Json root_;
  std::vector<Json*> open_;  // the open arrays and objects, outermost first
  Json* slot_ = nullptr;     // the value of the open object's latest key
  std::string problem_;
};

}  // namespace

Json parse_json(std::string_view text) {
  if (text.empty()) throw InputError("not valid JSON (empty)");
  CheckedBuilder builder(text.size());
  if (!Json::sax_parse(text, &builder)) throw InputError(builder.problem());
  return std::move(builder.value());
}

Json read_json_file(const std::string& path, std::string_view what) {
  const std::string text = read_input_file(path, what);
  const std::string head = "cannot read " + std::string(what) + " '" + path + "': ";
  Json j;
  try {
    j = parse_json(text);
  } catch (const InputError& e) {
    throw InputError(head + e.what());
  }
  if (!j.is_object()) throw InputError(head + "not a JSON object");
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

// The largest count a progress record may hold: far above any budget, far below overflow.
constexpr std::int64_t kProgressCountLimit = std::int64_t{1} << 62;

void check_progress(const Json& record, const std::string& where) {
  if (!record.contains("progress")) return;
  const Json& p = record["progress"];
  const std::string at = where + ".progress.";
  json_real(json_member(p, "mean_lines", at + "mean_lines"), 0, HUGE_VAL, at + "mean_lines");
  json_integer(json_member(p, "pieces", at + "pieces"), 0, kProgressCountLimit, at + "pieces");
  json_integer(json_member(p, "capped_games", at + "capped_games"), 0, kProgressCountLimit, at + "capped_games");
}

}  // namespace tb::opt

// A JSON value as the Python object json.loads makes of it: the module's results are the
// command line's JSON documents, so Python sees the same keys and numbers.
#pragma once

#include <pybind11/pybind11.h>

#include <nlohmann/json.hpp>

namespace tb::python {

inline pybind11::object to_python(const nlohmann::json& j) {
  return pybind11::module_::import("json").attr("loads")(j.dump());
}

}  // namespace tb::python

#include "arguments.h"

#include <cmath>

#include "checked_number.h"
#include "error.h"
#include "input_limits.h"

namespace tb::python {
namespace {

std::string type_of(const py::handle& v) { return Py_TYPE(v.ptr())->tp_name; }

// The decimal text of a Python integer, for the command line's parser to check as it checks a
// flag.  An integer of more than 128 bits is in no range: it is shown by its size instead of
// printing what may be thousands of digits.
std::string integer_text(const py::handle& v, std::string_view name, const std::string& range) {
  const auto refuse = [&] {
    throw InputError(std::string(name) + " must be an integer in " + range + ", not of type " + shown(type_of(v)));
  };
  if (PyBool_Check(v.ptr()) || !PyIndex_Check(v.ptr())) refuse();
  const auto i = py::reinterpret_steal<py::object>(PyNumber_Index(v.ptr()));
  if (!i) {
    PyErr_Clear();
    refuse();
  }
  int overflow = 0;
  const long long small = PyLong_AsLongLongAndOverflow(i.ptr(), &overflow);
  if (overflow == 0) return std::to_string(small);
  const auto bits = i.attr("bit_length")().cast<std::size_t>();
  if (bits <= 128) return py::str(i).cast<std::string>();
  return std::string(overflow < 0 ? "-" : "") + "2^" + std::to_string(bits - 1) + " or more";
}

}  // namespace

std::int64_t integer(const py::handle& v, std::int64_t lo, std::int64_t hi, std::string_view name) {
  return parse_integer(integer_text(v, name, range_text(lo, hi)), lo, hi, name);
}

std::uint64_t seed(const py::handle& v, std::string_view name) {
  return parse_unsigned(integer_text(v, name, "[0, " + std::to_string(kUint64Max) + "]"), name);
}

int threads(const py::handle& v) { return static_cast<int>(integer(v, 0, limits::kMaxThreads, "threads")); }

std::string text(const py::handle& v, std::string_view name) {
  if (!PyUnicode_Check(v.ptr())) throw InputError(std::string(name) + " must be a str, not of type " + shown(type_of(v)));
  Py_ssize_t size = 0;
  const char* utf8 = PyUnicode_AsUTF8AndSize(v.ptr(), &size);
  if (!utf8) {
    PyErr_Clear();
    throw InputError(std::string(name) + " is not valid Unicode text");
  }
  return {utf8, static_cast<std::size_t>(size)};
}

FeatureKernel kernel(const py::handle& v) {
  const std::string name = text(v, "kernel");
  if (name.empty()) return best_kernel().kernel;
  const KernelVariant* k = find_kernel(name);
  if (!k) throw InputError("unknown kernel '" + shown(name) + "' (reference, scalar, sse4.2, avx2 or avx512)");
  if (!k->supported()) throw InputError("this CPU does not run the " + name + " kernel");
  return k->kernel;
}

py::array real_array(const py::handle& x, std::string_view name) {
  py::array a = py::array::ensure(x);
  if (!a) throw InputError(std::string(name) + " must be an array of real numbers");
  const char kind = a.dtype().kind();
  if (kind != 'f' && kind != 'i' && kind != 'u')
    throw InputError(std::string(name) + " must be real numbers, not an array of " +
                     shown(py::str(a.dtype()).cast<std::string>()));
  return a;
}

opt::Matrix finite_columns(const py::array& a, std::string_view name) {
  const auto d = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(a);
  if (!d || d.ndim() != 2) throw InputError(std::string(name) + " cannot be read as a 2-D array of numbers");
  const auto view = d.unchecked<2>();
  opt::Matrix m(d.shape(1), d.shape(0));
  for (py::ssize_t k = 0; k < d.shape(0); ++k)
    for (py::ssize_t i = 0; i < d.shape(1); ++i) {
      const double w = view(k, i);
      if (!std::isfinite(w))
        throw InputError(std::string(name) + " [" + std::to_string(k) + ", " + std::to_string(i) + "] is not finite");
      m(i, k) = w;
    }
  return m;
}

}  // namespace tb::python

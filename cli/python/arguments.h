// The Python module's one argument layer (docs/python.md "Errors and limits"): the module is
// an input boundary like the command line, so every number from Python goes through the
// command line's range-checked parser (checked_number.h) with its limits (input_limits.h).
// A bad argument is an InputError, which the module raises as a one-line ValueError; nothing
// is truncated, wrapped or cast first.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "kernel_variants.h"
#include "optimizer.h"

namespace tb::python {

namespace py = pybind11;

// A Python int (or an object with __index__, as numpy's integers) in [lo, hi].  bool, float,
// str and None are refused: a float would be truncated, and True is not meant as a count.
std::int64_t integer(const py::handle& v, std::int64_t lo, std::int64_t hi, std::string_view name);
// The same in [0, 2^64 - 1], for seeds.
std::uint64_t seed(const py::handle& v, std::string_view name);
// The same in [0, limits::kMaxThreads] (0 = every core).
int threads(const py::handle& v);
// A Python str, as UTF-8.
std::string text(const py::handle& v, std::string_view name);
// A kernel by name (reference, scalar, sse4.2, avx2, avx512) that this CPU runs; "" = the best.
FeatureKernel kernel(const py::handle& v);

// `x` as a numpy array of real numbers (integer or floating dtype), without copying an array:
// its shape can then be checked before any conversion costs memory.  Complex, bool, object
// and text arrays are refused rather than cast.
py::array real_array(const py::handle& x, std::string_view name);
// A checked real array of shape (rows, dim) as a (dim x rows) matrix, one row per column;
// every value finite.
opt::Matrix finite_columns(const py::array& a, std::string_view name);

}  // namespace tb::python

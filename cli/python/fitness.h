// tetrisbench.Fitness (docs/python.md): the built-in fitness of a comparison config for run
// `run` of an outside optimizer.
#pragma once

#include <pybind11/pybind11.h>

namespace tb::python {

void bind_fitness(pybind11::module_& m);

}  // namespace tb::python

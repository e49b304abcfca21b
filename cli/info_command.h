// `tetrisbench info`: the build, the CPU, and which feature kernels exist and which is active.
#pragma once

#include <istream>
#include <string>

namespace tb {

struct InfoOptions {
  std::string kernel;  // as for play: shows which variant a forced name resolves to
};

int run_info(const InfoOptions& options);

// The CPU from /proc/cpuinfo (cpu_model_from), or "unknown".
std::string cpu_model();
// cpu_model() of a /proc/cpuinfo text: the first processor's model name, then its family, model
// and stepping (and AMD's core, for families 25 and 26), or "unknown".
std::string cpu_model_from(std::istream& cpuinfo);

}  // namespace tb

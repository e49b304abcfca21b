// `tetrisbench info`: the build, the CPU, and which feature kernels exist and which is active.
#pragma once

#include <string>

namespace tb {

struct InfoOptions {
  std::string kernel;  // as for play: shows which variant a forced name resolves to
};

int run_info(const InfoOptions& options);

// "model name" from /proc/cpuinfo, or "unknown".
std::string cpu_model();

}  // namespace tb

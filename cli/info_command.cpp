#include "info_command.h"

#include <cstdio>
#include <fstream>

#include "cli_common.h"
#include "cluster.h"
#include "parallel_play.h"
#include "version.h"

namespace tb {

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(" \t", colon + 1));
    }
  return "unknown";
}

int run_info(const InfoOptions& o) {
  const KernelVariant& active = choose_kernel(o.kernel);
  std::printf("tetrisbench %s (git %s)\n", kVersion, kGitCommit);
  std::printf("compiler    %s, %s build, flags: %s\n", kCompiler, kBuildType, kCxxFlags);
  std::printf("cpu         %s, %d hardware threads\n", cpu_model().c_str(), thread_count(0));
  std::printf("mpi         %s\n", !cluster::built_with_mpi() ? "not built (docs/cluster.md)"
                                   : cluster::world().size > 1
                                       ? ("rank 0 of " + std::to_string(cluster::world().size)).c_str()
                                       : "built; one process (start under mpirun for more ranks)");
  std::printf("kernels     (best first; %s forces one)\n", kKernelEnv);
  for (const KernelVariant& v : kernel_variants()) {
    const bool ok = v.supported();
    std::printf("  %-10s %-13s needs %s%s\n", std::string(v.name).c_str(),
                ok ? "available" : "unavailable", std::string(v.requires_isa).c_str(),
                &v == &active ? "   <- active" : "");
  }
  return 0;
}

}  // namespace tb

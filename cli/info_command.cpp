#include "info_command.h"

#include <cstdio>
#include <fstream>
#include <istream>
#include <stdexcept>
#include <string>
#include <utility>

#include "cli_common.h"
#include "cluster.h"
#include "parallel_play.h"
#include "version.h"

namespace tb {

namespace {

// The value of a "key : value" line of /proc/cpuinfo whose key is `key`, or "".
std::string cpuinfo_value(const std::string& line, const char* key) {
  const auto colon = line.find(':');
  if (colon == std::string::npos || colon == 0) return "";
  const std::string k = line.substr(0, line.find_last_not_of(" \t", colon - 1) + 1);
  if (k != key) return "";
  const auto v = line.find_first_not_of(" \t", colon + 1);
  return v == std::string::npos ? "" : line.substr(v);
}

// AMD's microarchitecture of a family and model, where this project's hosts have one (the
// speed figures of docs/performance.md name it); "" otherwise.
std::string amd_core(int family, int model) {
  if (family == 26) return "Zen 5";
  if (family == 25) {
    const bool zen4 = (model >= 0x10 && model <= 0x1f) || (model >= 0x60 && model <= 0x7f) ||
                      (model >= 0xa0 && model <= 0xaf);
    return zen4 ? "Zen 4" : "Zen 3";
  }
  return "";
}

}  // namespace

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  return cpu_model_from(in);
}

std::string cpu_model_from(std::istream& in) {
  // The first processor's lines only (a bounded read: the block is a few dozen short lines).
  std::string name, vendor, family, model, stepping;
  int lines = 0;
  for (std::string line; lines < 64 && std::getline(in, line) && !line.empty(); ++lines) {
    if (line.size() > 4096) break;  // (the flags line is the longest, about 1.5 KB)
    for (auto [key, out] : {std::pair{"model name", &name}, {"vendor_id", &vendor}, {"cpu family", &family},
                            {"model", &model}, {"stepping", &stepping}})
      if (std::string v = cpuinfo_value(line, key); !v.empty()) *out = v;
  }
  if (name.empty()) return "unknown";
  if (family.empty() || model.empty()) return name;
  std::string id = "family " + family + " model " + model + (stepping.empty() ? "" : " stepping " + stepping);
  if (vendor == "AuthenticAMD") {
    try {
      if (const std::string core = amd_core(std::stoi(family), std::stoi(model)); !core.empty()) id += ", " + core;
    } catch (const std::exception&) {  // (not numbers: no core name)
    }
  }
  return name + " (" + id + ")";
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

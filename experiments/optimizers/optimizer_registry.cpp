// make_optimizer(): the one table of optimizer names.  Each entry builds one optimizer from
// an OptimizerSetup; the optimizers live in their own files.
#include <array>
#include <functional>

#include "cmaes.h"
#include "cross_entropy.h"
#include "genetic.h"
#include "optimizer.h"
#include "pso.h"

namespace tb::opt {
namespace {

struct Entry {
  std::string_view name;
  std::function<std::unique_ptr<Optimizer>(const OptimizerSetup&)> make;
};

// Add one line per optimizer (keep the order of docs/optimizers.md).
const std::vector<Entry>& entries() {
  static const std::vector<Entry> table = {
      {"cmaes", make_cmaes},
      {"cmaes-active", make_cmaes_active},
      {"ipop-cmaes", make_ipop_cmaes},
      {"ce", make_cross_entropy},
      {"ga", make_genetic},
      {"ga-lee", make_lee_genetic},
      {"pso", make_pso},
      {"pso-article1", make_pso_article1},
  };
  return table;
}

}  // namespace

std::unique_ptr<Optimizer> make_optimizer(std::string_view name, const OptimizerSetup& setup) {
  for (const Entry& e : entries())
    if (e.name == name) return e.make(setup);
  std::string known;
  for (const Entry& e : entries()) known += (known.empty() ? "" : ", ") + std::string(e.name);
  throw OptimizerError("unknown optimizer '" + std::string(name) + "' (" + known + ")");
}

std::vector<std::string_view> optimizer_names() {
  std::vector<std::string_view> names;
  for (const Entry& e : entries()) names.push_back(e.name);
  return names;
}

}  // namespace tb::opt

// report.json of a comparison: per optimizer, held-out results across runs, budgets, runtime
// to targets (COCO style), and Mann-Whitney U tests against the best optimizer.
// scripts/report.py turns it into report.md and the plots.  Schema: docs/experiments.md.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "experiment_config.h"

namespace tb::opt {

// `runs`: every run's result.json (compare_run.h), in any order.
nlohmann::json build_report(const ExperimentConfig& c, const std::vector<nlohmann::json>& runs,
                            const nlohmann::json& metadata);

}  // namespace tb::opt

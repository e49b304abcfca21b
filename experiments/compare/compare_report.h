// report.json of a comparison: per optimizer, held-out results across runs and games with
// bootstrap intervals and censoring, budgets, runtime to targets on the progress games (COCO
// style) with Holm-adjusted log-rank tests against each target's leader, and Holm-adjusted
// Mann-Whitney U tests against the highest mean.
// scripts/report.py turns it into report.md and the plots.  Schema: docs/experiments.md.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "experiment_config.h"

namespace tb::opt {

// `runs`: every run's result.json (compare_run.h), in any order.
nlohmann::json build_report(const ExperimentConfig& c, const std::vector<nlohmann::json>& runs,
                            const nlohmann::json& metadata);

// Empty, or one sentence saying that c.runs runs per entry cannot give a p value small enough
// for the report to name a best (and how many could): compare prints it when it reads the config.
std::string significance_warning(const ExperimentConfig& c);

}  // namespace tb::opt

// `tetrisbench compare CONFIG.toml`: runs every optimizer of an experiment config for its
// runs, with checkpoints, then writes report.json and (through scripts/report.py) report.md
// with plots.  docs/experiments.md describes the config and the results folder.
#pragma once

#include <string>

namespace tb {

struct CompareOptions {
  std::string config;  // TOML file (not with --resume)
  std::string out;     // results folder; default results/<name>/<UTC date-time>
  std::string resume;  // continue the experiment in this folder
  std::string kernel;
  int threads = 0;
  bool plots = true;   // run scripts/report.py
};

int run_compare(const CompareOptions& options);

}  // namespace tb

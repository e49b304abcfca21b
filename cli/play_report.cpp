// The three renderings of a `play` run.  JSON schema: docs/json-schema.md (version 1).
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string_view>

#include "cluster.h"
#include "play_command.h"
#include "quote.h"
#include "version.h"

namespace tb {
namespace {

using nlohmann::ordered_json;

double per_second(const PlayRun& r) {
  return r.seconds > 0 ? static_cast<double>(r.summary.pieces) / r.seconds : 0.0;
}

ordered_json nullable(double v) { return std::isfinite(v) ? ordered_json(v) : ordered_json(nullptr); }

ordered_json rules_json(const Rules& r) {
  return {{"name", rule_set_name(r)},
          {"placement", to_string(r.placement)},
          {"rotation", r.rotation == RotationSystem::srs ? "srs" : "simple"},
          {"board", {{"width", r.geometry.width}, {"height", r.geometry.height}, {"hidden_rows", r.geometry.hidden}}},
          {"overflow", to_string(r.overflow)},
          {"generator", to_string(r.generator)},
          {"lookahead", r.lookahead},
          {"clear_between_plies", r.clear_between_plies}};
}

ordered_json game_json(const GameResult& g, std::uint64_t seed) {
  return {{"index", g.index},   {"seed", seed},         {"lines", g.lines},
          {"pieces", g.pieces}, {"points", g.points},   {"tetrises", g.tetrises},
          {"capped", g.capped}, {"holes_created", g.holes_created}};
}

}  // namespace

std::string play_json(const PlayRun& r) {
  const PlaySummary& s = r.summary;
  ordered_json doc;
  doc["schema"] = "tetrisbench.play";
  doc["schema_version"] = 1;
  doc["tool"] = {{"name", "tetrisbench"}, {"version", kVersion}, {"git", kGitCommit}};
  doc["policy"] = {{"name", r.policy.name},
                   {"features", feature_label(r.policy)},
                   {"reward_lines", r.policy.reward_lines},
                   {"rules", r.policy.rules},
                   {"weights", r.policy.weights},
                   {"source", r.policy.source}};
  doc["rules"] = rules_json(r.config.rules);
  doc["run"] = {{"seed", r.config.seed},         {"first_game", r.first_game},
                {"games", s.games},              {"max_pieces", r.config.max_pieces},
                {"tie_noise", r.config.tie_noise}, {"kernel", r.kernel},
                {"threads", r.threads}};
  // Under MPI (docs/cluster.md) the games were spread over ranks; the results do not depend on it.
  if (cluster::world().size > 1) doc["run"]["ranks"] = cluster::world().size;
  doc["summary"] = {{"games", s.games},
                    {"mean_lines", s.mean_lines},
                    {"ci95", {nullable(s.ci95_low), nullable(s.ci95_high)}},
                    {"stddev_lines", nullable(s.stddev_lines)},
                    {"median_lines", s.median_lines},
                    {"min_lines", s.min_lines},
                    {"max_lines", s.max_lines},
                    {"lines", s.lines},
                    {"pieces", s.pieces},
                    {"tetrises", s.tetrises},
                    {"capped_games", s.capped_games},
                    {"holes_per_100_pieces", s.holes_per_100_pieces},
                    {"mean_wall_height", s.mean_wall_height},
                    {"tetrises_per_100_lines", s.tetrises_per_100_lines},
                    {"seconds", r.seconds},
                    {"pieces_per_second", per_second(r)}};
  // The games are written one at a time, as dump(2) would write them at this depth: a document
  // of a million games would hold a tree of tens of millions of nodes, and json's destructor,
  // which cannot throw, allocates to free one (out of memory, it aborts the process).
  doc["games"] = ordered_json::array();
  std::string text = doc.dump(2);
  text.resize(text.size() - std::string_view("[]\n}").size());
  text += "[";
  constexpr std::string_view kBreak = "\n    ";  // a line break inside the games array
  for (std::size_t i = 0; i < r.results.size(); ++i) {
    std::string game = game_json(r.results[i], r.config.seed).dump(2);
    for (std::size_t at = 0; (at = game.find('\n', at)) != std::string::npos; at += kBreak.size())
      game.replace(at, 1, kBreak);
    text += i == 0 ? "" : ",";
    text += kBreak;
    text += game;
  }
  return text + (r.results.empty() ? "]\n}\n" : "\n  ]\n}\n");
}

std::string play_csv(const PlayRun& r) {
  std::ostringstream out;
  out << "index,seed,lines,pieces,points,tetrises,capped,holes_created\n";
  for (const GameResult& g : r.results)
    out << g.index << ',' << r.config.seed << ',' << g.lines << ',' << g.pieces << ',' << g.points
        << ',' << g.tetrises << ',' << (g.capped ? 1 : 0) << ',' << g.holes_created << '\n';
  return out.str();
}

std::string play_table(const PlayRun& r) {
  const PlaySummary& s = r.summary;
  const Rules& rules = r.config.rules;
  std::ostringstream out;
  char buf[256];
  std::snprintf(buf, sizeof buf, "policy %s (%s) on %dx%d, rules %s (%s, %s, %s), seed %llu\n",
                escaped(r.policy.name).c_str(), feature_label(r.policy).c_str(),
                rules.geometry.width, rules.geometry.height, rule_set_name(rules).c_str(),
                to_string(rules.placement), to_string(rules.overflow), to_string(rules.generator),
                static_cast<unsigned long long>(r.config.seed));
  out << buf;
  constexpr std::size_t kListed = 20;
  if (r.results.size() <= kListed) {
    out << "\n  game      lines     pieces       points  tetrises  capped\n";
    for (const GameResult& g : r.results) {
      std::snprintf(buf, sizeof buf, "%6llu %10lld %10lld %12lld %9lld  %s\n",
                    static_cast<unsigned long long>(g.index), static_cast<long long>(g.lines),
                    static_cast<long long>(g.pieces), static_cast<long long>(g.points),
                    static_cast<long long>(g.tetrises), g.capped ? "yes" : "no");
      out << buf;
    }
  } else {
    out << "(" << r.results.size() << " games: per-game rows with --format csv or json)\n";
  }
  out << "\n";
  std::snprintf(buf, sizeof buf, "games              %lld (%lld capped at %lld pieces)\n",
                static_cast<long long>(s.games), static_cast<long long>(s.capped_games),
                static_cast<long long>(r.config.max_pieces));
  out << buf;
  if (s.games < 2)
    std::snprintf(buf, sizeof buf, "mean lines         %.1f  (one game: no interval, no deviation)\n", s.mean_lines);
  else
    std::snprintf(buf, sizeof buf, "mean lines         %.1f  95%% CI [%.1f, %.1f]%s\n", s.mean_lines, s.ci95_low,
                  s.ci95_high, s.capped_games ? "  (capped games count their lines at the cap: a lower bound)" : "");
  out << buf;
  std::snprintf(buf, sizeof buf, "median / min / max %.1f / %lld / %lld\n", s.median_lines,
                static_cast<long long>(s.min_lines), static_cast<long long>(s.max_lines));
  out << buf;
  std::snprintf(buf, sizeof buf, "holes / 100 pieces %.2f\nmean wall height   %.2f\n",
                s.holes_per_100_pieces, s.mean_wall_height);
  out << buf;
  std::snprintf(buf, sizeof buf, "tetrises/100 lines %.2f\npieces             %lld\n",
                s.tetrises_per_100_lines, static_cast<long long>(s.pieces));
  out << buf;
  std::snprintf(buf, sizeof buf, "pieces per second  %.0f (%.2f s, %s kernel, threads %d)\n",
                per_second(r), r.seconds, r.kernel.c_str(), r.threads);
  out << buf;
  return out.str();
}

}  // namespace tb

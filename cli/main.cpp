#include <cstdio>
#include "parallel_play.h"
#include "summary.h"
int main(int argc, char** argv) {
  using namespace tb;
  Policy p = load_policy(argc > 1 ? argv[1] : "bcts");
  GameConfig c; c.rules.geometry = {10, argc > 3 ? atoi(argv[3]) : 10};
  c.max_pieces = argc > 4 ? atoll(argv[4]) : 0;
  auto r = play_games(p, c, argc > 2 ? atoi(argv[2]) : 100, 0, features_scalar, nullptr);
  auto s = summarize(r);
  printf("mean %.1f [%.1f, %.1f] pieces %lld\n", s.mean_lines, s.ci95_low, s.ci95_high, (long long)s.pieces);
}

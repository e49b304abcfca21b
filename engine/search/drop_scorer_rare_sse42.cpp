// The drop scorer's rare-only passes (DropMode::rare_only, drop_pass_rare), one per board
// width and rating family, compiled for sse4_2 in a translation unit of their own: the full
// passes' code stays as it is without them (per-file flags: engine/search/CMakeLists.txt).
#define TB_RARE_ONLY_FILE  // (drop_pass/base_pass.h: the column pass's unroll hint)
#include "drop_pass/passes.h"

namespace tb {

constinit const DropRarePasses kDropRarePassesSse42 = drop_rare_passes<xsimd::sse4_2>();

}  // namespace tb

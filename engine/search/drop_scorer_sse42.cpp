// The drop scorer's vector passes, one per board width and rating family (kDropWidths,
// kDropFamilies), compiled for sse4_2 (per-file flags: engine/search/CMakeLists.txt).
#include "drop_pass/passes.h"

namespace tb {

constinit const DropPasses kDropPassesSse42 = drop_passes<xsimd::sse4_2>();

}  // namespace tb

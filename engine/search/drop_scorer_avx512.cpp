// The drop scorer's vector passes, one per board width and rating family (kDropWidths,
// kDropFamilies), compiled for avx512bw (per-file flags: engine/search/CMakeLists.txt).
#include "drop_pass/passes.h"

namespace tb {

constinit const DropPasses kDropPassesAvx512 = drop_passes<xsimd::avx512bw, xsimd::avx2>();

}  // namespace tb

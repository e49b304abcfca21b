// Research rules on a W x H board, for tests that build learners on small boards.
#pragma once

#include "rules.h"

namespace tb {

inline Rules research_rules(int w, int h) {
  Rules r;
  r.geometry = {w, h};
  return r;
}

}  // namespace tb

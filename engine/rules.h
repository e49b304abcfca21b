// The rule set a game is played under (RULES.md).  `research` is the default of every field;
// any other value is a named variant and appears in the rule-set name.
#pragma once

#include <string>

#include "board.h"

namespace tb {

enum class Overflow { strict, clear_first };  // RULES "Game over"
enum class Generator { uniform, bag7 };       // RULES "Piece generators"

struct Rules {
  Geometry geometry{};
  Overflow overflow = Overflow::strict;
  Generator generator = Generator::uniform;
  int lookahead = 0;  // 0: one-piece controller; 1: the next piece is known
};

// "research", or "research+bag7+clear-first+lookahead1" for the variants in use.
std::string rule_set_name(const Rules& r);
const char* to_string(Overflow o);
const char* to_string(Generator g);

}  // namespace tb

#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "query/expression.h"

namespace earl::query {

// One operand of a top-level `and`: text[begin, end).
struct Span {
  std::size_t begin = 0, end = 0;
};

// The operands of an expression written `C1 and C2 and ... and Cn` (n >= 2) at its top
// level, in the order written (a pair of parentheses around the whole is looked into).
// Empty where the text is not such a conjunction, and wherever this scan could misread
// the language: a top-level `or`, comma or colon, Python's `if`/`else`/`lambda` and Lua's
// `function` (their operands reach past an `and`), comments, prefixed, triple-quoted
// or long strings, line continuations, unbalanced brackets. Empty only costs speed:
// the language then evaluates the whole expression.
std::vector<Span> top_level_conjuncts(const std::string& text, Language language);

// The text with the operand `span` written as the language's `true`, every other
// character of it a space (line breaks kept), so that positions in the rest of the
// text stay where they were. False (text unchanged) where the operand has no room for
// the word between characters that keep it a word of its own.
bool write_as_true(std::string& text, Span span, Language language);

// parse(), and where the whole is not in the subset but some of its top-level `and`
// operands are: `partial`, `tree` their conjunction, `rest` the text the language
// evaluates on the events they select (write_as_true of each), `reason`, `line`,
// `column` of the first operand left to the language.
Parsed parse_conjuncts(const std::string& text, Language language);

}  // namespace earl::query

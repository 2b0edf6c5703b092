#include "query/conjuncts.h"

#include <cctype>
#include <optional>

namespace earl::query {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// Letters, digits, '_' and every byte of a UTF-8 sequence (Python names may hold them).
bool is_word_char(char c) {
  auto u = static_cast<unsigned char>(c);
  return std::isalnum(u) || c == '_' || u >= 0x80;
}

// The scan of one level: the operands of its top-level `and`s, or nothing (see the header).
class Scan {
 public:
  static constexpr int kMostPairs = 8;  // of parentheses around the whole, looked into

  Scan(const std::string& text, Language language) : text_(text), python_(language == Language::Python) {}

  std::optional<std::vector<Span>> operands(std::size_t lo, std::size_t hi) {
    std::vector<Span> found;
    std::size_t start = lo, at = lo;
    int depth = 0;
    while (at < hi) {
      char c = text_[at];
      if (c == '"' || c == '\'') {
        if (!skip_string(at, hi)) return std::nullopt;
      } else if (c == '(' || c == '[' || c == '{') {
        if (!python_ && c == '[' && at + 1 < hi && (text_[at + 1] == '[' || text_[at + 1] == '='))
          return std::nullopt;  // a Lua long string
        ++depth;
        ++at;
      } else if (c == ')' || c == ']' || c == '}') {
        if (depth-- == 0) return std::nullopt;
        ++at;
      } else if (is_word_char(c)) {
        std::size_t word = at;
        while (at < hi && (is_word_char(text_[at]) || (std::isdigit(static_cast<unsigned char>(text_[word])) && text_[at] == '.')))
          ++at;
        if (at < hi && (text_[at] == '"' || text_[at] == '\'')) return std::nullopt;  // r"..", f"..", Lua's f"..": a call
        if (depth == 0 && !top_level_word(text_.substr(word, at - word), found, start, word, at)) return std::nullopt;
      } else if (c == '#' || c == '\\' || c == ';' || (!python_ && c == '-' && at + 1 < hi && text_[at + 1] == '-')) {
        return std::nullopt;  // comments, line continuations, statements
      } else if (depth == 0 && (c == ',' || c == ':')) {
        return std::nullopt;  // a tuple, a lambda, an assignment expression
      } else {
        ++at;
      }
    }
    if (depth != 0) return std::nullopt;
    found.push_back(Span{start, hi});
    for (const Span& s : found)
      if (trimmed(s).begin == trimmed(s).end) return std::nullopt;
    return found;
  }

  // The text's operands, looking into parentheses around the whole text.
  std::vector<Span> conjuncts() {
    Span whole{0, text_.size()};
    // each pair looked into scans its inside again: a bound keeps the scan linear
    for (int pairs = 0; pairs <= kMostPairs; ++pairs) {
      auto found = operands(whole.begin, whole.end);
      if (!found) return {};
      if (found->size() > 1) return *found;
      Span inner = trimmed(whole);
      if (inner.end - inner.begin < 2 || text_[inner.begin] != '(' || text_[inner.end - 1] != ')') return {};
      // "(a) + (b)" is no pair around the whole: its inside "a) + (b" fails the scan
      whole = Span{inner.begin + 1, inner.end - 1};
    }
    return {};
  }

  Span trimmed(Span s) const {
    while (s.begin < s.end && is_space(text_[s.begin])) ++s.begin;
    while (s.end > s.begin && is_space(text_[s.end - 1])) --s.end;
    return s;
  }

 private:
  // A quoted string on one line (escapes skipped); false for what the scan does not follow.
  bool skip_string(std::size_t& at, std::size_t hi) const {
    char quote = text_[at];
    if (python_ && at + 2 < hi && text_[at + 1] == quote && text_[at + 2] == quote) return false;
    for (++at; at < hi; ++at) {
      char c = text_[at];
      if (c == '\n') return false;
      if (c == '\\') {
        ++at;
        if (at < hi && text_[at] == '\n') return false;
        continue;
      }
      if (c == quote) {
        ++at;
        return true;
      }
    }
    return false;
  }

  // A word outside brackets: `and` ends an operand; others end the scan where their
  // operands could reach past an `and`.
  bool top_level_word(const std::string& word, std::vector<Span>& found, std::size_t& start, std::size_t begin,
                      std::size_t end) const {
    if (word == "and") {
      found.push_back(Span{start, begin});
      start = end;
      return true;
    }
    if (word == "or") return false;
    if (python_) return word != "if" && word != "else" && word != "lambda" && word != "for" && word != "yield" &&
                        word != "await";
    return word != "function";
  }

  const std::string& text_;
  bool python_;
};

}  // namespace

std::vector<Span> top_level_conjuncts(const std::string& text, Language language) {
  return Scan(text, language).conjuncts();
}

bool write_as_true(std::string& text, Span span, Language language) {
  const std::string word = language == Language::Python ? "True" : "true";
  Span s = Scan(text, language).trimmed(span);
  // the character next to the word once the operand is blank: a space inside, the
  // text's own outside
  auto at = [&](std::size_t i) { return i >= s.begin && i < s.end ? ' ' : text[i]; };
  for (std::size_t p = s.begin; p + word.size() <= s.end; ++p) {
    bool one_line = true;
    for (std::size_t i = p; i < p + word.size(); ++i) one_line = one_line && text[i] != '\n';
    if (!one_line) continue;
    bool apart = (p == 0 || !is_word_char(at(p - 1))) &&
                 (p + word.size() >= text.size() || !is_word_char(at(p + word.size())));
    if (!apart) continue;
    for (std::size_t i = s.begin; i < s.end; ++i)
      if (text[i] != '\n') text[i] = ' ';
    text.replace(p, word.size(), word);
    return true;
  }
  return false;
}

Parsed parse_conjuncts(const std::string& text, Language language) {
  Parsed whole = parse(text, language);
  if (whole.native) return whole;
  std::vector<Span> operands = top_level_conjuncts(text, language);
  Node tested;
  tested.kind = Node::Kind::And;
  std::string rest = text;
  std::optional<Parsed> first_left;  // the first operand left to the language
  int line = 1, column = 1;            // where `operand` begins (the operands are in order)
  std::size_t at = 0;
  for (const Span& operand : operands) {
    for (; at < operand.begin; ++at) {
      if (text[at] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    Parsed part = parse(text.substr(operand.begin, operand.end - operand.begin), language, line, column);
    if (part.native && write_as_true(rest, operand, language)) {
      tested.children.push_back(std::move(part.tree));
    } else if (!first_left) {
      first_left = part.native ? whole : std::move(part);
    }
  }
  if (tested.children.empty() || !first_left) return whole;
  Parsed partial = std::move(*first_left);
  partial.partial = true;
  partial.tree = tested.children.size() == 1 ? std::move(tested.children[0]) : std::move(tested);
  partial.rest = std::move(rest);
  return partial;
}

}  // namespace earl::query

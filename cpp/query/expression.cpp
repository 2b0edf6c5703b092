#include "query/expression.h"

#include <cctype>
#include <cstdlib>
#include <utility>

#include "model/error.h"

namespace earl::query {

Language language_named(const std::string& name) {
  if (name == "python") return Language::Python;
  if (name == "lua") return Language::Lua;
  throw EarlError("unknown expression language '" + name + "' (python or lua)");
}

const char* language_name(Language language) {
  return language == Language::Python ? "python" : "lua";
}

namespace {

struct Token {
  enum class Kind { Name, Number, String, Op, End, Unknown } kind = Kind::End;
  std::string text;    // names, operators, the decoded string
  long double number = 0;
  int line = 1, column = 1;
};

// Thrown inside the parser where the text leaves the common subset; parse() turns it
// into Parsed::reason. Never escapes parse().
struct Unsupported {
  std::string what;
  int line, column;
};

class Lexer {
 public:
  Lexer(const std::string& text, Language language, int line, int column)
      : text_(text), language_(language), line_(line), column_(column) {}

  Token next() {
    skip_space();
    Token token;
    token.line = line_;
    token.column = column_;
    if (at_ >= text_.size()) return token;
    char c = text_[at_];
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      std::size_t start = at_;
      while (at_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[at_])) || text_[at_] == '_'))
        advance();
      token.kind = Token::Kind::Name;
      token.text = text_.substr(start, at_ - start);
      return token;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) ||
        (c == '.' && at_ + 1 < text_.size() && std::isdigit(static_cast<unsigned char>(text_[at_ + 1]))))
      return number(token);
    if (c == '"' || c == '\'') return string(token, c);
    static const char* const two[] = {"==", "!=", "~=", "<=", ">="};
    for (const char* op : two) {
      if (text_.compare(at_, 2, op) == 0) {
        advance();
        advance();
        token.kind = Token::Kind::Op;
        token.text = op;
        return token;
      }
    }
    advance();
    token.text = std::string(1, c);
    token.kind = std::string("<>()[]{},.-").find(c) != std::string::npos ? Token::Kind::Op : Token::Kind::Unknown;
    return token;
  }

 private:
  void advance() {
    if (text_[at_] == '\n') {
      ++line_;
      column_ = 1;
    } else {
      ++column_;
    }
    ++at_;
  }

  void skip_space() {
    while (at_ < text_.size()) {
      char c = text_[at_];
      if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
        advance();
      } else {
        return;  // comments (# or --) are left to the language: they are not in the subset
      }
    }
  }

  Token number(Token& token) {
    std::size_t start = at_;
    while (at_ < text_.size() && (std::isdigit(static_cast<unsigned char>(text_[at_])) || text_[at_] == '.'))
      advance();
    if (at_ < text_.size() && (text_[at_] == 'e' || text_[at_] == 'E')) {
      advance();
      if (at_ < text_.size() && (text_[at_] == '+' || text_[at_] == '-')) advance();
      while (at_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[at_]))) advance();
    }
    std::string digits = text_.substr(start, at_ - start);
    // 0x.., 1_000, 10L, 5j, ...: the language's own number syntax
    if (at_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[at_])) || text_[at_] == '_'))
      throw Unsupported{"a number written as only " + std::string(language_name(language_)) + " reads it",
                        token.line, token.column};
    char* end = nullptr;
    token.number = std::strtold(digits.c_str(), &end);
    if (end != digits.c_str() + digits.size() || digits.find('.') != digits.rfind('.'))
      throw Unsupported{"the number '" + digits + "'", token.line, token.column};
    token.kind = Token::Kind::Number;
    token.text = digits;
    return token;
  }

  Token string(Token& token, char quote) {
    advance();
    std::string value;
    while (true) {
      if (at_ >= text_.size() || text_[at_] == '\n')
        throw Unsupported{"an unterminated string", token.line, token.column};
      char c = text_[at_];
      if (c == quote) {
        advance();
        break;
      }
      if (c == '\\') {
        advance();
        if (at_ >= text_.size()) throw Unsupported{"an unterminated string", token.line, token.column};
        char e = text_[at_];
        // The escapes both languages read alike; others are the language's to decode.
        if (e == '\\' || e == '"' || e == '\'') value += e;
        else if (e == 'n') value += '\n';
        else if (e == 't') value += '\t';
        else throw Unsupported{std::string("the string escape \\") + e, line_, column_ - 1};
        advance();
        continue;
      }
      value += c;
      advance();
    }
    token.kind = Token::Kind::String;
    token.text = std::move(value);
    return token;
  }

  const std::string& text_;
  Language language_;
  std::size_t at_ = 0;
  int line_, column_;
};

class Parser {
 public:
  Parser(const std::string& text, Language language, int line, int column)
      : lexer_(text, language, line, column), language_(language) {
    token_ = lexer_.next();
  }

  Node whole() {
    Node tree = disjunction();
    if (token_.kind != Token::Kind::End) unsupported("'" + token_.text + "' after a complete expression");
    return tree;
  }

 private:
  static constexpr int kMaxDepth = 100;  // deeper nesting is the language's to evaluate

  [[noreturn]] void unsupported(const std::string& what) { throw Unsupported{what, token_.line, token_.column}; }

  bool is(Token::Kind kind, const char* text) const { return token_.kind == kind && token_.text == text; }
  bool is_op(const char* text) const { return is(Token::Kind::Op, text); }
  bool is_word(const char* text) const { return is(Token::Kind::Name, text); }
  void expect_op(const char* text) {
    if (!is_op(text)) unsupported(std::string("'") + (token_.kind == Token::Kind::End ? "the end" : token_.text) +
                                  "' where '" + text + "' belongs");
    token_ = lexer_.next();
  }

  Node joined(Node::Kind kind, Node first, Node (Parser::*part)(), const char* word) {
    if (!is_word(word)) return first;
    Node node;
    node.kind = kind;
    node.children.push_back(std::move(first));
    while (is_word(word)) {
      token_ = lexer_.next();
      node.children.push_back((this->*part)());
    }
    return node;
  }

  Node disjunction() {
    if (++depth_ > kMaxDepth) unsupported("nesting deeper than 100");
    Node node = joined(Node::Kind::Or, conjunction(), &Parser::conjunction, "or");
    --depth_;
    return node;
  }
  Node conjunction() { return joined(Node::Kind::And, negation(), &Parser::negation, "and"); }

  Node negation() {
    if (!is_word("not")) return comparison();
    Token at = token_;
    token_ = lexer_.next();
    Node node;
    node.kind = Node::Kind::Not;
    node.line = at.line;
    node.column = at.column;
    // Lua's `not` binds tighter than its comparisons (`not ev.tag == 5` compares a
    // boolean): only `not (...)` and `not not` mean the same in both languages.
    if (language_ == Language::Lua && !is_op("(") && !is_word("not"))
      throw Unsupported{"Lua's 'not' before a comparison without parentheses", at.line, at.column};
    if (++depth_ > kMaxDepth) unsupported("nesting deeper than 100");
    node.children.push_back(negation());
    --depth_;
    return node;
  }

  Node comparison() {
    if (is_op("(")) {
      token_ = lexer_.next();
      Node inner = disjunction();
      expect_op(")");
      if (token_.kind == Token::Kind::Op && is_comparison()) unsupported("a comparison of a parenthesised expression");
      return inner;
    }
    Token left_at = token_;
    bool left_is_attribute = false;
    std::string attribute;
    Constant left_value;
    operand(left_is_attribute, attribute, left_value);
    Node node;
    node.line = left_at.line;
    node.column = left_at.column;
    if (left_is_attribute && (is_word("in") || is_word("not"))) return membership(std::move(node), attribute);
    if (!is_comparison()) unsupported(left_is_attribute ? "an attribute used as a truth value" : "a constant used as a truth value");
    Compare op = comparison_operator();
    token_ = lexer_.next();
    Token right_at = token_;
    bool right_is_attribute = false;
    std::string right_attribute;
    Constant right_value;
    operand(right_is_attribute, right_attribute, right_value);
    if (is_comparison()) unsupported("a chained comparison");
    if (left_is_attribute == right_is_attribute)
      throw Unsupported{left_is_attribute ? "a comparison of two attributes" : "a comparison of two constants",
                        left_at.line, left_at.column};
    node.kind = Node::Kind::Compare;
    if (left_is_attribute) {
      node.attribute = attribute;
      node.op = op;
      node.values.push_back(std::move(right_value));
    } else {
      node.attribute = right_attribute;
      node.op = flipped(op);
      node.values.push_back(std::move(left_value));
      node.line = right_at.line;
      node.column = right_at.column;
    }
    bool ordering = node.op != Compare::Eq && node.op != Compare::Ne;
    if (ordering && node.values[0].is_string) unsupported("an ordering of strings");
    return node;
  }

  Node membership(Node node, const std::string& attribute) {
    if (language_ != Language::Python) unsupported("'in' (Python's, not Lua's)");
    node.kind = Node::Kind::In;
    node.attribute = attribute;
    if (is_word("not")) {
      node.negated = true;
      token_ = lexer_.next();
      if (!is_word("in")) unsupported("'not' after an attribute without 'in'");
    }
    token_ = lexer_.next();
    const char* close = is_op("(") ? ")" : is_op("[") ? "]" : is_op("{") ? "}" : nullptr;
    if (!close) unsupported("'in' followed by something other than a list of constants");
    token_ = lexer_.next();
    while (!is_op(close)) {
      bool is_attribute = false;
      std::string ignored;
      Constant value;
      operand(is_attribute, ignored, value);
      if (is_attribute) unsupported("an attribute inside the set of 'in'");
      node.values.push_back(std::move(value));
      if (is_op(",")) token_ = lexer_.next();
      else if (!is_op(close)) unsupported("'" + token_.text + "' inside the set of 'in'");
    }
    // `x in ("a")` is a substring test on one string: leave it to Python
    if (node.values.size() == 1 && std::string(close) == ")") unsupported("'in' of a parenthesised single value");
    token_ = lexer_.next();
    if (is_comparison()) unsupported("a comparison after 'in'");
    return node;
  }

  // ev.NAME, ev["NAME"], a number (with a leading minus) or a string.
  void operand(bool& is_attribute, std::string& attribute, Constant& value) {
    is_attribute = false;
    if (is_word("ev")) {
      token_ = lexer_.next();
      if (is_op(".")) {
        token_ = lexer_.next();
        if (token_.kind != Token::Kind::Name) unsupported("'ev.' without an attribute name");
        attribute = token_.text;
      } else if (is_op("[")) {
        token_ = lexer_.next();
        if (token_.kind != Token::Kind::String) unsupported("ev[...] without a string");
        attribute = token_.text;
        token_ = lexer_.next();
        if (!is_op("]")) unsupported("ev[\"...\" without ']'");
      } else {
        unsupported("'ev' not followed by an attribute");
      }
      token_ = lexer_.next();
      if (is_op(".") || is_op("(") || is_op("[")) unsupported("more after ev." + attribute);
      is_attribute = true;
      return;
    }
    bool minus = false;
    if (is_op("-")) {
      minus = true;
      token_ = lexer_.next();
    }
    if (token_.kind == Token::Kind::Number) {
      value.number = minus ? -token_.number : token_.number;
    } else if (token_.kind == Token::Kind::String && !minus) {
      value.is_string = true;
      value.text = token_.text;
    } else {
      unsupported(token_.kind == Token::Kind::End ? std::string("the end where a value belongs")
                                                  : "'" + token_.text + "' where an attribute or a constant belongs");
    }
    token_ = lexer_.next();
    // Python's "a" "b" concatenation, Lua's "a" .. "b", calls: the language's business
    if (token_.kind == Token::Kind::String || is_op(".") || is_op("(") || is_op("["))
      unsupported("more after a constant");
  }

  bool is_comparison() const {
    if (token_.kind != Token::Kind::Op) return false;
    const std::string& t = token_.text;
    if (t == "!=") return language_ == Language::Python;
    if (t == "~=") return language_ == Language::Lua;
    return t == "==" || t == "<" || t == "<=" || t == ">" || t == ">=";
  }

  Compare comparison_operator() const {
    const std::string& t = token_.text;
    if (t == "==") return Compare::Eq;
    if (t == "!=" || t == "~=") return Compare::Ne;
    if (t == "<") return Compare::Lt;
    if (t == "<=") return Compare::Le;
    if (t == ">") return Compare::Gt;
    return Compare::Ge;
  }

  static Compare flipped(Compare op) {
    switch (op) {
      case Compare::Lt: return Compare::Gt;
      case Compare::Le: return Compare::Ge;
      case Compare::Gt: return Compare::Lt;
      case Compare::Ge: return Compare::Le;
      default: return op;
    }
  }

  Lexer lexer_;
  Language language_;
  Token token_;
  int depth_ = 0;
};

}  // namespace

Parsed parse(const std::string& text, Language language, int line, int column) {
  Parsed result;
  try {
    Parser parser(text, language, line, column);
    result.tree = parser.whole();
    result.native = true;
  } catch (const Unsupported& stop) {
    result.native = false;
    result.reason = stop.what;
    result.line = stop.line;
    result.column = stop.column;
  }
  return result;
}

}  // namespace earl::query

// Text records: one per line, split into tokens (runs of blanks, or one separator
// character with blanks around each token trimmed; a token may be quoted, RFC 4180), the
// kind chosen by the key token or by the first regular expression matching the whole line.
#include <algorithm>
#include <charconv>
#include <deque>
#include <regex>

#include "format_interface/damage_text.h"
#include "format_interface/line_reader.h"
#include "format_interface/shown_text.h"
#include "formats/described/record_input.h"
#include "model/error.h"

namespace earl {

namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

std::string_view trim(std::string_view text) {
  while (!text.empty() && is_blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_blank(text.back())) text.remove_suffix(1);
  return text;
}

template <typename T>
bool parse_number(std::string_view token, T& value, int base = 10) {
  if (token.empty()) return false;
  const char* begin = token.data();
  const char* end = begin + token.size();
  if (*begin == '+') ++begin;
  auto [stop, error] = std::from_chars(begin, end, value, base);
  return error == std::errc() && stop == end;
}

bool parse_float(std::string_view token, double& value) {
  if (token.empty()) return false;
  const char* begin = token.data();
  if (*begin == '+') ++begin;
  auto [stop, error] = std::from_chars(begin, token.data() + token.size(), value);
  return error == std::errc() && stop == token.data() + token.size();
}

class TextRecords : public RecordInput {
 public:
  TextRecords(const std::string& path, const Description& d) : path_(path), d_(d), reader_(path), keys_(d) {
    for (const RecordSpec& r : d.records)
      regexes_.emplace_back(r.regex.empty() ? std::regex() : std::regex(r.regex, std::regex::ECMAScript | std::regex::optimize));
    std::size_t most = 0;
    for (const RecordSpec& r : d.records) most = std::max(most, r.fields.size());
    slots_ = d.fields.size() + most;
    read_prologue();
    if (d.key_field >= 0) key_token_ = key_token_place();
  }

  bool next(ParsedRecord& out) override {
    std::string_view line;
    for (;;) {
      out.offset = reader_.offset();
      if (!reader_.next(line)) return false;
      ++line_;
      const std::string_view content = trim(line);
      if (content.empty()) continue;
      out.number = line_;
      // Control bytes: a crash's block of zeros or binary junk, never a text record.
      const std::string junk = non_text_bytes(line);
      if (!junk.empty()) fail(junk);
      if (!d_.comment.empty() && content.substr(0, d_.comment.size()) == d_.comment) continue;
      parse_line(line, out);
      return true;
    }
  }

  std::uint64_t offset() const override { return reader_.offset(); }
  std::uint64_t number() const override { return line_; }
  void seek(std::uint64_t offset, std::uint64_t number) override {
    if (offset > reader_.size()) throw EarlError(path_ + ": invalid decoder position");
    reader_.seek(offset);
    line_ = number;
  }
  std::uint64_t size() const override { return reader_.size(); }
  std::string where(const ParsedRecord& record) const override { return "line " + std::to_string(record.number); }
  std::string unread_from(const ParsedRecord& record) override {
    const std::uint64_t offset = reader_.offset(), line = line_;
    reader_.seek(record.offset);
    std::uint64_t left = 0;
    std::string_view text;
    while (reader_.next(text)) ++left;
    reader_.seek(offset);
    line_ = line;
    return lines_not_read(record.number, left);
  }

 private:
  [[noreturn]] void fail(const std::string& problem) const {
    throw BadRecord(path_ + ": line " + std::to_string(line_) + ": " + problem);
  }

  // Skipped lines, then the header line naming the columns.
  void read_prologue() {
    std::string_view line;
    while (line_ < d_.skip_lines && reader_.next(line)) ++line_;
    if (!d_.header) return;
    for (;;) {
      if (!reader_.next(line)) fail("no header line (the description says the first line names the columns)");
      ++line_;
      const std::string_view content = trim(line);
      if (content.empty() || (!d_.comment.empty() && content.substr(0, d_.comment.size()) == d_.comment)) continue;
      break;
    }
    split(line);
    std::vector<std::string> names;
    for (std::string_view token : tokens_) names.emplace_back(token);
    auto bind = [&](const std::vector<FieldSpec>& fields, std::vector<int>& columns) {
      for (const FieldSpec& f : fields) {
        int column = -1;
        const std::string& want = f.column.empty() ? f.name : f.column;
        for (std::size_t i = 0; i < names.size(); ++i)
          if (names[i] == want) column = static_cast<int>(i);
        if (column < 0 && !f.optional) fail("the header names no column '" + want + "' (field " + f.name + ")");
        columns.push_back(column);
      }
    };
    bind(d_.fields, columns_);
    record_columns_.resize(d_.records.size());
    for (std::size_t r = 0; r < d_.records.size(); ++r) bind(d_.records[r].fields, record_columns_[r]);
  }

  // The line's tokens, and where each starts in it (for `rest`).
  void split(std::string_view line) {
    tokens_.clear();
    starts_.clear();
    unquoted_used_ = 0;
    const bool blanks = d_.separator == " ";
    const char sep = d_.separator[0];
    std::size_t i = 0;
    for (;;) {
      while (i < line.size() && is_blank(line[i])) ++i;  // blanks around a token are trimmed
      if (blanks && i >= line.size()) break;
      starts_.push_back(i);
      if (d_.quote && i < line.size() && line[i] == d_.quote) {
        tokens_.push_back(quoted(line, i));
        const std::size_t after = i;
        while (i < line.size() && is_blank(line[i])) ++i;
        if (i < line.size() && (blanks ? i == after : line[i] != sep))
          fail("text after the closing quote of field " + std::to_string(tokens_.size()) + ": '" +
               shown_text(line.substr(i)) + "'");
      } else if (blanks) {
        const std::size_t start = i;
        while (i < line.size() && !is_blank(line[i])) ++i;
        tokens_.push_back(line.substr(start, i - start));
      } else {
        const std::size_t start = i;
        i = std::min(line.find(sep, i), line.size());
        tokens_.push_back(trim(line.substr(start, i - start)));
      }
      if (!blanks) {
        if (i >= line.size()) break;
        ++i;  // the separator
      }
    }
  }

  // The quoted token at line[i] (its opening quote), i then past its closing quote; a
  // doubled quote inside is one quote. A field does not go on to the next line.
  std::string_view quoted(std::string_view line, std::size_t& i) {
    const char q = d_.quote;
    const std::size_t open = i++;
    std::string* unquoted = nullptr;
    for (;;) {
      const std::size_t close = line.find(q, i);
      if (close == std::string_view::npos)
        fail("unterminated quoted field " + std::to_string(tokens_.size() + 1) + ": '" + shown_text(line.substr(open)) + "'");
      if (close + 1 < line.size() && line[close + 1] == q) {  // a doubled quote
        if (!unquoted) {
          if (unquoted_used_ == unquoted_.size()) unquoted_.emplace_back();
          unquoted = &unquoted_[unquoted_used_++];
          unquoted->clear();
        }
        unquoted->append(line.substr(i, close + 1 - i));
        i = close + 2;
        continue;
      }
      const std::string_view last = line.substr(i, close - i);
      i = close + 1;
      if (!unquoted) return line.substr(open + 1, close - open - 1);
      unquoted->append(last);
      return *unquoted;
    }
  }

  void parse_line(std::string_view line, ParsedRecord& out) {
    if (out.values.size() < slots_) out.values.resize(slots_);
    out.record = -1;
    if (d_.key_field >= 0) {
      split(line);
      next_token_ = 0;
      const int found = probe_key();
      const bool by_key = found >= 0 && d_.records[static_cast<std::size_t>(found)].regex.empty();
      // The common fields are read when the key selects a kind (or cannot be found alone):
      // a line the key does not select may be anything.
      if (by_key || key_token_ < 0) {
        for (std::size_t i = 0; i < d_.fields.size(); ++i)
          take(line, d_.fields[i], d_.header ? columns_[i] : -1, out.values, i);
      }
      out.record = key_token_ < 0 ? keys_.find(out.values[static_cast<std::size_t>(d_.key_field)]) : found;
      if (out.record >= 0 && d_.records[static_cast<std::size_t>(out.record)].regex.empty()) {
        const RecordSpec& r = d_.records[static_cast<std::size_t>(out.record)];
        for (std::size_t i = 0; i < r.fields.size(); ++i)
          take(line, r.fields[i], d_.header ? record_columns_[static_cast<std::size_t>(out.record)][i] : -1,
               out.values, d_.fields.size() + i);
        return;
      }
    }
    // No key, or none matched: the first regular expression matching the whole line.
    if (d_.key_field < 0)
      for (std::size_t i = 0; i < d_.fields.size(); ++i) out.values[i] = FieldValue();
    for (std::size_t r = 0; r < d_.records.size(); ++r) {
      if (d_.records[r].regex.empty()) continue;
      if (!std::regex_match(line.data(), line.data() + line.size(), match_, regexes_[r])) continue;
      out.record = static_cast<int>(r);
      const RecordSpec& spec = d_.records[r];
      for (std::size_t i = 0; i < spec.fields.size(); ++i) {
        const FieldSpec& f = spec.fields[i];
        FieldValue& v = out.values[d_.fields.size() + i];
        const auto group = static_cast<std::size_t>(f.group);
        if (group >= match_.size() || !match_[group].matched || !field_present(f, out.values)) {
          if (!f.optional && field_present(f, out.values))
            fail("the regular expression of record '" + spec.name + "' captured nothing for field " + f.name);
          v = FieldValue();
          continue;
        }
        const auto begin = static_cast<std::size_t>(match_[group].first - line.data());
        convert(f, line.substr(begin, static_cast<std::size_t>(match_[group].length())), v);
      }
      return;
    }
    if (!d_.skip_unmatched) {
      if (d_.key_field >= 0)
        fail("no record kind matches " + d_.fields[static_cast<std::size_t>(d_.key_field)].name + " '" +
             shown_text(key_token_ >= 0 ? key_shown_ : key_text(out.values[static_cast<std::size_t>(d_.key_field)])) + "'");
      fail("no record kind's regular expression matches the line '" + shown_text(line) + "'");
    }
  }

  // The kind the key's token selects (-1: none), read alone where its token's place is
  // known (key_token_ >= 0: every field before it takes exactly one token, or a header).
  int probe_key() {
    if (key_token_ < 0) return -1;
    const auto index = static_cast<std::size_t>(d_.header ? columns_[static_cast<std::size_t>(d_.key_field)] : key_token_);
    key_shown_ = index < tokens_.size() ? tokens_[index] : std::string_view();
    if (index >= tokens_.size()) return -1;
    FieldValue key;
    const FieldSpec& f = d_.fields[static_cast<std::size_t>(d_.key_field)];
    if (f.type == FieldType::String) {
      key.kind = FieldValue::Kind::Text;
      key.s = tokens_[index];
    } else if (f.type == FieldType::Int ? parse_number(tokens_[index], key.i) : parse_number(tokens_[index], key.u)) {
      key.kind = f.type == FieldType::Int ? FieldValue::Kind::Int : FieldValue::Kind::UInt;
    } else {
      return -1;  // not a number: no kind's key
    }
    return keys_.find(key);
  }

  // Where the key's token is when it can be found before the other fields are read.
  int key_token_place() const {
    const auto key = static_cast<std::size_t>(d_.key_field);
    if (d_.header) return d_.key_field >= 0 && columns_[key] >= 0 ? 0 : -1;
    for (std::size_t i = 0; i <= key; ++i) {
      const FieldSpec& f = d_.fields[i];
      if (f.when_field >= 0 || f.rest || f.optional) return -1;
    }
    return static_cast<int>(key);
  }

  static std::string key_text(const FieldValue& v) {
    switch (v.kind) {
      case FieldValue::Kind::Int: return std::to_string(v.i);
      case FieldValue::Kind::UInt: return std::to_string(v.u);
      case FieldValue::Kind::Text: return std::string(v.s);
      default: return "(absent)";
    }
  }

  // Field `f` from its column (header) or the next token, into values[index].
  void take(std::string_view line, const FieldSpec& f, int column, std::vector<FieldValue>& values, std::size_t index) {
    FieldValue& v = values[index];
    if (!field_present(f, values)) {
      v = FieldValue();
      return;
    }
    std::string_view token;
    bool have = false;
    if (d_.header) {
      have = column >= 0 && static_cast<std::size_t>(column) < tokens_.size();
      if (have) token = tokens_[static_cast<std::size_t>(column)];
    } else if (next_token_ < tokens_.size()) {
      have = true;
      token = tokens_[next_token_];
      if (f.rest) {
        // The rest of the line as it is, but a last token unquoted.
        if (next_token_ + 1 < tokens_.size()) token = trim(line.substr(starts_[next_token_]));
        next_token_ = tokens_.size();
      } else {
        ++next_token_;
      }
    }
    if (!have || (token.empty() && f.type != FieldType::String)) {
      if (!f.optional) fail("missing field " + f.name);
      v = FieldValue();
      return;
    }
    convert(f, token, v);
  }

  void convert(const FieldSpec& f, std::string_view token, FieldValue& v) const {
    switch (f.type) {
      case FieldType::Int:
        v.kind = FieldValue::Kind::Int;
        if (!parse_number(token, v.i)) fail("field " + f.name + " is not an integer: '" + shown_text(token) + "'");
        return;
      case FieldType::UInt:
      case FieldType::Flags:
      case FieldType::Length:
      case FieldType::Checksum: {
        v.kind = FieldValue::Kind::UInt;
        const bool hex = token.size() > 2 && token[0] == '0' && (token[1] == 'x' || token[1] == 'X');
        if (!parse_number(hex ? token.substr(2) : token, v.u, hex ? 16 : 10))
          fail("field " + f.name + " is not an unsigned integer: '" + shown_text(token) + "'");
        return;
      }
      case FieldType::Float:
        v.kind = FieldValue::Kind::Float;
        if (!parse_float(token, v.f)) fail("field " + f.name + " is not a number: '" + shown_text(token) + "'");
        return;
      case FieldType::Time:
        if (parse_number(token, v.i)) {
          v.kind = FieldValue::Kind::Int;
        } else if (parse_float(token, v.f)) {
          v.kind = FieldValue::Kind::Float;
        } else {
          fail("field " + f.name + " is not a time: '" + shown_text(token) + "'");
        }
        return;
      case FieldType::String:
        v.kind = FieldValue::Kind::Text;
        v.s = token;
        if (!f.drop_word_with.empty()) {
          std::size_t end = 0;
          while (end < token.size() && !is_blank(token[end])) ++end;
          const std::string_view rest = trim(token.substr(end));
          if (token.substr(0, end).find_first_of(f.drop_word_with) != std::string_view::npos && !rest.empty())
            v.s = rest;
        }
        if (v.s.empty() && !f.optional) fail("field " + f.name + " is empty");
        return;
      case FieldType::Filler:
        v = FieldValue();
        return;
    }
  }

  std::string path_;
  const Description& d_;
  LineReader reader_;
  KeyDispatch keys_;
  std::vector<std::regex> regexes_;
  std::cmatch match_;
  std::size_t slots_ = 0;
  std::uint64_t line_ = 0;
  std::vector<std::string_view> tokens_;
  std::vector<std::size_t> starts_;
  std::deque<std::string> unquoted_;  // quoted tokens with doubled quotes (stable addresses)
  std::size_t unquoted_used_ = 0;
  std::size_t next_token_ = 0;
  int key_token_ = -1;          // see key_token_place()
  std::string_view key_shown_;  // the key's token of the line last read
  std::vector<int> columns_;
  std::vector<std::vector<int>> record_columns_;
};

}  // namespace

std::unique_ptr<RecordInput> open_text_records(const std::string& path, const Description& description) {
  return std::make_unique<TextRecords>(path, description);
}

}  // namespace earl

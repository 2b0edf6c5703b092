#include "formats/described/record_input.h"

namespace earl {

KeyDispatch::KeyDispatch(const Description& description) : dense_(kDenseSize, -1) {
  for (std::size_t r = 0; r < description.records.size(); ++r) {
    const RecordSpec& spec = description.records[r];
    const int index = static_cast<int>(r);
    for (const KeyValue& value : spec.match) {
      if (value.is_text) {
        texts_.emplace_back(value.text, index);
      } else if (value.number >= kDenseLow && value.number < kDenseLow + kDenseSize) {
        int& slot = dense_[static_cast<std::size_t>(value.number - kDenseLow)];
        if (slot < 0) slot = index;  // the first kind that names a value wins
      } else {
        sparse_.emplace(value.number, index);
      }
    }
    if (spec.match_from) from_.emplace_back(spec.match_from_value, index);
  }
}

int KeyDispatch::find(const FieldValue& key) const {
  switch (key.kind) {
    case FieldValue::Kind::Int:
    case FieldValue::Kind::UInt: {
      if (key.kind == FieldValue::Kind::UInt && key.u > static_cast<std::uint64_t>(INT64_MAX)) return -1;
      const std::int64_t v = key.kind == FieldValue::Kind::Int ? key.i : static_cast<std::int64_t>(key.u);
      if (v >= kDenseLow && v < kDenseLow + kDenseSize) {
        const int found = dense_[static_cast<std::size_t>(v - kDenseLow)];
        if (found >= 0) return found;
      } else if (!sparse_.empty()) {
        auto found = sparse_.find(v);
        if (found != sparse_.end()) return found->second;
      }
      for (const auto& [from, index] : from_)
        if (v >= from) return index;
      return -1;
    }
    case FieldValue::Kind::Text:
      for (const auto& [text, index] : texts_)
        if (key.s == text) return index;
      return -1;
    default:
      return -1;
  }
}

bool field_present(const FieldSpec& f, const std::vector<FieldValue>& values) {
  if (f.when_field < 0) return true;
  const FieldValue& v = values[static_cast<std::size_t>(f.when_field)];
  if (f.when_bit >= 0) {
    const std::uint64_t bits = v.kind == FieldValue::Kind::Int ? static_cast<std::uint64_t>(v.i) : v.u;
    return v.kind != FieldValue::Kind::Absent && ((bits >> f.when_bit) & 1u);
  }
  for (const KeyValue& want : f.when_values) {
    if (want.is_text) {
      if (v.kind == FieldValue::Kind::Text && v.s == want.text) return true;
    } else if (v.kind == FieldValue::Kind::Int) {
      if (v.i == want.number) return true;
    } else if (v.kind == FieldValue::Kind::UInt) {
      if (want.number >= 0 && v.u == static_cast<std::uint64_t>(want.number)) return true;
    }
  }
  return false;
}

}  // namespace earl

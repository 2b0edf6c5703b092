#include "format_interface/time_sorted_index.h"

#include <algorithm>
#include <cstring>

#include "model/error.h"

namespace earl {

void TimeSortedIndex::activate() {
  std::stable_sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) { return a.time < b.time; });
  active_ = true;
  next_ = 0;
}

void TimeSortedIndex::seek(const DecoderPosition& position, const std::string& path) {
  if (position.words.size() != 1 || position.words[0] > entries_.size())
    throw EarlError(path + ": invalid decoder position");
  next_ = position.words[0];
}

void TimeSortedIndex::save(DecoderState& state) const {
  state.tables.assign(2, {});
  state.tables[0].push_back(active_ ? 1 : 0);
  auto& table = state.tables[1];
  table.reserve(3 * entries_.size());
  for (const Entry& entry : entries_) {
    std::uint64_t bits;
    std::memcpy(&bits, &entry.time, sizeof bits);
    table.insert(table.end(), {bits, entry.offset, entry.number});
  }
}

void TimeSortedIndex::restore(const DecoderState& state, std::uint64_t file_size, const std::string& path) {
  if (state.tables.size() < 2 || state.tables[0].size() != 1 || state.tables[1].size() % 3 != 0)
    throw EarlError(path + ": invalid saved decoder state");
  const auto& table = state.tables[1];
  std::vector<Entry> entries;
  entries.reserve(table.size() / 3);
  for (std::size_t i = 0; i < table.size(); i += 3) {
    Entry entry;
    std::memcpy(&entry.time, &table[i], sizeof entry.time);
    if (table[i + 1] > file_size) throw EarlError(path + ": invalid saved decoder state");
    entry.offset = table[i + 1];
    entry.number = table[i + 2];
    entries.push_back(entry);
  }
  entries_ = std::move(entries);
  active_ = state.tables[0][0] != 0;
  next_ = 0;
}

}  // namespace earl

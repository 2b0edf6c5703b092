#pragma once
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "model/event.h"

namespace earl {

// A hash table kept in one flat array (open addressing, linear probing), so that a lookup
// costs a cache line or two whatever its size, and a checkpoint saves it and a restore
// loads it in one sweep (an entry per slot index) without hashing anything again.
//
// Erasing shifts the entries after it back instead of leaving a tombstone, so that churn
// (a channel per message: one opened per send, one closed per receive) never fills the
// table and never forces a rebuild. Slots are therefore not stable: nothing may keep one
// across an insert or an erase. The capacity is not a power of two (a slot is chosen by
// the hash's high bits times the capacity), so that it stays within 1.3 to 2.2 times the
// entries.
//
// Entry: a `Location src` field that also marks a free slot (kFreeSlot; a used slot holds a
// source location, never negative), a `Key` type, `Key key() const`,
// `bool has_key(const Key&) const`, `void set_key(const Key&)`,
// `static std::uint64_t hash(const Key&)` (well mixed in its high bits) and
// `static std::uint32_t offset(const Key&)` (below 16: keys that share a hash and differ
// in offset lie side by side, so that visiting them in turn reads memory in order).
template <class Entry>
class OpenTable {
 public:
  using Key = typename Entry::Key;
  using Index = std::uint32_t;
  static constexpr Index kNone = UINT32_MAX;
  static constexpr Location kFreeSlot = -1;

  // What a checkpoint keeps: the used slots by index, so that loading it puts every entry
  // back where it was.
  struct Saved {
    Index capacity = 0;
    std::vector<std::pair<Index, Entry>> entries;
    std::uint64_t memory() const { return entries.capacity() * sizeof(entries[0]); }
  };

  Index find(const Key& key) const {
    if (slots_.empty()) return kNone;
    for (Index i = home(key);; i = next(i)) {
      const Entry& slot = slots_[i];
      if (slot.src == kFreeSlot) return kNone;
      if (slot.has_key(key)) return i;
    }
  }

  // Adds `key` (which must be absent, and key.src >= 0) with a default entry; its slot.
  Index insert(const Key& key) {
    if ((size_ + 1) * 4 > slots_.size() * 3) grow();
    Index i = home(key);
    while (slots_[i].src != kFreeSlot) i = next(i);
    slots_[i] = Entry{};
    slots_[i].set_key(key);
    ++size_;
    return i;
  }

  Index find_or_insert(const Key& key) {
    Index found = find(key);
    return found != kNone ? found : insert(key);
  }

  void erase(Index hole) {
    for (Index j = next(hole);; j = next(j)) {
      if (slots_[j].src == kFreeSlot) break;
      // The entry at j may fill the hole unless its home lies cyclically in (hole, j].
      Index k = home(slots_[j].key());
      bool stays = hole <= j ? (hole < k && k <= j) : (hole < k || k <= j);
      if (stays) continue;
      slots_[hole] = slots_[j];
      hole = j;
    }
    slots_[hole].src = kFreeSlot;
    --size_;
  }

  Entry& operator[](Index i) { return slots_[i]; }
  const Entry& operator[](Index i) const { return slots_[i]; }
  std::size_t size() const { return size_; }

  // Calls f(entry) for every entry, in slot order.
  template <class F>
  void for_each(F f) const {
    for (const Entry& slot : slots_)
      if (slot.src != kFreeSlot) f(slot);
  }
  template <class F>
  void for_each(F f) {
    for (Entry& slot : slots_)
      if (slot.src != kFreeSlot) f(slot);
  }

  void clear() {
    slots_.clear();
    size_ = 0;
  }

  Saved save() const {
    Saved out;
    out.capacity = static_cast<Index>(slots_.size());
    out.entries.reserve(size_);
    for (Index i = 0; i < slots_.size(); ++i)
      if (slots_[i].src != kFreeSlot) out.entries.emplace_back(i, slots_[i]);
    return out;
  }

  void load(const Saved& saved) {
    slots_.assign(saved.capacity, free_entry());
    for (const auto& [index, entry] : saved.entries) slots_[index] = entry;
    size_ = saved.entries.size();
  }

 private:
  static Entry free_entry() {
    Entry entry{};
    entry.src = kFreeSlot;
    return entry;
  }
  Index home(const Key& key) const {
    std::size_t i = static_cast<std::size_t>(
        (static_cast<unsigned __int128>(Entry::hash(key)) * slots_.size()) >> 64) + Entry::offset(key);
    return static_cast<Index>(i < slots_.size() ? i : i - slots_.size());
  }
  Index next(Index i) const { return i + 1 == slots_.size() ? 0 : i + 1; }

  // The home of a hash scales with the capacity, so the entries are taken over in about
  // the order they lie: the new array is written front to back, not at random.
  void grow() {
    std::vector<Entry> old(std::max<std::size_t>(16, slots_.size() * 8 / 5), free_entry());
    old.swap(slots_);
    for (const Entry& entry : old) {
      if (entry.src == kFreeSlot) continue;
      Index i = home(entry.key());
      while (slots_[i].src != kFreeSlot) i = next(i);
      slots_[i] = entry;
    }
  }

  std::vector<Entry> slots_;  // empty, or at least 16 slots, at most 3/4 used
  std::size_t size_ = 0;
};

}  // namespace earl

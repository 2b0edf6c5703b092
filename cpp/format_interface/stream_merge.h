#pragma once
#include <cstdint>
#include <limits>
#include <vector>

namespace earl {

// Merges per-location event streams into the global order of the model: by timestamp,
// ties by location number. A loser tree: after the winning stream moved on, one pass from
// its leaf to the root (log2 n compares, no branches) finds the next winner. Every format
// read per location (OTF2 directly, and every trace read through EARL's event cache)
// merges through this one class.
class StreamMerge {
 public:
  explicit StreamMerge(std::uint32_t streams) : streams_(streams) {
    while (leaves_ < streams) leaves_ <<= 1;
    keys_.resize(leaves_);
    for (std::uint32_t leaf = 0; leaf < leaves_; ++leaf) keys_[leaf] = ended_key(leaf);
    tree_.assign(leaves_, 0);
  }

  // Setting keys: call rebuild() after setting several, or replay(stream) after one.
  void set(std::uint32_t stream, std::uint64_t tick) { keys_[stream] = key(tick, stream); }
  void end(std::uint32_t stream) { keys_[stream] = ended_key(stream); }

  void rebuild() {
    if (leaves_ == 1) {
      tree_[0] = 0;
      return;
    }
    std::vector<std::uint32_t> winners(2 * leaves_);
    for (std::uint32_t leaf = 0; leaf < leaves_; ++leaf) winners[leaves_ + leaf] = leaf;
    for (std::uint32_t node = leaves_ - 1; node >= 1; --node) {
      std::uint32_t left = winners[2 * node], right = winners[2 * node + 1];
      bool left_wins = keys_[left] < keys_[right];
      winners[node] = left_wins ? left : right;
      tree_[node] = left_wins ? right : left;
    }
    tree_[0] = winners[1];
  }

  // After the key of `stream` (the previous winner) changed.
  void replay(std::uint32_t stream) {
    std::uint32_t winner = stream;
    for (std::uint32_t node = (leaves_ + stream) / 2; node >= 1; node /= 2) {
      std::uint32_t other = tree_[node];
      std::uint32_t swap = 0u - static_cast<std::uint32_t>(keys_[other] < keys_[winner]);
      tree_[node] = (winner & swap) | (other & ~swap);
      winner = (other & swap) | (winner & ~swap);
    }
    tree_[0] = winner;
  }

  // The stream whose next event comes first.
  std::uint32_t winner() const { return tree_[0]; }
  // True once every stream has ended.
  bool done() const { return static_cast<std::uint32_t>(keys_[tree_[0]]) >= streams_; }

 private:
  // timestamp << 32 | location of each stream's next event; ended streams and padding
  // leaves get the largest timestamp and leaves_ + leaf, so they sort after every live
  // stream. One integer compare without branches: a merge's compares are unpredictable
  // by nature.
  using Key = unsigned __int128;
  static Key key(std::uint64_t tick, std::uint32_t order) { return (static_cast<Key>(tick) << 32) | order; }
  Key ended_key(std::uint32_t leaf) const { return key(std::numeric_limits<std::uint64_t>::max(), leaves_ + leaf); }

  std::uint32_t streams_;
  std::uint32_t leaves_ = 1;
  std::vector<Key> keys_;  // per leaf
  // tree_[0] is the winning leaf, tree_[1..leaves_-1] the loser of each match.
  std::vector<std::uint32_t> tree_;
};

}  // namespace earl

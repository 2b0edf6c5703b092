#pragma once
#include <cstdint>
#include <vector>

#include "model/message_channel.h"
#include "state/open_table.h"

namespace earl {

// A queued send's index in the state's queue (received ones stay as tombstones until it is
// compacted, when links are renumbered), so that following a link costs no search.
using SendIndex = std::uint32_t;
inline constexpr SendIndex kNoSend = UINT32_MAX;

// A channel of the message queue, (source, destination, tag, communicator): its oldest
// and newest unreceived sends, and its neighbours among the open channels of the same
// (source, destination) pair, in the order they were opened.
struct QueueChannel {
  using Key = MessageChannel;
  Location src = 0, dest = 0;
  std::int64_t tag = 0, com = 0;
  SendIndex head = kNoSend, tail = kNoSend;            // its oldest and newest send
  std::uint32_t prev = UINT32_MAX, next = UINT32_MAX;  // slots in the channel table

  Key key() const { return {src, dest, tag, com}; }
  bool has_key(const Key& k) const {
    return tag == k.tag && src == k.src && dest == k.dest && com == k.com;
  }
  void set_key(const Key& k) {
    src = k.src;
    dest = k.dest;
    tag = k.tag;
    com = k.com;
  }
  // Runs of 8 consecutive tags of one pair and communicator lie side by side: a program
  // that gives each message its own tag mostly counts them up, and sends and receives
  // them in that order, so that a run costs one cache miss instead of one per message.
  static std::uint64_t hash(const Key& k) {
    MessageChannel run = k;
    run.tag = static_cast<std::int64_t>(static_cast<std::uint64_t>(k.tag) >> 3);
    return std::uint64_t{MessageChannelHash{}(run)} * 0x9E3779B97F4A7C15ULL;
  }
  static std::uint32_t offset(const Key& k) { return static_cast<std::uint32_t>(k.tag & 7); }
};

struct ChannelPairKey {
  Location src, dest;
};

// The open channels from one location to another: the first and last of their list.
struct ChannelPair {
  using Key = ChannelPairKey;
  Location src = 0, dest = 0;
  std::uint32_t first = UINT32_MAX, last = UINT32_MAX;

  Key key() const { return {src, dest}; }
  bool has_key(const Key& k) const { return src == k.src && dest == k.dest; }
  void set_key(const Key& k) {
    src = k.src;
    dest = k.dest;
  }
  static std::uint64_t hash(const Key& k) {
    return (std::uint64_t{static_cast<std::uint32_t>(k.src)} << 32 |
            static_cast<std::uint32_t>(k.dest)) * 0x9E3779B97F4A7C15ULL;
  }
  static std::uint32_t offset(const Key&) { return 0; }
};

// The open channels of the message queue: found by hash in O(1) (a tree of 2*10^5
// channels, one tag per message, cost a dozen cache misses per send and receive and a
// walk over every node per checkpoint), listed per (source, destination) pair so that
// queue(src, dest) costs O(answer), not O(all channels).
class ChannelTable {
 public:
  using Index = std::uint32_t;
  static constexpr Index kNone = UINT32_MAX;

  struct Saved {
    OpenTable<QueueChannel>::Saved channels;
    OpenTable<ChannelPair>::Saved pairs;
    bool empty() const { return channels.entries.empty(); }
    std::uint64_t memory() const { return channels.memory() + pairs.memory(); }
  };

  Index find(const MessageChannel& key) const { return channels_.find(key); }
  // Opens the channel `key` (not open yet; key.src >= 0) at the end of its pair's list.
  // Other channels may move: their slots are valid until the next open or close.
  Index open(const MessageChannel& key);
  // Closes an open channel.
  void close(Index channel);
  QueueChannel& operator[](Index channel) { return channels_[channel]; }
  const QueueChannel& operator[](Index channel) const { return channels_[channel]; }
  std::size_t size() const { return channels_.size(); }

  // Calls f(channel) for each open channel from src to dest (-1: any): a pair's channels
  // in the order they were opened. With both given it costs O(answer), else O(pairs).
  template <class F>
  void for_each(Location src, Location dest, F f) const {
    auto walk = [&](const ChannelPair& pair) {
      for (Index i = pair.first; i != kNone; i = channels_[i].next) f(channels_[i]);
    };
    if (src != -1 && dest != -1) {
      Index pair = pairs_.find({src, dest});
      if (pair != kNone) walk(pairs_[pair]);
      return;
    }
    pairs_.for_each([&](Index, const ChannelPair& pair) {
      if ((src == -1 || pair.src == src) && (dest == -1 || pair.dest == dest)) walk(pair);
    });
  }

  template <class F>
  void for_each_channel(F f) {
    channels_.for_each([&](Index, QueueChannel& channel) { f(channel); });
  }

  Saved save() const { return {channels_.save(), pairs_.save()}; }
  void load(const Saved& saved) {
    channels_.load(saved.channels);
    pairs_.load(saved.pairs);
  }
  void clear() {
    channels_.clear();
    pairs_.clear();
  }

 private:
  // Points the links to the channel at `from` (its neighbours', its pair's ends) at `to`.
  void follow_move(Index from, Index to);

  OpenTable<QueueChannel> channels_;
  OpenTable<ChannelPair> pairs_;
};

}  // namespace earl

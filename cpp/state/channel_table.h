#pragma once
#include <cstdint>

#include "model/message_channel.h"
#include "state/open_table.h"

namespace earl {

// A queued send's index in the state's queue (received ones stay as tombstones until it is
// compacted, when links are renumbered), so that following a link costs no search.
using SendIndex = std::uint32_t;
inline constexpr SendIndex kNoSend = UINT32_MAX;

// A channel of the message queue, (source, destination, tag, communicator): its oldest
// and newest unreceived sends.
struct QueueChannel {
  using Key = MessageChannel;
  Location src = 0, dest = 0;
  std::int64_t tag = 0, com = 0;
  SendIndex head = kNoSend, tail = kNoSend;

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

// The unreceived sends from one location to another, whatever their tag: the oldest and
// newest of a list through the queued records (so that queue(src, dest) costs O(answer)).
struct ChannelPair {
  using Key = ChannelPairKey;
  Location src = 0, dest = 0;
  SendIndex first = kNoSend, last = kNoSend;

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

// The open channels and pairs of the message queue, each found by hash in O(1): a tree of
// 2*10^5 channels (one tag per message) cost a dozen cache misses per send and receive and
// a walk over every node per checkpoint. Empty ones are erased.
struct ChannelTables {
  OpenTable<QueueChannel> channels;
  OpenTable<ChannelPair> pairs;

  struct Saved {
    OpenTable<QueueChannel>::Saved channels;
    OpenTable<ChannelPair>::Saved pairs;
    bool empty() const { return channels.entries.empty(); }
    std::uint64_t memory() const { return channels.memory() + pairs.memory(); }
  };
  Saved save() const { return {channels.save(), pairs.save()}; }
  void load(const Saved& saved) {
    channels.load(saved.channels);
    pairs.load(saved.pairs);
  }
  void clear() {
    channels.clear();
    pairs.clear();
  }
};

}  // namespace earl

#include "state/channel_table.h"

namespace earl {

ChannelTable::Index ChannelTable::open(const MessageChannel& key) {
  auto relink_all = [this](const std::vector<Index>& moved) {
    auto follow = [&](Index& link) {
      if (link != kNone) link = moved[link];
    };
    channels_.for_each([&](Index, QueueChannel& channel) {
      follow(channel.prev);
      follow(channel.next);
    });
    pairs_.for_each([&](Index, ChannelPair& pair) {
      follow(pair.first);
      follow(pair.last);
    });
  };
  Index added = channels_.insert(key, relink_all);
  ChannelPairKey pair_key{key.src, key.dest};
  Index pair_slot = pairs_.find(pair_key);
  if (pair_slot == kNone) pair_slot = pairs_.insert(pair_key, [](const std::vector<Index>&) {});
  ChannelPair& pair = pairs_[pair_slot];
  channels_[added].prev = pair.last;
  if (pair.last != kNone) channels_[pair.last].next = added;
  else pair.first = added;
  pair.last = added;
  return added;
}

void ChannelTable::follow_move(Index from, Index to) {
  QueueChannel& channel = channels_[to];
  if (channel.prev != kNone) channels_[channel.prev].next = to;
  if (channel.next != kNone) channels_[channel.next].prev = to;
  if (channel.prev == kNone || channel.next == kNone) {
    ChannelPair& pair = pairs_[pairs_.find({channel.src, channel.dest})];
    if (pair.first == from) pair.first = to;
    if (pair.last == from) pair.last = to;
  }
}

void ChannelTable::close(Index slot) {
  QueueChannel& channel = channels_[slot];
  if (channel.prev != kNone) channels_[channel.prev].next = channel.next;
  if (channel.next != kNone) channels_[channel.next].prev = channel.prev;
  if (channel.prev == kNone || channel.next == kNone) {
    Index pair_slot = pairs_.find({channel.src, channel.dest});
    ChannelPair& pair = pairs_[pair_slot];
    if (channel.prev == kNone) pair.first = channel.next;
    if (channel.next == kNone) pair.last = channel.prev;
    if (pair.first == kNone) pairs_.erase(pair_slot, [](Index, Index) {});
  }
  channels_.erase(slot, [this](Index from, Index to) { follow_move(from, to); });
}

}  // namespace earl

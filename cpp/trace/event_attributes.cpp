#include "trace/event_attributes.h"

namespace earl {

const char* attribute_name(Attribute attribute) {
  static const char* const names[] = {
      "pos", "loc", "time", "type", "enterptr", "region", "dest", "src", "tag", "com", "len",
      "sendptr", "data1", "data2", "root", "sent", "recvd", "collbegin", "collend", "win",
      "rmaid", "peer",
      "startptr", "originptr", "forkptr", "lockid", "lockptr", "exclusive", "request", "group",
      "metric", "value"};
  static_assert(sizeof(names) / sizeof(names[0]) == static_cast<int>(Attribute::Count_),
                "one name per attribute");
  return names[static_cast<int>(attribute)];
}

namespace {

using A = Attribute;
using S = Slot;

std::vector<AttributeSpec> with_common(std::vector<AttributeSpec> extra) {
  std::vector<AttributeSpec> specs = {{A::Pos, S::Pos}, {A::Loc, S::Loc}, {A::Time, S::Time},
                                      {A::Type, S::Type}, {A::Enterptr, S::Enterptr}};
  specs.insert(specs.end(), extra.begin(), extra.end());
  return specs;
}

}  // namespace

const std::vector<AttributeSpec>& attribute_specs(EventKind kind) {
  static const auto region = with_common({{A::Region, S::Region}});
  static const auto send = with_common({{A::Dest, S::Peer}, {A::Tag, S::Tag}, {A::Com, S::Com},
                                        {A::Len, S::Len}});
  static const auto recv = with_common({{A::Src, S::Peer}, {A::Tag, S::Tag}, {A::Com, S::Com},
                                        {A::Len, S::Len}, {A::Sendptr, S::Pointer}});
  static const auto other = with_common({{A::Data1, S::Data1}, {A::Data2, S::Data2}});
  static const auto collective_exit = with_common({{A::Region, S::Region}, {A::Com, S::Com},
                                                   {A::Root, S::Peer}, {A::Sent, S::Len},
                                                   {A::Recvd, S::Tag}, {A::Collbegin, S::Data1},
                                                   {A::Collend, S::Data2}});
  static const auto transfer_start = with_common({{A::Win, S::Com}, {A::Rmaid, S::Tag},
                                                  {A::Peer, S::Peer}, {A::Len, S::Len}});
  static const auto transfer_end = with_common({{A::Win, S::Com}, {A::Rmaid, S::Tag},
                                                {A::Peer, S::Peer}, {A::Len, S::Len},
                                                {A::Startptr, S::Pointer}});
  static const auto target_start = with_common({{A::Win, S::Com}, {A::Rmaid, S::Tag},
                                                {A::Peer, S::Peer}, {A::Len, S::Len},
                                                {A::Originptr, S::Pointer}});
  // OTF2's lock records: exclusive 1 or shared 0, request 1 for RmaRequestLock (asked
  // for, not yet held) and 0 for RmaAcquireLock; a release (wunlock) has neither.
  static const auto window_lock = with_common({{A::Win, S::Com}, {A::Peer, S::Peer},
                                               {A::Exclusive, S::Data1}, {A::Request, S::Data2}});
  // OTF2's RmaGroupSync: the process group (EventTrace::members) it synchronises with.
  static const auto group_sync = with_common({{A::Data1, S::Data1}, {A::Data2, S::Data2},
                                              {A::Group, S::Tag}});
  // A counter sample: the counter's name (a MetricDefinition's) and its value.
  static const auto metric = with_common({{A::Metric, S::Data1}, {A::Value, S::Data2}});
  static const auto fork = with_common({});
  static const auto join = with_common({{A::Forkptr, S::Pointer}});
  static const auto lock = with_common({{A::Lockid, S::Tag}, {A::Lockptr, S::Pointer}});
  switch (kind) {
    case EventKind::Enter:
    case EventKind::Exit: return region;
    case EventKind::Send: return send;
    case EventKind::Recv: return recv;
    case EventKind::Other: return other;
    case EventKind::CollectiveExit: return collective_exit;
    case EventKind::RmaTransferStart: return transfer_start;
    case EventKind::RmaTransferEnd: return transfer_end;
    case EventKind::RmaTargetStart: return target_start;
    case EventKind::WindowLock: return window_lock;
    case EventKind::Fork: return fork;
    case EventKind::Join: return join;
    case EventKind::ThreadLock: return lock;
    case EventKind::RmaGroupSync: return group_sync;
    case EventKind::Metric: return metric;
  }
  return other;
}

}  // namespace earl

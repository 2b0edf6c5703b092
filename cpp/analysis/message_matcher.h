#pragma once
// The point-to-point half of the matching step: joins the k-th send of each channel with
// its k-th receive as the records arrive, and applies Late Sender (with wrong order) and
// Late Receiver, counting each instance also as a synchronisation (zero-byte message) or
// communication one (mpi_sls_count, mpi_cls_count, ...). Receives are judged per receiving
// location in the order of their calls, as wrong order needs.
#include <cstdint>
#include <deque>
#include <map>
#include <set>
#include <memory>
#include <unordered_map>
#include <vector>

#include "analysis/records.h"
#include "analysis/severities.h"

namespace earl::analysis {

class MessageMatcher {
 public:
  MessageMatcher(Severities& severities, ProblemCounts& problems)
      : severities_(severities), problems_(problems) {}

  void send(const SendRecord& send);
  void receive_call(ReceiveCall&& call);
  // Judges what is left; counts messages without a partner.
  void finish();
  // The receives counted by a length other than their send's, or without a send (after
  // finish), for their locations to count again.
  const std::vector<ReceiveRecount>& recounts() const { return recounts_; }

  // How many late sender instances each location remembers for wrong order (Scalasca's 100).
  static constexpr std::size_t kKeptLateSenders = 100;

 private:
  struct Received {
    RecvRecord record;
    bool matched = false;
    double send_time = 0.0, send_enter = 0.0;
    std::uint64_t send_bytes = 0;
  };
  struct PendingCall {
    CallInstance call;
    std::vector<Received> receives;
    std::size_t unmatched;
    bool completed_sends;
  };
  struct WaitingReceive {
    PendingCall* call;  // deques keep their elements in place
    std::size_t index;
  };
  struct KeptLateSender {
    double send_time, idle;
    Location src;
    CallPathId callpath;
    std::uint64_t bytes;
  };
  // The largest Late Receiver of the sends one MPI_Waitall/Waitsome completed.
  struct MultiWaitLateReceiver {
    double idle = 0.0, enter = 0.0;
    CallPathId callpath = kNoCallPath;
    std::uint64_t bytes = 0;
  };
  using CallKey = std::pair<Location, double>;  // a call by its location and enter
  struct LocationState {
    std::deque<PendingCall> calls;
    std::deque<KeptLateSender> kept;
  };

  void match(const SendRecord& send, PendingCall& call, std::size_t index);
  void late_receiver(const CallInstance& completion, double idle, std::uint64_t bytes);
  void count_instance(Metric synchronizations, Metric communications, CallPathId callpath, Location loc,
                      std::uint64_t bytes);
  void drain(Location loc);
  void judge(const PendingCall& call, LocationState& state);
  LocationState& state(Location loc);

  Severities& severities_;
  ProblemCounts& problems_;
  // The messages of one channel not yet joined, by sequence number from `base`: sends
  // arrive when their completing call ends, which need not be in send order (MPI_Isend
  // completed by MPI_Waitany), so partners are found by number, not by arrival.
  struct Slot {
    bool has_send = false, done = false;
    SendRecord send;
    WaitingReceive receive{nullptr, 0};
  };
  struct ChannelQueue {
    std::uint64_t base = 0;
    std::deque<Slot> slots;
    Slot* at(std::uint64_t seq);  // nullptr for a number already joined
    void pop_done();
  };
  std::unordered_map<Channel, ChannelQueue, ChannelHash> channels_;
  // Held by pointer: waiting receives point into their location's calls.
  std::vector<std::unique_ptr<LocationState>> locations_;
  // Late Receivers in MPI_Waitall/Waitsome, judged at the end: only the largest per call,
  // and none in a call that also waited for a late sender (Scalasca's rule).
  std::map<CallKey, MultiWaitLateReceiver> multi_wait_late_receivers_;
  std::set<CallKey> multi_waits_with_late_sender_;
  std::vector<ReceiveRecount> recounts_;
};

}  // namespace earl::analysis

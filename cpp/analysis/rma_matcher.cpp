#include "analysis/rma_matcher.h"

#include <algorithm>
#include <limits>
#include <map>
#include <tuple>

namespace earl::analysis {

namespace {

// (origin, target, window, seq): one pair of epochs.
using PairKey = std::tuple<Location, Location, std::int64_t, std::uint64_t>;
constexpr double kNone = -std::numeric_limits<double>::infinity();

}  // namespace

void RmaMatcher::finish() {
  std::map<PairKey, std::pair<const RmaAccessEpoch*, const RmaPeer*>> access_of;
  std::map<PairKey, const RmaExposureEpoch*> exposure_of;
  for (const RmaAccessEpoch& a : accesses_)
    for (const RmaPeer& t : a.targets) access_of[{a.complete.loc, t.peer, a.window, t.seq}] = {&a, &t};
  for (const RmaExposureEpoch& x : exposures_)
    for (const RmaPeer& o : x.origins) exposure_of[{o.peer, x.wait.loc, x.window, o.seq}] = &x;

  // Early Wait at MPI_Win_wait: C = the latest MPI_Win_complete enter of its origins;
  // idle = min(C, leave) - enter. Late Complete, its part after the origins' last RMA
  // operation to this target ended: min(C, leave) - max(that end, enter).
  for (const RmaExposureEpoch& x : exposures_) {
    double c = kNone, last_op = kNone;
    bool complete = true;
    for (const RmaPeer& o : x.origins) {
      auto found = access_of.find({o.peer, x.wait.loc, x.window, o.seq});
      if (found == access_of.end()) {
        complete = false;
        continue;
      }
      c = std::max(c, found->second.first->complete.enter);
      last_op = std::max(last_op, found->second.second->last_op_end);
    }
    if (!complete) problems_.note(Problem::UnmatchedRmaEpoch);
    if (c == kNone) continue;
    if (c > x.wait.leave) problems_.note(Problem::ClockViolationCollective);
    const double until = std::min(c, x.wait.leave);
    const double idle = until - x.wait.enter;
    if (idle <= 0) continue;
    severities_.add_instance(Metric::MpiRmaEarlyWait, x.wait.callpath, x.wait.loc, idle, x.wait.enter);
    const double late = until - std::max(last_op, x.wait.enter);
    if (last_op != kNone && late > 0)
      severities_.add_instance(Metric::MpiRmaLateComplete, x.wait.callpath, x.wait.loc, late,
                               std::max(last_op, x.wait.enter));
  }

  // Late Post at the origin: P = the latest MPI_Win_post enter of its targets. P inside
  // MPI_Win_complete: P - its enter; else P inside MPI_Win_start: P - its enter (both
  // synchronisation); else, per MPI_Put/Get of the epoch whose call runs at P (from its
  // operation's record to the call's leave): P - that record (communication).
  for (const RmaAccessEpoch& a : accesses_) {
    double p = kNone;
    bool complete = true;
    for (const RmaPeer& t : a.targets) {
      auto found = exposure_of.find({a.complete.loc, t.peer, a.window, t.seq});
      if (found == exposure_of.end()) complete = false;
      else p = std::max(p, found->second->post_enter);
    }
    if (!complete) problems_.note(Problem::UnmatchedRmaEpoch);
    if (p == kNone) continue;
    if (p > a.complete.enter && p < a.complete.leave)
      severities_.add_instance(Metric::MpiRmaSyncLatePost, a.complete.callpath, a.complete.loc,
                               p - a.complete.enter, a.complete.enter);
    else if (p > a.start.enter && p < a.start.leave)
      severities_.add_instance(Metric::MpiRmaSyncLatePost, a.start.callpath, a.start.loc,
                               p - a.start.enter, a.start.enter);
    else
      for (const RmaOpCall& op : a.ops)
        if (p > op.issued && p < op.leave)
          severities_.add_instance(Metric::MpiRmaCommLatePost, op.callpath, a.complete.loc,
                                   p - op.issued, op.issued);
  }
  accesses_.clear();
  exposures_.clear();
  lock_competition();
}

// Lock Competition: a location acquiring a window's lock waited from the enter of the
// call that took it until the latest release, before its own acquisition, of an epoch
// acquired earlier that excluded it (any epoch for an exclusive lock, an exclusive one for
// a shared lock): min(that release, acquired) - requested.
void RmaMatcher::lock_competition() {
  std::sort(locks_.begin(), locks_.end(), [](const RmaLockEpoch& a, const RmaLockEpoch& b) {
    return std::tie(a.window, a.target, a.acquired, a.loc) < std::tie(b.window, b.target, b.acquired, b.loc);
  });
  for (std::size_t first = 0; first < locks_.size();) {
    std::size_t last = first;
    double any_release = kNone, exclusive_release = kNone;
    while (last < locks_.size() && locks_[last].window == locks_[first].window &&
           locks_[last].target == locks_[first].target) {
      const RmaLockEpoch& e = locks_[last++];
      const double blocker = e.exclusive ? any_release : exclusive_release;
      const double idle = std::min(blocker, e.acquired) - e.requested;
      // The wait is part of the time of the call that took the lock: one-sided
      // synchronisation (MPI_Win_lock/unlock) or communication (MPI_Put/Get taking it
      // lazily); elsewhere (outside MPI) Scalasca counts none.
      const Metric metric = is_within(e.call_class, Metric::MpiRmaCommunication) ? Metric::MpiRmaCommLockCompetition
                            : is_within(e.call_class, Metric::MpiRmaSynchronization) ? Metric::MpiRmaSyncLockCompetition
                                                                                     : Metric::Count;
      if (blocker != kNone && idle > 0 && metric != Metric::Count)
        severities_.add_instance(metric, e.callpath, e.loc, idle, e.requested);
      any_release = std::max(any_release, e.released);
      if (e.exclusive) exclusive_release = std::max(exclusive_release, e.released);
    }
    first = last;
  }
  locks_.clear();
}

}  // namespace earl::analysis

#include "analysis/collective_matcher.h"

#include <algorithm>
#include <limits>

namespace earl::analysis {

namespace {

using Members = std::vector<const CollectiveRecord*>;

double latest_begin(const Members& members) {
  double l = -std::numeric_limits<double>::infinity();
  for (const CollectiveRecord* m : members) l = std::max(l, m->call.enter);
  return l;
}

double earliest_end(const Members& members) {
  double e = std::numeric_limits<double>::infinity();
  for (const CollectiveRecord* m : members) e = std::min(e, m->call.leave);
  return e;
}

// No data moved (Scalasca skips such instances); unknown sizes (ALOG) never count as none.
bool no_payload(const Members& members) {
  for (const CollectiveRecord* m : members)
    if (!m->sizes_known || m->sent != 0 || m->recvd != 0) return false;
  return true;
}

const CollectiveRecord* root_of(const Members& members) {
  const Location root = members.front()->root;
  if (root < 0) return nullptr;
  for (const CollectiveRecord* m : members)
    if (m->call.loc == root) return m;
  return nullptr;
}

}  // namespace

void CollectiveMatcher::finish() {
  std::sort(records_.begin(), records_.end(), [](const CollectiveRecord& a, const CollectiveRecord& b) {
    if (a.key != b.key) return a.key < b.key;
    if (a.seq != b.seq) return a.seq < b.seq;
    return a.call.loc < b.call.loc;
  });
  Members members;
  std::vector<Location> participants;
  for (std::size_t first = 0; first < records_.size();) {
    std::size_t last = first;
    while (last < records_.size() && records_[last].key == records_[first].key) ++last;
    participants.clear();
    for (std::size_t i = first; i < last; ++i) participants.push_back(records_[i].call.loc);
    std::sort(participants.begin(), participants.end());
    const std::size_t size = static_cast<std::size_t>(
        std::unique(participants.begin(), participants.end()) - participants.begin());
    for (std::size_t i = first; i < last;) {
      std::size_t j = i;
      members.clear();
      while (j < last && records_[j].seq == records_[i].seq) members.push_back(&records_[j++]);
      ++instances_;
      if (members.size() < size) problems_.note(Problem::IncompleteCollective);
      else judge(members);
      i = j;
    }
    first = last;
  }
  records_.clear();
  records_.shrink_to_fit();
  fence_ops_.clear();  // of fences some location is missing from
}

void CollectiveMatcher::judge(Members& members) {
  for (const CollectiveRecord* m : members)
    if (m->region != members.front()->region) {
      problems_.note(Problem::MismatchedCollective);
      return;
    }
  if (members.size() < 2) return;  // a communicator of one location waits for nobody
  switch (members.front()->role) {
    case CallRole::Barrier:
      synchronizing(members, Metric::MpiBarrierWait, Metric::MpiBarrierCompletion);
      break;
    case CallRole::NxN:
      if (!no_payload(members)) synchronizing(members, Metric::MpiWaitNxn, Metric::MpiNxnCompletion);
      break;
    case CallRole::Init: synchronizing(members, Metric::Count, Metric::MpiInitCompletion); break;
    case CallRole::Finalize: synchronizing(members, Metric::MpiFinalizeWait, Metric::Count); break;
    case CallRole::WinFence: fence(members); break;
    case CallRole::WinCreate: all_overlap(members, Metric::MpiRmaWaitAtCreate); break;
    case CallRole::WinFree: all_overlap(members, Metric::MpiRmaWaitAtFree); break;
    case CallRole::OneToN: one_to_n(members); break;
    case CallRole::NToOne: n_to_one(members); break;
    case CallRole::Scan:
      if (!no_payload(members)) scan(members);
      break;
    default: break;
  }
}

// Wait = min(L, end) - begin; completion = end - max(E, min(L, end)). Metric::Count for a
// part the operation does not judge (no wait at MPI_Init, no completion at MPI_Finalize).
void CollectiveMatcher::synchronizing(const Members& members, Metric wait, Metric completion) {
  const double l = latest_begin(members), e = earliest_end(members);
  for (const CollectiveRecord* m : members) {
    const CallInstance& c = m->call;
    if (c.leave < l) problems_.note(Problem::ClockViolationCollective);
    const double lc = std::min(l, c.leave);
    const double idle = lc - c.enter;
    if (wait != Metric::Count && idle > 0) severities_.add_instance(wait, c.callpath, c.loc, idle, c.enter);
    if (completion == Metric::Count) continue;
    const double done = c.leave - std::max(e, lc);
    if (done > 0) severities_.add_instance(completion, c.callpath, c.loc, done, c.leave - done);
  }
}

// One-sided window synchronisation: L - begin, only when all calls overlap (E > L).
void CollectiveMatcher::all_overlap(const Members& members, Metric wait) {
  const double l = latest_begin(members), e = earliest_end(members);
  if (e <= l) {
    problems_.note(Problem::ClockViolationCollective);
    return;
  }
  for (const CollectiveRecord* m : members) {
    const double idle = l - m->call.enter;
    if (idle > 0) severities_.add_instance(wait, m->call.callpath, m->call.loc, idle, m->call.enter);
  }
}

void CollectiveMatcher::add(RmaFenceOps&& ops) {
  auto& kept = fence_ops_[{ops.key, ops.seq}];
  kept.insert(kept.end(), ops.last_op_end.begin(), ops.last_op_end.end());
}

// Wait at Fence, and its part Early Fence: a location whose fence waited while the last
// RMA operation targeting it ended inside the fence (after its enter, by its end) waited
// that long for the operation: that end - enter. The end is taken at the most at L (an
// origin issues its operations before it enters the fence, so L bounds them on any
// well-formed trace): Early Fence stays within Wait at Fence, L - enter.
void CollectiveMatcher::fence(const Members& members) {
  all_overlap(members, Metric::MpiRmaWaitAtFence);
  auto ops = fence_ops_.find({members.front()->key, members.front()->seq});
  if (ops == fence_ops_.end()) return;
  const double l = latest_begin(members), e = earliest_end(members);
  std::unordered_map<Location, double> last_to;
  for (const auto& [target, end] : ops->second) {
    auto [it, added] = last_to.try_emplace(target, end);
    if (!added) it->second = std::max(it->second, end);
  }
  fence_ops_.erase(ops);
  if (e <= l) return;
  for (const CollectiveRecord* m : members) {
    const CallInstance& c = m->call;
    auto last = last_to.find(c.loc);
    if (l - c.enter <= 0 || last == last_to.end()) continue;
    if (last->second > c.enter && last->second <= c.leave)
      severities_.add_instance(Metric::MpiRmaEarlyFence, c.callpath, c.loc,
                               std::min(last->second, l) - c.enter, c.enter);
  }
}

// Late Broadcast: receivers that begin before the root wait min(root begin, end) - begin.
void CollectiveMatcher::one_to_n(const Members& members) {
  const CollectiveRecord* root = root_of(members);
  if (!root) {
    problems_.note(Problem::CollectiveRootUnknown);
    return;
  }
  if (root->sizes_known && root->sent == 0) return;
  for (const CollectiveRecord* m : members) {
    if (m == root) continue;
    const CallInstance& c = m->call;
    if (c.leave < root->call.enter) problems_.note(Problem::ClockViolationCollective);
    const double idle = std::min(root->call.enter, c.leave) - c.enter;
    if (idle > 0) severities_.add_instance(Metric::MpiLatebroadcast, c.callpath, c.loc, idle, c.enter);
  }
}

// Early Reduce: the root, beginning before the latest sender L, waits min(L, end) - begin.
void CollectiveMatcher::n_to_one(const Members& members) {
  const CollectiveRecord* root = root_of(members);
  if (!root) {
    problems_.note(Problem::CollectiveRootUnknown);
    return;
  }
  if (root->sizes_known && root->recvd == 0) return;
  double l = -std::numeric_limits<double>::infinity();
  for (const CollectiveRecord* m : members)
    if (m != root) l = std::max(l, m->call.enter);
  const CallInstance& c = root->call;
  if (c.leave < l) problems_.note(Problem::ClockViolationCollective);
  const double idle = std::min(l, c.leave) - c.enter;
  if (idle > 0) severities_.add_instance(Metric::MpiEarlyreduce, c.callpath, c.loc, idle, c.enter);
}

const std::unordered_map<Location, std::uint32_t>& CollectiveMatcher::ranks(std::int64_t key) {
  auto [it, added] = ranks_.try_emplace(key);
  if (!added) return it->second;
  auto group = definitions_.communicator_groups.find(key);
  if (group == definitions_.communicator_groups.end()) return it->second;
  auto members = definitions_.location_groups.find(group->second);
  if (members == definitions_.location_groups.end()) return it->second;
  for (std::uint32_t rank = 0; rank < members->second.size(); ++rank)
    it->second.try_emplace(members->second[rank], rank);
  return it->second;
}

// Early Scan: rank r waits for the latest begin over the ranks 0..r of the communicator
// that send data, min(L, end) - begin. Ranks are the communicator's where the trace names
// them (OTF2); elsewhere location order stands for rank order.
void CollectiveMatcher::scan(Members& members) {
  const auto& rank = ranks(members.front()->key);
  if (!rank.empty()) {
    auto order = [&rank](const CollectiveRecord* m) {
      auto found = rank.find(m->call.loc);
      return std::make_pair(found == rank.end() ? ~std::uint32_t(0) : found->second, m->call.loc);
    };
    std::sort(members.begin(), members.end(),
              [&order](const CollectiveRecord* a, const CollectiveRecord* b) { return order(a) < order(b); });
  }
  double l = -std::numeric_limits<double>::infinity();
  for (const CollectiveRecord* m : members) {
    const CallInstance& c = m->call;
    if (!m->sizes_known || m->sent > 0) l = std::max(l, c.enter);
    if (c.leave < l) problems_.note(Problem::ClockViolationCollective);
    const double idle = std::min(l, c.leave) - c.enter;
    if (idle > 0) severities_.add_instance(Metric::MpiEarlyscan, c.callpath, c.loc, idle, c.enter);
  }
}

}  // namespace earl::analysis

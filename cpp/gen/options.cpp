#include "gen/options.h"

#include <cmath>
#include <cstdio>
#include <type_traits>

#include "model/error.h"

namespace earl::gen {

namespace {

constexpr double kMaxUs = 1099511627776.0;  // 2^40 us (12.7 days): far beyond any test run

}  // namespace

const std::vector<OptionSpec>& option_table() {
  using G = OptionGroup;
  static const std::vector<OptionSpec> table = {
      {"locations", &GenOptions::locations, G::Run,
       "number of MPI processes, one location each unless --threads", 2, kMaxLocations},
      {"events", &GenOptions::events, G::Run,
       "approximate number of events (whole rounds are generated until it is reached)", 0},
      {"seed", &GenOptions::seed, G::Run, "random seed"},
      {"format", &GenOptions::format, G::Run, "trace format to write"},
      {"rollover", &GenOptions::rollover, G::Run,
       "clock roll-over point in microseconds: write cycles and a -11 record (ALOG only)",
       1, std::numeric_limits<double>::infinity(), "", true},
      {"byte_order", &GenOptions::byte_order, G::Run,
       "byte order of the numbers in the file (EPILOG only; its header says which)",
       -std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity(), "little,big"},
      {"threads", &GenOptions::threads, G::Run,
       "locations per MPI process: each process' master thread forks a team of that many "
       "threads for each compute phase",
       1, 256},
      {"permute_ranks", &GenOptions::permute_ranks, G::Run,
       "MPI_COMM_WORLD's ranks are a seeded permutation of the processes (OTF2 readers must "
       "translate ranks; events stay the same)"},
      {"pattern", &GenOptions::pattern, G::Model,
       "point-to-point pattern: ring (send right, receive from the left) or neighbors (both "
       "directions)",
       -std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity(),
       "ring,neighbors"},
      {"max_kernels", &GenOptions::max_kernels, G::Model,
       "kernel instances per compute phase: 1..N, drawn per round", 1, 1000},
      {"kernel_us", &GenOptions::kernel_us, G::Model, "kernel duration in microseconds", 1, kMaxUs},
      {"jitter", &GenOptions::jitter, G::Model,
       "relative jitter of kernel and update durations", 0, 1},
      {"update_us", &GenOptions::update_us, G::Model,
       "duration of the update phase before the collective (microseconds)", 1, kMaxUs},
      {"msg_bytes", &GenOptions::msg_bytes, G::Model,
       "mean message length in bytes (uniform in [B/2, 3B/2])", 0, kMaxUs},
      {"latency_us", &GenOptions::latency_us, G::Model,
       "minimum message latency in microseconds", 1, kMaxUs},
      {"bandwidth", &GenOptions::bandwidth, G::Model,
       "bytes per microsecond for message copy and transfer cost", 1},
      {"barrier_every", &GenOptions::barrier_every, G::Model,
       "every k-th collective is MPI_Barrier, the others MPI_Allreduce (0: never; ignored "
       "with --collectives)", 0},
      {"collectives", &GenOptions::collectives, G::Model,
       "the collectives that end the rounds, cycled through round by round: a comma-separated "
       "list of allreduce, barrier, bcast, reduce, gather, scatter, allgather, alltoall, scan, "
       "exscan (rooted ones at MPI_COMM_WORLD rank round mod N; empty: MPI_Allreduce and "
       "MPI_Barrier by --barrier-every)"},
      {"in_flight", &GenOptions::in_flight, G::Model,
       "extra messages per round sent to the right neighbours before any is received "
       "(about that many in flight at once; 0: none)",
       0, 1 << 24},
      {"tag_per_message", &GenOptions::tag_per_message, G::Model,
       "each of the in_flight messages has its own tag"},
      {"depth", &GenOptions::depth, G::Model,
       "nested recursion levels (region `recursion`) around each compute phase's kernels "
       "(0: none)",
       0, 1 << 20},
      {"late_sender_rate", &GenOptions::late_sender_rate, G::Model,
       "probability per location and round of a delayed MPI_Send", 0, 1},
      {"late_sender_us", &GenOptions::late_sender_us, G::Model,
       "mean extra compute time of a late sender (exponential, microseconds)", 0, kMaxUs},
      {"late_receiver_rate", &GenOptions::late_receiver_rate, G::Model,
       "probability per process and round that its first message is an MPI_Ssend whose "
       "receiver posts MPI_Recv late (never two in a row along the ring; blocking exchange only)",
       0, 1},
      {"late_receiver_us", &GenOptions::late_receiver_us, G::Model,
       "mean delay before the late receiver's MPI_Recv (exponential, microseconds)", 0, kMaxUs},
      {"out_of_order_rate", &GenOptions::out_of_order_rate, G::Model,
       "probability per location and round of a pair of messages that the right neighbour "
       "receives in reverse order",
       0, 1},
      {"imbalance_rate", &GenOptions::imbalance_rate, G::Model,
       "probability per location and round of a longer update phase", 0, 1},
      {"imbalance_us", &GenOptions::imbalance_us, G::Model,
       "mean extra update time of an imbalanced location (exponential, microseconds)", 0, kMaxUs},
      {"rma_every", &GenOptions::rma_every, G::Model,
       "every N-th round has a one-sided fence epoch after its exchange: MPI_Win_fence, "
       "MPI_Put to the right neighbour, work, MPI_Win_fence, on a window created at the start "
       "and freed at the end (0: never)",
       0},
      {"rma_puts", &GenOptions::rma_puts, G::Model,
       "MPI_Put calls per process in each fence epoch", 1, 1000},
      {"fence_imbalance_rate", &GenOptions::fence_imbalance_rate, G::Model,
       "probability per process and fence epoch of longer work before the closing "
       "MPI_Win_fence (the others wait in it)",
       0, 1},
      {"fence_imbalance_us", &GenOptions::fence_imbalance_us, G::Model,
       "mean extra work before the closing fence of an imbalanced process (exponential, "
       "microseconds)",
       0, kMaxUs},
      {"nonblocking", &GenOptions::nonblocking, G::Model,
       "non-blocking exchange: MPI_Irecv and MPI_Isend, then MPI_Waitall for the sends and "
       "every receive but the last, MPI_Wait for the last; a send completes once its receive "
       "is posted, so late receivers wait in MPI_Waitall"},
      {"lock_every", &GenOptions::lock_every, G::Model,
       "every N-th round has passive-target epochs after its exchange: every process locks "
       "one target's window exclusively (MPI_Win_lock), puts, works and unlocks, waiting for "
       "the earlier holders (0: never)",
       0},
      {"lock_hold_rate", &GenOptions::lock_hold_rate, G::Model,
       "probability per process and lock epoch of longer work while holding the lock", 0, 1},
      {"lock_hold_us", &GenOptions::lock_hold_us, G::Model,
       "mean extra work while holding the lock (exponential, microseconds)", 0, kMaxUs},
      {"clock_offset", &GenOptions::clock_offset, G::Model,
       "skewed clocks: each process records time with an offset drawn from [0, X] seconds "
       "(the ground truth keeps the true times; 0: exact clocks)",
       0, 3600},
      {"clock_drift", &GenOptions::clock_drift, G::Model,
       "skewed clocks: each process' clock drifts by a rate drawn from [-X, X] ppm (0: none)",
       0, 100000},
      {"truth_limit", &GenOptions::truth_limit, G::Model,
       "at most this many entries per list in the ground truth (counts and totals stay "
       "complete)",
       0},
  };
  return table;
}

const OptionSpec* find_option(const std::string& name) {
  for (const OptionSpec& spec : option_table())
    if (name == spec.name) return &spec;
  return nullptr;
}

std::vector<std::string> option_choices(const OptionSpec& spec) {
  std::vector<std::string> out;
  std::string current;
  for (const char* c = spec.choices; *c; ++c) {
    if (*c == ',') {
      out.push_back(current);
      current.clear();
    } else {
      current += *c;
    }
  }
  if (!current.empty()) out.push_back(current);
  return out;
}

namespace {

// Whole numbers print without a fraction, 2^40 as 2^40.
std::string number(double v) {
  if (v == kMaxUs) return "2^40";
  char buf[40];
  if (std::floor(v) == v && std::fabs(v) < 1e18)
    std::snprintf(buf, sizeof buf, "%.0f", v);
  else
    std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

template <typename T>
void check_range(const OptionSpec& spec, T value) {
  if (spec.zero_is_unset && value == 0) return;
  const double v = static_cast<double>(value);
  if (v >= spec.min && v <= spec.max) return;
  const std::string got = " (got " + number(v) + ")";
  std::string rule;
  if (std::isinf(spec.max))
    rule = spec.min == 0 ? "must not be negative" : "must be at least " + number(spec.min);
  else
    rule = "must be in " + number(spec.min) + ".." + number(spec.max);
  throw EarlError(std::string("earl gen: ") + spec.name + " " + rule + got);
}

}  // namespace

void check_option(const OptionSpec& spec, const GenOptions& options) {
  std::visit(
      [&](auto member) {
        const auto& value = options.*member;
        using T = std::decay_t<decltype(value)>;
        if constexpr (std::is_same_v<T, std::string>) {
          const std::vector<std::string> allowed = option_choices(spec);
          if (allowed.empty()) return;
          std::string list;
          for (const std::string& a : allowed) {
            if (a == value) return;
            list += (list.empty() ? "'" : " or '") + a + "'";
          }
          throw EarlError(std::string("earl gen: ") + spec.name + " must be " + list + " (got '" +
                          value + "')");
        } else if constexpr (!std::is_same_v<T, bool>) {
          check_range(spec, value);
        }
      },
      spec.field);
}

}  // namespace earl::gen

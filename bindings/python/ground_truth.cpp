#include "bindings/python/ground_truth.h"

#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "bindings/python/generator_options.h"
#include "bindings/python/lists.h"
#include "gen/options.h"
#include "gen/truth.h"

namespace py = pybind11;
using namespace pybind11::literals;

namespace earl::bindings {

namespace {

using gen::GroundTruth;

py::dict how_it_was_made(const gen::GenOptions& o, const gen::GenResult& result) {
  py::dict d;
  d["generator"] = "earl gen";
  d["version"] = 1;
  d["format"] = o.format;
  d["seed"] = o.seed;
  d["locations"] = o.locations;
  // Only when set, so that the truth of a run without them stays what it always was.
  if (o.threads > 1) {
    d["threads"] = o.threads;
    d["location_count"] = std::int64_t{o.locations} * o.threads;
  }
  if (o.permute_ranks) d["rank_process"] = gen::permuted_ranks(o.locations, o.seed);
  d["target_events"] = o.events;
  d["rollover"] = option_value(*gen::find_option("rollover"), o);
  if (o.byte_order != "little") d["byte_order"] = o.byte_order;  // EPILOG's, only when set
  d["rounds"] = result.summary.rounds;
  d["time_unit"] = "s";
  py::dict model;
  for (const gen::OptionSpec& spec : gen::option_table())
    if (spec.group == gen::OptionGroup::Model) model[spec.name] = option_value(spec, o);
  d["options"] = model;
  py::dict injected;
  injected["late_senders"] = result.summary.injected_late_senders;
  injected["out_of_order_pairs"] = result.summary.injected_out_of_order;
  injected["imbalanced"] = result.summary.injected_imbalance;
  if (o.rma_every > 0) injected["fence_imbalanced"] = result.summary.injected_fence_imbalance;
  if (o.lock_every > 0) injected["locks_held_longer"] = result.summary.injected_lock_hold;
  if (o.late_receiver_rate > 0) injected["late_receivers"] = result.summary.injected_late_receivers;
  d["injected"] = injected;
  return d;
}

// Late senders and late receivers: one message each, the same fields.
template <class Wait>
py::list message_waits(const std::vector<Wait>& waits) {
  return list_of(waits, [](const Wait& x) {
    return py::dict("src"_a = x.src, "dest"_a = x.dest, "tag"_a = x.tag, "send_enter"_a = x.send_enter,
                    "recv_enter"_a = x.recv_enter, "wait"_a = x.wait);
  });
}

py::list out_of_order(const GroundTruth& t) {
  return list_of(t.out_of_order, [](const auto& x) {
    // tags: sent first, received first
    return py::dict("src"_a = x.src, "dest"_a = x.dest, "tags"_a = std::vector<int>{x.first_sent, x.first_received},
                    "time"_a = x.time);
  });
}

// `kinds`: the run chose its collectives (--collectives), so each instance names its root
// (process, None: unrooted) and, for barrier-like ones, the completion per process.
py::list collective_waits(const GroundTruth& t, const std::vector<gen::CollectiveWait>& waits,
                          bool kinds = false) {
  return list_of(waits, [&](const gen::CollectiveWait& x) {
    py::dict e("index"_a = x.index, "region"_a = t.regions.at(static_cast<std::size_t>(x.region)),
               "enter_max"_a = x.enter_max, "waits"_a = x.waits);
    if (kinds) {
      e["root"] = x.root >= 0 ? py::object(py::int_(x.root)) : py::object(py::none());
      if (!x.completion.empty()) e["completion"] = x.completion;
    }
    return e;
  });
}

// {metric: {"total", "count", "by_process"}} of the MPI collectives' waits.
py::dict collective_patterns(const GroundTruth& t) {
  py::dict out;
  for (const auto& p : t.collective_patterns)
    out[py::str(p.metric)] = py::dict("total"_a = p.total, "count"_a = p.count, "by_process"_a = p.by_process);
  return out;
}

// The window's collective calls: per fence instance, and create/free, the wait per process.
py::dict rma(const GroundTruth& t) {
  py::dict d;
  d["fences"] = t.rma.fences;
  d["fence_wait_total"] = t.rma.fence_wait_total;
  d["fence_waits"] = collective_waits(t, t.rma.fence_waits);
  d["create_waits"] = t.rma.create_waits;
  d["free_waits"] = t.rma.free_waits;
  d["puts"] = t.rma.puts;
  d["put_bytes"] = t.rma.put_bytes;
  d["locks"] = t.rma.locks;
  d["lock_wait_count"] = t.rma.lock_wait_count;
  d["lock_wait_total"] = t.rma.lock_wait_total;
  d["lock_waits"] = list_of(t.rma.lock_waits, [](const auto& x) {
    return py::dict("loc"_a = x.loc, "target"_a = x.target, "requested"_a = x.requested, "acquired"_a = x.acquired,
                    "wait"_a = x.wait);
  });
  return d;
}

// {"0": {region: {"incl", "excl", "count"}}, ...}: string keys, as JSON has them.
py::dict region_time(const GroundTruth& t) {
  py::dict out;
  for (std::size_t l = 0; l < t.region_time.size(); ++l) {
    py::dict regions;
    for (const auto& row : t.region_time[l])
      regions[py::str(t.regions.at(static_cast<std::size_t>(row.region)))] =
          py::dict("incl"_a = row.time.incl, "excl"_a = row.time.excl, "count"_a = row.time.count);
    out[py::str(std::to_string(l))] = regions;
  }
  return out;
}

}  // namespace

py::dict truth_to_python(const gen::GenOptions& options, const gen::GenResult& result) {
  const GroundTruth& t = *result.truth;
  py::dict d = how_it_was_made(options, result);
  d["events"] = t.events;
  d["start"] = t.start;
  d["end"] = t.end;
  d["regions"] = t.regions;
  d["location_names"] = t.location_names;
  d["messages"] = t.messages;
  d["max_in_flight"] = t.max_in_flight;
  d["max_depth"] = t.max_depth;
  d["list_limit"] = t.list_limit;
  d["late_sender_count"] = t.late_sender_count;
  d["late_sender_wait_total"] = t.late_sender_wait_total;
  d["late_senders"] = message_waits(t.late_senders);
  // Only with injected late receivers, so that other truths stay as they were (the
  // blocking sends of every run may wait a little for their receivers all the same).
  const bool receivers = options.late_receiver_rate > 0;
  if (receivers) {
    d["late_receiver_count"] = t.late_receiver_count;
    d["late_receiver_wait_total"] = t.late_receiver_wait_total;
    d["late_receivers"] = message_waits(t.late_receivers);
  }
  d["out_of_order_count"] = t.out_of_order_count;
  d["out_of_order_reports"] = t.out_of_order_reports;
  d["out_of_order"] = out_of_order(t);
  d["collectives"] = t.collectives;
  d["imbalance_wait_total"] = t.imbalance_wait_total;
  const bool kinds = !options.collectives.empty();
  d["imbalance"] = collective_waits(t, t.imbalance, kinds);
  if (kinds) d["collective_patterns"] = collective_patterns(t);
  py::dict truncated;
  truncated["late_senders"] = t.truncated.late_senders;
  if (receivers) truncated["late_receivers"] = t.truncated.late_receivers;
  truncated["out_of_order"] = t.truncated.out_of_order;
  truncated["imbalance"] = t.truncated.imbalance;
  if (t.rma.window) {
    truncated["fence_waits"] = t.truncated.fence_waits;
    truncated["lock_waits"] = t.truncated.lock_waits;
    d["rma"] = rma(t);
  }
  d["truncated"] = truncated;
  d["bytes_received_per_location"] = t.bytes_received_per_location;
  d["bytes_sent_per_location"] = t.bytes_sent_per_location;
  const bool otf2 = options.format == "otf2";
  // ALOG has no program records: its traces have no program root.
  if (otf2) d["program_root"] = t.program_root;
  d["mpi_init_completion"] = t.mpi_init_completion;
  d["mpi_finalize_wait"] = t.mpi_finalize_wait;
  py::dict counts;
  counts["syncs_send"] = t.counts.syncs_send;
  counts["syncs_recv"] = t.counts.syncs_recv;
  counts["comms_send"] = t.counts.comms_send;
  counts["comms_recv"] = t.counts.comms_recv;
  counts["bytes_sent"] = t.bytes_sent_per_location;
  counts["bytes_rcvd"] = t.bytes_received_per_location;
  // ALOG has no collective records (its collectives are plain regions).
  if (otf2) {
    counts["syncs_coll"] = t.counts.syncs_coll;
    counts["comms_cxch"] = t.counts.comms_cxch;
    counts["comms_csrc"] = t.counts.comms_csrc;
    counts["comms_cdst"] = t.counts.comms_cdst;
    counts["bytes_cout"] = t.counts.bytes_cout;
    counts["bytes_cin"] = t.counts.bytes_cin;
  }
  d["message_counts"] = counts;
  // OTF2 only: ALOG has no requests linking an MPI_Isend to the MPI_Waitall completing it.
  if (options.nonblocking && otf2)
    d["waitall_late_receivers"] = py::dict("count"_a = t.waitall_late_receiver_count,
                                           "wait_total"_a = t.waitall_late_receiver_total,
                                           "by_location"_a = t.waitall_late_receiver_by_location);
  d["region_time"] = region_time(t);
  if (!t.clocks.empty())
    d["clocks"] = list_of(t.clocks, [](const GroundTruth::Clock& clock) {
      return py::dict("offset"_a = clock.offset, "drift_ppm"_a = clock.drift_ppm);
    });
  return d;
}

}  // namespace earl::bindings

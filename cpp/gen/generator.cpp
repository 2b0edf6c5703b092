// `earl gen`'s entry points (gen/generator.h): checking the options and writing a trace with
// its ground truth. The program model itself is gen/program.cpp's.
#include "gen/generator.h"

#include <memory>

#include "gen/clock_skew.h"
#include "gen/collective_kinds.h"
#include "gen/options.h"
#include "gen/truth.h"
#include "model/error.h"
#include "registry/format_registry.h"

namespace earl::gen {

namespace {

[[noreturn]] void bad(const std::string& what) { throw EarlError("earl gen: " + what); }

}  // namespace

void GenOptions::validate() const {
  for (const OptionSpec& spec : option_table()) check_option(spec, *this);
  // What no single row can say: options that constrain each other, and this build's writers.
  if (static_cast<std::int64_t>(locations) * threads > kMaxLocations)
    bad("locations * threads must be at most " + std::to_string(kMaxLocations));
  const std::string why = why_not_writable(format);
  if (!why.empty()) bad(why);
  parse_collectives(collectives);
  if (late_receiver_rate > 0 && nonblocking)
    bad("late_receiver_rate needs the blocking exchange (MPI_Ssend/MPI_Recv), not nonblocking");
  if (rollover != 0 && format != "alog")
    bad("rollover is an ALOG notion; format '" + format + "' has no clock roll-over");
  if (byte_order != "little" && format != "epilog")
    bad("byte_order is an EPILOG notion; format '" + format + "' has its own byte order");
}

GenResult generate(const GenOptions& options, const std::string& trace_path,
                   const std::function<void(const GenResult&)>& keep) {
  options.validate();
  if (trace_path.empty()) bad("no output path");
  std::unique_ptr<TraceWriter> writer;
  try {
    WriterOptions wo;
    wo.rollover = options.rollover;
    wo.big_endian = options.byte_order == "big";
    writer = open_writer(options.format, trace_path, wo);
    TruthCollector collector(kMpiSend, kMpiRecv, {kMpiAllreduce, kMpiBarrier}, options.truth_limit);
    std::vector<ClockSkew> skews = draw_clock_skews(options);
    SkewedWriter skewed(*writer, skews, options.threads);
    TraceWriter* file_sink = skews.empty() ? writer.get() : &skewed;
    GenResult result;
    result.summary = run_program(options, {file_sink, &collector});
    GroundTruth truth = collector.truth();
    for (const ClockSkew& skew : skews)
      truth.clocks.push_back(GroundTruth::Clock{seconds(skew.offset_us), skew.drift * 1e6});
    result.truth = std::make_shared<const GroundTruth>(std::move(truth));
    // The truth is written (by `keep`) before the trace is put in place: a failure to write
    // it leaves the old trace, if any, untouched.
    if (keep) keep(result);
    writer->commit();
    return result;
  } catch (...) {
    if (writer) writer->discard();
    throw;
  }
}

}  // namespace earl::gen

#pragma once
#include <functional>
#include <memory>

#include "format_interface/trace_decoder.h"
#include "timecorrect/clock_corrections.h"

namespace earl {

// The correction pass: reads `decoder` once from its start and computes every jump of
// the controlled logical clock (clock_corrections.h).
//
// A receive needs its send's corrected time, an N-to-N collective exit the corrected
// enters of all members of its instance, and where clocks disagree these may come later
// in the decoder's order. Each location's events are therefore taken in the location's
// own order but in causal order between locations: a location waits at such an event
// (its later events queue behind it) until what bounds it has been seen. Pairing is the
// time checks' one: on each channel (source, destination, tag, communicator) the k-th
// receive has the k-th send; the k-th N-to-N collective exit of a location on a
// communicator belongs to instance k, complete when the communicator's size of members
// left it (sizes the trace does not give: bound by the members seen so far).
//
// A trace that is not causally consistent (a receive whose send never comes) would wait
// forever: at the end, and whenever more than kMaxQueued events wait, the location waiting
// at the oldest event goes on without that bound.
//
// `progress` gets the fraction read (0..1); false stops the pass with Interrupted.
std::unique_ptr<ClockCorrections> correct_clocks(TraceDecoder& decoder,
                                                 const ClockCorrectionOptions& options,
                                                 const std::function<bool(double)>& progress = {});

constexpr std::size_t kMaxQueued = std::size_t(1) << 22;
// Known constraints of backward amortisation kept per location (older ones: ramps stop
// short of them).
constexpr std::size_t kMaxConstraints = 4096;

}  // namespace earl

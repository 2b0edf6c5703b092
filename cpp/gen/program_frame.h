#pragma once
// The frame of a generated program around its rounds (gen/generator.h), as Score-P records
// an MPI program on each process' master thread:
//
//   ProgramBegin                     (program root: a few microseconds before main)
//   main
//     MPI_Init                       (each enters when ready; all leave shortly after the
//                                     last one entered, each a little apart)
//     ... rounds ...
//     MPI_Finalize                   (the same shape)
//   ProgramEnd                       (a few microseconds after main)
//
// The gaps and spreads come from a random stream of their own, so the rounds draw exactly
// what they drew before the frame existed. ALOG writes no program records; its traces get
// MPI_Init and MPI_Finalize only.
#include <cstdint>
#include <vector>

#include "gen/program_state.h"
#include "gen/rng.h"

namespace earl::gen {

class ProgramFrame {
 public:
  explicit ProgramFrame(const GenOptions& options);

  // ProgramBegin, enter main (its time drawn from the program's stream, as always),
  // MPI_Init on every master thread.
  void begin(ProgramState& state);
  // MPI_Finalize, leave main (drawn from the program's stream), ProgramEnd.
  void end(ProgramState& state);

 private:
  // Every master thread enters `region` 1..`gap` us after its clock; all leave `cost`
  // after the last enter plus 0..`spread` us each.
  void synchronising_call(ProgramState& state, int region, std::int64_t gap, std::int64_t cost,
                          std::int64_t spread);

  Rng rng_;
  std::vector<std::int64_t> enters_;
};

}  // namespace earl::gen

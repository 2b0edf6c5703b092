#pragma once
// The ids of the regions the program model's optional shapes use (gen/generator.h), looked
// up by name in the run's header (gen/generator.h's program_header defines them); -1 where
// the options leave the shape off. The fixed regions are GenRegion's constants.
#include "format_interface/trace_writer.h"

namespace earl::gen {

struct ProgramRegions {
  int recursion = -1;                                                              // depth
  int win_create = -1, win_fence = -1, put = -1, win_free = -1, epoch_work = -1;  // the window
  int win_lock = -1, win_unlock = -1, locked_work = -1;                           // lock epochs
  int isend = -1, irecv = -1, wait = -1, waitall = -1;                            // nonblocking
  int ssend = -1;                                                                 // late receivers
};

ProgramRegions find_program_regions(const TraceHeader& header);

// The id of the region named `name` in `header` (-1: none).
int region_id(const TraceHeader& header, const char* name);

}  // namespace earl::gen

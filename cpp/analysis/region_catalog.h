#pragma once
// The class of every region of a trace, and the event types that tie a non-blocking call
// to its completion, filled as they appear (definitions grow while a trace is read).
#include <vector>

#include "analysis/mpi_functions.h"
#include "model/definitions.h"

namespace earl::analysis {

// Format-defined event types the analysis reads (OTF2's records): data1 is an MPI request
// (SendComplete, RecvPosted), or com/tag are a window and a group (RmaGroupSync).
// PutStart/GetStart: an RMA transfer's start (bytes_put, bytes_get); ProgramBegin/End: the
// program's run (OTF2), data1 of the begin naming the program.
enum class RequestRecord : std::uint8_t {
  None, SendComplete, RecvPosted, RmaGroupSync, WindowLock, WindowUnlock, PutStart, GetStart,
  ProgramBegin, ProgramEnd
};

class RegionCatalog {
 public:
  explicit RegionCatalog(const Definitions& definitions) : definitions_(definitions) {}
  const Definitions& definitions() const { return definitions_; }

  const RegionClass& of(SymbolId region) {
    if (region >= classes_.size()) grow(region);
    return classes_[region];
  }
  RequestRecord request_record(SymbolId type) {
    if (type >= request_records_.size()) grow_types(type);
    return request_records_[type];
  }
  // The region standing for the program a ProgramBegin names (`program`: an id of
  // definitions().strings, its executable's path): the region named as the executable
  // without its path, as Score-P defines it and Scalasca roots its call tree there.
  // False where the trace defines no such region.
  bool program_region(SymbolId program, SymbolId& region) const;

 private:
  void grow(SymbolId region);
  void grow_types(SymbolId type);

  const Definitions& definitions_;
  std::vector<RegionClass> classes_;
  std::vector<RequestRecord> request_records_;
};

}  // namespace earl::analysis

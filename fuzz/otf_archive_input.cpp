#include "otf_archive_input.h"

#include <otf.h>

#include <cstdlib>
#include <vector>

#include "direct_and_cached.h"
#include "scratch_dir.h"

namespace earl::fuzz {

namespace {

// Processes 1 and 2 in stream 1: definitions, nested calls, a message each way, a
// collective in one record and one begun and ended, a counter, a file operation, a marker.
void write_trace(const std::string& stub) {
  OTF_FileManager* manager = OTF_FileManager_open(10);
  OTF_Writer* w = OTF_Writer_open(stub.c_str(), 1, manager);
  if (!manager || !w) std::abort();
  OTF_Writer_writeDefTimerResolution(w, 0, 1000000);
  OTF_Writer_writeDefProcess(w, 0, 1, "rank 0", 0);
  OTF_Writer_writeDefProcess(w, 0, 2, "rank 1", 0);
  OTF_Writer_writeDefFunctionGroup(w, 0, 1, "MPI");
  OTF_Writer_writeDefFunction(w, 0, 1, "main", 1, 0);
  OTF_Writer_writeDefFunction(w, 0, 2, "MPI_Bcast", 1, 0);
  const uint32_t world[] = {1, 2};
  OTF_Writer_writeDefProcessGroup(w, 0, 3, "WORLD", 2, world);
  OTF_Writer_writeDefCounter(w, 0, 1, "cycles", OTF_COUNTER_TYPE_ACC, 0, "#");
  OTF_Writer_writeDefFile(w, 0, 1, "out.dat", 0);
  OTF_Writer_writeDefMarker(w, 0, 1, "phase", 0);
  for (uint32_t p = 1; p <= 2; ++p) OTF_Writer_writeEnter(w, 10, 1, p, 0);
  OTF_Writer_writeSendMsg(w, 20, 1, 2, 3, 5, 64, 0);
  OTF_Writer_writeRecvMsg(w, 25, 2, 1, 3, 5, 64, 0);
  OTF_Writer_writeSendMsg(w, 30, 2, 1, 3, 6, 8, 0);
  OTF_Writer_writeRecvMsg(w, 35, 1, 2, 3, 6, 8, 0);
  for (uint32_t p = 1; p <= 2; ++p) {
    OTF_Writer_writeEnter(w, 40, 2, p, 0);
    OTF_Writer_writeCollectiveOperation(w, 40, p, 1, 3, 1, 16, 16, 5, 0);
    OTF_Writer_writeLeave(w, 45, 2, p, 0);
    OTF_Writer_writeEnter(w, 50, 2, p, 0);
    OTF_Writer_writeBeginCollectiveOperation(w, 50, p, 1, 7 + p, 3, 2, 4, 4, 0);
    OTF_Writer_writeEndCollectiveOperation(w, 54, p, 7 + p);
    OTF_Writer_writeLeave(w, 55, 2, p, 0);
  }
  OTF_Writer_writeCounter(w, 60, 1, 1, 12345);
  OTF_Writer_writeFileOperation(w, 61, 1, 2, 4, OTF_FILEOP_WRITE, 512, 3, 0);
  OTF_Writer_writeEventComment(w, 62, 1, "note");
  OTF_Writer_writeMarker(w, 63, 2, 1, "half way");
  for (uint32_t p = 1; p <= 2; ++p) OTF_Writer_writeLeave(w, 90, 1, p, 0);
  OTF_Writer_close(w);
  OTF_FileManager_close(manager);
}

const std::filesystem::path& trace_anchor() {
  static const std::filesystem::path anchor = [] {
    const auto folder = scratch_dir() / "otf";
    std::filesystem::create_directories(folder);
    write_trace((folder / "trace").string());
    return folder / "trace.otf";
  }();
  return anchor;
}

}  // namespace

void read_otf_with(const std::filesystem::path& file, const std::uint8_t* data, std::size_t size) {
  write_file(trace_anchor().parent_path() / file, data, size);
  require_direct_and_cached_agree(trace_anchor().string(), "otf");
}

}  // namespace earl::fuzz

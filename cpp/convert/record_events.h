#pragma once
// `earl convert`'s way back from EARL's one-sided, thread and request events to the
// writers' events (format_interface/trace_writer.h), so that a trace converted between
// formats that both hold them (OTF2, EPILOG) keeps its one-sided epochs, thread teams and
// non-blocking requests:
//   fork, join                 -> Fork, Join (team size: the input's threads per process)
//   put_1ts                    -> RmaPut (peer, len, rmaid as tag)
//   put_1te                    -> RmaPutComplete at the origin (EPILOG records it on the
//                                 target, naming the origin: kStartOnPeer)
//   wlock                      -> RmaLockRequest where the input says it was a request
//                                 (OTF2's RmaRequestLock), else RmaLockAcquire; exclusive
//                                 as tag 1, shared 0
//   wunlock                    -> RmaLockRelease
//   mpi_irecv_request / mpi_recv_request   -> IrecvRequest (request id)
//   mpi_isend_complete / mpi_send_complete -> IsendComplete (request id)
//   the enter and exit of a window-collective call (OTF2: RmaCollectiveBegin/End inside
//   it; EPILOG: an MPI_WINCOLLEXIT, whose exit keeps the window in com) -> the call's
//   kWriterRmaCollective flag; OTF2's RmaCollectiveBegin/End and RmaWinCreate/Destroy
//   are then carried by that flag (the writers write them again from it).
// A send or receive carrying a request id (OTF2's MpiIsend/MpiIrecv keep it in data1)
// keeps it (convert.cpp). Everything else (get_1to/get_1ts/get_1te, alock/rlock, metrics,
// OTF2's other records) has no WriterEvent and is dropped and counted by type.
#include <cstdint>
#include <string>
#include <vector>

#include "format_interface/trace_writer.h"
#include "model/event.h"

namespace earl {
class EventTrace;
}

namespace earl::convert {

// What the input holds beyond enter/exit/send/recv, known before the header is written.
struct RecordPlan {
  bool rma = false;  // one-sided events or window calls: the header's window
  std::vector<Position> window_calls;  // enters and exits of window-collective calls, sorted
  // Enters of calls whose exit is a collective exit, sorted: OTF2 output begins the
  // operation there (MpiCollectiveBegin after the Enter, as Score-P writes it).
  std::vector<Position> collective_enters;
  bool window_call(Position pos) const;
  bool collective_enter(Position pos) const;
};

// A pass over the input where its definitions name one-sided records or window calls, or
// where `collectives` asks for the collective calls' enters.
RecordPlan plan_records(EventTrace& trace, bool collectives);

enum class Mapped {
  Written,  // `g` holds the event
  Carried,  // written again by the writer from a call's flag (OTF2's RMA collective records)
  Dropped,  // no WriterEvent holds it
};

// Maps event `e` of type `type` (any kind but enter/exit/send/recv/collective exit) onto
// `g`, whose time is set by the caller; `team` is the size of a thread team.
// `rma_collectives_held`: the output writes window-collective records (else OTF2's are
// dropped, not carried).
Mapped map_record(const Event& e, const std::string& type, int team, bool rma_collectives_held,
                  WriterEvent& g);

}  // namespace earl::convert

#pragma once
// The metric tree of the analysis: Scalasca 2.6's ids in lower case, parents, units and
// order (its remapped tree, share/scout.spec), for the metrics EARL computes.
// A metric's value is inclusive along this tree: a child's value is part of its parent's
// (late sender wrong order is also late sender time; the late senders among zero-byte
// receives, mpi_sls_count, are some of syncs_recv). Along the call tree every value is
// exclusive: the part of a call path that is not in one of its callees.
#include <cstdint>
#include <string>
#include <vector>

namespace earl::analysis {

enum class Metric : std::uint8_t {
  Time, Execution, Comp, Mpi,
  MpiManagement, MpiInitExit, MpiInitCompletion, MpiFinalizeWait, MpiMgmtComm, MpiMgmtFile, MpiMgmtWin,
  MpiRmaWaitAtCreate, MpiRmaWaitAtFree,
  MpiSynchronization, MpiSyncCollective, MpiBarrierWait, MpiBarrierCompletion,
  MpiRmaSynchronization, MpiRmaSyncActive, MpiRmaSyncLatePost, MpiRmaEarlyWait, MpiRmaLateComplete,
  MpiRmaWaitAtFence, MpiRmaEarlyFence, MpiRmaSyncPassive, MpiRmaSyncLockCompetition,
  MpiCommunication, MpiPoint2point, MpiLatesender, MpiLatesenderWo, MpiLswoDifferent,
  MpiLswoSame, MpiLatereceiver,
  MpiCollective, MpiEarlyreduce, MpiEarlyscan, MpiLatebroadcast, MpiWaitNxn, MpiNxnCompletion,
  MpiRmaCommunication, MpiRmaCommLatePost, MpiRmaCommLockCompetition,
  MpiIo, MpiIoIndividual, MpiIoCollective,
  Visits,
  Syncs, SyncsP2p, SyncsSend, MpiSlrCount, SyncsRecv, MpiSlsCount, MpiSlswoCount, SyncsColl,
  Comms, CommsP2p, CommsSend, MpiClrCount, CommsRecv, MpiClsCount, MpiClswoCount,
  CommsColl, CommsCxch, CommsCsrc, CommsCdst,
  Bytes, BytesP2p, BytesSent, BytesRcvd, BytesColl, BytesCout, BytesCin, BytesRma, BytesPut, BytesGet,
  Count
};

constexpr int kMetricCount = static_cast<int>(Metric::Count);

// How Scalasca's trace analyzer (scout) holds a metric in its Cube file: `derived`, a group
// (by region kind or message kind) that Scalasca's remapping derives afterwards (HIDDEN in
// its pattern files), which scout's file leaves out; else stored, under `name` where scout's
// display name differs from the remapped report's (the table's `name`).
struct InScout {
  bool derived = false;
  const char* name = nullptr;
};
constexpr InScout scout_name(const char* name) { return InScout{false, name}; }

struct MetricInfo {
  Metric metric;
  const char* id;         // Scalasca's id, lower case
  Metric parent;          // Metric::Count for a root
  const char* name;       // display name
  const char* unit;       // "sec", "occ" or "bytes"
  bool is_pattern;        // a wait state found by a pattern (with instance counts)
  const char* description;
  InScout in_scout{};
};

// Every metric, parents before children, in the order reports list them.
const std::vector<MetricInfo>& metric_table();
const MetricInfo& metric_info(Metric metric);
// True when `metric` is `ancestor` or below it.
bool is_within(Metric metric, Metric ancestor);

}  // namespace earl::analysis

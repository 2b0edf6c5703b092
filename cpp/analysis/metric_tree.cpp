#include "analysis/metric_tree.h"

namespace earl::analysis {

const std::vector<MetricInfo>& metric_table() {
  using M = Metric;
  constexpr M root = M::Count;
  constexpr InScout derived{true, nullptr};
  static const std::vector<MetricInfo> table = {
      {M::Time, "time", root, "Time", "sec", false, "Total time of all locations"},
      {M::Execution, "execution", M::Time, "Execution", "sec", false, "Time spent executing the program", derived},
      {M::Comp, "comp", M::Execution, "Computation", "sec", false, "Time outside MPI", derived},
      {M::Mpi, "mpi", M::Execution, "MPI", "sec", false, "Time spent in MPI calls", derived},
      {M::MpiManagement, "mpi_management", M::Mpi, "Management", "sec", false,
       "Time in MPI management calls (init/finalize, communicators, windows, files)", derived},
      {M::MpiInitExit, "mpi_init_exit", M::MpiManagement, "Init/Exit", "sec", false,
       "Time in MPI_Init, MPI_Init_thread, MPI_Initialized, MPI_Finalize and MPI_Finalized", derived},
      {M::MpiInitCompletion, "mpi_init_completion", M::MpiInitExit, "Initialization Completion", "sec", true,
       "Time in MPI_Init/MPI_Init_thread after the first location left it (the barrier "
       "completion formula over every location's call)", scout_name("MPI Initialization Completion")},
      {M::MpiFinalizeWait, "mpi_finalize_wait", M::MpiInitExit, "Wait at Finalize", "sec", true,
       "Waiting in MPI_Finalize for the last location to enter it", scout_name("MPI Wait at Finalize")},
      {M::MpiMgmtComm, "mpi_mgmt_comm", M::MpiManagement, "Communicator Management", "sec", false,
       "Time in MPI communicator, group-of-a-communicator and topology management (MPI_Comm_*, "
       "MPI_Cart_*, MPI_Graph_*, MPI_Dims_create, ...)", derived},
      {M::MpiMgmtFile, "mpi_mgmt_file", M::MpiManagement, "File Management", "sec", false,
       "Time in MPI file management (MPI_File_open/close/delete/seek/sync and the get/set calls)", derived},
      {M::MpiMgmtWin, "mpi_mgmt_win", M::MpiManagement, "Window management", "sec", false,
       "Time in MPI window management (MPI_Win_create/allocate/free/attach/detach, get/set calls)", derived},
      {M::MpiRmaWaitAtCreate, "mpi_rma_wait_at_create", M::MpiMgmtWin, "Wait at Create", "sec", true,
       "Waiting in window creation for the last location to enter it", scout_name("MPI Wait at Window Create")},
      {M::MpiRmaWaitAtFree, "mpi_rma_wait_at_free", M::MpiMgmtWin, "Wait at Free", "sec", true,
       "Waiting in MPI_Win_free for the last location to enter it", scout_name("MPI Wait at Window Free")},
      {M::MpiSynchronization, "mpi_synchronization", M::Mpi, "Synchronization", "sec", false,
       "Time in MPI synchronisation calls (barriers, one-sided synchronisation)", derived},
      {M::MpiSyncCollective, "mpi_sync_collective", M::MpiSynchronization, "Collective synchronization", "sec", false,
       "Time in MPI_Barrier", derived},
      {M::MpiBarrierWait, "mpi_barrier_wait", M::MpiSyncCollective, "Wait at Barrier", "sec", true,
       "Waiting in MPI_Barrier for the last location to enter it", scout_name("MPI Wait at Barrier")},
      {M::MpiBarrierCompletion, "mpi_barrier_completion", M::MpiSyncCollective, "Barrier Completion", "sec", true,
       "Time in MPI_Barrier after the first location left it", scout_name("MPI Barrier Completion")},
      {M::MpiRmaSynchronization, "mpi_rma_synchronization", M::MpiSynchronization, "RMA synchronization", "sec", false,
       "Time in one-sided synchronisation (fence, post/start/complete/wait, locks)", derived},
      {M::MpiRmaSyncActive, "mpi_rma_sync_active", M::MpiRmaSynchronization, "Active Target Synchronization", "sec", false,
       "Time in MPI_Win_fence, MPI_Win_post/start/complete/wait and MPI_Win_test", derived},
      {M::MpiRmaSyncLatePost, "mpi_rma_sync_late_post", M::MpiRmaSyncActive, "Late Post (synchronization)", "sec", true,
       "Waiting in MPI_Win_complete or MPI_Win_start for a target's MPI_Win_post", scout_name("MPI Late Post (Synchronization)")},
      {M::MpiRmaEarlyWait, "mpi_rma_early_wait", M::MpiRmaSyncActive, "Early Wait", "sec", true,
       "Waiting in MPI_Win_wait for the last origin to enter MPI_Win_complete", scout_name("MPI Early Wait")},
      {M::MpiRmaLateComplete, "mpi_rma_late_complete", M::MpiRmaEarlyWait, "Late Complete", "sec", true,
       "The part of Early Wait after the origins' last RMA operation had ended", scout_name("MPI Late Complete")},
      {M::MpiRmaWaitAtFence, "mpi_rma_wait_at_fence", M::MpiRmaSyncActive, "Wait at Fence", "sec", true,
       "Waiting in MPI_Win_fence for the last location to enter it", scout_name("MPI Wait at Fence")},
      {M::MpiRmaEarlyFence, "mpi_rma_early_fence", M::MpiRmaWaitAtFence, "Early Fence", "sec", true,
       "The part of Wait at Fence until the last RMA operation targeting this location had "
       "ended (the leave of the MPI_Put/Get issuing it, as Scalasca takes it): that end - "
       "fence enter, counted where Wait at Fence is and at the most up to the last location's "
       "fence entry, so it stays within Wait at Fence", scout_name("MPI Early Fence")},
      {M::MpiRmaSyncPassive, "mpi_rma_sync_passive", M::MpiRmaSynchronization, "Passive Target Synchronization", "sec",
       false, "Time in MPI_Win_lock/unlock[_all], MPI_Win_flush[_local][_all] and MPI_Win_sync", derived},
      {M::MpiRmaSyncLockCompetition, "mpi_rma_sync_lock_competition", M::MpiRmaSyncPassive,
       "Lock Competition (synchronization)", "sec", true,
       "Waiting for a window lock another location held (exclusive, or shared against "
       "exclusive), in the call that took it (MPI_Win_lock/unlock)", scout_name("MPI Lock Contention (Synchronization)")},
      {M::MpiCommunication, "mpi_communication", M::Mpi, "Communication", "sec", false,
       "Time in MPI communication calls", derived},
      {M::MpiPoint2point, "mpi_point2point", M::MpiCommunication, "Point-to-point", "sec", false,
       "Time in MPI point-to-point calls (sends, receives, waits, tests)", derived},
      {M::MpiLatesender, "mpi_latesender", M::MpiPoint2point, "Late Sender", "sec", true,
       "A receive waiting for a send that was entered later", scout_name("MPI Late Sender")},
      {M::MpiLatesenderWo, "mpi_latesender_wo", M::MpiLatesender, "Late Sender, wrong order", "sec", true,
       "Late sender time while a message sent earlier was received later", scout_name("MPI Late Sender, wrong order")},
      {M::MpiLswoDifferent, "mpi_lswo_different", M::MpiLatesenderWo, "From different sources", "sec", true,
       "Wrong order: the earlier message came from another source", scout_name("MPI Late Sender, wrong order (different source)")},
      {M::MpiLswoSame, "mpi_lswo_same", M::MpiLatesenderWo, "From same source", "sec", true,
       "Wrong order: the earlier message came from the same source", scout_name("MPI Late Sender, wrong order (same source)")},
      {M::MpiLatereceiver, "mpi_latereceiver", M::MpiPoint2point, "Late Receiver", "sec", true,
       "A blocking send waiting for its receive to be posted", scout_name("MPI Late Receiver")},
      {M::MpiCollective, "mpi_collective", M::MpiCommunication, "Collective", "sec", false,
       "Time in MPI collective communication", derived},
      {M::MpiEarlyreduce, "mpi_earlyreduce", M::MpiCollective, "Early Reduce", "sec", true,
       "The root of a reduce/gather waiting for the last sender", scout_name("MPI Early Reduce")},
      {M::MpiEarlyscan, "mpi_earlyscan", M::MpiCollective, "Early Scan", "sec", true,
       "A scan waiting for a lower rank", scout_name("MPI Early Scan")},
      {M::MpiLatebroadcast, "mpi_latebroadcast", M::MpiCollective, "Late Broadcast", "sec", true,
       "Receivers of a broadcast/scatter waiting for the root", scout_name("MPI Late Broadcast")},
      {M::MpiWaitNxn, "mpi_wait_nxn", M::MpiCollective, "Wait at N x N", "sec", true,
       "Waiting in an all-to-all collective for the last location to enter it", scout_name("MPI Wait at N x N")},
      {M::MpiNxnCompletion, "mpi_nxn_completion", M::MpiCollective, "N x N Completion", "sec", true,
       "Time in an all-to-all collective after the first location left it", scout_name("MPI N x N Completion")},
      {M::MpiRmaCommunication, "mpi_rma_communication", M::MpiCommunication, "One-sided", "sec", false,
       "Time in MPI_Put, MPI_Get, MPI_Accumulate and kin", derived},
      {M::MpiRmaCommLatePost, "mpi_rma_comm_late_post", M::MpiRmaCommunication, "Late Post (communication)",
       "sec", true,
       "An MPI_Put/Get of an access epoch running when the last target's MPI_Win_post was "
       "entered (not inside MPI_Win_complete or MPI_Win_start): that post's enter - the "
       "operation's start", scout_name("MPI Late Post (Communication)")},
      {M::MpiRmaCommLockCompetition, "mpi_rma_comm_lock_competition", M::MpiRmaCommunication,
       "Lock Competition (communication)", "sec", true,
       "Lock Competition where the lock was taken inside an MPI_Put/Get (lazily acquired)", scout_name("MPI Lock Contention (Communication)")},
      {M::MpiIo, "mpi_io", M::Mpi, "File I/O", "sec", false, "Time in MPI file reads and writes", derived},
      {M::MpiIoIndividual, "mpi_io_individual", M::MpiIo, "Individual", "sec", false,
       "Time in individual MPI file reads and writes (MPI_File_[i]read/write[_at|_shared])", derived},
      {M::MpiIoCollective, "mpi_io_collective", M::MpiIo, "Collective", "sec", false,
       "Time in collective MPI file reads and writes (_all, _at_all, _ordered, split begin/end)", derived},
      {M::Visits, "visits", root, "Visits", "occ", false, "Number of times a call path was entered"},
      // Message counts: a point-to-point message or collective call moving no data is a
      // synchronisation, one moving data a communication. Sends count where the send
      // record is (MPI_Send, MPI_Isend), receives where the receive completes.
      {M::Syncs, "syncs", root, "MPI synchronizations", "occ", false,
       "MPI calls synchronising without moving data (zero-byte messages, barriers)", derived},
      {M::SyncsP2p, "syncs_p2p", M::Syncs, "Point-to-point", "occ", false,
       "Zero-byte point-to-point messages, sent and received", derived},
      {M::SyncsSend, "syncs_send", M::SyncsP2p, "Sends", "occ", false, "Zero-byte messages sent", scout_name("MPI P2P send synchronizations")},
      {M::MpiSlrCount, "mpi_slr_count", M::SyncsSend, "Late Receivers", "occ", false,
       "Late Receiver instances among the zero-byte sends (at the call completing the send)", scout_name("MPI Late Receiver Instances (Synchronizations)")},
      {M::SyncsRecv, "syncs_recv", M::SyncsP2p, "Receives", "occ", false, "Zero-byte messages received", scout_name("MPI P2P recv synchronizations")},
      {M::MpiSlsCount, "mpi_sls_count", M::SyncsRecv, "Late Senders", "occ", false,
       "Late Sender instances among the zero-byte receives", scout_name("MPI Late Sender Instances (Synchronizations)")},
      {M::MpiSlswoCount, "mpi_slswo_count", M::MpiSlsCount, "Messages in Wrong Order", "occ", false,
       "Late Sender, wrong order instances among the zero-byte receives", scout_name("MPI Late Sender, Wrong Order Instances (Synchronizations)")},
      {M::SyncsColl, "syncs_coll", M::Syncs, "Collective", "occ", false,
       "Collective calls neither sending nor receiving data (barriers), per location", scout_name("MPI collective synchronizations")},
      {M::Comms, "comms", root, "MPI communications", "occ", false, "MPI calls moving data", derived},
      {M::CommsP2p, "comms_p2p", M::Comms, "Point-to-point", "occ", false,
       "Point-to-point messages with data, sent and received", derived},
      {M::CommsSend, "comms_send", M::CommsP2p, "Sends", "occ", false, "Messages with data sent", scout_name("MPI P2P send communications")},
      {M::MpiClrCount, "mpi_clr_count", M::CommsSend, "Late Receivers", "occ", false,
       "Late Receiver instances among the sends with data (at the call completing the send)", scout_name("MPI Late Receiver Instances (Communications)")},
      {M::CommsRecv, "comms_recv", M::CommsP2p, "Receives", "occ", false, "Messages with data received", scout_name("MPI P2P recv communications")},
      {M::MpiClsCount, "mpi_cls_count", M::CommsRecv, "Late Senders", "occ", false,
       "Late Sender instances among the receives with data", scout_name("MPI Late Sender Instances (Communications)")},
      {M::MpiClswoCount, "mpi_clswo_count", M::MpiClsCount, "Messages in Wrong Order", "occ", false,
       "Late Sender, wrong order instances among the receives with data", scout_name("MPI Late Sender, Wrong Order Instances (Communications)")},
      {M::CommsColl, "comms_coll", M::Comms, "Collective", "occ", false,
       "Collective calls sending or receiving data, per location", derived},
      {M::CommsCxch, "comms_cxch", M::CommsColl, "Exchange", "occ", false,
       "Collective calls both sending and receiving data", scout_name("MPI collective exchange communications")},
      {M::CommsCsrc, "comms_csrc", M::CommsColl, "As source", "occ", false,
       "Collective calls only sending data (e.g. a non-root of a reduce)", scout_name("MPI collective communications as source")},
      {M::CommsCdst, "comms_cdst", M::CommsColl, "As destination", "occ", false,
       "Collective calls only receiving data (e.g. a non-root of a broadcast)", scout_name("MPI collective communications as destination")},
      {M::Bytes, "bytes", root, "MPI bytes transferred", "bytes", false,
       "Bytes sent and received by MPI communication", derived},
      {M::BytesP2p, "bytes_p2p", M::Bytes, "Point-to-point", "bytes", false,
       "Bytes of point-to-point messages, sent and received", derived},
      {M::BytesSent, "bytes_sent", M::BytesP2p, "Sent", "bytes", false,
       "Bytes sent by point-to-point calls (where the send record is)", scout_name("MPI P2P bytes sent")},
      {M::BytesRcvd, "bytes_rcvd", M::BytesP2p, "Received", "bytes", false,
       "Bytes received by point-to-point calls (where the receive completes)", scout_name("MPI P2P bytes received")},
      {M::BytesColl, "bytes_coll", M::Bytes, "Collective", "bytes", false,
       "Bytes of collective calls, outgoing and incoming", derived},
      {M::BytesCout, "bytes_cout", M::BytesColl, "Outgoing", "bytes", false,
       "Bytes a location sends in collective calls (as its collective record counts them)", scout_name("MPI collective bytes outgoing")},
      {M::BytesCin, "bytes_cin", M::BytesColl, "Incoming", "bytes", false,
       "Bytes a location receives in collective calls (as its collective record counts them)", scout_name("MPI collective bytes incoming")},
      {M::BytesRma, "bytes_rma", M::Bytes, "One-sided", "bytes", false,
       "Bytes of one-sided operations, put and got", derived},
      {M::BytesPut, "bytes_put", M::BytesRma, "Sent", "bytes", false,
       "Bytes an origin writes with MPI_Put and kin (at the call issuing it)", scout_name("MPI one-sided bytes sent")},
      {M::BytesGet, "bytes_get", M::BytesRma, "Received", "bytes", false,
       "Bytes an origin reads with MPI_Get and kin (at the call issuing it)", scout_name("MPI one-sided bytes received")},
  };
  return table;
}

bool is_within(Metric metric, Metric ancestor) {
  for (Metric m = metric; m != Metric::Count; m = metric_info(m).parent)
    if (m == ancestor) return true;
  return false;
}

const MetricInfo& metric_info(Metric metric) {
  return metric_table()[static_cast<std::size_t>(metric)];
}

}  // namespace earl::analysis

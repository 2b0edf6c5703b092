#include "analysis/metric_tree.h"

namespace earl::analysis {

const std::vector<MetricInfo>& metric_table() {
  using M = Metric;
  constexpr M root = M::Count;
  static const std::vector<MetricInfo> table = {
      {M::Time, "time", root, "Time", "sec", false, "Total time of all locations"},
      {M::Execution, "execution", M::Time, "Execution", "sec", false, "Time spent executing the program"},
      {M::Mpi, "mpi", M::Execution, "MPI", "sec", false, "Time spent in MPI calls"},
      {M::MpiManagement, "mpi_management", M::Mpi, "Management", "sec", false,
       "Time in MPI management calls (init/finalize, communicators, windows, files)"},
      {M::MpiInitExit, "mpi_init_exit", M::MpiManagement, "Init/Exit", "sec", false,
       "Time in MPI_Init, MPI_Init_thread and MPI_Finalize"},
      {M::MpiFinalizeWait, "mpi_finalize_wait", M::MpiInitExit, "Wait at Finalize", "sec", true,
       "Waiting in MPI_Finalize for the last location to enter it"},
      {M::MpiMgmtWin, "mpi_mgmt_win", M::MpiManagement, "Window management", "sec", false,
       "Time in MPI_Win_create/allocate and MPI_Win_free"},
      {M::MpiRmaWaitAtCreate, "mpi_rma_wait_at_create", M::MpiMgmtWin, "Wait at Create", "sec", true,
       "Waiting in window creation for the last location to enter it"},
      {M::MpiRmaWaitAtFree, "mpi_rma_wait_at_free", M::MpiMgmtWin, "Wait at Free", "sec", true,
       "Waiting in MPI_Win_free for the last location to enter it"},
      {M::MpiSynchronization, "mpi_synchronization", M::Mpi, "Synchronization", "sec", false,
       "Time in MPI synchronisation calls (barriers, one-sided synchronisation)"},
      {M::MpiSyncCollective, "mpi_sync_collective", M::MpiSynchronization, "Collective synchronization", "sec", false,
       "Time in MPI_Barrier"},
      {M::MpiBarrierWait, "mpi_barrier_wait", M::MpiSyncCollective, "Wait at Barrier", "sec", true,
       "Waiting in MPI_Barrier for the last location to enter it"},
      {M::MpiBarrierCompletion, "mpi_barrier_completion", M::MpiSyncCollective, "Barrier Completion", "sec", true,
       "Time in MPI_Barrier after the first location left it"},
      {M::MpiRmaSynchronization, "mpi_rma_synchronization", M::MpiSynchronization, "RMA synchronization", "sec", false,
       "Time in one-sided synchronisation (fence, post/start/complete/wait, locks)"},
      {M::MpiRmaWaitAtFence, "mpi_rma_wait_at_fence", M::MpiRmaSynchronization, "Wait at Fence", "sec", true,
       "Waiting in MPI_Win_fence for the last location to enter it"},
      {M::MpiRmaEarlyFence, "mpi_rma_early_fence", M::MpiRmaWaitAtFence, "Early Fence", "sec", true,
       "The part of Wait at Fence until the last RMA operation targeting this location had "
       "ended (the leave of the MPI_Put/Get issuing it, as Scalasca takes it): that end - "
       "fence enter, counted where Wait at Fence is and at the most up to the last location's "
       "fence entry, so it stays within Wait at Fence"},
      {M::MpiRmaSyncLatePost, "mpi_rma_sync_late_post", M::MpiRmaSynchronization, "Late Post (synchronization)", "sec", true,
       "Waiting in MPI_Win_complete or MPI_Win_start for a target's MPI_Win_post"},
      {M::MpiRmaEarlyWait, "mpi_rma_early_wait", M::MpiRmaSynchronization, "Early Wait", "sec", true,
       "Waiting in MPI_Win_wait for the last origin to enter MPI_Win_complete"},
      {M::MpiRmaLateComplete, "mpi_rma_late_complete", M::MpiRmaEarlyWait, "Late Complete", "sec", true,
       "The part of Early Wait after the origins' last RMA operation had ended"},
      {M::MpiRmaSyncLockCompetition, "mpi_rma_sync_lock_competition", M::MpiRmaSynchronization,
       "Lock Competition (synchronization)", "sec", true,
       "Waiting for a window lock another location held (exclusive, or shared against "
       "exclusive), in the call that took it (MPI_Win_lock/unlock)"},
      {M::MpiCommunication, "mpi_communication", M::Mpi, "Communication", "sec", false,
       "Time in MPI communication calls"},
      {M::MpiPoint2point, "mpi_point2point", M::MpiCommunication, "Point-to-point", "sec", false,
       "Time in MPI point-to-point calls (sends, receives, waits, tests)"},
      {M::MpiLatesender, "mpi_latesender", M::MpiPoint2point, "Late Sender", "sec", true,
       "A receive waiting for a send that was entered later"},
      {M::MpiLatesenderWo, "mpi_latesender_wo", M::MpiLatesender, "Late Sender, wrong order", "sec", true,
       "Late sender time while a message sent earlier was received later"},
      {M::MpiLswoDifferent, "mpi_lswo_different", M::MpiLatesenderWo, "From different sources", "sec", true,
       "Wrong order: the earlier message came from another source"},
      {M::MpiLswoSame, "mpi_lswo_same", M::MpiLatesenderWo, "From same source", "sec", true,
       "Wrong order: the earlier message came from the same source"},
      {M::MpiLatereceiver, "mpi_latereceiver", M::MpiPoint2point, "Late Receiver", "sec", true,
       "A blocking send waiting for its receive to be posted"},
      {M::MpiCollective, "mpi_collective", M::MpiCommunication, "Collective", "sec", false,
       "Time in MPI collective communication"},
      {M::MpiEarlyreduce, "mpi_earlyreduce", M::MpiCollective, "Early Reduce", "sec", true,
       "The root of a reduce/gather waiting for the last sender"},
      {M::MpiEarlyscan, "mpi_earlyscan", M::MpiCollective, "Early Scan", "sec", true,
       "A scan waiting for a lower rank"},
      {M::MpiLatebroadcast, "mpi_latebroadcast", M::MpiCollective, "Late Broadcast", "sec", true,
       "Receivers of a broadcast/scatter waiting for the root"},
      {M::MpiWaitNxn, "mpi_wait_nxn", M::MpiCollective, "Wait at N x N", "sec", true,
       "Waiting in an all-to-all collective for the last location to enter it"},
      {M::MpiNxnCompletion, "mpi_nxn_completion", M::MpiCollective, "N x N Completion", "sec", true,
       "Time in an all-to-all collective after the first location left it"},
      {M::MpiRmaCommunication, "mpi_rma_communication", M::MpiCommunication, "One-sided", "sec", false,
       "Time in MPI_Put, MPI_Get, MPI_Accumulate and kin"},
      {M::MpiRmaCommLatePost, "mpi_rma_comm_late_post", M::MpiRmaCommunication, "Late Post (communication)",
       "sec", true,
       "An MPI_Put/Get of an access epoch running when the last target's MPI_Win_post was "
       "entered (not inside MPI_Win_complete or MPI_Win_start): that post's enter - the "
       "operation's start"},
      {M::MpiRmaCommLockCompetition, "mpi_rma_comm_lock_competition", M::MpiRmaCommunication,
       "Lock Competition (communication)", "sec", true,
       "Lock Competition where the lock was taken inside an MPI_Put/Get (lazily acquired)"},
      {M::MpiIo, "mpi_io", M::Mpi, "File I/O", "sec", false, "Time in MPI file I/O"},
      {M::Comp, "comp", M::Execution, "Computation", "sec", false, "Time outside MPI"},
      {M::Visits, "visits", root, "Visits", "occ", false, "Number of times a call path was entered"},
      {M::BytesSent, "bytes_sent", root, "Bytes sent", "bytes", false, "Bytes sent (point-to-point and collective)"},
      {M::BytesRcvd, "bytes_rcvd", root, "Bytes received", "bytes", false, "Bytes received (point-to-point and collective)"},
  };
  return table;
}

const MetricInfo& metric_info(Metric metric) {
  return metric_table()[static_cast<std::size_t>(metric)];
}

}  // namespace earl::analysis

#include "analysis/severities.h"

namespace earl::analysis {

const char* problem_name(Problem problem) {
  switch (problem) {
    case Problem::UnmatchedSend: return "unmatched_send";
    case Problem::UnmatchedRecv: return "unmatched_recv";
    case Problem::ExitOnEmptyStack: return "exit_on_empty_stack";
    case Problem::MismatchedExit: return "mismatched_exit";
    case Problem::UnclosedRegion: return "unclosed_region";
    case Problem::ClockViolationP2P: return "clock_violation_p2p";
    case Problem::ClockViolationCollective: return "clock_violation_collective";
    case Problem::IncompleteCollective: return "incomplete_collective";
    case Problem::MismatchedCollective: return "mismatched_collective";
    case Problem::CollectiveRootUnknown: return "collective_root_unknown";
    case Problem::UnmatchedRmaEpoch: return "unmatched_rma_epoch";
    case Problem::TimeOrder: return "time_order";
    case Problem::UnresolvedReference: return "unresolved_reference";
    case Problem::Count: break;
  }
  return "?";
}

}  // namespace earl::analysis

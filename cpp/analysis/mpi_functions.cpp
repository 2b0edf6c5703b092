#include "analysis/mpi_functions.h"

#include <cctype>
#include <unordered_map>

namespace earl::analysis {

namespace {

struct Known {
  Metric metric;
  CallRole role;
};

// MPI functions by name (after "MPI_", lower case). Functions not listed are classified
// by their prefix below.
const std::unordered_map<std::string, Known>& known_functions() {
  using M = Metric;
  using R = CallRole;
  static const std::unordered_map<std::string, Known> table = {
      {"recv", {M::MpiPoint2point, R::Recv}},
      {"sendrecv", {M::MpiPoint2point, R::Sendrecv}},
      {"sendrecv_replace", {M::MpiPoint2point, R::Sendrecv}},
      {"wait", {M::MpiPoint2point, R::Wait}},
      {"waitany", {M::MpiPoint2point, R::Wait}},
      {"waitall", {M::MpiPoint2point, R::WaitMany}},
      {"waitsome", {M::MpiPoint2point, R::WaitMany}},
      {"test", {M::MpiPoint2point, R::Test}},
      {"testany", {M::MpiPoint2point, R::Test}},
      {"testall", {M::MpiPoint2point, R::Test}},
      {"testsome", {M::MpiPoint2point, R::Test}},
      {"send", {M::MpiPoint2point, R::BlockingSend}},
      {"ssend", {M::MpiPoint2point, R::BlockingSend}},
      {"bsend", {M::MpiPoint2point, R::None}},
      {"rsend", {M::MpiPoint2point, R::None}},
      {"isend", {M::MpiPoint2point, R::NonBlockingSend}},
      {"issend", {M::MpiPoint2point, R::NonBlockingSend}},
      {"ibsend", {M::MpiPoint2point, R::None}},
      {"irsend", {M::MpiPoint2point, R::None}},
      {"irecv", {M::MpiPoint2point, R::None}},
      {"probe", {M::MpiPoint2point, R::None}},
      {"iprobe", {M::MpiPoint2point, R::None}},
      {"mprobe", {M::MpiPoint2point, R::None}},
      {"improbe", {M::MpiPoint2point, R::None}},
      {"mrecv", {M::MpiPoint2point, R::Recv}},
      {"imrecv", {M::MpiPoint2point, R::None}},
      {"start", {M::MpiPoint2point, R::None}},
      {"startall", {M::MpiPoint2point, R::None}},
      {"barrier", {M::MpiSyncCollective, R::Barrier}},
      {"ibarrier", {M::MpiSyncCollective, R::None}},
      {"allgather", {M::MpiCollective, R::NxN}},
      {"allgatherv", {M::MpiCollective, R::NxN}},
      {"alltoall", {M::MpiCollective, R::NxN}},
      {"allreduce", {M::MpiCollective, R::NxN}},
      {"reduce_scatter", {M::MpiCollective, R::NxN}},
      {"reduce_scatter_block", {M::MpiCollective, R::NxN}},
      {"alltoallv", {M::MpiCollective, R::OtherCollective}},
      {"alltoallw", {M::MpiCollective, R::OtherCollective}},
      {"bcast", {M::MpiCollective, R::OneToN}},
      {"scatter", {M::MpiCollective, R::OneToN}},
      {"scatterv", {M::MpiCollective, R::OneToN}},
      {"reduce", {M::MpiCollective, R::NToOne}},
      {"gather", {M::MpiCollective, R::NToOne}},
      {"gatherv", {M::MpiCollective, R::NToOne}},
      {"scan", {M::MpiCollective, R::Scan}},
      {"exscan", {M::MpiCollective, R::Scan}},
      {"init", {M::MpiInitExit, R::Init}},
      {"init_thread", {M::MpiInitExit, R::Init}},
      {"finalize", {M::MpiInitExit, R::Finalize}},
      {"win_create", {M::MpiMgmtWin, R::WinCreate}},
      {"win_allocate", {M::MpiMgmtWin, R::WinCreate}},
      {"win_allocate_shared", {M::MpiMgmtWin, R::WinCreate}},
      {"win_create_dynamic", {M::MpiMgmtWin, R::WinCreate}},
      {"win_free", {M::MpiMgmtWin, R::WinFree}},
      {"win_fence", {M::MpiRmaSynchronization, R::WinFence}},
      {"win_post", {M::MpiRmaSynchronization, R::WinPost}},
      {"win_start", {M::MpiRmaSynchronization, R::WinStart}},
      {"win_complete", {M::MpiRmaSynchronization, R::WinComplete}},
      {"win_wait", {M::MpiRmaSynchronization, R::WinWait}},
      {"put", {M::MpiRmaCommunication, R::None}},
      {"get", {M::MpiRmaCommunication, R::None}},
      {"accumulate", {M::MpiRmaCommunication, R::None}},
      {"get_accumulate", {M::MpiRmaCommunication, R::None}},
      {"fetch_and_op", {M::MpiRmaCommunication, R::None}},
      {"compare_and_swap", {M::MpiRmaCommunication, R::None}},
      {"rput", {M::MpiRmaCommunication, R::None}},
      {"rget", {M::MpiRmaCommunication, R::None}},
      {"raccumulate", {M::MpiRmaCommunication, R::None}},
      {"rget_accumulate", {M::MpiRmaCommunication, R::None}},
  };
  return table;
}

bool starts_with(const std::string& s, const char* prefix) {
  return s.compare(0, std::char_traits<char>::length(prefix), prefix) == 0;
}

}  // namespace

RegionClass classify_region(const std::string& name) {
  std::string lower;
  lower.reserve(name.size());
  for (char c : name) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::string function;
  if (starts_with(lower, "mpi_")) function = lower.substr(4);
  else if (starts_with(lower, "pmpi_")) function = lower.substr(5);
  else return {};

  RegionClass out;
  out.is_mpi = true;
  const auto& table = known_functions();
  if (auto it = table.find(function); it != table.end()) {
    out.metric = it->second.metric;
    out.role = it->second.role;
    return out;
  }
  if (starts_with(function, "file_")) out.metric = Metric::MpiIo;
  else if (starts_with(function, "win_")) out.metric = Metric::MpiRmaSynchronization;
  else if (starts_with(function, "comm_") || starts_with(function, "group_") ||
           starts_with(function, "cart_") || starts_with(function, "graph_") ||
           starts_with(function, "intercomm_"))
    out.metric = Metric::MpiManagement;
  else if (function.size() > 1 && function[0] == 'i' &&
           table.count(function.substr(1)) && is_collective(table.at(function.substr(1)).role)) {
    out.metric = Metric::MpiCollective;  // non-blocking collectives: no pattern
    out.role = CallRole::None;
  } else {
    out.metric = Metric::Mpi;
  }
  return out;
}

}  // namespace earl::analysis

#include "analysis/mpi_functions.h"

#include <cctype>
#include <regex>
#include <unordered_map>
#include <vector>

namespace earl::analysis {

namespace {

// The role of each MPI function the patterns judge, by name (after "MPI_", lower case);
// every other function has none.
const std::unordered_map<std::string, CallRole>& roles() {
  using R = CallRole;
  static const std::unordered_map<std::string, CallRole> table = {
      {"recv", R::Recv},
      {"mrecv", R::Recv},
      {"sendrecv", R::Sendrecv},
      {"sendrecv_replace", R::Sendrecv},
      {"wait", R::Wait},
      {"waitany", R::Wait},
      {"waitall", R::WaitMany},
      {"waitsome", R::WaitMany},
      {"test", R::Test},
      {"testany", R::Test},
      {"testall", R::Test},
      {"testsome", R::Test},
      {"send", R::BlockingSend},
      {"ssend", R::BlockingSend},
      {"isend", R::NonBlockingSend},
      {"issend", R::NonBlockingSend},
      {"barrier", R::Barrier},
      {"allgather", R::NxN},
      {"allgatherv", R::NxN},
      {"alltoall", R::NxN},
      {"allreduce", R::NxN},
      {"reduce_scatter", R::NxN},
      {"reduce_scatter_block", R::NxN},
      {"alltoallv", R::OtherCollective},
      {"alltoallw", R::OtherCollective},
      {"bcast", R::OneToN},
      {"scatter", R::OneToN},
      {"scatterv", R::OneToN},
      {"reduce", R::NToOne},
      {"gather", R::NToOne},
      {"gatherv", R::NToOne},
      {"scan", R::Scan},
      {"exscan", R::Scan},
      {"init", R::Init},
      {"init_thread", R::Init},
      {"finalize", R::Finalize},
      {"win_create", R::WinCreate},
      {"win_allocate", R::WinCreate},
      {"win_allocate_shared", R::WinCreate},
      {"win_create_dynamic", R::WinCreate},
      {"win_free", R::WinFree},
      {"win_fence", R::WinFence},
      {"win_post", R::WinPost},
      {"win_start", R::WinStart},
      {"win_complete", R::WinComplete},
      {"win_wait", R::WinWait},
  };
  return table;
}

struct ClassRule {
  std::regex functions;  // the whole name after "MPI_", lower case
  Metric metric;
};

// The class metric of an MPI function's time, as Scalasca 2.6 categorises call paths when
// it builds its metric tree (share/scout.spec: by Score-P's region role where it tests
// one, which these names stand for); the first rule that matches wins, and a function
// none matches counts to `mpi` itself.
const std::vector<ClassRule>& class_rules() {
  using M = Metric;
  static const std::vector<ClassRule> rules = [] {
    const std::vector<std::pair<const char*, Metric>> patterns = {
        {"init(_thread|ialized)?|finalized?", M::MpiInitExit},
        {"cart_(coords|create|get|map|rank|shift|sub)|cartdim_get|comm_(accept|compare|connect|"
         "create(_group|_keyval)?|delete_attr|disconnect|dup(_with_info)?|free(_keyval)?|"
         "get_(attr|info|name|parent)|group|idup|join|rank|remote_(group|size)|set_(attr|info|name)|size|"
         "spawn(_multiple)?|split(_type)?|test_inter)|dims_create|dist_graph_(create(_adjacent)?|"
         "neighbors(_count)?)|graph_(create|get|map|neighbors(_count)?)|graphdims_get|"
         "intercomm_(create|merge)|topo_test|(close|open)_port|(lookup|publish|unpublish)_name",
         M::MpiMgmtComm},
        {"file_(close|delete|get_(amode|atomicity|byte_offset|group|info|position(_shared)?|size|"
         "type_extent|view)|open|preallocate|seek(_shared)?|set_(atomicity|info|size|view)|sync)",
         M::MpiMgmtFile},
        {"win_(allocate(_shared)?|attach|create(_dynamic|_keyval)?|delete_attr|detach|free(_keyval)?|"
         "get_(attr|group|info|name)|set_(attr|info|name)|shared_query)",
         M::MpiMgmtWin},
        {"i?barrier", M::MpiSyncCollective},  // Score-P's barrier role
        {"win_(complete|fence|post|start|test|wait)", M::MpiRmaSyncActive},
        {"win_((flush(_local)?|lock|unlock)(_all)?|sync)", M::MpiRmaSyncPassive},
        // Score-P's point2point role, and the waits and tests
        {"(test|wait)(all|any|some)?|i?[bsr]?send|[bsr]?send_init|i?recv|recv_init|sendrecv(_replace)?|"
         "i?m?probe|i?mrecv",
         M::MpiPoint2point},
        // Score-P's one2all, all2one, all2all and other collective roles
        {"i?(allgatherv?|alltoall[vw]?|allreduce|reduce_scatter(_block)?|bcast|scatterv?|reduce|gatherv?|"
         "scan|exscan)|i?neighbor_(allgatherv?|alltoall[vw]?)",
         M::MpiCollective},
        {"r?put|r?get|r?accumulate|r?get_accumulate|fetch_and_op|compare_and_swap",  // rma, atomic roles
         M::MpiRmaCommunication},
        {"file_i?(read|write)(_at|_shared)?", M::MpiIoIndividual},
        {"file_((iread|iwrite)_(all|at_all)|(read|write)_(all|at_all|ordered)(_begin|_end)?)",
         M::MpiIoCollective},
    };
    std::vector<ClassRule> out;
    for (const auto& [pattern, metric] : patterns) out.push_back({std::regex(pattern), metric});
    return out;
  }();
  return rules;
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
  out.metric = Metric::Mpi;
  for (const ClassRule& rule : class_rules())
    if (std::regex_match(function, rule.functions)) {
      out.metric = rule.metric;
      break;
    }
  const auto& table = roles();
  if (auto it = table.find(function); it != table.end()) out.role = it->second;
  return out;
}

}  // namespace earl::analysis

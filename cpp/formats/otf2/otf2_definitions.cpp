#include "formats/otf2/otf2_definitions.h"

#include "formats/otf2/otf2_paradigms.h"
#include "formats/otf2/otf2_region_roles.h"
#include "model/error.h"

namespace earl {

namespace {

struct RawGroup {
  OTF2_GroupType type;
  OTF2_Paradigm paradigm;
  std::vector<std::uint64_t> members;
};

struct RawRegion {
  std::uint64_t id;
  OTF2_StringRef name, canonical_name, description, file;
  OTF2_RegionRole role;
  OTF2_Paradigm paradigm;
  std::uint32_t begin_line, end_line;
};

struct RawSystemNode {
  OTF2_SystemTreeNodeRef id;
  OTF2_StringRef name, kind;
  OTF2_SystemTreeNodeRef parent;
};

struct RawLocationGroup {
  OTF2_LocationGroupRef id;
  OTF2_StringRef name;
  OTF2_SystemTreeNodeRef node;
};

// What the callbacks collect; resolved into Otf2Definitions once all are read, because
// OTF2 does not promise that a definition precedes the ones referring to it.
struct Collector {
  Otf2Definitions* out;
  std::unordered_map<std::uint64_t, OTF2_StringRef> location_group_names;
  std::vector<RawLocationGroup> location_groups;
  std::vector<RawSystemNode> system_nodes;
  struct RawLocation {
    OTF2_LocationRef id;
    OTF2_StringRef name;
    OTF2_LocationGroupRef group;
    std::uint64_t records;
  };
  std::vector<RawLocation> locations;
  std::vector<RawRegion> regions;
  std::unordered_map<std::uint64_t, RawGroup> groups;
  std::unordered_map<std::uint64_t, OTF2_GroupRef> comm_groups;
  std::unordered_map<std::uint64_t, std::vector<OTF2_MetricMemberRef>> metric_classes;
  std::unordered_map<std::uint64_t, std::uint64_t> metric_instances;  // instance -> class
  struct RawMember {
    OTF2_MetricMemberRef id;
    OTF2_StringRef name, description, unit;
    OTF2_MetricType source;
    OTF2_MetricMode mode;
    OTF2_Type value_type;
    OTF2_Base base;
    std::int64_t exponent;
  };
  std::vector<RawMember> members;
  std::unordered_map<std::uint64_t, OTF2_StringRef> parameters;
  // The first id defined twice (the official reader rejects such archives too; reading on
  // would give one location's events to another, or free a reader still in use).
  std::string duplicate;
  std::unordered_map<std::string, std::unordered_map<std::uint64_t, bool>> seen;

  void define(const char* kind, std::uint64_t id) {
    if (seen[kind].emplace(id, true).second || !duplicate.empty()) return;
    duplicate = std::string("two ") + kind + " definitions with id " + std::to_string(id);
  }
};

Collector& collector(void* data) { return *static_cast<Collector*>(data); }

OTF2_CallbackCode on_clock(void* data, uint64_t resolution, uint64_t offset, uint64_t length, uint64_t) {
  collector(data).out->timer_resolution = resolution == 0 ? 1 : resolution;
  collector(data).out->global_offset = offset;
  collector(data).out->trace_length = length;
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_string(void* data, OTF2_StringRef self, const char* text) {
  collector(data).define("String", self);
  collector(data).out->strings[self] = text ? text : "";
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_location_group(void* data, OTF2_LocationGroupRef self, OTF2_StringRef name,
                                    OTF2_LocationGroupType, OTF2_SystemTreeNodeRef node,
                                    OTF2_LocationGroupRef) {
  collector(data).define("LocationGroup", self);
  collector(data).location_group_names[self] = name;
  collector(data).location_groups.push_back({self, name, node});
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_system_tree_node(void* data, OTF2_SystemTreeNodeRef self, OTF2_StringRef name,
                                      OTF2_StringRef kind, OTF2_SystemTreeNodeRef parent) {
  collector(data).define("SystemTreeNode", self);
  collector(data).system_nodes.push_back({self, name, kind, parent});
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_location(void* data, OTF2_LocationRef self, OTF2_StringRef name,
                              OTF2_LocationType, uint64_t records, OTF2_LocationGroupRef group) {
  collector(data).define("Location", self);
  collector(data).locations.push_back({self, name, group, records});
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_region(void* data, OTF2_RegionRef self, OTF2_StringRef name,
                            OTF2_StringRef canonical_name, OTF2_StringRef description,
                            OTF2_RegionRole role, OTF2_Paradigm paradigm, OTF2_RegionFlag,
                            OTF2_StringRef file, uint32_t begin_line, uint32_t end_line) {
  collector(data).define("Region", self);
  collector(data).regions.push_back(
      {self, name, canonical_name, description, file, role, paradigm, begin_line, end_line});
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_group(void* data, OTF2_GroupRef self, OTF2_StringRef, OTF2_GroupType type,
                           OTF2_Paradigm paradigm, OTF2_GroupFlag, uint32_t count,
                           const uint64_t* members) {
  collector(data).define("Group", self);
  collector(data).groups[self] = RawGroup{type, paradigm, std::vector<std::uint64_t>(members, members + count)};
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_comm(void* data, OTF2_CommRef self, OTF2_StringRef, OTF2_GroupRef group,
                          OTF2_CommRef, OTF2_CommFlag) {
  collector(data).define("Comm", self);
  collector(data).comm_groups[self] = group;
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_window(void* data, OTF2_RmaWinRef self, OTF2_StringRef, OTF2_CommRef comm,
                            OTF2_RmaWinFlag) {
  collector(data).define("RmaWin", self);
  collector(data).out->window_comm[self] = comm;
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_metric_member(void* data, OTF2_MetricMemberRef self, OTF2_StringRef name,
                                   OTF2_StringRef description, OTF2_MetricType source,
                                   OTF2_MetricMode mode, OTF2_Type value_type, OTF2_Base base,
                                   int64_t exponent, OTF2_StringRef unit) {
  collector(data).define("MetricMember", self);
  collector(data).members.push_back({self, name, description, unit, source, mode, value_type, base, exponent});
  return OTF2_CALLBACK_SUCCESS;
}

const char* metric_mode_name(OTF2_MetricMode mode) {
  switch (mode) {
    case OTF2_METRIC_ACCUMULATED_START: return "accumulated_start";
    case OTF2_METRIC_ACCUMULATED_POINT: return "accumulated_point";
    case OTF2_METRIC_ACCUMULATED_LAST: return "accumulated_last";
    case OTF2_METRIC_ACCUMULATED_NEXT: return "accumulated_next";
    case OTF2_METRIC_ABSOLUTE_POINT: return "absolute_point";
    case OTF2_METRIC_ABSOLUTE_LAST: return "absolute_last";
    case OTF2_METRIC_ABSOLUTE_NEXT: return "absolute_next";
    case OTF2_METRIC_RELATIVE_POINT: return "relative_point";
    case OTF2_METRIC_RELATIVE_LAST: return "relative_last";
    case OTF2_METRIC_RELATIVE_NEXT: return "relative_next";
  }
  return "unknown";
}

MetricSum metric_sum(OTF2_MetricMode mode) {
  switch (mode) {
    case OTF2_METRIC_ACCUMULATED_START:
    case OTF2_METRIC_ACCUMULATED_POINT: return MetricSum::Difference;
    case OTF2_METRIC_ACCUMULATED_LAST:
    case OTF2_METRIC_RELATIVE_LAST: return MetricSum::Sample;
    default: return MetricSum::None;
  }
}

const char* metric_source_name(OTF2_MetricType source) {
  switch (source) {
    case OTF2_METRIC_TYPE_PAPI: return "papi";
    case OTF2_METRIC_TYPE_RUSAGE: return "rusage";
    case OTF2_METRIC_TYPE_USER: return "user";
    default: return "other";
  }
}

// The type metric records give the member's values (otf2_records.cpp reads them the same way).
const char* metric_value_type(OTF2_Type type) {
  switch (type) {
    case OTF2_TYPE_DOUBLE: return "double";
    case OTF2_TYPE_UINT64: return "uint64";
    default: return "int64";
  }
}

OTF2_CallbackCode on_metric_class(void* data, OTF2_MetricRef self, uint8_t count,
                                  const OTF2_MetricMemberRef* members, OTF2_MetricOccurrence,
                                  OTF2_RecorderKind) {
  collector(data).define("Metric", self);
  collector(data).metric_classes[self] = std::vector<OTF2_MetricMemberRef>(members, members + count);
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_metric_instance(void* data, OTF2_MetricRef self, OTF2_MetricRef metric_class,
                                     OTF2_LocationRef, OTF2_MetricScope, uint64_t) {
  collector(data).define("Metric", self);
  collector(data).metric_instances[self] = metric_class;
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_parameter(void* data, OTF2_ParameterRef self, OTF2_StringRef name,
                               OTF2_ParameterType) {
  collector(data).define("Parameter", self);
  collector(data).parameters[self] = name;
  return OTF2_CALLBACK_SUCCESS;
}

// Rank -> location of a communicator: its group lists, per rank, an index into the
// COMM_LOCATIONS group of the same paradigm, whose members are OTF2 location ids.
std::vector<Location> ranks_of(const Collector& c, const RawGroup& group) {
  const Otf2Definitions& defs = *c.out;
  std::vector<Location> ranks;
  auto location = [&defs](std::uint64_t id) -> Location {
    auto found = defs.location_of.find(id);
    return found == defs.location_of.end() ? -1 : found->second;
  };
  if (group.type == OTF2_GROUP_TYPE_COMM_GROUP) {
    const RawGroup* comm_locations = nullptr;
    for (const auto& entry : c.groups)
      if (entry.second.type == OTF2_GROUP_TYPE_COMM_LOCATIONS &&
          entry.second.paradigm == group.paradigm)
        comm_locations = &entry.second;
    for (std::uint64_t index : group.members)
      ranks.push_back(comm_locations && index < comm_locations->members.size()
                          ? location(comm_locations->members[index])
                          : -1);
  } else if (group.type == OTF2_GROUP_TYPE_LOCATIONS ||
             group.type == OTF2_GROUP_TYPE_COMM_LOCATIONS) {
    for (std::uint64_t id : group.members) ranks.push_back(location(id));
  }
  return ranks;
}

// The levels of the system tree, parents as indices; a parent the archive does not define,
// or one that would close a cycle, makes a root.
std::vector<SystemTree::Level> system_levels(const Collector& c) {
  const Otf2Definitions& defs = *c.out;
  std::unordered_map<std::uint64_t, std::int64_t> index;
  for (const RawSystemNode& raw : c.system_nodes)
    index.emplace(raw.id, static_cast<std::int64_t>(index.size()));
  std::vector<SystemTree::Level> levels;
  for (const RawSystemNode& raw : c.system_nodes) {
    auto parent = index.find(raw.parent);
    levels.push_back({defs.string(raw.name), defs.string(raw.kind),
                      parent == index.end() ? -1 : parent->second});
  }
  enum : std::uint8_t { kUnseen, kOnPath, kDone };
  std::vector<std::uint8_t> state(levels.size(), kUnseen);
  std::vector<std::int64_t> path;
  for (std::size_t start = 0; start < levels.size(); ++start) {
    path.clear();
    std::int64_t at = static_cast<std::int64_t>(start);
    while (at >= 0 && state[at] == kUnseen) {
      state[at] = kOnPath;
      path.push_back(at);
      at = levels[at].parent;
    }
    if (at >= 0 && state[at] == kOnPath) levels[path.back()].parent = -1;
    for (std::int64_t level : path) state[level] = kDone;
  }
  return levels;
}

// The system tree of the archive, or none unless every location is in a location group
// and every group on a system tree node (a Cube file places each location by them).
SystemTree system_tree(const Collector& c) {
  const Otf2Definitions& defs = *c.out;
  SystemTree tree;
  tree.levels = system_levels(c);
  std::unordered_map<std::uint64_t, std::int64_t> level_of, process_of;
  for (std::size_t i = 0; i < c.system_nodes.size(); ++i)
    level_of.emplace(c.system_nodes[i].id, static_cast<std::int64_t>(i));
  for (const RawLocationGroup& raw : c.location_groups) {
    auto level = level_of.find(raw.node);
    if (level == level_of.end()) return {};
    process_of.emplace(raw.id, static_cast<std::int64_t>(tree.processes.size()));
    tree.processes.push_back({defs.string(raw.name), static_cast<std::int64_t>(raw.id), level->second});
  }
  for (const auto& raw : c.locations) {
    auto process = process_of.find(raw.group);
    if (process == process_of.end()) return {};
    tree.location_process.push_back(process->second);
  }
  return tree;
}

}  // namespace

const std::string& Otf2Definitions::string(std::uint64_t ref) const {
  static const std::string empty;
  auto found = strings.find(ref);
  return found == strings.end() ? empty : found->second;
}

Location Otf2Definitions::rank_location(std::uint64_t comm, std::uint64_t rank, Location self) const {
  auto self_comm = comm_is_self.find(comm);
  if (self_comm != comm_is_self.end() && self_comm->second) return rank == 0 ? self : -1;
  auto found = comm_ranks.find(comm);
  if (found == comm_ranks.end() || rank >= found->second.size()) return -1;
  return found->second[rank];
}

void read_otf2_definitions(OTF2_Reader* reader, const std::string& archive, Otf2Definitions& out) {
  OTF2_GlobalDefReader* definitions = OTF2_Reader_GetGlobalDefReader(reader);
  if (!definitions) throw EarlError(archive + ": cannot read the global definitions (missing or damaged .def file)");
  Collector c;
  c.out = &out;
  OTF2_GlobalDefReaderCallbacks* callbacks = OTF2_GlobalDefReaderCallbacks_New();
  OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(callbacks, on_clock);
  OTF2_GlobalDefReaderCallbacks_SetStringCallback(callbacks, on_string);
  OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(callbacks, on_location_group);
  OTF2_GlobalDefReaderCallbacks_SetLocationCallback(callbacks, on_location);
  OTF2_GlobalDefReaderCallbacks_SetSystemTreeNodeCallback(callbacks, on_system_tree_node);
  OTF2_GlobalDefReaderCallbacks_SetRegionCallback(callbacks, on_region);
  OTF2_GlobalDefReaderCallbacks_SetGroupCallback(callbacks, on_group);
  OTF2_GlobalDefReaderCallbacks_SetCommCallback(callbacks, on_comm);
  OTF2_GlobalDefReaderCallbacks_SetRmaWinCallback(callbacks, on_window);
  OTF2_GlobalDefReaderCallbacks_SetMetricMemberCallback(callbacks, on_metric_member);
  OTF2_GlobalDefReaderCallbacks_SetMetricClassCallback(callbacks, on_metric_class);
  OTF2_GlobalDefReaderCallbacks_SetMetricInstanceCallback(callbacks, on_metric_instance);
  OTF2_GlobalDefReaderCallbacks_SetParameterCallback(callbacks, on_parameter);
  OTF2_Reader_RegisterGlobalDefCallbacks(reader, definitions, callbacks, &c);
  OTF2_GlobalDefReaderCallbacks_Delete(callbacks);
  uint64_t read = 0;
  OTF2_ErrorCode status = OTF2_Reader_ReadAllGlobalDefinitions(reader, definitions, &read);
  OTF2_Reader_CloseGlobalDefReader(reader, definitions);
  if (status != OTF2_SUCCESS)
    throw EarlError(archive + ": reading the global definitions failed: " + OTF2_Error_GetDescription(status));
  if (!c.duplicate.empty())
    throw EarlError(archive + ": the global definitions are inconsistent: " + c.duplicate);
  if (c.locations.size() > static_cast<std::size_t>(kMaxLocations))
    throw EarlError(archive + ": the global definitions define " + std::to_string(c.locations.size()) +
                    " locations, more than the " + std::to_string(kMaxLocations) + " EARL reads");

  Definitions& earl = out.earl;
  earl.declared_end = static_cast<double>(out.trace_length) / static_cast<double>(out.timer_resolution);
  for (const auto& raw : c.locations) {
    Location loc = static_cast<Location>(out.location_ids.size());
    out.location_ids.push_back(raw.id);
    out.location_records.push_back(raw.records);
    out.location_of[raw.id] = loc;
    auto group = c.location_group_names.find(raw.group);
    std::string name = out.string(raw.name);
    if (group != c.location_group_names.end()) name = out.string(group->second) + " / " + name;
    earl.name_location(loc, name);
  }
  for (const auto& raw : c.regions) {
    const std::string paradigm = otf2_paradigm_name(raw.paradigm);
    const SymbolId id = earl.define_region(out.string(raw.name), paradigm);
    out.region_of[raw.id] = id;
    if (earl.region_details.size() <= id) earl.region_details.resize(id + 1);
    earl.region_details[id] = {out.string(raw.canonical_name), out.string(raw.description),
                               out.string(raw.file), paradigm, otf2_role_name(raw.role),
                               raw.begin_line, raw.end_line};
  }
  earl.system_tree = system_tree(c);
  for (const auto& [comm, group_ref] : c.comm_groups) {
    auto group = c.groups.find(group_ref);
    if (group == c.groups.end()) continue;
    out.comm_is_self[comm] = group->second.type == OTF2_GROUP_TYPE_COMM_SELF;
    out.comm_ranks[comm] = ranks_of(c, group->second);
    if (group->second.type == OTF2_GROUP_TYPE_COMM_GROUP || group->second.type == OTF2_GROUP_TYPE_LOCATIONS)
      earl.communicator_groups[static_cast<std::int64_t>(comm)] = static_cast<std::int64_t>(group_ref);
    earl.communicator_sizes[static_cast<std::int64_t>(comm)] =
        out.comm_is_self[comm] ? 1u : static_cast<std::uint32_t>(out.comm_ranks[comm].size());
  }
  for (const auto& [ref, group] : c.groups)
    if (group.type == OTF2_GROUP_TYPE_COMM_GROUP || group.type == OTF2_GROUP_TYPE_LOCATIONS)
      earl.location_groups[static_cast<std::int64_t>(ref)] = ranks_of(c, group);
  std::unordered_map<std::uint64_t, std::int64_t> member_index;
  for (const auto& raw : c.members) {
    member_index[raw.id] = static_cast<std::int64_t>(earl.metrics.size());
    earl.metrics.push_back({out.string(raw.name), out.string(raw.unit), out.string(raw.description),
                            metric_mode_name(raw.mode), metric_source_name(raw.source),
                            metric_value_type(raw.value_type), raw.base == OTF2_BASE_BINARY ? 2 : 10,
                            raw.exponent, metric_sum(raw.mode)});
  }
  for (const auto& [metric, members] : c.metric_classes) {
    std::vector<std::int64_t> indices;
    for (OTF2_MetricMemberRef member : members) {
      auto found = member_index.find(member);
      indices.push_back(found == member_index.end() ? -1 : found->second);
    }
    out.metric_members[metric] = indices;
  }
  for (const auto& [instance, metric_class] : c.metric_instances) {
    auto found = out.metric_members.find(metric_class);
    if (found != out.metric_members.end()) out.metric_members[instance] = found->second;
  }
  for (const auto& [parameter, name] : c.parameters) out.parameter_names[parameter] = out.string(name);
}

}  // namespace earl

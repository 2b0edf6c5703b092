#include <otf.h>

#include "formats/otf/otf_handlers.h"

namespace earl {

namespace {

OtfArchive::Raw& raw(void* data) { return *static_cast<OtfArchive::Raw*>(data); }
std::string text(const char* s) { return s ? s : ""; }

int on_timer(void* data, uint32_t, uint64_t ticks, OTF_KeyValueList*) {
  raw(data).ticks_per_second = ticks;
  return OTF_RETURN_OK;
}

int on_process(void* data, uint32_t, uint32_t process, const char* name, uint32_t, OTF_KeyValueList*) {
  raw(data).processes.emplace_back(process, text(name));
  return OTF_RETURN_OK;
}

int on_process_group(void* data, uint32_t, uint32_t group, const char*, uint32_t count, const uint32_t* procs,
                     OTF_KeyValueList*) {
  std::vector<std::uint32_t> members;
  if (procs) members.assign(procs, procs + count);
  raw(data).process_groups.emplace_back(group, std::move(members));
  return OTF_RETURN_OK;
}

int on_function(void* data, uint32_t, uint32_t function, const char* name, uint32_t group, uint32_t,
                OTF_KeyValueList*) {
  raw(data).functions.push_back({function, text(name), group});
  return OTF_RETURN_OK;
}

int on_function_group(void* data, uint32_t, uint32_t group, const char* name, OTF_KeyValueList*) {
  raw(data).function_groups[group] = text(name);
  return OTF_RETURN_OK;
}

int on_counter(void* data, uint32_t, uint32_t counter, const char* name, uint32_t properties, uint32_t,
               const char* unit, OTF_KeyValueList*) {
  raw(data).counters.push_back({counter, text(name), text(unit), properties});
  return OTF_RETURN_OK;
}

int on_file(void* data, uint32_t, uint32_t token, const char* name, uint32_t, OTF_KeyValueList*) {
  raw(data).files[token] = text(name);
  return OTF_RETURN_OK;
}

int on_time_range(void* data, uint32_t, uint64_t first, uint64_t last, OTF_KeyValueList*) {
  raw(data).first_tick = first;
  raw(data).last_tick = last;
  return OTF_RETURN_OK;
}

int on_marker_definition(void* data, uint32_t, uint32_t token, const char* name, uint32_t, OTF_KeyValueList*) {
  raw(data).markers[token] = text(name);
  return OTF_RETURN_OK;
}

int on_unknown(void* data, uint64_t, uint32_t, const char* record) {
  std::string& unreadable = raw(data).unreadable;
  if (unreadable.empty()) unreadable = text(record).substr(0, 60);
  return OTF_RETURN_ABORT;
}

template <typename Handler>
void set(OTF_HandlerArray* handlers, Handler* handler, uint32_t record, void* data) {
  // libotf keeps every handler as int(void*) and calls it with its record's own signature.
  OTF_HandlerArray_setHandler(handlers, reinterpret_cast<OTF_FunctionPointer*>(reinterpret_cast<void*>(handler)), record);
  OTF_HandlerArray_setFirstHandlerArg(handlers, data, record);
}

}  // namespace

void install_definition_handlers(OTF_HandlerArray* handlers, OtfArchive::Raw* raw) {
  set(handlers, on_timer, OTF_DEFTIMERRESOLUTION_RECORD, raw);
  set(handlers, on_process, OTF_DEFPROCESS_RECORD, raw);
  set(handlers, on_process_group, OTF_DEFPROCESSGROUP_RECORD, raw);
  set(handlers, on_function, OTF_DEFFUNCTION_RECORD, raw);
  set(handlers, on_function_group, OTF_DEFFUNCTIONGROUP_RECORD, raw);
  set(handlers, on_counter, OTF_DEFCOUNTER_RECORD, raw);
  set(handlers, on_file, OTF_DEFFILE_RECORD, raw);
  set(handlers, on_time_range, OTF_DEFTIMERANGE_RECORD, raw);
  // Marker definitions sit in the marker file and come with OTF_Reader_readMarkers.
  set(handlers, on_marker_definition, OTF_DEFMARKER_RECORD, raw);
  set(handlers, on_unknown, OTF_UNKNOWN_RECORD, raw);
}

}  // namespace earl

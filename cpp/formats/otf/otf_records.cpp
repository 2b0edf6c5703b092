#include <otf.h>

#include <cstring>

#include "formats/otf/otf_handlers.h"

namespace earl {

namespace {

OtfArchive& archive(void* data) { return *static_cast<OtfArchive*>(data); }

Value string_value(OtfArchive& d, const std::string& text) { return Value::of_string(d.string_value(text)); }

// A format-defined event (EventKind::Other) of type `name`; null when its process is unknown.
Event* other(OtfArchive& d, uint64_t time, uint32_t process, const char* name) {
  return d.emit(time, process, EventKind::Other, d.type_id(name));
}

int on_enter(void* data, uint64_t time, uint32_t function, uint32_t process, uint32_t, OTF_KeyValueList*) {
  OtfArchive& d = archive(data);
  if (Event* e = d.emit(time, process, EventKind::Enter, kEnterType)) e->region = d.region(function, *e);
  return OTF_RETURN_OK;
}

// The leave after a collective operation record ends that collective: its exit carries
// the collective's communicator, root and bytes (EARL 2.1's collective exit).
int on_leave(void* data, uint64_t time, uint32_t function, uint32_t process, uint32_t, OTF_KeyValueList*) {
  OtfArchive& d = archive(data);
  Location loc = d.location_of(process);
  OtfArchive::PendingCollective pending;
  if (loc >= 0) std::swap(pending, d.carry(loc).collective);
  Event* e = d.emit(time, process, pending.valid ? EventKind::CollectiveExit : EventKind::Exit, kExitType);
  if (!e) return OTF_RETURN_OK;
  e->region = d.region(function, *e);
  if (pending.unresolved) e->flags |= kUnresolvedReference;
  if (!pending.valid) return OTF_RETURN_OK;
  e->com = pending.com;
  e->peer = pending.root;
  e->len = pending.sent;
  e->tag = static_cast<std::int64_t>(pending.recvd);
  e->data1 = Value::of_float(d.seconds(pending.begin));
  e->data2 = Value::of_float(d.seconds(pending.end));
  return OTF_RETURN_OK;
}

Event* message(OtfArchive& d, uint64_t time, bool send, uint32_t process, uint32_t other_process, uint32_t group,
               uint32_t tag, uint32_t length) {
  Event* e = d.emit(time, process, send ? EventKind::Send : EventKind::Recv, send ? kSendType : kRecvType);
  if (!e) return nullptr;
  e->peer = d.peer(other_process, *e);
  if (e->peer < 0) e->flags |= kUnresolvedReference;  // a message needs its peer
  e->com = d.communicator(group, *e);
  e->tag = tag;
  e->len = length;
  return e;
}

int on_send(void* data, uint64_t time, uint32_t sender, uint32_t receiver, uint32_t group, uint32_t tag,
            uint32_t length, uint32_t, OTF_KeyValueList*) {
  message(archive(data), time, true, sender, receiver, group, tag, length);
  return OTF_RETURN_OK;
}

int on_recv(void* data, uint64_t time, uint32_t receiver, uint32_t sender, uint32_t group, uint32_t tag,
            uint32_t length, uint32_t, OTF_KeyValueList*) {
  message(archive(data), time, false, receiver, sender, group, tag, length);
  return OTF_RETURN_OK;
}

int on_counter(void* data, uint64_t time, uint32_t process, uint32_t counter, uint64_t value, OTF_KeyValueList*) {
  OtfArchive& d = archive(data);
  Event* e = d.emit(time, process, EventKind::Metric, d.type_id("metric"));
  if (!e) return OTF_RETURN_OK;
  e->tag = d.metric_index(counter);
  if (e->tag >= 0) {
    e->data1 = string_value(d, d.met_definitions().metrics[static_cast<std::size_t>(e->tag)].name);
  } else {
    e->flags |= kUnresolvedReference;
    e->data1 = string_value(d, "counter " + std::to_string(counter));
  }
  if (d.counter_is_double(counter)) {
    double real;
    std::memcpy(&real, &value, sizeof real);
    e->data2 = Value::of_float(real);
  } else if (d.counter_is_signed(counter)) {
    e->data2 = Value::of_int(static_cast<std::int64_t>(value));
  } else {
    e->data2 = Value::of_uint(value);
  }
  return OTF_RETURN_OK;
}

OtfArchive::PendingCollective collective(OtfArchive& d, uint64_t time, uint32_t group, uint32_t root, uint64_t sent,
                                         uint64_t received) {
  OtfArchive::PendingCollective c;
  Event probe;
  c.valid = true;
  c.com = d.communicator(group, probe);
  c.root = d.peer(root, probe);
  c.unresolved = (probe.flags & kUnresolvedReference) != 0;
  c.sent = sent;
  c.recvd = received;
  c.begin = c.end = time;
  return c;
}

// A collective in one record, written at its start with its duration (VampirTrace).
int on_collective(void* data, uint64_t time, uint32_t process, uint32_t, uint32_t group, uint32_t root,
                  uint32_t sent, uint32_t received, uint64_t duration, uint32_t, OTF_KeyValueList*) {
  OtfArchive& d = archive(data);
  Location loc = d.location_of(process);
  if (loc < 0) {
    d.emit(time, process, EventKind::Other, 0);  // notes the unknown process
    return OTF_RETURN_ABORT;
  }
  OtfArchive::PendingCollective c = collective(d, time, group, root, sent, received);
  c.end = time + duration;
  d.carry(loc).collective = c;
  return OTF_RETURN_OK;
}

int on_collective_begin(void* data, uint64_t time, uint32_t process, uint32_t, uint64_t matching, uint32_t group,
                        uint32_t root, uint64_t sent, uint64_t received, uint32_t, OTF_KeyValueList*) {
  OtfArchive& d = archive(data);
  Location loc = d.location_of(process);
  if (loc < 0) {
    d.emit(time, process, EventKind::Other, 0);
    return OTF_RETURN_ABORT;
  }
  d.carry(loc).open[matching] = collective(d, time, group, root, sent, received);
  return OTF_RETURN_OK;
}

int on_collective_end(void* data, uint64_t time, uint32_t process, uint64_t matching, OTF_KeyValueList*) {
  OtfArchive& d = archive(data);
  Location loc = d.location_of(process);
  if (loc < 0) {
    d.emit(time, process, EventKind::Other, 0);
    return OTF_RETURN_ABORT;
  }
  OtfArchive::Carry& carry = d.carry(loc);
  auto begun = carry.open.find(matching);
  if (begun == carry.open.end()) {
    // An end without its begin: the next leave is a plain exit, flagged.
    carry.collective = OtfArchive::PendingCollective();
    carry.collective.unresolved = true;
    return OTF_RETURN_OK;
  }
  carry.collective = begun->second;
  carry.collective.end = time;
  carry.open.erase(begun);
  return OTF_RETURN_OK;
}

const char* file_operation_type(uint32_t operation) {
  switch (operation & OTF_FILEOP_BITS) {
    case OTF_FILEOP_OPEN: return "file_open";
    case OTF_FILEOP_CLOSE: return "file_close";
    case OTF_FILEOP_READ: return "file_read";
    case OTF_FILEOP_WRITE: return "file_write";
    case OTF_FILEOP_SEEK: return "file_seek";
    case OTF_FILEOP_UNLINK: return "file_unlink";
    case OTF_FILEOP_RENAME: return "file_rename";
    case OTF_FILEOP_DUP: return "file_dup";
    case OTF_FILEOP_SYNC: return "file_sync";
    case OTF_FILEOP_LOCK: return "file_lock";
    case OTF_FILEOP_UNLOCK: return "file_unlock";
    default: return "file_other";
  }
}

void file_operation(OtfArchive& d, uint64_t time, uint32_t process, uint32_t file, uint32_t operation,
                    uint64_t bytes) {
  if (Event* e = other(d, time, process, file_operation_type(operation))) {
    e->data1 = string_value(d, d.file_name(file, *e));
    e->data2 = Value::of_uint(bytes);
  }
}

int on_file_operation(void* data, uint64_t time, uint32_t file, uint32_t process, uint64_t, uint32_t operation,
                      uint64_t bytes, uint64_t, uint32_t, OTF_KeyValueList*) {
  file_operation(archive(data), time, process, file, operation, bytes);
  return OTF_RETURN_OK;
}

int on_file_begin(void* data, uint64_t time, uint32_t process, uint64_t matching, uint32_t, OTF_KeyValueList*) {
  OtfArchive& d = archive(data);
  if (Event* e = other(d, time, process, "file_begin")) e->data1 = Value::of_uint(matching);
  return OTF_RETURN_OK;
}

int on_file_end(void* data, uint64_t time, uint32_t process, uint32_t file, uint64_t, uint64_t, uint32_t operation,
                uint64_t bytes, uint32_t, OTF_KeyValueList*) {
  file_operation(archive(data), time, process, file, operation, bytes);
  return OTF_RETURN_OK;
}

int on_comment(void* data, uint64_t time, uint32_t process, const char* text, OTF_KeyValueList*) {
  OtfArchive& d = archive(data);
  if (Event* e = other(d, time, process, "comment")) e->data1 = string_value(d, text ? text : "");
  return OTF_RETURN_OK;
}

int on_begin_process(void* data, uint64_t time, uint32_t process, OTF_KeyValueList*) {
  other(archive(data), time, process, "begin_process");
  return OTF_RETURN_OK;
}

int on_end_process(void* data, uint64_t time, uint32_t process, OTF_KeyValueList*) {
  other(archive(data), time, process, "end_process");
  return OTF_RETURN_OK;
}

// One-sided records keep their peer (as a location) and bytes; EARL's put_1ts/get_1to
// need a window and an operation id that OTF does not record.
void rma(OtfArchive& d, uint64_t time, uint32_t process, const char* name, uint32_t peer_process,
         std::int64_t bytes) {
  if (Event* e = other(d, time, process, name)) {
    e->data1 = Value::of_int(d.peer(peer_process, *e));
    if (bytes >= 0) e->data2 = Value::of_int(bytes);
  }
}

int on_rma_put(void* data, uint64_t time, uint32_t process, uint32_t, uint32_t target, uint32_t, uint32_t,
               uint64_t bytes, uint32_t, OTF_KeyValueList*) {
  rma(archive(data), time, process, "rma_put", target, static_cast<std::int64_t>(bytes));
  return OTF_RETURN_OK;
}

int on_rma_put_remote_end(void* data, uint64_t time, uint32_t process, uint32_t origin, uint32_t, uint32_t,
                          uint32_t, uint64_t bytes, uint32_t, OTF_KeyValueList*) {
  rma(archive(data), time, process, "rma_put_remote_end", origin, static_cast<std::int64_t>(bytes));
  return OTF_RETURN_OK;
}

int on_rma_get(void* data, uint64_t time, uint32_t process, uint32_t, uint32_t target, uint32_t, uint32_t,
               uint64_t bytes, uint32_t, OTF_KeyValueList*) {
  rma(archive(data), time, process, "rma_get", target, static_cast<std::int64_t>(bytes));
  return OTF_RETURN_OK;
}

int on_rma_end(void* data, uint64_t time, uint32_t process, uint32_t remote, uint32_t, uint32_t, uint32_t,
               OTF_KeyValueList*) {
  rma(archive(data), time, process, "rma_end", remote, -1);
  return OTF_RETURN_OK;
}

int on_unknown(void* data, uint64_t time, uint32_t process, const char* record) {
  std::string text = record ? record : "";
  if (text.size() > 60) text = text.substr(0, 60) + "...";
  const bool go_on = archive(data).stream_damaged(
      process, "a record libotf cannot read (process " + std::to_string(process) + ", time " + std::to_string(time) +
                   "): \"" + text + "\" (is the file damaged or cut short?)");
  return go_on ? OTF_RETURN_OK : OTF_RETURN_ABORT;
}

int on_marker(void* data, uint64_t time, uint32_t process, uint32_t token, const char* text, OTF_KeyValueList*) {
  OtfArchive& d = archive(data);
  if (Event* e = other(d, time, process, "marker")) {
    e->data1 = string_value(d, d.marker_name(token, *e));
    e->data2 = string_value(d, text ? text : "");
  }
  return OTF_RETURN_OK;
}

template <typename Handler>
void set(OTF_HandlerArray* handlers, Handler* handler, uint32_t record, void* data) {
  // libotf keeps every handler as int(void*) and calls it with its record's own signature.
  OTF_HandlerArray_setHandler(handlers, reinterpret_cast<OTF_FunctionPointer*>(reinterpret_cast<void*>(handler)), record);
  OTF_HandlerArray_setFirstHandlerArg(handlers, data, record);
}

}  // namespace

void install_event_handlers(OTF_HandlerArray* handlers, OtfArchive* d) {
  set(handlers, on_enter, OTF_ENTER_RECORD, d);
  set(handlers, on_leave, OTF_LEAVE_RECORD, d);
  set(handlers, on_send, OTF_SEND_RECORD, d);
  set(handlers, on_recv, OTF_RECEIVE_RECORD, d);
  set(handlers, on_counter, OTF_COUNTER_RECORD, d);
  set(handlers, on_collective, OTF_COLLOP_RECORD, d);
  set(handlers, on_collective_begin, OTF_BEGINCOLLOP_RECORD, d);
  set(handlers, on_collective_end, OTF_ENDCOLLOP_RECORD, d);
  set(handlers, on_file_operation, OTF_FILEOPERATION_RECORD, d);
  set(handlers, on_file_begin, OTF_BEGINFILEOP_RECORD, d);
  set(handlers, on_file_end, OTF_ENDFILEOP_RECORD, d);
  set(handlers, on_comment, OTF_EVENTCOMMENT_RECORD, d);
  set(handlers, on_begin_process, OTF_BEGINPROCESS_RECORD, d);
  set(handlers, on_end_process, OTF_ENDPROCESS_RECORD, d);
  set(handlers, on_rma_put, OTF_RMAPUT_RECORD, d);
  set(handlers, on_rma_put_remote_end, OTF_RMAPUTRE_RECORD, d);
  set(handlers, on_rma_get, OTF_RMAGET_RECORD, d);
  set(handlers, on_rma_end, OTF_RMAEND_RECORD, d);
  set(handlers, on_unknown, OTF_UNKNOWN_RECORD, d);
}

void install_marker_handlers(OTF_HandlerArray* handlers, OtfArchive* d) {
  set(handlers, on_marker, OTF_MARKER_RECORD, d);
  set(handlers, on_unknown, OTF_UNKNOWN_RECORD, d);
}

}  // namespace earl

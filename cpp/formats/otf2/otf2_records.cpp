// The OTF2 record -> EARL event mapping (docs/api-contract.md, "OTF2"). libotf2 calls one
// of these per record; each appends the record's events to the current stream.
#include "formats/otf2/otf2_records.h"

#include <type_traits>

#include "formats/otf2/otf2_archive.h"

namespace earl {

namespace {

Otf2Archive& archive(void* data) { return *static_cast<Otf2Archive*>(data); }

constexpr OTF2_CallbackCode kOk = OTF2_CALLBACK_SUCCESS;

Location rank_location(Otf2Archive& d, std::uint64_t comm, std::uint64_t rank) {
  return d.otf2().rank_location(comm, rank, d.current().loc);
}

Location window_peer(Otf2Archive& d, OTF2_RmaWinRef window, std::uint64_t rank) {
  auto found = d.otf2().window_comm.find(window);
  if (found == d.otf2().window_comm.end()) return -1;
  return rank_location(d, found->second, rank);
}

Event& other(Otf2Archive& d, OTF2_TimeStamp time, int record) {
  return d.emit(time, EventKind::Other, d.type_id(record));
}

Value string_value(Otf2Archive& d, const std::string& text) {
  return Value::of_string(d.string_value(text));
}

OTF2_CallbackCode on_enter(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* data,
                           OTF2_AttributeList*, OTF2_RegionRef region) {
  Otf2Archive& d = archive(data);
  Event& e = d.emit(time, EventKind::Enter, kEnterType);
  e.region = d.region(region, e);
  return kOk;
}

OTF2_CallbackCode on_leave(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* data,
                           OTF2_AttributeList*, OTF2_RegionRef region) {
  Otf2Archive& d = archive(data);
  auto& pending = d.current().carry.collective;
  if (!pending.valid) {
    Event& e = d.emit(time, EventKind::Exit, kExitType);
    e.region = d.region(region, e);
    return kOk;
  }
  d.note_carry_change();
  Event& e = d.emit(time, EventKind::CollectiveExit, kExitType);
  e.region = d.region(region, e);
  e.com = pending.com;
  e.peer = static_cast<Location>(pending.root);
  e.len = static_cast<std::uint64_t>(pending.sent);
  e.tag = pending.recvd;
  if (pending.begin != Otf2Archive::kNoTick) e.data1 = Value::of_float(d.seconds(pending.begin));
  e.data2 = Value::of_float(d.seconds(pending.end));
  pending = Otf2Archive::PendingCollective();
  return kOk;
}

Event& message(Otf2Archive& d, OTF2_TimeStamp time, bool send, uint32_t rank, OTF2_CommRef comm,
               uint32_t tag, uint64_t length) {
  Event& e = d.emit(time, send ? EventKind::Send : EventKind::Recv, send ? kSendType : kRecvType);
  e.peer = rank_location(d, comm, rank);
  e.tag = tag;
  e.com = comm;
  e.len = length;
  if (e.peer < 0 || !d.otf2().comm_ranks.count(comm)) e.flags |= kUnresolvedReference;
  return e;
}

OTF2_CallbackCode on_send(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* data,
                          OTF2_AttributeList*, uint32_t receiver, OTF2_CommRef comm, uint32_t tag,
                          uint64_t length) {
  message(archive(data), time, true, receiver, comm, tag, length);
  return kOk;
}

OTF2_CallbackCode on_isend(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* data,
                           OTF2_AttributeList*, uint32_t receiver, OTF2_CommRef comm, uint32_t tag,
                           uint64_t length, uint64_t request) {
  // The request links the send to the MpiIsendComplete in the call that completes it (the
  // wait-state analysis); data1 keeps it internally, it is no attribute of a send.
  message(archive(data), time, true, receiver, comm, tag, length).data1 = Value::of_uint(request);
  return kOk;
}

OTF2_CallbackCode on_recv(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* data,
                          OTF2_AttributeList*, uint32_t sender, OTF2_CommRef comm, uint32_t tag,
                          uint64_t length) {
  message(archive(data), time, false, sender, comm, tag, length);
  return kOk;
}

OTF2_CallbackCode on_irecv(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* data,
                           OTF2_AttributeList*, uint32_t sender, OTF2_CommRef comm, uint32_t tag,
                           uint64_t length, uint64_t request) {
  // Links the receive to the MpiIrecvRequest in the MPI_Irecv call that posted it.
  message(archive(data), time, false, sender, comm, tag, length).data1 = Value::of_uint(request);
  return kOk;
}

// The collective's exit carries what its begin and end records say.
OTF2_CallbackCode on_collective_begin(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* data,
                                      OTF2_AttributeList*) {
  Otf2Archive& d = archive(data);
  d.note_carry_change();
  d.current().carry.collective.begin = time;
  return kOk;
}

OTF2_CallbackCode on_collective_end(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* data,
                                    OTF2_AttributeList*, OTF2_CollectiveOp, OTF2_CommRef comm,
                                    uint32_t root, uint64_t sent, uint64_t received) {
  Otf2Archive& d = archive(data);
  d.note_carry_change();
  auto& pending = d.current().carry.collective;
  pending.valid = true;
  pending.com = comm;
  pending.root = root == OTF2_UNDEFINED_UINT32 ? -1 : rank_location(d, comm, root);
  pending.sent = static_cast<std::int64_t>(sent);
  pending.recvd = static_cast<std::int64_t>(received);
  pending.end = time;
  return kOk;
}

OTF2_CallbackCode on_thread_fork(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* data,
                                 OTF2_AttributeList*, OTF2_Paradigm, uint32_t) {
  archive(data).emit(time, EventKind::Fork, archive(data).type_id(kRecFork));
  return kOk;
}

OTF2_CallbackCode on_omp_fork(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* data,
                              OTF2_AttributeList*, uint32_t) {
  archive(data).emit(time, EventKind::Fork, archive(data).type_id(kRecFork));
  return kOk;
}

OTF2_CallbackCode on_thread_join(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* data,
                                 OTF2_AttributeList*, OTF2_Paradigm) {
  archive(data).emit(time, EventKind::Join, archive(data).type_id(kRecJoin));
  return kOk;
}

OTF2_CallbackCode on_omp_join(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* data,
                              OTF2_AttributeList*) {
  archive(data).emit(time, EventKind::Join, archive(data).type_id(kRecJoin));
  return kOk;
}

void thread_lock(Otf2Archive& d, OTF2_TimeStamp time, bool acquire, uint32_t lock) {
  d.emit(time, EventKind::ThreadLock, d.type_id(acquire ? kRecAlock : kRecRlock)).tag = lock;
}

OTF2_CallbackCode on_thread_acquire(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* data,
                                    OTF2_AttributeList*, OTF2_Paradigm, uint32_t lock, uint32_t) {
  thread_lock(archive(data), time, true, lock);
  return kOk;
}

OTF2_CallbackCode on_thread_release(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* data,
                                    OTF2_AttributeList*, OTF2_Paradigm, uint32_t lock, uint32_t) {
  thread_lock(archive(data), time, false, lock);
  return kOk;
}

OTF2_CallbackCode on_omp_acquire(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* data,
                                 OTF2_AttributeList*, uint32_t lock, uint32_t) {
  thread_lock(archive(data), time, true, lock);
  return kOk;
}

OTF2_CallbackCode on_omp_release(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* data,
                                 OTF2_AttributeList*, uint32_t lock, uint32_t) {
  thread_lock(archive(data), time, false, lock);
  return kOk;
}

void rma_start(Otf2Archive& d, OTF2_TimeStamp time, bool get, OTF2_RmaWinRef window,
               uint32_t remote, uint64_t bytes, uint64_t id) {
  Event& e = d.emit(time, EventKind::RmaTransferStart, d.type_id(get ? kRecGetOrigin : kRecPutStart));
  e.com = window;
  e.tag = static_cast<std::int64_t>(id);
  e.peer = window_peer(d, window, remote);
  e.len = bytes;
  if (e.peer < 0) e.flags |= kUnresolvedReference;
  d.note_carry_change();
  d.current().carry.rma.push_back({e.com, e.tag, e.peer, static_cast<std::int64_t>(bytes), get});
}

OTF2_CallbackCode on_rma_put(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* data,
                             OTF2_AttributeList*, OTF2_RmaWinRef window, uint32_t remote,
                             uint64_t bytes, uint64_t id) {
  rma_start(archive(data), time, false, window, remote, bytes, id);
  return kOk;
}

OTF2_CallbackCode on_rma_get(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* data,
                             OTF2_AttributeList*, OTF2_RmaWinRef window, uint32_t remote,
                             uint64_t bytes, uint64_t id) {
  rma_start(archive(data), time, true, window, remote, bytes, id);
  return kOk;
}

// The completion of an open put or get ends its transfer; any other is its own event.
void rma_complete(Otf2Archive& d, OTF2_TimeStamp time, int record, OTF2_RmaWinRef window,
                  uint64_t id) {
  auto& open = d.current().carry.rma;
  for (auto op = open.begin(); op != open.end(); ++op) {
    if (op->window == static_cast<std::int64_t>(window) && op->id == static_cast<std::int64_t>(id)) {
      Event& e = d.emit(time, EventKind::RmaTransferEnd, d.type_id(op->is_get ? kRecGetEnd : kRecPutEnd));
      e.com = op->window;
      e.tag = op->id;
      e.peer = static_cast<Location>(op->peer);
      e.len = static_cast<std::uint64_t>(op->bytes);
      d.note_carry_change();
      open.erase(op);
      return;
    }
  }
  Event& e = other(d, time, record);
  e.data1 = Value::of_int(window);
  e.data2 = Value::of_int(static_cast<std::int64_t>(id));
}

template <int Record>
OTF2_CallbackCode on_rma_complete(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* data,
                                  OTF2_AttributeList*, OTF2_RmaWinRef window, uint64_t id) {
  rma_complete(archive(data), time, Record, window, id);
  return kOk;
}

// RmaRequestLock and RmaAcquireLock both become wlock; which one it was and the lock type
// (the analysis' lock contention) are the attributes exclusive (data1: 1 exclusive, 0
// shared) and request (data2: 1 for a request).
template <bool Request>
OTF2_CallbackCode on_rma_lock(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* data,
                              OTF2_AttributeList*, OTF2_RmaWinRef window, uint32_t remote,
                              uint64_t, OTF2_LockType type) {
  Otf2Archive& d = archive(data);
  Event& e = d.emit(time, EventKind::WindowLock, d.type_id(kRecWlock));
  e.com = window;
  e.peer = window_peer(d, window, remote);
  e.data1 = Value::of_uint(type == OTF2_LOCK_EXCLUSIVE ? 1 : 0);
  e.data2 = Value::of_uint(Request ? 1 : 0);
  return kOk;
}

OTF2_CallbackCode on_rma_release(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* data,
                                 OTF2_AttributeList*, OTF2_RmaWinRef window, uint32_t remote,
                                 uint64_t) {
  Otf2Archive& d = archive(data);
  Event& e = d.emit(time, EventKind::WindowLock, d.type_id(kRecWunlock));
  e.com = window;
  e.peer = window_peer(d, window, remote);
  return kOk;
}

OTF2_CallbackCode on_metric(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* data,
                            OTF2_AttributeList*, OTF2_MetricRef metric, uint8_t count,
                            const OTF2_Type* types, const OTF2_MetricValue* values) {
  Otf2Archive& d = archive(data);
  const auto& members = d.otf2().metric_members;
  const auto& defined = d.otf2().earl.metrics;
  auto indices = members.find(metric);
  for (uint8_t i = 0; i < count; ++i) {
    Event& e = d.emit(time, EventKind::Metric, d.type_id(kRecMetric));
    e.tag = indices != members.end() && i < indices->second.size() ? indices->second[i] : -1;
    if (e.tag >= 0)
      e.data1 = string_value(d, defined[static_cast<std::size_t>(e.tag)].name);
    else
      e.data1 = string_value(d, "metric " + std::to_string(metric) + "[" + std::to_string(i) + "]");
    switch (types[i]) {
      case OTF2_TYPE_DOUBLE: e.data2 = Value::of_float(values[i].floating_point); break;
      case OTF2_TYPE_UINT64: e.data2 = Value::of_uint(values[i].unsigned_int); break;
      default: e.data2 = Value::of_int(values[i].signed_int); break;
    }
  }
  return kOk;
}

OTF2_CallbackCode on_program_begin(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* data,
                                   OTF2_AttributeList*, OTF2_StringRef name, uint32_t arguments,
                                   const OTF2_StringRef*) {
  Otf2Archive& d = archive(data);
  Event& e = other(d, time, kRecProgramBegin);
  e.data1 = string_value(d, d.otf2().string(name));
  e.data2 = Value::of_int(arguments);
  return kOk;
}

OTF2_CallbackCode on_program_end(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* data,
                                 OTF2_AttributeList*, int64_t status) {
  other(archive(data), time, kRecProgramEnd).data1 = Value::of_int(status);
  return kOk;
}

const std::string& parameter_name(Otf2Archive& d, OTF2_ParameterRef parameter) {
  static const std::string unknown = "unknown parameter";
  auto found = d.otf2().parameter_names.find(parameter);
  return found == d.otf2().parameter_names.end() ? unknown : found->second;
}

OTF2_CallbackCode on_parameter_int(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* data,
                                   OTF2_AttributeList*, OTF2_ParameterRef parameter, int64_t value) {
  Otf2Archive& d = archive(data);
  Event& e = other(d, time, kRecParameterInt);
  e.data1 = string_value(d, parameter_name(d, parameter));
  e.data2 = Value::of_int(value);
  return kOk;
}

OTF2_CallbackCode on_parameter_unsigned(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* data,
                                        OTF2_AttributeList*, OTF2_ParameterRef parameter,
                                        uint64_t value) {
  Otf2Archive& d = archive(data);
  Event& e = other(d, time, kRecParameterUnsignedInt);
  e.data1 = string_value(d, parameter_name(d, parameter));
  e.data2 = Value::of_uint(value);
  return kOk;
}

OTF2_CallbackCode on_parameter_string(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* data,
                                      OTF2_AttributeList*, OTF2_ParameterRef parameter,
                                      OTF2_StringRef value) {
  Otf2Archive& d = archive(data);
  Event& e = other(d, time, kRecParameterString);
  e.data1 = string_value(d, parameter_name(d, parameter));
  e.data2 = string_value(d, d.otf2().string(value));
  return kOk;
}

OTF2_CallbackCode on_buffer_flush(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* data,
                                  OTF2_AttributeList*, OTF2_TimeStamp stop) {
  Otf2Archive& d = archive(data);
  other(d, time, kRecBufferFlush).data1 = Value::of_float(d.seconds(stop));
  return kOk;
}

OTF2_CallbackCode on_measurement(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* data,
                                 OTF2_AttributeList*, OTF2_MeasurementMode mode) {
  Otf2Archive& d = archive(data);
  other(d, time, kRecMeasurementOnOff).data1 =
      string_value(d, mode == OTF2_MEASUREMENT_ON ? "on" : "off");
  return kOk;
}

// Any other record: its own type, with its first two integer fields as data1/data2.
template <typename T>
void keep_integer(Event& e, int& kept, T value) {
  if constexpr (std::is_integral_v<T> || std::is_enum_v<T>) {
    Value v = std::is_unsigned_v<T> ? Value::of_uint(static_cast<std::uint64_t>(value))
                                    : Value::of_int(static_cast<std::int64_t>(value));
    if (kept == 0) e.data1 = v;
    if (kept == 1) e.data2 = v;
    ++kept;
  }
}

template <int Record, typename... Fields>
OTF2_CallbackCode on_record(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* data,
                            OTF2_AttributeList*, Fields... fields) {
  Event& e = other(archive(data), time, Record);
  int kept = 0;
  (keep_integer(e, kept, fields), ...);
  (void)kept;  // unused when the record has no fields
  return kOk;
}

// data1 = sync level, data2 = window, as for any record, and the attribute group (tag;
// its members in the definitions); com = window for the analysis.
OTF2_CallbackCode on_rma_group_sync(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* data,
                                   OTF2_AttributeList*, OTF2_RmaSyncLevel level, OTF2_RmaWinRef window,
                                   OTF2_GroupRef group) {
  Event& e = other(archive(data), time, kRecRmaGroupSync);
  e.kind = EventKind::RmaGroupSync;
  e.data1 = Value::of_uint(level);
  e.data2 = Value::of_uint(window);
  e.com = window;
  e.tag = group;
  return kOk;
}

}  // namespace

const char* otf2_record_type_name(int record) {
  static const char* const names[] = {
#define EARL_OTF2_RECORD(id, name) name,
#include "formats/otf2/otf2_record_list.h"
#undef EARL_OTF2_RECORD
  };
  return names[record];
}

void set_otf2_record_callbacks(OTF2_EvtReaderCallbacks* c) {
  OTF2_EvtReaderCallbacks_SetEnterCallback(c, on_enter);
  OTF2_EvtReaderCallbacks_SetLeaveCallback(c, on_leave);
  OTF2_EvtReaderCallbacks_SetMpiSendCallback(c, on_send);
  OTF2_EvtReaderCallbacks_SetMpiIsendCallback(c, on_isend);
  OTF2_EvtReaderCallbacks_SetMpiRecvCallback(c, on_recv);
  OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(c, on_irecv);
  OTF2_EvtReaderCallbacks_SetMpiCollectiveBeginCallback(c, on_collective_begin);
  OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(c, on_collective_end);
  OTF2_EvtReaderCallbacks_SetThreadForkCallback(c, on_thread_fork);
  OTF2_EvtReaderCallbacks_SetThreadJoinCallback(c, on_thread_join);
  OTF2_EvtReaderCallbacks_SetOmpForkCallback(c, on_omp_fork);
  OTF2_EvtReaderCallbacks_SetOmpJoinCallback(c, on_omp_join);
  OTF2_EvtReaderCallbacks_SetThreadAcquireLockCallback(c, on_thread_acquire);
  OTF2_EvtReaderCallbacks_SetThreadReleaseLockCallback(c, on_thread_release);
  OTF2_EvtReaderCallbacks_SetOmpAcquireLockCallback(c, on_omp_acquire);
  OTF2_EvtReaderCallbacks_SetOmpReleaseLockCallback(c, on_omp_release);
  OTF2_EvtReaderCallbacks_SetRmaPutCallback(c, on_rma_put);
  OTF2_EvtReaderCallbacks_SetRmaGetCallback(c, on_rma_get);
  OTF2_EvtReaderCallbacks_SetRmaOpCompleteBlockingCallback(c, on_rma_complete<kRecRmaOpCompleteBlocking>);
  OTF2_EvtReaderCallbacks_SetRmaOpCompleteNonBlockingCallback(c, on_rma_complete<kRecRmaOpCompleteNonBlocking>);
  OTF2_EvtReaderCallbacks_SetRmaOpCompleteRemoteCallback(c, on_rma_complete<kRecRmaOpCompleteRemote>);
  OTF2_EvtReaderCallbacks_SetRmaAcquireLockCallback(c, on_rma_lock<false>);
  OTF2_EvtReaderCallbacks_SetRmaRequestLockCallback(c, on_rma_lock<true>);
  OTF2_EvtReaderCallbacks_SetRmaReleaseLockCallback(c, on_rma_release);
  OTF2_EvtReaderCallbacks_SetMetricCallback(c, on_metric);
  OTF2_EvtReaderCallbacks_SetProgramBeginCallback(c, on_program_begin);
  OTF2_EvtReaderCallbacks_SetProgramEndCallback(c, on_program_end);
  OTF2_EvtReaderCallbacks_SetParameterIntCallback(c, on_parameter_int);
  OTF2_EvtReaderCallbacks_SetParameterUnsignedIntCallback(c, on_parameter_unsigned);
  OTF2_EvtReaderCallbacks_SetParameterStringCallback(c, on_parameter_string);
  OTF2_EvtReaderCallbacks_SetBufferFlushCallback(c, on_buffer_flush);
  OTF2_EvtReaderCallbacks_SetMeasurementOnOffCallback(c, on_measurement);
  OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(c, on_record<kRecMpiIsendComplete>);
  OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(c, on_record<kRecMpiIrecvRequest>);
  OTF2_EvtReaderCallbacks_SetMpiRequestTestCallback(c, on_record<kRecMpiRequestTest>);
  OTF2_EvtReaderCallbacks_SetMpiRequestCancelledCallback(c, on_record<kRecMpiRequestCancelled>);
  OTF2_EvtReaderCallbacks_SetRmaWinCreateCallback(c, on_record<kRecRmaWinCreate>);
  OTF2_EvtReaderCallbacks_SetRmaWinDestroyCallback(c, on_record<kRecRmaWinDestroy>);
  OTF2_EvtReaderCallbacks_SetRmaCollectiveBeginCallback(c, on_record<kRecRmaCollectiveBegin>);
  OTF2_EvtReaderCallbacks_SetRmaCollectiveEndCallback(c, on_record<kRecRmaCollectiveEnd>);
  OTF2_EvtReaderCallbacks_SetRmaGroupSyncCallback(c, on_rma_group_sync);
  OTF2_EvtReaderCallbacks_SetRmaTryLockCallback(c, on_record<kRecRmaTryLock>);
  OTF2_EvtReaderCallbacks_SetRmaSyncCallback(c, on_record<kRecRmaSync>);
  OTF2_EvtReaderCallbacks_SetRmaWaitChangeCallback(c, on_record<kRecRmaWaitChange>);
  OTF2_EvtReaderCallbacks_SetRmaAtomicCallback(c, on_record<kRecRmaAtomic>);
  OTF2_EvtReaderCallbacks_SetRmaOpTestCallback(c, on_record<kRecRmaOpTest>);
  OTF2_EvtReaderCallbacks_SetThreadTeamBeginCallback(c, on_record<kRecThreadTeamBegin>);
  OTF2_EvtReaderCallbacks_SetThreadTeamEndCallback(c, on_record<kRecThreadTeamEnd>);
  OTF2_EvtReaderCallbacks_SetThreadTaskCreateCallback(c, on_record<kRecThreadTaskCreate>);
  OTF2_EvtReaderCallbacks_SetThreadTaskSwitchCallback(c, on_record<kRecThreadTaskSwitch>);
  OTF2_EvtReaderCallbacks_SetThreadTaskCompleteCallback(c, on_record<kRecThreadTaskComplete>);
  OTF2_EvtReaderCallbacks_SetThreadCreateCallback(c, on_record<kRecThreadCreate>);
  OTF2_EvtReaderCallbacks_SetThreadBeginCallback(c, on_record<kRecThreadBegin>);
  OTF2_EvtReaderCallbacks_SetThreadWaitCallback(c, on_record<kRecThreadWait>);
  OTF2_EvtReaderCallbacks_SetThreadEndCallback(c, on_record<kRecThreadEnd>);
  OTF2_EvtReaderCallbacks_SetOmpTaskCreateCallback(c, on_record<kRecOmpTaskCreate>);
  OTF2_EvtReaderCallbacks_SetOmpTaskSwitchCallback(c, on_record<kRecOmpTaskSwitch>);
  OTF2_EvtReaderCallbacks_SetOmpTaskCompleteCallback(c, on_record<kRecOmpTaskComplete>);
  OTF2_EvtReaderCallbacks_SetCallingContextEnterCallback(c, on_record<kRecCallingContextEnter>);
  OTF2_EvtReaderCallbacks_SetCallingContextLeaveCallback(c, on_record<kRecCallingContextLeave>);
  OTF2_EvtReaderCallbacks_SetCallingContextSampleCallback(c, on_record<kRecCallingContextSample>);
  OTF2_EvtReaderCallbacks_SetIoCreateHandleCallback(c, on_record<kRecIoCreateHandle>);
  OTF2_EvtReaderCallbacks_SetIoDestroyHandleCallback(c, on_record<kRecIoDestroyHandle>);
  OTF2_EvtReaderCallbacks_SetIoDuplicateHandleCallback(c, on_record<kRecIoDuplicateHandle>);
  OTF2_EvtReaderCallbacks_SetIoSeekCallback(c, on_record<kRecIoSeek>);
  OTF2_EvtReaderCallbacks_SetIoChangeStatusFlagsCallback(c, on_record<kRecIoChangeStatusFlags>);
  OTF2_EvtReaderCallbacks_SetIoDeleteFileCallback(c, on_record<kRecIoDeleteFile>);
  OTF2_EvtReaderCallbacks_SetIoOperationBeginCallback(c, on_record<kRecIoOperationBegin>);
  OTF2_EvtReaderCallbacks_SetIoOperationTestCallback(c, on_record<kRecIoOperationTest>);
  OTF2_EvtReaderCallbacks_SetIoOperationIssuedCallback(c, on_record<kRecIoOperationIssued>);
  OTF2_EvtReaderCallbacks_SetIoOperationCompleteCallback(c, on_record<kRecIoOperationComplete>);
  OTF2_EvtReaderCallbacks_SetIoOperationCancelledCallback(c, on_record<kRecIoOperationCancelled>);
  OTF2_EvtReaderCallbacks_SetIoAcquireLockCallback(c, on_record<kRecIoAcquireLock>);
  OTF2_EvtReaderCallbacks_SetIoReleaseLockCallback(c, on_record<kRecIoReleaseLock>);
  OTF2_EvtReaderCallbacks_SetIoTryLockCallback(c, on_record<kRecIoTryLock>);
  OTF2_EvtReaderCallbacks_SetCommCreateCallback(c, on_record<kRecCommCreate>);
  OTF2_EvtReaderCallbacks_SetCommDestroyCallback(c, on_record<kRecCommDestroy>);
  OTF2_EvtReaderCallbacks_SetNonBlockingCollectiveRequestCallback(c, on_record<kRecNonBlockingCollectiveRequest>);
  OTF2_EvtReaderCallbacks_SetNonBlockingCollectiveCompleteCallback(c, on_record<kRecNonBlockingCollectiveComplete>);
  OTF2_EvtReaderCallbacks_SetUnknownCallback(c, on_record<kRecUnknown>);
}

}  // namespace earl

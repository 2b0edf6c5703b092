// Outside reference for the OTF2 benchmark: the minimal libotf2 reader, as in the OTF2
// reader examples. It reads every event record of every location through one callback
// that only counts, with no merge by time and no state.
//
// usage: otf2_count ANCHOR.otf2   (prints the record count and the seconds taken)
#include <otf2/otf2.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace {

std::vector<OTF2_LocationRef> locations;

OTF2_CallbackCode on_location(void*, OTF2_LocationRef self, OTF2_StringRef, OTF2_LocationType,
                              uint64_t, OTF2_LocationGroupRef) {
  locations.push_back(self);
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode count_record(OTF2_LocationRef, OTF2_TimeStamp, uint64_t, void* data,
                               OTF2_AttributeList*) {
  ++*static_cast<uint64_t*>(data);
  return OTF2_CALLBACK_SUCCESS;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s ANCHOR.otf2\n", argv[0]);
    return 2;
  }
  auto start = std::chrono::steady_clock::now();
  OTF2_Reader* reader = OTF2_Reader_Open(argv[1]);
  if (!reader) return 1;
  OTF2_Reader_SetSerialCollectiveCallbacks(reader);
  OTF2_GlobalDefReader* definitions = OTF2_Reader_GetGlobalDefReader(reader);
  OTF2_GlobalDefReaderCallbacks* definition_callbacks = OTF2_GlobalDefReaderCallbacks_New();
  OTF2_GlobalDefReaderCallbacks_SetLocationCallback(definition_callbacks, on_location);
  OTF2_Reader_RegisterGlobalDefCallbacks(reader, definitions, definition_callbacks, nullptr);
  uint64_t definitions_read = 0;
  OTF2_Reader_ReadAllGlobalDefinitions(reader, definitions, &definitions_read);
  OTF2_GlobalDefReaderCallbacks_Delete(definition_callbacks);

  for (OTF2_LocationRef location : locations) OTF2_Reader_SelectLocation(reader, location);
  bool have_local_definitions = OTF2_Reader_OpenDefFiles(reader) == OTF2_SUCCESS;
  OTF2_Reader_OpenEvtFiles(reader);
  uint64_t records = 0;
  // The Unknown callback sees only kinds libotf2 does not know, so the counter is
  // registered for every kind a generated or Score-P MPI trace holds.
  OTF2_EvtReaderCallbacks* event_callbacks = OTF2_EvtReaderCallbacks_New();
  OTF2_EvtReaderCallbacks_SetEnterCallback(event_callbacks,
      [](OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t p, void* d, OTF2_AttributeList* a,
         OTF2_RegionRef) { return count_record(l, t, p, d, a); });
  OTF2_EvtReaderCallbacks_SetLeaveCallback(event_callbacks,
      [](OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t p, void* d, OTF2_AttributeList* a,
         OTF2_RegionRef) { return count_record(l, t, p, d, a); });
  OTF2_EvtReaderCallbacks_SetMpiSendCallback(event_callbacks,
      [](OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t p, void* d, OTF2_AttributeList* a,
         uint32_t, OTF2_CommRef, uint32_t, uint64_t) { return count_record(l, t, p, d, a); });
  OTF2_EvtReaderCallbacks_SetMpiRecvCallback(event_callbacks,
      [](OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t p, void* d, OTF2_AttributeList* a,
         uint32_t, OTF2_CommRef, uint32_t, uint64_t) { return count_record(l, t, p, d, a); });
  OTF2_EvtReaderCallbacks_SetMpiCollectiveBeginCallback(event_callbacks, count_record);
  OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(event_callbacks,
      [](OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t p, void* d, OTF2_AttributeList* a,
         OTF2_CollectiveOp, OTF2_CommRef, uint32_t, uint64_t, uint64_t) {
        return count_record(l, t, p, d, a);
      });
  OTF2_EvtReaderCallbacks_SetProgramBeginCallback(event_callbacks,
      [](OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t p, void* d, OTF2_AttributeList* a,
         OTF2_StringRef, uint32_t, const OTF2_StringRef*) { return count_record(l, t, p, d, a); });
  OTF2_EvtReaderCallbacks_SetProgramEndCallback(event_callbacks,
      [](OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t p, void* d, OTF2_AttributeList* a,
         int64_t) { return count_record(l, t, p, d, a); });
  OTF2_EvtReaderCallbacks_SetMetricCallback(event_callbacks,
      [](OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t p, void* d, OTF2_AttributeList* a,
         OTF2_MetricRef, uint8_t, const OTF2_Type*, const OTF2_MetricValue*) {
        return count_record(l, t, p, d, a);
      });
  OTF2_EvtReaderCallbacks_SetThreadForkCallback(event_callbacks,
      [](OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t p, void* d, OTF2_AttributeList* a,
         OTF2_Paradigm, uint32_t) { return count_record(l, t, p, d, a); });
  OTF2_EvtReaderCallbacks_SetThreadJoinCallback(event_callbacks,
      [](OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t p, void* d, OTF2_AttributeList* a,
         OTF2_Paradigm) { return count_record(l, t, p, d, a); });
  OTF2_EvtReaderCallbacks_SetUnknownCallback(event_callbacks, count_record);
  for (OTF2_LocationRef location : locations) {
    if (have_local_definitions) {
      if (OTF2_DefReader* local = OTF2_Reader_GetDefReader(reader, location)) {
        uint64_t read = 0;
        OTF2_Reader_ReadAllLocalDefinitions(reader, local, &read);
        OTF2_Reader_CloseDefReader(reader, local);
      }
    }
    OTF2_EvtReader* events = OTF2_Reader_GetEvtReader(reader, location);
    OTF2_EvtReader_SetCallbacks(events, event_callbacks, &records);
    uint64_t read = 0;
    OTF2_Reader_ReadAllLocalEvents(reader, events, &read);
  }
  OTF2_EvtReaderCallbacks_Delete(event_callbacks);
  OTF2_Reader_Close(reader);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%llu %.6f\n", static_cast<unsigned long long>(records), seconds);
  return 0;
}

#include "formats/otf2/otf2_paradigms.h"

namespace earl {

namespace {

struct ParadigmName {
  OTF2_Paradigm paradigm;
  const char* name;
};

// Every paradigm of OTF2 3.x (OTF2_GeneralDefinitions.h).
constexpr ParadigmName kParadigms[] = {
    {OTF2_PARADIGM_UNKNOWN, "UNKNOWN"},
    {OTF2_PARADIGM_USER, "USER"},
    {OTF2_PARADIGM_COMPILER, "COMPILER"},
    {OTF2_PARADIGM_OPENMP, "OPENMP"},
    {OTF2_PARADIGM_MPI, "MPI"},
    {OTF2_PARADIGM_CUDA, "CUDA"},
    {OTF2_PARADIGM_MEASUREMENT_SYSTEM, "MEASUREMENT_SYSTEM"},
    {OTF2_PARADIGM_PTHREAD, "PTHREAD"},
    {OTF2_PARADIGM_HMPP, "HMPP"},
    {OTF2_PARADIGM_OMPSS, "OMPSS"},
    {OTF2_PARADIGM_HARDWARE, "HARDWARE"},
    {OTF2_PARADIGM_GASPI, "GASPI"},
    {OTF2_PARADIGM_UPC, "UPC"},
    {OTF2_PARADIGM_SHMEM, "SHMEM"},
    {OTF2_PARADIGM_WINTHREAD, "WINTHREAD"},
    {OTF2_PARADIGM_QTTHREAD, "QTTHREAD"},
    {OTF2_PARADIGM_ACETHREAD, "ACETHREAD"},
    {OTF2_PARADIGM_TBBTHREAD, "TBBTHREAD"},
    {OTF2_PARADIGM_OPENACC, "OPENACC"},
    {OTF2_PARADIGM_OPENCL, "OPENCL"},
    {OTF2_PARADIGM_MTAPI, "MTAPI"},
    {OTF2_PARADIGM_SAMPLING, "SAMPLING"},
    {OTF2_PARADIGM_NONE, "NONE"},
    {OTF2_PARADIGM_HIP, "HIP"},
    {OTF2_PARADIGM_KOKKOS, "KOKKOS"},
};

}  // namespace

std::string otf2_paradigm_name(OTF2_Paradigm paradigm) {
  for (const ParadigmName& entry : kParadigms)
    if (entry.paradigm == paradigm) return entry.name;
  return "PARADIGM_" + std::to_string(static_cast<int>(paradigm));
}

std::optional<OTF2_Paradigm> otf2_paradigm_named(const std::string& name) {
  for (const ParadigmName& entry : kParadigms)
    if (name == entry.name) return entry.paradigm;
  return std::nullopt;
}

}  // namespace earl

#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "access/random_access_trace.h"
#include "format_interface/trace_decoder.h"
#include "index/trace_identity.h"

namespace earl {

// Thrown while decoding an index whose bytes make no sense; the caller rebuilds.
struct IndexDamaged {
  std::string what;
};

// Little-endian fixed-width fields and length-prefixed strings and arrays.
class IndexWriter {
 public:
  void u8(std::uint8_t v) { bytes_.push_back(static_cast<char>(v)); }
  void u64(std::uint64_t v);
  void i64(std::int64_t v) { u64(static_cast<std::uint64_t>(v)); }
  void f64(double v);
  void text(const std::string& v);
  void words(const std::vector<std::uint64_t>& v);
  std::string& bytes() { return bytes_; }

 private:
  std::string bytes_;
};

class IndexReader {
 public:
  IndexReader(const char* data, std::size_t size) : at_(data), end_(data + size) {}
  std::uint8_t u8();
  std::uint64_t u64();
  std::int64_t i64() { return static_cast<std::int64_t>(u64()); }
  double f64();
  std::string text();
  std::vector<std::uint64_t> words();
  // A count of items at least `min_item_bytes` long each: IndexDamaged when the rest of
  // the input cannot hold them (a damaged count never allocates).
  std::uint64_t count(std::size_t min_item_bytes);
  bool done() const { return at_ == end_; }

 private:
  void need(std::size_t n);
  const char* at_;
  const char* end_;
};

void write_identity(IndexWriter& out, const TraceIdentity& identity);
TraceIdentity read_identity(IndexReader& in);

void write_definitions(IndexWriter& out, const Definitions& definitions);
Definitions read_definitions(IndexReader& in);

void write_scan(IndexWriter& out, const RandomAccessTrace& access);
RandomAccessTrace::ScanResult read_scan(IndexReader& in);

// The tables and data length of a decoder's state (its definitions go separately).
void write_decoder_state(IndexWriter& out, const DecoderState& state);
void read_decoder_state(IndexReader& in, DecoderState& state);

}  // namespace earl

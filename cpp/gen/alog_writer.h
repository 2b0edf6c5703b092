#pragma once
// ALOG output (thesis appendix A): header records -3, -13, -15 and optionally -11, then one
// text line per event in the order given.
#include <cstdio>
#include <string>
#include <vector>

#include "gen/trace_writer.h"

namespace earl::gen {

class AlogWriter : public TraceWriter {
 public:
  AlogWriter(std::string path, const WriterOptions& options);
  ~AlogWriter() override;
  AlogWriter(const AlogWriter&) = delete;
  AlogWriter& operator=(const AlogWriter&) = delete;

  void begin(const TraceHeader& header) override;
  void write(const GenEvent* events, std::size_t count) override;
  void finish() override;

  // ALOG type numbers of a region's enter and exit records.
  static int enter_type(int region) { return 2 * region + 1; }
  static int exit_type(int region) { return 2 * region + 2; }

 private:
  void put(char c) { buffer_.push_back(c); }
  void put(const std::string& s) { buffer_.append(s); }
  void put_int(std::int64_t v);
  // "cycle timestamp" of a time in microseconds.
  void put_time(std::int64_t us);
  void flush(bool force);
  void fail(const std::string& what);

  std::string path_;
  WriterOptions options_;
  std::FILE* file_ = nullptr;
  std::string buffer_;
};

}  // namespace earl::gen

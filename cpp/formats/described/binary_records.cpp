// Binary records: after header_bytes, records of record_bytes each or of the size their
// length field gives; fields at consecutive bytes in the description's byte order.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "format_interface/byte_order.h"
#include "formats/described/record_input.h"
#include "model/error.h"

namespace earl {

namespace {

class BinaryRecords : public RecordInput {
 public:
  BinaryRecords(const std::string& path, const Description& d) : path_(path), d_(d), keys_(d) {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw EarlError(path + ": cannot open: " + std::strerror(errno));
    struct stat info;
    if (::fstat(fd_, &info) != 0) {
      ::close(fd_);
      throw EarlError(path + ": cannot read: " + std::strerror(errno));
    }
    size_ = static_cast<std::uint64_t>(info.st_size);
    std::size_t most = 0;
    for (const RecordSpec& r : d.records) most = std::max(most, r.fields.size());
    slots_ = d.fields.size() + most;
    if (size_ < d.header_bytes) {
      ::close(fd_);
      throw EarlError(path + ": shorter (" + std::to_string(size_) + " bytes) than the " +
                      std::to_string(d.header_bytes) + "-byte header the description gives");
    }
    if (!d.magic.empty() && std::memcmp(at(0, d.magic.size()), d.magic.data(), d.magic.size()) != 0) {
      ::close(fd_);
      throw EarlError(path + ": does not start with the magic bytes '" + d.magic + "' its description gives");
    }
    offset_ = d.header_bytes;
  }
  ~BinaryRecords() override { ::close(fd_); }

  bool next(ParsedRecord& out) override {
    if (offset_ >= size_) return false;
    if (out.values.size() < slots_) out.values.resize(slots_);
    out.offset = offset_;
    out.number = ++number_;
    out.record = -1;
    // The record's bytes: its fixed size, or the common fields first, then its length.
    std::uint64_t bytes = d_.record_bytes;
    std::uint64_t common = 0;
    for (const FieldSpec& f : d_.fields) common += static_cast<std::uint64_t>(f.size);
    if (!bytes) bytes = common;
    if (size_ - offset_ < bytes) fail(out, "the file ends inside it (" + std::to_string(size_ - offset_) + " bytes left)");
    const unsigned char* p = at(offset_, bytes);
    std::uint64_t used = 0;
    for (std::size_t i = 0; i < d_.fields.size(); ++i) used += take(p + used, d_.fields[i], out.values, i);
    if (d_.length_field >= 0) {
      const std::uint64_t length = out.values[static_cast<std::size_t>(d_.length_field)].u;
      if (length < common)
        fail(out, "its length field says " + std::to_string(length) + " bytes, fewer than its " +
                      std::to_string(common) + " bytes of common fields");
      if (length > size_ - offset_)
        fail(out, "its length field says " + std::to_string(length) + " bytes, but only " +
                      std::to_string(size_ - offset_) + " are left in the file");
      bytes = length;
      p = at(offset_, bytes);
    }
    out.record = d_.key_field >= 0 ? keys_.find(out.values[static_cast<std::size_t>(d_.key_field)]) : -1;
    if (out.record < 0) {
      if (!d_.skip_unmatched) fail(out, "no record kind matches its key " + d_.fields[static_cast<std::size_t>(d_.key_field < 0 ? 0 : d_.key_field)].name);
    } else {
      const RecordSpec& r = d_.records[static_cast<std::size_t>(out.record)];
      for (std::size_t i = 0; i < r.fields.size(); ++i) {
        const FieldSpec& f = r.fields[i];
        if (field_present(f, out.values) && used + static_cast<std::uint64_t>(f.size) > bytes)
          fail(out, "field " + f.name + " of record kind '" + r.name + "' lies beyond its " + std::to_string(bytes) + " bytes");
        used += take(p + used, f, out.values, d_.fields.size() + i);
      }
      verify_checksums(out, r, p, bytes);
    }
    offset_ += bytes;
    return true;
  }

  std::uint64_t offset() const override { return offset_; }
  std::uint64_t number() const override { return number_; }
  void seek(std::uint64_t offset, std::uint64_t number) override {
    if (offset > size_ || offset < d_.header_bytes) throw EarlError(path_ + ": invalid decoder position");
    offset_ = offset;
    number_ = number;
  }
  std::uint64_t size() const override { return size_; }
  std::string where(const ParsedRecord& record) const override {
    return "record " + std::to_string(record.number) + " (byte " + std::to_string(record.offset) + ")";
  }
  // In bytes: a damaged record's length field may be wrong, so records cannot be counted.
  std::string unread_from(const ParsedRecord& record) override {
    if (size_ - record.offset == 1) return "byte " + std::to_string(record.offset) + ", the file's last, was not";
    return "bytes " + std::to_string(record.offset) + " to " + std::to_string(size_ - 1) + " (" +
           std::to_string(size_ - record.offset) + " of the file's " + std::to_string(size_) + ") were not";
  }

 private:
  [[noreturn]] void fail(const ParsedRecord& record, const std::string& problem) const {
    throw BadRecord(path_ + ": " + where(record) + ": " + problem);
  }

  // `n` bytes from file offset `offset` (in bounds), through a window of the file.
  const unsigned char* at(std::uint64_t offset, std::uint64_t n) {
    if (offset < window_start_ || offset + n > window_start_ + window_.size()) {
      window_.resize(std::max<std::uint64_t>(n, kWindow));
      const ssize_t got = ::pread(fd_, window_.data(), window_.size(), static_cast<off_t>(offset));
      if (got < 0) throw EarlError(path_ + ": cannot read: " + std::strerror(errno));
      window_.resize(static_cast<std::size_t>(got));
      window_start_ = offset;
      if (window_.size() < n) throw EarlError(path_ + ": changed while being read");
    }
    return window_.data() + (offset - window_start_);
  }

  // Reads field `f` at `p` into values[index]; returns the bytes it takes (0 when absent).
  std::uint64_t take(const unsigned char* p, const FieldSpec& f, std::vector<FieldValue>& values, std::size_t index) const {
    FieldValue& v = values[index];
    if (!field_present(f, values)) {
      v = FieldValue();
      return 0;
    }
    const bool big = d_.big_endian;
    auto unsigned_value = [&]() -> std::uint64_t {
      switch (f.size) {
        case 1: return p[0];
        case 2: return load_uint<std::uint16_t>(p, big);
        case 4: return load_uint<std::uint32_t>(p, big);
        default: return load_uint<std::uint64_t>(p, big);
      }
    };
    switch (f.type) {
      case FieldType::Int:
      case FieldType::Time: {
        const std::uint64_t u = unsigned_value();
        const int shift = 64 - 8 * f.size;  // sign-extend the field's top bit
        v.kind = FieldValue::Kind::Int;
        v.i = shift ? static_cast<std::int64_t>(u << shift) >> shift : static_cast<std::int64_t>(u);
        break;
      }
      case FieldType::UInt:
      case FieldType::Flags:
      case FieldType::Length:
      case FieldType::Checksum:
        v.kind = FieldValue::Kind::UInt;
        v.u = unsigned_value();
        break;
      case FieldType::Float:
        v.kind = FieldValue::Kind::Float;
        if (f.size == 8) {
          v.f = load_f64(p, big);
        } else {
          const std::uint32_t bits = load_uint<std::uint32_t>(p, big);
          float x;
          std::memcpy(&x, &bits, sizeof x);
          v.f = x;
        }
        break;
      case FieldType::String: {
        std::size_t n = static_cast<std::size_t>(f.size);
        while (n > 0 && p[n - 1] == 0) --n;  // NUL padding is not part of the text
        v.kind = FieldValue::Kind::Text;
        v.s = std::string_view(reinterpret_cast<const char*>(p), n);
        break;
      }
      case FieldType::Filler:
        v = FieldValue();
        break;
    }
    return static_cast<std::uint64_t>(f.size);
  }

  // A verified checksum is the sum of the record's other bytes, modulo 2^(8 * size).
  void verify_checksums(const ParsedRecord& out, const RecordSpec& r, const unsigned char* p, std::uint64_t bytes) const {
    std::uint64_t position = 0;
    auto check = [&](const FieldSpec& f, const FieldValue& v) {
      if (f.type == FieldType::Checksum && f.verify && v.kind != FieldValue::Kind::Absent) {
        std::uint64_t sum = 0;
        for (std::uint64_t i = 0; i < bytes; ++i)
          if (i < position || i >= position + static_cast<std::uint64_t>(f.size)) sum += p[i];
        if (f.size < 8) sum &= (std::uint64_t(1) << (8 * f.size)) - 1;
        if (sum != v.u)
          fail(out, "checksum " + f.name + " is " + std::to_string(v.u) + ", the record's bytes sum to " + std::to_string(sum));
      }
      if (v.kind != FieldValue::Kind::Absent || f.type == FieldType::Filler) position += static_cast<std::uint64_t>(f.size);
    };
    for (std::size_t i = 0; i < d_.fields.size(); ++i) check(d_.fields[i], out.values[i]);
    for (std::size_t i = 0; i < r.fields.size(); ++i)
      if (field_present(r.fields[i], out.values)) check(r.fields[i], out.values[d_.fields.size() + i]);
  }

  static constexpr std::uint64_t kWindow = 1 << 20;
  std::string path_;
  const Description& d_;
  KeyDispatch keys_;
  int fd_ = -1;
  std::uint64_t size_ = 0;
  std::uint64_t offset_ = 0;
  std::uint64_t number_ = 0;
  std::size_t slots_ = 0;
  std::vector<unsigned char> window_;
  std::uint64_t window_start_ = 0;
};

}  // namespace

std::unique_ptr<RecordInput> open_binary_records(const std::string& path, const Description& description) {
  return std::make_unique<BinaryRecords>(path, description);
}

}  // namespace earl

// Little-endian bytes, the one place the core turns numbers into bytes and back: loads and
// stores at a pointer (load_le32, store_le32, ...), a ByteWriter that appends to a vector,
// and a ByteReader, a bounds-checked cursor for files from anywhere. Used by the .npy and zip
// readers, the import's checks, the model files and their frame (core/base/file_frame.h).
//
// The integers are assembled byte by byte, so the code does not depend on the host's byte
// order (both of our targets are little-endian, and compilers turn these into plain loads).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace attn {

inline std::uint16_t load_le16(const std::uint8_t* p) { return static_cast<std::uint16_t>(p[0] | (p[1] << 8)); }

inline std::uint32_t load_le32(const std::uint8_t* p) {
  return static_cast<std::uint32_t>(p[0]) | (static_cast<std::uint32_t>(p[1]) << 8) |
         (static_cast<std::uint32_t>(p[2]) << 16) | (static_cast<std::uint32_t>(p[3]) << 24);
}

inline std::uint64_t load_le64(const std::uint8_t* p) {
  return static_cast<std::uint64_t>(load_le32(p)) | (static_cast<std::uint64_t>(load_le32(p + 4)) << 32);
}

// The low `n` bytes of v at p, lowest first.
inline void store_le(std::uint8_t* p, std::uint64_t v, int n) {
  for (int i = 0; i < n; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));
}
inline void store_le16(std::uint8_t* p, std::uint16_t v) { store_le(p, v, 2); }
inline void store_le32(std::uint8_t* p, std::uint32_t v) { store_le(p, v, 4); }
inline void store_le64(std::uint8_t* p, std::uint64_t v) { store_le(p, v, 8); }

inline float float_from_bits(std::uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

inline double double_from_bits(std::uint64_t bits) {
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}

inline std::uint32_t float_bits(float f) {
  std::uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return bits;
}

inline std::uint64_t double_bits(double d) {
  std::uint64_t bits;
  std::memcpy(&bits, &d, sizeof bits);
  return bits;
}

// Appends little-endian values to a growing byte vector.
class ByteWriter {
 public:
  void u8(std::uint8_t v) { bytes_.push_back(v); }
  void u16(std::uint16_t v) { put(v, 2); }
  void u32(std::uint32_t v) { put(v, 4); }
  void u64(std::uint64_t v) { put(v, 8); }
  void i32(std::int32_t v) { u32(static_cast<std::uint32_t>(v)); }
  void f32(float v) { u32(float_bits(v)); }
  void f32s(const std::vector<float>& v) {
    for (float x : v) f32(x);
  }
  void raw(const void* data, std::size_t n) {
    const auto* p = static_cast<const std::uint8_t*>(data);
    bytes_.insert(bytes_.end(), p, p + n);
  }

  std::size_t size() const { return bytes_.size(); }
  // The bytes so far, to patch in place (a length written once the rest is known).
  std::vector<std::uint8_t>& bytes() { return bytes_; }
  std::vector<std::uint8_t> take() { return std::move(bytes_); }

 private:
  void put(std::uint64_t v, int n) {
    const std::size_t at = bytes_.size();
    bytes_.resize(at + static_cast<std::size_t>(n));
    store_le(bytes_.data() + at, v, n);
  }
  std::vector<std::uint8_t> bytes_;
};

// Reads little-endian values from [data, data + size). A read that needs more bytes than are
// left returns false, leaves its output and the cursor as they were, and marks the reader
// failed; once failed, every later read fails too, so a caller may read a run of fields and
// test failed() once. It never reads outside the span and never allocates for bytes that
// are not there.
class ByteReader {
 public:
  ByteReader() = default;
  ByteReader(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

  std::size_t left() const { return failed_ ? 0 : size_ - pos_; }
  std::size_t position() const { return pos_; }
  bool failed() const { return failed_; }

  bool u8(std::uint8_t& v) { return read(v, 1); }
  bool u16(std::uint16_t& v) { return read(v, 2); }
  bool u32(std::uint32_t& v) { return read(v, 4); }
  bool u64(std::uint64_t& v) { return read(v, 8); }
  bool i32(std::int32_t& v) {
    std::uint32_t bits = 0;
    if (!u32(bits)) return false;
    v = static_cast<std::int32_t>(bits);
    return true;
  }
  bool f32(float& v) {
    std::uint32_t bits = 0;
    if (!u32(bits)) return false;
    v = float_from_bits(bits);
    return true;
  }
  // `count` floats into v (resized), or false with v untouched when fewer bytes are left.
  bool f32s(std::vector<float>& v, std::size_t count) {
    const std::uint8_t* p = nullptr;
    if (!take(p, count, 4)) return false;
    v.resize(count);
    for (std::size_t i = 0; i < count; ++i) v[i] = float_from_bits(load_le32(p + 4 * i));
    return true;
  }
  // n bytes as text (not checked as UTF-8).
  bool text(std::string& s, std::size_t n) {
    const std::uint8_t* p = nullptr;
    if (!take(p, n)) return false;
    s.assign(reinterpret_cast<const char*>(p), n);
    return true;
  }
  // Steps over the next count * item_bytes bytes and points p at them; false (and failed)
  // when fewer are left.
  bool take(const std::uint8_t*& p, std::size_t count, std::size_t item_bytes = 1) {
    if (failed_ || item_bytes == 0 || count > (size_ - pos_) / item_bytes) {
      failed_ = true;
      return false;
    }
    p = data_ + pos_;
    pos_ += count * item_bytes;
    return true;
  }

 private:
  template <class T>
  bool read(T& v, std::size_t n) {
    const std::uint8_t* p = nullptr;
    if (!take(p, n)) return false;
    std::uint64_t x = 0;
    for (std::size_t i = 0; i < n; ++i) x |= static_cast<std::uint64_t>(p[i]) << (8 * i);
    v = static_cast<T>(x);
    return true;
  }

  const std::uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t pos_ = 0;
  bool failed_ = false;
};

}  // namespace attn

// The attention import in steps (see import_job.h): begin() has a format's reader find the
// parts and assemble() check them (import_parts.h), then lists the work that grows with the
// file as tasks (CRC-32s first, then each array's data moved into place and checked for NaN
// and Inf), and step() works through them a piece at a time. A JSON file's text is parsed
// by the steps before that.
#include "core/io/import_job.h"

#include "core/base/bytes.h"
#include "core/base/crc32.h"
#include "core/io/import_parts.h"
#include "core/io/io_messages.h"
#include "core/io/json_reader.h"

#include <algorithm>
#include <cstring>

namespace attn {

using import_detail::assemble;
using import_detail::CrcCheck;
using import_detail::Fill;
using import_detail::json_parts;
using import_detail::mib;
using import_detail::Parts;
using import_detail::read_npy_parts;
using import_detail::read_npz_parts;

namespace {

// Index of the first NaN or Inf among `count` elements at `p`, or -1: every exponent bit
// set. uint16 is checked as bfloat16 when `bf16` (otherwise it holds integers). Blocks are
// scanned without a branch per element; only a block with a hit is searched again.
template <typename Load>
std::int64_t first_all_ones(const std::uint8_t* p, std::size_t count, std::size_t width, std::uint64_t mask, Load load) {
  constexpr std::size_t kBlock = 256;
  for (std::size_t start = 0; start < count; start += kBlock) {
    const std::size_t end = std::min(count, start + kBlock);
    bool hit = false;
    for (std::size_t i = start; i < end; ++i) hit |= (load(p + width * i) & mask) == mask;
    if (!hit) continue;
    for (std::size_t i = start; i < end; ++i)
      if ((load(p + width * i) & mask) == mask) return static_cast<std::int64_t>(i);
  }
  return -1;
}

std::int64_t first_non_finite(const std::uint8_t* p, std::size_t bytes, NpyDtype dtype, bool bf16) {
  auto l16 = [](const std::uint8_t* q) -> std::uint64_t { return load_le16(q); };
  auto l32 = [](const std::uint8_t* q) -> std::uint64_t { return load_le32(q); };
  switch (dtype) {
    case NpyDtype::Float32: return first_all_ones(p, bytes / 4, 4, 0x7F800000u, l32);
    case NpyDtype::Float16: return first_all_ones(p, bytes / 2, 2, 0x7C00u, l16);
    case NpyDtype::Float64: return first_all_ones(p, bytes / 8, 8, 0x7FF0000000000000ull, load_le64);
    case NpyDtype::UInt16: return bf16 ? first_all_ones(p, bytes / 2, 2, 0x7F80u, l16) : -1;
    default: return -1;
  }
}

// Work per piece: small enough that a piece never holds a frame up for long.
constexpr std::size_t kPieceBytes = std::size_t{64} << 10;

}  // namespace

Status ImportJob::begin(std::vector<std::uint8_t> file, const ImportOptions& options, const InflateFn& inflate) {
  Buffer b;
  b.owned = std::move(file);
  b.data = b.owned.data();
  b.size = b.owned.size();
  return start(std::move(b), std::nullopt, options, inflate);
}

Status ImportJob::begin(const std::uint8_t* bytes, std::size_t size, const ImportOptions& options,
                        const InflateFn& inflate) {
  Buffer b;
  b.data = bytes;
  b.size = size;
  return start(std::move(b), std::nullopt, options, inflate);
}

Status ImportJob::fail(Status s) {
  *this = ImportJob();
  return s;
}

NpyArray& ImportJob::target(int index) {
  return index == 1 ? result_.q : index == 2 ? result_.k : index == 3 ? result_.v : result_.weights;
}

Status ImportJob::start(Buffer file, std::optional<ImportFormat> format, const ImportOptions& options,
                        const InflateFn& inflate) {
  *this = ImportJob();
  const std::uint8_t* bytes = file.data;
  const std::size_t size = file.size;
  if (!format) {
    if (size == 0) return Status::error(msg::io_import_file_empty);
    format = sniff_import_format(bytes, size);
    if (!format)
      return Status::error(msg::io_import_unknown_format);
  }
  // A JSON file is parsed by the steps (its text is most of the work); the plan follows.
  if (*format == ImportFormat::Json) {
    if (static_cast<std::int64_t>(size) > kImportMaxJsonBytes)
      return Status::error(msg::io_import_json_too_large, mib(static_cast<std::int64_t>(size)), mib(kImportMaxJsonBytes));
    buffers_.push_back(std::move(file));
    json_ = std::make_unique<JsonReader>(buffers_[0].data, buffers_[0].size);
    json_bytes_ = size;
    options_ = options;
    active_ = true;
    return Status::success();
  }
  Parts p;
  const Status read = *format == ImportFormat::Npz ? read_npz_parts(bytes, size, options, inflate, p)
                                                   : read_npy_parts(bytes, size, options, p);
  if (!read.ok) return read;
  buffers_.push_back(std::move(file));
  return plan(p, *format, options);
}

// Checks and assembles the parts (buffer 0 of the job is the file), then lists the work
// for the steps.
Status ImportJob::plan(Parts& p, ImportFormat format, const ImportOptions& options) {
  std::vector<Fill> fills;
  if (Status s = assemble(p, options, format, result_, fills); !s.ok) return fail(s);

  // Buffer 0 is the file, 1 + i the reader's buffer i. The checksums first (they cover
  // bytes the fills then move), then the fills: one adopts its buffer when no later task
  // reads from it and the buffer is ours to give away.
  for (std::vector<std::uint8_t>& owned : p.buffers) {
    Buffer b;
    b.owned = std::move(owned);
    b.data = b.owned.data();
    b.size = b.owned.size();
    buffers_.push_back(std::move(b));
  }
  for (const CrcCheck& c : p.crcs) {
    Task t;
    t.crc = true;
    t.buffer = c.span.buffer + 1;
    t.offset = c.span.offset;
    t.size = c.span.size;
    t.expected = c.expected;
    t.name = c.where;
    tasks_.push_back(std::move(t));
  }
  for (const Fill& f : fills) {
    Task t;
    t.buffer = f.span.buffer + 1;
    t.target = f.target;
    t.offset = f.span.offset;
    t.size = f.span.size;
    t.name = f.name;
    tasks_.push_back(std::move(t));
  }
  for (std::size_t i = 0; i < tasks_.size(); ++i) {
    Task& t = tasks_[i];
    if (t.crc || buffers_[t.buffer].owned.empty()) continue;
    t.adopt = std::none_of(tasks_.begin() + static_cast<std::ptrdiff_t>(i) + 1, tasks_.end(),
                           [&](const Task& later) { return later.buffer == t.buffer; });
  }
  for (const Task& t : tasks_) total_ += t.size;
  active_ = true;
  return Status::success();
}

double ImportJob::progress() const {
  if (done_) return 1.0;
  // A JSON file's parse takes the first 90% of the bar, its numbers' checks the rest.
  if (json_) return json_bytes_ == 0 ? 0.0 : 0.9 * static_cast<double>(json_->position()) / static_cast<double>(json_bytes_);
  const double tasks = total_ == 0 ? 0.0 : static_cast<double>(finished_) / static_cast<double>(total_);
  return json_bytes_ > 0 ? 0.9 + 0.1 * tasks : tasks;
}

Status ImportJob::step(std::size_t max_bytes) {
  if (!active_) return Status::error(msg::io_import_not_running);
  std::size_t budget = std::max<std::size_t>(max_bytes, 1);
  if (json_) {
    const std::size_t before = json_->position();
    if (Status s = json_->step(budget); !s.ok) return fail(s);
    budget -= std::min(budget, json_->position() - before);
    if (!json_->done()) return Status::success();
    Parts p;
    const Status s = json_parts(json_->root(), p);
    json_.reset();            // the parsed tree (its numbers are in p's buffers now)
    buffers_[0] = Buffer();   // and the text
    if (!s.ok) return fail(s);
    if (Status planned = plan(p, ImportFormat::Json, options_); !planned.ok) return planned;
  }
  while (next_ < tasks_.size() && budget > 0) {
    Task& t = tasks_[next_];
    // A piece is a whole number of 8-byte units, so it holds whole elements of any dtype.
    std::size_t n = std::min(t.size - t.done, std::min(std::max<std::size_t>(budget & ~std::size_t{7}, 8), kPieceBytes));
    if (t.crc) {
      t.running = crc32(buffers_[t.buffer].data + t.offset + t.done, n, t.running);
      if (t.done + n == t.size && t.running != t.expected)
        return fail(Status::error(msg::io_npz_crc_mismatch).within(msg::io_npz_member, t.name));  // t.name: the key
    } else {
      NpyArray& a = target(t.target);
      if (t.done == 0) {
        if (t.adopt) a.data = std::move(buffers_[t.buffer].owned);  // same bytes, same address
        else a.data.resize(t.size);
      }
      std::uint8_t* dst = a.data.data() + t.done;
      if (t.adopt) std::memmove(dst, dst + t.offset, n);  // towards the front: safe piece by piece
      else std::memcpy(dst, buffers_[t.buffer].data + t.offset + t.done, n);
      const std::int64_t bad = first_non_finite(dst, n, a.dtype, result_.bfloat16);
      if (bad >= 0) {
        const std::size_t index = t.done / npy_itemsize(a.dtype) + static_cast<std::size_t>(bad);
        // A whole .npy file's array is named "the array" (read_npy_parts): its own message.
        return fail(t.name == import_detail::kWholeFileArray ? Status::error(msg::io_import_array_non_finite, index)
                                          : Status::error(msg::io_import_non_finite, t.name, index));
      }
      if (t.adopt && t.done + n == t.size) a.data.resize(t.size);
    }
    t.done += n;
    finished_ += n;
    budget -= std::min(budget, n);
    if (t.done == t.size) ++next_;
  }
  if (next_ == tasks_.size()) {
    buffers_.clear();
    tasks_.clear();
    active_ = false;
    done_ = true;
  }
  return Status::success();
}

ImportedAttention ImportJob::take() {
  ImportedAttention r = std::move(result_);
  *this = ImportJob();
  return r;
}

ImportJob::ImportJob() = default;
ImportJob::~ImportJob() = default;
ImportJob::ImportJob(ImportJob&&) noexcept = default;
ImportJob& ImportJob::operator=(ImportJob&&) noexcept = default;

}  // namespace attn

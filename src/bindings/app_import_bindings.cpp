// Embind functions behind the page's import and export (web/import.mjs). The page reads a
// dropped or picked file in slices straight into a buffer here, so no second copy of a
// large file stays in JavaScript; .npz members compressed with deflate are inflated by the
// browser's DecompressionStream into buffers here too. Then the core's ImportJob
// (core/io/import_job.h) takes the buffers, checks the headers at once and the data in
// steps, one per animation frame, so the frame loop keeps drawing; the app shows the result.
//   importBegin(size)          "" or why not (over the cap); makes room for the file
//   importFileView()           Uint8Array view of that room (fetch again after any await:
//                              the wasm heap may grow and detach older views)
//   importFormat(length)       "npz", "npy", "json" or "": the format the core picks from the
//                              file's first `length` bytes (those read so far), so the page
//                              knows whether to list and inflate an archive's members
//   importMembers()            [{name, method, offset, compressedSize, uncompressedSize}]
//                              of the archive, or {error}
//   importMemberBegin(offset, size) -> index or -1; importMemberView(index) -> Uint8Array
//   importFinishBegin(name, batchIndex, bfloat16)   "" or the parser's message; hands the
//                              buffers to the job (an error frees them)
//   importFinishStep(budgetMs, maxBytes)   {progress, done} or {error}: the job's work for
//                              about budgetMs (and at most maxBytes, when > 0); when done,
//                              the file is the scene
//   exportMatrix(name, head, format, scale)    {bytes, mime, extension, name} or {error}
//   exportPanel(scale)         the panel window drawn at `scale` (1 to 4) times the screen's
//                              pixels as PNG: {bytes, mime, extension, name, width, height}
//                              or {error}
#include "app/app_messages.h"
#include "app/scene_export.h"
#include "bindings/app_handle.h"
#include "core/io/import_attention.h"
#include "core/io/import_job.h"
#include "core/io/zip.h"
#include "files/import_view.h"
#include "files/png_writer.h"
#include "ui/app.h"

#include <emscripten/bind.h>
#include <emscripten/emscripten.h>
#include <emscripten/val.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

using emscripten::val;

namespace {

struct PendingImport {
  std::vector<std::uint8_t> file;
  std::vector<std::uint64_t> member_offsets;
  std::vector<std::vector<std::uint8_t>> members;
  std::int64_t inflated_bytes = 0;
};
PendingImport g_pending;

attn::ImportJob g_job;  // the finish step's work, between importFinishBegin and its last step
std::string g_job_name;

std::string import_begin(double size) {
  g_pending = PendingImport();
  g_job = attn::ImportJob();
  if (!(size >= 0) || size > static_cast<double>(attn::kImportMaxFileBytes))
    return attn::bindings::refused(attn::Status::error(attn::msg::app_import_too_large,
                                                       static_cast<long long>(size / 1048576), attn::kImportMaxFileBytes >> 20));
  g_pending.file.resize(static_cast<size_t>(size));
  return "";
}

val import_file_view() { return val(emscripten::typed_memory_view(g_pending.file.size(), g_pending.file.data())); }

std::string import_format(double length) {
  const double read = length > 0 ? std::min(length, static_cast<double>(g_pending.file.size())) : 0;
  const std::optional<attn::ImportFormat> format =
      attn::sniff_import_format(g_pending.file.data(), static_cast<std::size_t>(read));
  return format ? attn::import_format_name(*format) : "";
}

val import_members() {
  std::vector<attn::ZipMember> members;
  const attn::Status s = attn::list_zip_members(g_pending.file.data(), g_pending.file.size(), members);
  if (!s.ok) {
    val e = val::object();
    e.set("error", attn::bindings::refused(s.within(".npz")));
    return e;
  }
  val out = val::array();
  for (const attn::ZipMember& m : members) {
    val v = val::object();
    v.set("name", m.name);
    v.set("method", m.method);
    v.set("offset", static_cast<double>(m.data_offset));
    v.set("compressedSize", static_cast<double>(m.compressed_size));
    v.set("uncompressedSize", static_cast<double>(m.uncompressed_size));
    out.call<void>("push", v);
  }
  return out;
}

int import_member_begin(double offset, double size) {
  if (!(size >= 0) || g_pending.inflated_bytes + size > static_cast<double>(attn::kImportMaxInflatedBytes)) return -1;
  g_pending.inflated_bytes += static_cast<std::int64_t>(size);
  g_pending.member_offsets.push_back(static_cast<std::uint64_t>(offset));
  g_pending.members.emplace_back(static_cast<size_t>(size));
  return static_cast<int>(g_pending.members.size()) - 1;
}

val import_member_view(int index) {
  if (index < 0 || index >= static_cast<int>(g_pending.members.size())) return val::null();
  std::vector<std::uint8_t>& m = g_pending.members[index];
  return val(emscripten::typed_memory_view(m.size(), m.data()));
}

std::string import_finish_begin(const std::string& name, int batch_index, bool bfloat16) {
  attn::ImportOptions options;
  options.batch_index = batch_index;
  options.uint16_is_bfloat16 = bfloat16;
  const attn::InflateFn inflate =
      attn::preinflated_members(&g_pending.member_offsets, &g_pending.members, g_pending.file.data());
  const attn::Status s = g_job.begin(std::move(g_pending.file), options, inflate);
  g_pending = PendingImport();  // the job holds the bytes it needs now
  g_job_name = name;
  return attn::bindings::refused(s.within(name));
}

val import_finish_step(double budget_ms, double max_bytes) {
  val out = val::object();
  attn::ui::App* app = attn::bindings::exposed_app();
  attn::Status s = app ? attn::Status::success() : attn::Status::error(attn::msg::app_not_running);
  // Pieces of 256 KiB until the budget is spent: each takes a few milliseconds (a JSON
  // file's text, the slowest work per byte, about 5 ms at 50 MB/s).
  const double started = emscripten_get_now();
  double left = max_bytes > 0 ? max_bytes : 1e18;
  while (s.ok && g_job.active() && left > 0 && emscripten_get_now() - started < budget_ms) {
    const std::size_t piece = static_cast<std::size_t>(std::min(left, 262144.0));
    s = g_job.step(piece);
    left -= static_cast<double>(piece);
  }
  if (s.ok && !g_job.active() && !g_job.done()) s = attn::Status::error(attn::msg::app_no_import);
  if (!s.ok) {
    g_job = attn::ImportJob();
    out.set("error", attn::bindings::refused(s.within(g_job_name)));
    return out;
  }
  out.set("progress", g_job.progress());
  out.set("done", g_job.done());
  // A file without weights is refused there (set_imported says why): the scene stays.
  if (g_job.done())
    if (const attn::Status set = attn::set_imported(app->state(), g_job.take(), g_job_name); !set.ok)
      out.set("error", attn::bindings::refused(set));
  return out;
}

val export_matrix(const std::string& name, int head, const std::string& format_name, int scale) {
  val out = val::object();
  attn::ui::App* app = attn::bindings::exposed_app();
  attn::ExportFormat format;
  attn::Status s = attn::parse_export_format(format_name, format);
  const attn::Mat* m = app && s.ok ? attn::scene_matrix(app->state(), name, head) : nullptr;
  if (!s.ok || !m) {
    out.set("error", attn::bindings::refused(!s.ok ? s : attn::Status::error(attn::msg::app_no_matrix, name, head)));
    return out;
  }
  const attn::ExportRequest request = attn::scene_export_request(app->state(), name, format, scale);
  const std::vector<std::uint8_t> bytes = attn::export_matrix(*m, request, s);
  if (!s.ok) {
    out.set("error", attn::bindings::refused(s));
    return out;
  }
  out.set("bytes", val::global("Uint8Array").new_(emscripten::typed_memory_view(bytes.size(), bytes.data())));
  out.set("mime", std::string(attn::export_mime_type(format)));
  out.set("extension", std::string(attn::export_extension(format)));
  const attn::Settings& st = app->state().settings;
  out.set("name", name + "-layer" + std::to_string(st.layer) + "-head" + std::to_string(head) + "." +
                      attn::export_extension(format));
  return out;
}

val export_panel(int scale) {
  val out = val::object();
  attn::ui::App* app = attn::bindings::exposed_app();
  std::vector<std::uint8_t> rgba;
  int width = 0, height = 0;
  attn::Status error = app ? attn::Status::success() : attn::Status::error(attn::msg::app_not_running);
  if (!app || !app->capture_panel(scale, rgba, width, height, error)) {
    out.set("error", attn::bindings::refused(error));
    return out;
  }
  const std::vector<std::uint8_t> png = attn::encode_png_rgba(rgba.data(), width, height);
  out.set("bytes", val::global("Uint8Array").new_(emscripten::typed_memory_view(png.size(), png.data())));
  out.set("mime", std::string("image/png"));
  out.set("extension", std::string("png"));
  out.set("name", std::string("panel-") + attn::to_string(app->state().settings.panel) + "-x" + std::to_string(scale) + ".png");
  out.set("width", width);
  out.set("height", height);
  return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(attnlab_import) {
  emscripten::function("importBegin", attn::bindings::waking<&import_begin>);
  emscripten::function("importFileView", &import_file_view);
  emscripten::function("importFormat", &import_format);
  emscripten::function("importMembers", &import_members);
  emscripten::function("importMemberBegin", attn::bindings::waking<&import_member_begin>);
  emscripten::function("importMemberView", &import_member_view);
  emscripten::function("importFinishBegin", attn::bindings::waking<&import_finish_begin>);
  emscripten::function("importFinishStep", attn::bindings::waking<&import_finish_step>);
  emscripten::function("exportMatrix", &export_matrix);
  emscripten::function("exportPanel", &export_panel);
}

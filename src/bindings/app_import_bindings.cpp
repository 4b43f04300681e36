// Embind functions behind the page's import and export (web/import.mjs). The page reads a
// dropped or picked file in slices straight into a buffer here, so no second copy of a
// large file stays in JavaScript; .npz members compressed with deflate are inflated by the
// browser's DecompressionStream into buffers here too, then the core parses everything
// (core/import_attention.h) and the app shows it.
//   importBegin(size)          "" or why not (over the cap); makes room for the file
//   importFileView()           Uint8Array view of that room (fetch again after any await:
//                              the wasm heap may grow and detach older views)
//   importMembers()            [{name, method, offset, compressedSize, uncompressedSize}]
//                              of the archive, or {error}
//   importMemberBegin(offset, size) -> index or -1; importMemberView(index) -> Uint8Array
//   importFinish(name, batchIndex, bfloat16)   "" or the parser's message; frees the buffers
//   exportMatrix(name, head, format, scale)    {bytes, mime, extension, name} or {error}
#include "app/export_figure.h"
#include "app/import_state.h"
#include "platform/web_handle.h"
#include "ui/app.h"

#include <emscripten/bind.h>
#include <emscripten/val.h>

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

std::string import_begin(double size) {
  g_pending = PendingImport();
  if (!(size >= 0) || size > static_cast<double>(attn::kImportMaxFileBytes))
    return "the file is " + std::to_string(static_cast<long long>(size / 1048576)) + " MiB; at most " +
           std::to_string(attn::kImportMaxFileBytes >> 20) + " MiB can be imported";
  g_pending.file.resize(static_cast<size_t>(size));
  return "";
}

val import_file_view() { return val(emscripten::typed_memory_view(g_pending.file.size(), g_pending.file.data())); }

val import_members() {
  std::vector<attn::ZipMember> members;
  const attn::Status s = attn::list_zip_members(g_pending.file.data(), g_pending.file.size(), members);
  if (!s.ok) {
    val e = val::object();
    e.set("error", ".npz: " + s.message);
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

std::string import_finish(const std::string& name, int batch_index, bool bfloat16) {
  attn::ui::App* app = attn::platform::exposed_app();
  if (!app) return "the app is not running";
  attn::ImportOptions options;
  options.batch_index = batch_index;
  options.uint16_is_bfloat16 = bfloat16;
  const attn::InflateFn inflate =
      attn::preinflated_members(&g_pending.member_offsets, &g_pending.members, g_pending.file.data());
  const attn::Status s =
      attn::import_into_state(app->state(), g_pending.file.data(), g_pending.file.size(), name, options, inflate);
  g_pending = PendingImport();  // the parsed data lives in the state; the file's bytes go
  return s.ok ? "" : s.message;
}

val export_matrix(const std::string& name, int head, const std::string& format_name, int scale) {
  val out = val::object();
  attn::ui::App* app = attn::platform::exposed_app();
  attn::ExportFormat format;
  attn::Status s = attn::parse_export_format(format_name, format);
  const attn::Mat* m = app && s.ok ? attn::scene_matrix(app->state(), name, head) : nullptr;
  if (!s.ok || !m) {
    out.set("error", !s.ok ? s.message : "no matrix '" + name + "' for head " + std::to_string(head) + " in this scene");
    return out;
  }
  const attn::ExportRequest request = attn::scene_export_request(app->state(), name, format, scale);
  const std::vector<std::uint8_t> bytes = attn::export_matrix(*m, request, s);
  if (!s.ok) {
    out.set("error", s.message);
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

}  // namespace

EMSCRIPTEN_BINDINGS(attnlab_import) {
  emscripten::function("importBegin", &import_begin);
  emscripten::function("importFileView", &import_file_view);
  emscripten::function("importMembers", &import_members);
  emscripten::function("importMemberBegin", &import_member_begin);
  emscripten::function("importMemberView", &import_member_view);
  emscripten::function("importFinish", &import_finish);
  emscripten::function("exportMatrix", &export_matrix);
}

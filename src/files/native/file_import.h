// Import from a file on disk, for the desktop app and the CLI: reading the file, and the
// native inflater for .npz members compressed with deflate (zlib). Built only natively, as
// its own library; the browser reads files through the page and inflates with
// DecompressionStream instead.
#pragma once

#include "core/io/import_attention.h"

#include <string>

namespace attn::native {

// Inflates a raw deflate stream to exactly `expected` bytes; refuses more or fewer.
Status zlib_inflate(const std::uint8_t* data, std::size_t size, std::size_t expected, std::vector<std::uint8_t>& out);

// Reads `path` (refusing files over options.max_file_bytes before reading them) and parses it
// into `out`; `name` gets the file's name (the path's last part), which starts every message.
Status import_file(const std::string& path, const ImportOptions& options, ImportedAttention& out, std::string& name);

}  // namespace attn::native

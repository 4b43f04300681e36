// The messages src/core/io makes, with their English texts ({0}, {1}, ... are arguments; see
// MessageText in core/base/types.h). Their Chinese texts are in ui/messages_zh_io.h.
#pragma once

#include "core/base/types.h"

#define ATTNLAB_IO_MESSAGES(X) \
  X(io_npy_too_many_dims, "shape has {0} dimensions, more than {1}") \
  X(io_npy_negative_dim, "shape {0} is invalid: dimension {1} is negative") \
  X(io_npy_shape_overflow, "shape {0} is invalid: its byte size overflows int64") \
  X(io_npy_shape_too_large, "shape {0} needs {1} bytes of data, more than the 2 GiB limit") \
  X(io_npy_invalid_dtype_value, "invalid dtype value") \
  X(io_npy_data_size_mismatch, "shape {0} of '{1}' needs {2} bytes of data, the array holds {3}") \
  X(io_npy_bool_byte, "bool array has byte {0} at index {1}; only 0 and 1 are allowed") \
  X(io_npy_header_not_dict_end, "header is not a dict: expected '{', found the end of the header") \
  X(io_npy_header_not_dict_at, "header is not a dict: expected '{', found {0} at header byte {1}") \
  X(io_npy_header_expected_key_end, "header: expected a quoted key, found the end of the header") \
  X(io_npy_header_expected_key_at, "header: expected a quoted key, found {0} at header byte {1}") \
  X(io_npy_header_expected_descr_end, "header: expected descr as a quoted string, found the end of the header") \
  X(io_npy_header_expected_descr_at, "header: expected descr as a quoted string, found {0} at header byte {1}") \
  X(io_npy_header_expected_colon_end, "header: expected ':' after key '{0}', found the end of the header") \
  X(io_npy_header_expected_colon_at, "header: expected ':' after key '{0}', found {1} at header byte {2}") \
  X(io_npy_structured_dtype, "structured dtypes (descr is a list) are not supported") \
  X(io_npy_fortran_order_value, "fortran_order must be True or False, found {0}") \
  X(io_npy_fortran_order_value_end, "fortran_order must be True or False, found the end of the header") \
  X(io_npy_fortran_order_value_at, "fortran_order must be True or False, found {0} at header byte {1}") \
  X(io_npy_header_unexpected_key, "unexpected key '{0}' in header (only 'descr', 'fortran_order', 'shape' are allowed)") \
  X(io_npy_header_expected_comma_end, "header: expected ',' or '}' after the value of '{0}', found the end of the header") \
  X(io_npy_header_expected_comma_at, "header: expected ',' or '}' after the value of '{0}', found {1} at header byte {2}") \
  X(io_npy_header_no_newline, "header does not end with '\\n'") \
  X(io_npy_header_trailing_text, "unexpected text after the header dict: '{0}'") \
  X(io_npy_header_missing_key, "header is missing key '{0}'") \
  X(io_npy_header_duplicate_key, "duplicate key '{0}' in header") \
  X(io_npy_header_escape, "header: escape sequences in strings are not supported") \
  X(io_npy_header_unterminated_string, "header: unterminated string {0}") \
  X(io_npy_shape_is_list, "shape must be a tuple, found a list") \
  X(io_npy_shape_not_tuple_end, "shape must be a tuple such as (2, 3), found the end of the header") \
  X(io_npy_shape_not_tuple_at, "shape must be a tuple such as (2, 3), found {0} at header byte {1}") \
  X(io_npy_header_unterminated_shape, "header: unterminated shape tuple") \
  X(io_npy_shape_missing_comma, "shape {0} is not a tuple (a 1-d shape is written (n,))") \
  X(io_npy_shape_empty_dim, "shape {0} is invalid: empty dimension") \
  X(io_npy_shape_not_integer, "shape {0} is invalid: '{1}' is not a non-negative integer") \
  X(io_npy_shape_leading_zero, "shape {0} is invalid: '{1}' has a leading zero") \
  X(io_npy_shape_dim_overflow, "shape {0} is invalid: dimension {1} does not fit in int64") \
  X(io_npy_unsupported_dtype, "unsupported dtype {0}") \
  X(io_npy_big_endian_dtype, "big-endian dtype {0} is not supported (save it as {1})") \
  X(io_npy_dtype_no_byte_order, "dtype {0} does not say its byte order (expected {1})") \
  X(io_npy_too_short, "truncated: file is {0} bytes, shorter than the .npy magic") \
  X(io_npy_bad_magic, "not a .npy file: bad magic (expected \\x93NUMPY)") \
  X(io_npy_no_version, "truncated: file ends before the format version") \
  X(io_npy_unsupported_version, "unsupported .npy format version {0}.{1}") \
  X(io_npy_no_header_length, "truncated: file ends inside the {0}-byte header length") \
  X(io_npy_header_past_end, "truncated: header length is {0} bytes, only {1} follow") \
  X(io_npy_header_empty, "header is empty") \
  X(io_npy_fortran_order, "fortran_order arrays are not supported (save np.ascontiguousarray(a))") \
  X(io_npy_data_truncated, "truncated: header says {0} bytes of data, file has {1}") \
  X(io_npy_data_trailing, "trailing bytes: header says {0} bytes of data, file has {1}") \
  X(io_npy_strings_pickled, "strings saved as Python objects (dtype=object) cannot be read without pickle; save them with np.array(tokens, dtype=str)") \
  X(io_npy_strings_wrong_dtype, "expected an array of strings ('<U' or '|S'), found dtype {0}") \
  X(io_npy_strings_big_endian, "big-endian strings {0} are not supported") \
  X(io_npy_strings_invalid_dtype, "invalid string dtype {0}") \
  X(io_npy_strings_zero_width, "string dtype {0} has width 0") \
  X(io_npy_strings_fortran_order, "fortran_order arrays are not supported") \
  X(io_npy_strings_bad_rank, "strings must be a 1-d or 2-d array, found shape {0}") \
  X(io_npy_strings_too_large, "string array holds {0} bytes, more than the {1} MiB limit") \
  X(io_npy_strings_bad_code_point, "string {0} holds an invalid code point {1}") \
  X(io_file_cannot_open, "cannot open ({0})") \
  X(io_file_cannot_open_unknown, "cannot open (unknown error)") \
  X(io_npy_file_too_large, "file is larger than any .npy with at most 2 GiB of data") \
  X(io_file_cannot_seek_back, "read error (cannot seek back)") \
  X(io_file_read_error, "read error ({0})") \
  X(io_file_read_error_unknown, "read error (unknown error)") \
  X(io_file_cannot_create_temp, "cannot create a temporary file ({0})") \
  X(io_file_cannot_create_temp_unknown, "cannot create a temporary file (unknown error)") \
  X(io_file_temp_names_taken, "cannot create a temporary file (all names taken)") \
  X(io_file_cannot_write, "cannot write ({0})") \
  X(io_file_cannot_write_unknown, "cannot write (unknown error)") \
  X(io_file_cannot_replace, "cannot replace the file ({0})") \
  X(io_file_cannot_replace_unknown, "cannot replace the file (unknown error)") \
  X(io_npy_non_finite, "{0} contains NaN or Inf at index {1}") \
  X(io_npy_too_large_for_float, "{0} contains a value too large for float at index {1}") \
  X(io_zip_too_short, "not a zip archive: {0} bytes is too short") \
  X(io_zip_no_end_record, "not a zip archive: no end-of-central-directory record") \
  X(io_zip64_no_locator, "zip archive: ZIP64 fields without a ZIP64 locator") \
  X(io_zip64_end_outside, "zip archive: the ZIP64 end record lies outside the file") \
  X(io_zip_directory_outside, "zip archive: the central directory lies outside the file") \
  X(io_zip_too_many_members, "zip archive has {0} members, more than 64") \
  X(io_zip_entry_damaged, "zip archive: central directory entry {0} is damaged") \
  X(io_zip_entry_past_directory, "zip archive: central directory entry {0} runs past the directory") \
  X(io_zip_damaged_extra_field, "zip archive: damaged extra field in member {0}") \
  X(io_zip64_short_field, "zip archive: short ZIP64 field in member {0}") \
  X(io_zip_member_encrypted, "zip member {0} is encrypted") \
  X(io_zip_local_header_missing, "zip member {0}: local header missing or outside the file") \
  X(io_zip_member_truncated, "zip member {0} is truncated: its data runs past the end of the file") \
  X(io_zip_duplicate_member, "zip archive has two members named {0}") \
  X(io_zip_inflated_size, "inflated to {0} bytes, the archive says {1}") \
  X(io_zip_not_preinflated, "this compressed member was not inflated beforehand") \
  X(io_json_expected_value, "expected a value at byte {0}") \
  X(io_json_expected_fraction, "expected digits after '.' at byte {0}") \
  X(io_json_expected_exponent, "expected digits in the exponent at byte {0}") \
  X(io_json_number_too_long, "number longer than 64 characters at byte {0}") \
  X(io_json_number_too_large, "number {0} is too large for float at byte {1}") \
  X(io_json_short_unicode_escape, "short \\u escape at byte {0}") \
  X(io_json_bad_hex_digit, "bad hex digit in a \\u escape at byte {0}") \
  X(io_json_unterminated_string, "unterminated string at byte {0}") \
  X(io_json_control_character, "control character in a string at byte {0}") \
  X(io_json_unterminated_escape, "unterminated escape at byte {0}") \
  X(io_json_unknown_escape, "unknown escape \\{0} at byte {1}") \
  X(io_json_too_deep, "nesting deeper than {0} at byte {1}") \
  X(io_json_unexpected_end, "unexpected end of the text at byte {0}") \
  X(io_json_too_many_values, "more than {0} values besides numbers in lists (use .npz for larger data) at byte {1}") \
  X(io_json_reader_failed, "the reader stopped at an error") \
  X(io_json_unterminated_array, "unterminated array at byte {0}") \
  X(io_json_mixed_array, "an array mixes numbers with other values at byte {0}") \
  X(io_json_expected_array_comma, "expected ',' or ']' in an array at byte {0}") \
  X(io_json_expected_object_comma, "expected ',' or '}' in an object at byte {0}") \
  X(io_json_expected_key, "expected a quoted key at byte {0}") \
  X(io_json_duplicate_key, "duplicate key \"{0}\" at byte {1}") \
  X(io_json_expected_colon, "expected ':' after a key at byte {0}") \
  X(io_json_trailing_text, "unexpected text after the JSON value at byte {0}") \
  X(io_json_not_numbers, "'{0}' must be nested arrays of numbers") \
  X(io_json_not_rectangular, "'{0}' is not rectangular (expected shape {1})") \
  X(io_json_rows_differ, "the rows of '{0}' differ in length") \
  X(io_json_not_strings, "'{0}' must be a list of strings (or a list of such lists, one per batch entry)") \
  X(io_json_not_object, "the file must hold one object") \
  X(io_json_bad_format, "\"format\" must be \"attnlab-attention\"") \
  X(io_json_bad_version, "\"version\" must be 1") \
  X(io_json_two_weight_arrays, "JSON has two weight arrays (\"{0}\" and \"{1}\")") \
  X(io_json_unknown_key, "unknown key \"{0}\" (known: format, version, attentions, tokens, query_tokens, key_tokens, q, k, v)") \
  X(io_import_file_too_large, "the file is {0}; at most {1} can be imported") \
  X(io_npz_member, ".npz member '{0}'") \
  X(io_npz_deflate_unavailable, "is compressed with deflate, and no inflater is available here") \
  X(io_npz_inflate_limit, ".npz members inflate to more than {0}, the limit") \
  X(io_npz_cannot_inflate, "cannot inflate") \
  X(io_npz_inflated_wrong_size, "inflated to the wrong size") \
  X(io_npz_stored_sizes_differ, "stored member with two different sizes") \
  X(io_npz_unsupported_method, "compression method {0} is not supported (stored or deflate only)") \
  X(io_npz_crc_mismatch, "CRC-32 mismatch: the archive is damaged") \
  X(io_npz_two_weight_arrays, ".npz has two weight arrays ('{0}' and '{1}')") \
  X(io_npz_flag_not_bool, "must be a single bool") \
  X(io_import_file_empty, "the file is empty") \
  X(io_import_unknown_format, "not a file the lab reads: expected .npy, .npz or the lab's JSON format (see docs/IMPORT.md)") \
  X(io_import_json_too_large, "the JSON file is {0}; the JSON format takes at most {1} (use .npz for larger data)") \
  X(io_import_not_running, "no import is in progress") \
  X(io_import_non_finite, "'{0}' contains NaN or Inf at flat index {1}") \
  X(io_import_array_non_finite, "'the array' contains NaN or Inf at flat index {0}") \
  X(io_import_uint16, "'{0}' has dtype uint16: if it holds bfloat16 values, turn on the bfloat16 flag (or add a 0-d bool member 'bfloat16' to the archive)") \
  X(io_import_array_uint16, "'the array' has dtype uint16: if it holds bfloat16 values, turn on the bfloat16 flag (or add a 0-d bool member 'bfloat16' to the archive)") \
  X(io_import_bad_dtype, "'{0}' has dtype {1}; attention must be float32, float16, float64 or bfloat16 (as uint16)") \
  X(io_import_array_bad_dtype, "'the array' has dtype {0}; attention must be float32, float16, float64 or bfloat16 (as uint16)") \
  X(io_import_token_batch_missing, "'{0}' has {1} rows (batch entries); batch {2} does not exist") \
  X(io_import_token_rank, "'{0}' must be 1-d (n,) or 2-d (batch, n), found shape {1}") \
  X(io_import_projection_rank, "'{0}' must have shape {1} like the weights, found {2}") \
  X(io_import_projection_batch, "'{0}' has batch {1}, the weights {2}") \
  X(io_import_projection_shape, "'{0}' must have shape {1} to match the weights, found {2}") \
  X(io_import_projection_width, "'{0}' has width {1}; 1 to {2} is allowed") \
  X(io_import_no_weights, "no attention weights found: name the array 'attentions' (or 'attention', 'attn', 'weights')") \
  X(io_import_weights_rank, "'{0}' must have 2 to 5 dimensions ((n_q, n_k) ... (batch, layers, heads, n_q, n_k)), found shape {1}") \
  X(io_import_array_rank, "'the array' must have 2 to 5 dimensions ((n_q, n_k) ... (batch, layers, heads, n_q, n_k)), found shape {0}") \
  X(io_import_weights_empty, "'{0}' is empty: shape {1}") \
  X(io_import_array_empty, "'the array' is empty: shape {0}") \
  X(io_import_batch_out_of_range, "batch {0} does not exist: the file has {1} (batch index 0 to {2})") \
  X(io_import_no_batch_axis, "batch {0} does not exist: the weights have no batch axis") \
  X(io_import_too_many_layers, "{0} layers, more than the {1} allowed") \
  X(io_import_too_many_heads, "{0} heads, more than the {1} allowed") \
  X(io_import_too_many_tokens, "{0} x {1} tokens: at most {2} per side are shown") \
  X(io_import_token_label_long, "'{0}' entry {1} is {2} bytes long; a token's label may be at most {3}") \
  X(io_import_too_many_elements, "the weights hold {0} elements, more than the {1} allowed") \
  X(io_import_tokens_both, "give either 'tokens' or 'query_tokens' + 'key_tokens', not both") \
  X(io_import_tokens_pair, "'query_tokens' and 'key_tokens' come together (for self-attention give 'tokens')") \
  X(io_import_tokens_cross, "'tokens' is one list, but the weights are cross-attention ({0} x {1}): give 'query_tokens' and 'key_tokens'") \
  X(io_import_query_token_count, "{0} query tokens for {1} query rows of the weights") \
  X(io_import_key_token_count, "{0} key tokens for {1} key columns of the weights") \
  X(io_import_qkv_partial, "Q, K and V come together: the file has only some of 'q', 'k', 'v'") \
  X(io_import_qk_width, "'q' has width {0} but 'k' has {1}") \
  X(io_import_q_rank, "without weights, 'q' must have 2 to 5 dimensions ((n, d) ... (batch, layers, heads, n, d)), found shape {0}") \
  X(io_import_no_batch_axis_q, "batch {0} does not exist: 'q' has no batch axis") \
  X(io_import_projection_rank_q, "'{0}' must have {1} dimensions like 'q', found shape {2}") \
  X(io_import_projection_batch_q, "'{0}' has batch {1}, 'q' {2}") \
  X(io_import_projection_shape_q, "'{0}' must have shape {1} to match 'q', found {2}") \
  X(io_import_too_many_overview_tokens, "{0} x {1} tokens: a file of q and k without weights may have at most {2} per side") \
  X(io_import_too_many_qkv_elements, "q, k and v hold {0} elements, more than the {1} allowed") \
  X(io_import_needs_weights, "this file has q and k but no attention weights: {0} needs the weights (the lab's overview computes them from q and k)")

namespace attn::msg {
#define ATTNLAB_MESSAGE_TEXT(id, en) inline constexpr MessageText id{#id, en};
ATTNLAB_IO_MESSAGES(ATTNLAB_MESSAGE_TEXT)
#undef ATTNLAB_MESSAGE_TEXT
}  // namespace attn::msg

// The Chinese texts of core/io/io_messages.h, under the same ids with the same arguments.
#pragma once

#define ATTNLAB_IO_MESSAGES_ZH(X) \
  X(io_npy_too_many_dims, "形状有 {0} 个维度，超过上限 {1}") \
  X(io_npy_negative_dim, "形状 {0} 无效：维度 {1} 是负数") \
  X(io_npy_shape_overflow, "形状 {0} 无效：它的字节数超出了 int64 的范围") \
  X(io_npy_shape_too_large, "形状 {0} 需要 {1} 字节的数据，超过 2 GiB 的上限") \
  X(io_npy_invalid_dtype_value, "无效的 dtype 值") \
  X(io_npy_data_size_mismatch, "形状为 {0}、dtype 为 '{1}' 的数组需要 {2} 字节的数据，实际只有 {3} 字节") \
  X(io_npy_bool_byte, "bool 数组在索引 {1} 处的字节是 {0}；只允许 0 和 1") \
  X(io_npy_header_not_dict_end, "文件头不是字典：应为 '{'，却到了文件头末尾") \
  X(io_npy_header_not_dict_at, "文件头不是字典：应为 '{'，却在文件头第 {1} 字节遇到 {0}") \
  X(io_npy_header_expected_key_end, "文件头：应为带引号的键，却到了文件头末尾") \
  X(io_npy_header_expected_key_at, "文件头：应为带引号的键，却在文件头第 {1} 字节遇到 {0}") \
  X(io_npy_header_expected_descr_end, "文件头：descr 应为带引号的字符串，却到了文件头末尾") \
  X(io_npy_header_expected_descr_at, "文件头：descr 应为带引号的字符串，却在文件头第 {1} 字节遇到 {0}") \
  X(io_npy_header_expected_colon_end, "文件头：键 '{0}' 之后应为 ':'，却到了文件头末尾") \
  X(io_npy_header_expected_colon_at, "文件头：键 '{0}' 之后应为 ':'，却在文件头第 {2} 字节遇到 {1}") \
  X(io_npy_structured_dtype, "不支持结构化 dtype（descr 是列表）") \
  X(io_npy_fortran_order_value, "fortran_order 必须是 True 或 False，却是 {0}") \
  X(io_npy_fortran_order_value_end, "fortran_order 必须是 True 或 False，却到了文件头末尾") \
  X(io_npy_fortran_order_value_at, "fortran_order 必须是 True 或 False，却在文件头第 {1} 字节遇到 {0}") \
  X(io_npy_header_unexpected_key, "文件头中有意外的键 '{0}'（只允许 'descr'、'fortran_order'、'shape'）") \
  X(io_npy_header_expected_comma_end, "文件头：'{0}' 的值之后应为 ',' 或 '}'，却到了文件头末尾") \
  X(io_npy_header_expected_comma_at, "文件头：'{0}' 的值之后应为 ',' 或 '}'，却在文件头第 {2} 字节遇到 {1}") \
  X(io_npy_header_no_newline, "文件头不是以 '\\n' 结尾") \
  X(io_npy_header_trailing_text, "文件头字典之后有多余的文本：'{0}'") \
  X(io_npy_header_missing_key, "文件头缺少键 '{0}'") \
  X(io_npy_header_duplicate_key, "文件头中的键 '{0}' 重复") \
  X(io_npy_header_escape, "文件头：不支持字符串中的转义序列") \
  X(io_npy_header_unterminated_string, "文件头：字符串 {0} 缺少结束引号") \
  X(io_npy_shape_is_list, "shape 必须是元组，却是列表") \
  X(io_npy_shape_not_tuple_end, "shape 必须是 (2, 3) 这样的元组，却到了文件头末尾") \
  X(io_npy_shape_not_tuple_at, "shape 必须是 (2, 3) 这样的元组，却在文件头第 {1} 字节遇到 {0}") \
  X(io_npy_header_unterminated_shape, "文件头：shape 元组缺少右括号") \
  X(io_npy_shape_missing_comma, "形状 {0} 不是元组（一维形状写作 (n,)）") \
  X(io_npy_shape_empty_dim, "形状 {0} 无效：有一个维度是空的") \
  X(io_npy_shape_not_integer, "形状 {0} 无效：'{1}' 不是非负整数") \
  X(io_npy_shape_leading_zero, "形状 {0} 无效：'{1}' 有前导零") \
  X(io_npy_shape_dim_overflow, "形状 {0} 无效：维度 {1} 超出了 int64 的范围") \
  X(io_npy_unsupported_dtype, "不支持的 dtype {0}") \
  X(io_npy_big_endian_dtype, "不支持大端序的 dtype {0}（请存为 {1}）") \
  X(io_npy_dtype_no_byte_order, "dtype {0} 没有注明字节序（应为 {1}）") \
  X(io_npy_too_short, "文件不完整：只有 {0} 字节，比 .npy 的魔数还短") \
  X(io_npy_bad_magic, "不是 .npy 文件：魔数不对（应为 \\x93NUMPY）") \
  X(io_npy_no_version, "文件不完整：在格式版本号之前就结束了") \
  X(io_npy_unsupported_version, "不支持的 .npy 格式版本 {0}.{1}") \
  X(io_npy_no_header_length, "文件不完整：在 {0} 字节的文件头长度字段中间就结束了") \
  X(io_npy_header_past_end, "文件不完整：文件头长度为 {0} 字节，后面却只有 {1} 字节") \
  X(io_npy_header_empty, "文件头是空的") \
  X(io_npy_fortran_order, "不支持 fortran_order 数组（请保存 np.ascontiguousarray(a)）") \
  X(io_npy_data_truncated, "文件不完整：文件头说有 {0} 字节数据，文件里只有 {1} 字节") \
  X(io_npy_data_trailing, "文件末尾有多余的字节：文件头说有 {0} 字节数据，文件里却有 {1} 字节") \
  X(io_npy_strings_pickled, "存为 Python 对象（dtype=object）的字符串不用 pickle 就读不出来；请用 np.array(tokens, dtype=str) 保存") \
  X(io_npy_strings_wrong_dtype, "应为字符串数组（'<U' 或 '|S'），实际的 dtype 是 {0}") \
  X(io_npy_strings_big_endian, "不支持大端序的字符串 {0}") \
  X(io_npy_strings_invalid_dtype, "无效的字符串 dtype {0}") \
  X(io_npy_strings_zero_width, "字符串 dtype {0} 的宽度为 0") \
  X(io_npy_strings_fortran_order, "不支持 fortran_order 数组") \
  X(io_npy_strings_bad_rank, "字符串必须是一维或二维数组，实际形状为 {0}") \
  X(io_npy_strings_too_large, "字符串数组有 {0} 字节，超过 {1} MiB 的上限") \
  X(io_npy_strings_bad_code_point, "第 {0} 个字符串含有无效的码位 {1}") \
  X(io_file_cannot_open, "无法打开（{0}）") \
  X(io_file_cannot_open_unknown, "无法打开（未知错误）") \
  X(io_npy_file_too_large, "文件太大：数据不超过 2 GiB 的 .npy 文件不会这么大") \
  X(io_file_cannot_seek_back, "读取出错（无法回到原来的位置）") \
  X(io_file_read_error, "读取出错（{0}）") \
  X(io_file_read_error_unknown, "读取出错（未知错误）") \
  X(io_file_cannot_create_temp, "无法创建临时文件（{0}）") \
  X(io_file_cannot_create_temp_unknown, "无法创建临时文件（未知错误）") \
  X(io_file_temp_names_taken, "无法创建临时文件（所有文件名都已被占用）") \
  X(io_file_cannot_write, "无法写入（{0}）") \
  X(io_file_cannot_write_unknown, "无法写入（未知错误）") \
  X(io_file_cannot_replace, "无法替换文件（{0}）") \
  X(io_file_cannot_replace_unknown, "无法替换文件（未知错误）") \
  X(io_npy_non_finite, "{0} 在索引 {1} 处含有 NaN 或 Inf") \
  X(io_npy_too_large_for_float, "{0} 在索引 {1} 处含有超出 float 范围的值") \
  X(io_zip_too_short, "不是 zip 压缩包：{0} 字节太短了") \
  X(io_zip_no_end_record, "不是 zip 压缩包：没有中央目录结束记录") \
  X(io_zip64_no_locator, "zip 压缩包：有 ZIP64 字段，却没有 ZIP64 定位记录") \
  X(io_zip64_end_outside, "zip 压缩包：ZIP64 结束记录位于文件之外") \
  X(io_zip_directory_outside, "zip 压缩包：中央目录位于文件之外") \
  X(io_zip_too_many_members, "zip 压缩包有 {0} 个成员，超过 64 个") \
  X(io_zip_entry_damaged, "zip 压缩包：中央目录的第 {0} 项已损坏") \
  X(io_zip_entry_past_directory, "zip 压缩包：中央目录的第 {0} 项超出了目录末尾") \
  X(io_zip_damaged_extra_field, "zip 压缩包：成员 {0} 的扩展字段已损坏") \
  X(io_zip64_short_field, "zip 压缩包：成员 {0} 的 ZIP64 字段太短") \
  X(io_zip_member_encrypted, "zip 成员 {0} 已加密") \
  X(io_zip_local_header_missing, "zip 成员 {0}：本地文件头缺失或位于文件之外") \
  X(io_zip_member_truncated, "zip 成员 {0} 不完整：它的数据超出了文件末尾") \
  X(io_zip_duplicate_member, "zip 压缩包中有两个名为 {0} 的成员") \
  X(io_zip_inflated_size, "解压后为 {0} 字节，压缩包记录的却是 {1} 字节") \
  X(io_zip_not_preinflated, "这个压缩成员没有事先解压") \
  X(io_json_expected_value, "应为一个值（第 {0} 字节）") \
  X(io_json_expected_fraction, "'.' 之后应为数字（第 {0} 字节）") \
  X(io_json_expected_exponent, "指数中应为数字（第 {0} 字节）") \
  X(io_json_number_too_long, "数字超过 64 个字符（第 {0} 字节）") \
  X(io_json_number_too_large, "数字 {0} 超出 float 的范围（第 {1} 字节）") \
  X(io_json_short_unicode_escape, "\\u 转义太短（第 {0} 字节）") \
  X(io_json_bad_hex_digit, "\\u 转义中有无效的十六进制数字（第 {0} 字节）") \
  X(io_json_unterminated_string, "字符串缺少结束引号（第 {0} 字节）") \
  X(io_json_control_character, "字符串中有控制字符（第 {0} 字节）") \
  X(io_json_unterminated_escape, "转义序列不完整（第 {0} 字节）") \
  X(io_json_unknown_escape, "未知的转义 \\{0}（第 {1} 字节）") \
  X(io_json_too_deep, "嵌套超过 {0} 层（第 {1} 字节）") \
  X(io_json_unexpected_end, "文本意外结束（第 {0} 字节）") \
  X(io_json_too_many_values, "除列表中的数字外，值超过了 {0} 个（第 {1} 字节）；更大的数据请用 .npz") \
  X(io_json_reader_failed, "读取已因错误停止") \
  X(io_json_unterminated_array, "数组没有结束（第 {0} 字节）") \
  X(io_json_mixed_array, "数组中混有数字和其他值（第 {0} 字节）") \
  X(io_json_expected_array_comma, "数组中应为 ',' 或 ']'（第 {0} 字节）") \
  X(io_json_expected_object_comma, "对象中应为 ',' 或 '}'（第 {0} 字节）") \
  X(io_json_expected_key, "应为带引号的键（第 {0} 字节）") \
  X(io_json_duplicate_key, "键 \"{0}\" 重复（第 {1} 字节）") \
  X(io_json_expected_colon, "键之后应为 ':'（第 {0} 字节）") \
  X(io_json_trailing_text, "JSON 值之后有多余的文本（第 {0} 字节）") \
  X(io_json_not_numbers, "'{0}' 必须是嵌套的数字数组") \
  X(io_json_not_rectangular, "'{0}' 的各行长度不一致（应为形状 {1}）") \
  X(io_json_rows_differ, "'{0}' 的各行长度不同") \
  X(io_json_not_strings, "'{0}' 必须是字符串列表（或这种列表组成的列表，每个批次条目一个）") \
  X(io_json_not_object, "文件必须只包含一个对象") \
  X(io_json_bad_format, "\"format\" 必须是 \"attnlab-attention\"") \
  X(io_json_bad_version, "\"version\" 必须是 1") \
  X(io_json_two_weight_arrays, "JSON 中有两个权重数组（\"{0}\" 和 \"{1}\"）") \
  X(io_json_unknown_key, "未知的键 \"{0}\"（可用的键：format、version、attentions、tokens、query_tokens、key_tokens、q、k、v）") \
  X(io_import_file_too_large, "文件大小为 {0}；最多只能导入 {1}") \
  X(io_npz_member, ".npz 成员 '{0}'") \
  X(io_npz_deflate_unavailable, "用 deflate 压缩，但这里没有可用的解压器") \
  X(io_npz_inflate_limit, ".npz 成员解压后超过了 {0} 的上限") \
  X(io_npz_cannot_inflate, "无法解压") \
  X(io_npz_inflated_wrong_size, "解压后的大小不对") \
  X(io_npz_stored_sizes_differ, "未压缩的成员却有两个不同的大小") \
  X(io_npz_unsupported_method, "不支持压缩方法 {0}（只支持不压缩或 deflate）") \
  X(io_npz_crc_mismatch, "CRC-32 校验不符：压缩包已损坏") \
  X(io_npz_two_weight_arrays, ".npz 中有两个权重数组（'{0}' 和 '{1}'）") \
  X(io_npz_flag_not_bool, "必须是单个 bool 值") \
  X(io_import_file_empty, "文件是空的") \
  X(io_import_unknown_format, "实验室读不了这个文件：应为 .npy、.npz 或实验室的 JSON 格式（见 docs/IMPORT.md）") \
  X(io_import_json_too_large, "JSON 文件大小为 {0}；JSON 格式最多接受 {1}（更大的数据请用 .npz）") \
  X(io_import_not_running, "当前没有正在进行的导入") \
  X(io_import_non_finite, "'{0}' 在展平后的索引 {1} 处含有 NaN 或 Inf") \
  X(io_import_array_non_finite, "数组在展平后的索引 {0} 处含有 NaN 或 Inf") \
  X(io_import_uint16, "'{0}' 的 dtype 是 uint16：如果它存的是 bfloat16 值，请打开 bfloat16 选项（或在压缩包里加一个名为 'bfloat16' 的零维 bool 成员）") \
  X(io_import_array_uint16, "数组的 dtype 是 uint16：如果它存的是 bfloat16 值，请打开 bfloat16 选项（或在压缩包里加一个名为 'bfloat16' 的零维 bool 成员）") \
  X(io_import_bad_dtype, "'{0}' 的 dtype 是 {1}；注意力必须是 float32、float16、float64 或 bfloat16（存为 uint16）") \
  X(io_import_array_bad_dtype, "数组的 dtype 是 {0}；注意力必须是 float32、float16、float64 或 bfloat16（存为 uint16）") \
  X(io_import_token_batch_missing, "'{0}' 有 {1} 行（批次条目）；批次 {2} 不存在") \
  X(io_import_token_rank, "'{0}' 必须是一维 (n,) 或二维 (批次, n)，实际形状为 {1}") \
  X(io_import_projection_rank, "'{0}' 的形状必须和权重一样是 {1}，实际为 {2}") \
  X(io_import_projection_batch, "'{0}' 的批次数是 {1}，权重的是 {2}") \
  X(io_import_projection_shape, "'{0}' 的形状必须是 {1} 才能和权重对应，实际为 {2}") \
  X(io_import_projection_width, "'{0}' 的宽度是 {1}；允许 1 到 {2}") \
  X(io_import_no_weights, "没有找到注意力权重：请把数组命名为 'attentions'（或 'attention'、'attn'、'weights'）") \
  X(io_import_weights_rank, "'{0}' 必须有 2 到 5 个维度（从 (n_q, n_k) 到 (批次, 层, 头, n_q, n_k)），实际形状为 {1}") \
  X(io_import_array_rank, "数组必须有 2 到 5 个维度（从 (n_q, n_k) 到 (批次, 层, 头, n_q, n_k)），实际形状为 {0}") \
  X(io_import_weights_empty, "'{0}' 是空的：形状为 {1}") \
  X(io_import_array_empty, "数组是空的：形状为 {0}") \
  X(io_import_batch_out_of_range, "批次 {0} 不存在：文件中有 {1} 个批次（批次索引 0 到 {2}）") \
  X(io_import_no_batch_axis, "批次 {0} 不存在：权重没有批次轴") \
  X(io_import_too_many_layers, "{0} 层，超过允许的 {1} 层") \
  X(io_import_too_many_heads, "{0} 个头，超过允许的 {1} 个") \
  X(io_import_too_many_tokens, "{0} x {1} 个词元：每边最多显示 {2} 个") \
  X(io_import_token_label_long, "'{0}' 的第 {1} 项有 {2} 字节；词元标签最多 {3} 字节") \
  X(io_import_too_many_elements, "权重有 {0} 个元素，超过允许的 {1} 个") \
  X(io_import_tokens_both, "'tokens' 和 'query_tokens' + 'key_tokens' 只能给出一种，不能同时给出") \
  X(io_import_tokens_pair, "'query_tokens' 和 'key_tokens' 必须一起给出（自注意力请给出 'tokens'）") \
  X(io_import_tokens_cross, "'tokens' 只有一个列表，但权重是交叉注意力（{0} x {1}）：请给出 'query_tokens' 和 'key_tokens'") \
  X(io_import_query_token_count, "有 {0} 个查询词元，但权重有 {1} 个查询行") \
  X(io_import_key_token_count, "有 {0} 个键词元，但权重有 {1} 个键列") \
  X(io_import_qkv_partial, "Q、K、V 必须一起给出：文件里只有 'q'、'k'、'v' 中的一部分") \
  X(io_import_qk_width, "'q' 的宽度是 {0}，而 'k' 的宽度是 {1}") \
  X(io_import_q_rank, "没有权重时，'q' 必须有 2 到 5 个维度（(n, d) … (batch, layers, heads, n, d)），现在的形状是 {0}") \
  X(io_import_no_batch_axis_q, "批次 {0} 不存在：'q' 没有批次轴") \
  X(io_import_projection_rank_q, "'{0}' 必须像 'q' 一样有 {1} 个维度，现在的形状是 {2}") \
  X(io_import_projection_batch_q, "'{0}' 的批次是 {1}，而 'q' 的是 {2}") \
  X(io_import_projection_shape_q, "'{0}' 的形状必须是 {1} 才能与 'q' 匹配，现在是 {2}") \
  X(io_import_too_many_overview_tokens, "{0} x {1} 个词元：没有权重、只有 q 和 k 的文件每边最多 {2} 个") \
  X(io_import_too_many_qkv_elements, "q、k、v 共有 {0} 个元素，超过允许的 {1} 个") \
  X(io_import_needs_weights, "这个文件有 q 和 k，但没有注意力权重：{0} 需要权重（实验室的概览会从 q 和 k 计算它们）")

// The Chinese texts of files/files_messages.h, under the same ids with the same arguments.
#pragma once

#define ATTNLAB_FILES_MESSAGES_ZH(X) \
  X(files_json_not_utf8, "JSON 文本不是 UTF-8（第 {0} 字节）") \
  X(files_json_too_deep, "JSON 的嵌套超过 {0} 层（第 {1} 字节）") \
  X(files_export_format, "导出格式必须是 png、svg、csv、json 或 npy，而不是 '{0}'") \
  X(files_export_pixels, "{0} x {1} 的 PNG 超过了允许的 {2} 百万像素；请选小一点的倍数") \
  X(files_export_nothing, "没有可导出的矩阵") \
  X(files_export_scale, "导出倍数必须是 1 到 {0}")

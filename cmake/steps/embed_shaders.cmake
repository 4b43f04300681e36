# Writes a header with every shader body as a string constant, so both builds carry
# their shaders inside the binary (the web build has no file system to read them from).
# Called with -DOUT=<header> -DSHADERS=<file|file|...>. Names: heatmap.frag -> heatmap_frag.
set(content "// Generated from shaders/ by cmake/steps/embed_shaders.cmake. Do not edit.\n#pragma once\n\nnamespace attn::shaders {\n")
string(REPLACE "|" ";" SHADERS "${SHADERS}")
foreach(path ${SHADERS})
  get_filename_component(name "${path}" NAME)
  string(REPLACE "." "_" symbol "${name}")
  file(READ "${path}" body)
  string(APPEND content "inline constexpr const char* ${symbol} = R\"glsl(${body})glsl\";\n")
endforeach()
string(APPEND content "}  // namespace attn::shaders\n")
file(WRITE "${OUT}.tmp" "${content}")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)

# Import of attention files (src/core/io/import_attention.cpp): .npz members compressed with
# deflate are inflated by zlib in the native targets only; the browser inflates them with
# DecompressionStream and hands the parser the inflated bytes (web/import.mjs).
if(NOT EMSCRIPTEN)
  find_package(ZLIB REQUIRED)
  add_library(attnlab_zlib STATIC "${CMAKE_SOURCE_DIR}/src/platform/native_import.cpp")
  target_link_libraries(attnlab_zlib PUBLIC attnlab_state ZLIB::ZLIB)
  target_compile_options(attnlab_zlib PRIVATE ${ATTNLAB_WARNINGS})
  target_link_libraries(attnlab PRIVATE attnlab_zlib)
  target_link_libraries(attnlab-cli PRIVATE attnlab_zlib)
  target_link_libraries(attnlab_tests PRIVATE attnlab_zlib)
endif()
if(EMSCRIPTEN)
  # The page's import and export functions (web/import.mjs).
  target_sources(attnlab PRIVATE "${CMAKE_SOURCE_DIR}/src/bindings/app_import_bindings.cpp")
endif()

# The third-party libraries the layers build on, beside Eigen: zlib (the core's CRC-32, the
# PNG writer's deflate), stb_image_write.h (the PNG writer) and fast_float (the numbers of the
# JSON import and of the CLI's options). All three come from Debian, set up in build-deps/ by
# scripts/setup.sh (git-ignored):
#   zlib          natively Debian's libz (zlib1g-dev); under Emscripten the C files of zlib
#                 1.2.13 from its source package, compiled here (the frozen Emscripten cache
#                 has no zlib port). One build without -msimd128 serves the SIMD and the
#                 scalar builds alike, as ImGui does: zlib gains nothing from SIMD128.
#   stb_image_write   the header from libstb-dev; src/files/png_writer.cpp holds its code.
#   fast_float    the headers from libfast-float-dev.
# The header-only ones are copies, so em++ never sees /usr/include; the desktop uses the
# same copies.
set(ATTNLAB_ZLIB_DIR "${CMAKE_SOURCE_DIR}/build-deps/zlib" CACHE PATH "zlib 1.2.13 sources (scripts/setup.sh)")
set(ATTNLAB_STB_DIR "${CMAKE_SOURCE_DIR}/build-deps/stb" CACHE PATH "stb_image_write.h (scripts/setup.sh)")
set(ATTNLAB_FAST_FLOAT_DIR "${CMAKE_SOURCE_DIR}/build-deps/fast_float" CACHE PATH "fast_float headers (scripts/setup.sh)")
foreach(needed "${ATTNLAB_STB_DIR}/stb_image_write.h" "${ATTNLAB_FAST_FLOAT_DIR}/fast_float/fast_float.h")
  if(NOT EXISTS "${needed}")
    message(FATAL_ERROR "${needed} not found: run scripts/setup.sh")
  endif()
endforeach()

if(EMSCRIPTEN)
  if(NOT EXISTS "${ATTNLAB_ZLIB_DIR}/zlib.h")
    message(FATAL_ERROR "zlib sources not found in ${ATTNLAB_ZLIB_DIR}: run scripts/setup.sh")
  endif()
  enable_language(C)
  # What deflate, inflate and the checksums need; no gz* file functions.
  set(ATTNLAB_ZLIB_SRC adler32 compress crc32 deflate inffast inflate inftrees trees uncompr zutil)
  list(TRANSFORM ATTNLAB_ZLIB_SRC REPLACE "(.+)" "${ATTNLAB_ZLIB_DIR}/\\1.c")
  add_library(zlib STATIC ${ATTNLAB_ZLIB_SRC})
  target_include_directories(zlib SYSTEM PUBLIC "${ATTNLAB_ZLIB_DIR}")
  target_compile_options(zlib PRIVATE -O3)
else()
  find_package(ZLIB REQUIRED)
  add_library(zlib INTERFACE)
  target_link_libraries(zlib INTERFACE ZLIB::ZLIB)
endif()

add_library(stb_image_write INTERFACE)
target_include_directories(stb_image_write SYSTEM INTERFACE "${ATTNLAB_STB_DIR}")
add_library(fast_float INTERFACE)
target_include_directories(fast_float SYSTEM INTERFACE "${ATTNLAB_FAST_FLOAT_DIR}")

# The core: "Eigen, zlib and std"; zlib is public (the shared files' PNG writer compresses with it).
target_link_libraries(attnlab_core PUBLIC zlib PRIVATE fast_float)
target_link_libraries(attnlab_files PRIVATE stb_image_write)
# The CLI parses its options' numbers with fast_float too.
if(TARGET attnlab-cli)
  target_link_libraries(attnlab-cli PRIVATE fast_float)
endif()

# The static site (build/web/dist): a second build of the app and of the math module without
# WebAssembly SIMD, for browsers that lack it, and the step that turns the raw build output
# into the published site.
#
#   attnlab-nosimd, attnlab-core-wasm-nosimd   the same sources and link options as attnlab and
#       attnlab-core-wasm, with the math compiled without -msimd128 (their own copies of the
#       core and app-state libraries; the UI, ImGui and zlib carry no SIMD and are shared).
#   site   scripts/make-site.mjs: ATTNLAB_DIST (raw output, stable names) -> build/web/dist with
#       content-hashed asset names, the third-party licence notices and the single-file
#       offline pages (the figure's also into python/attnlab/static/). Runs on every build (a
#       few hundred ms) so dist/ is never stale.
if(NOT EMSCRIPTEN)
  return()
endif()

# ---- the scalar builds -----------------------------------------------------------------
set(ATTNLAB_SCALAR_MATH_FLAGS -O3)  # no -msimd128: plain wasm32 instructions only
add_library(attnlab_core_nosimd STATIC ${ATTNLAB_CORE_SRC})
target_include_directories(attnlab_core_nosimd PUBLIC src)
target_link_libraries(attnlab_core_nosimd PUBLIC attnlab_eigen zlib PRIVATE fast_float)  # as cmake/libraries.cmake
target_compile_options(attnlab_core_nosimd PRIVATE ${ATTNLAB_WARNINGS} ${ATTNLAB_SCALAR_MATH_FLAGS})

add_library(attnlab_state_nosimd STATIC ${ATTNLAB_STATE_SRC})
target_link_libraries(attnlab_state_nosimd PUBLIC attnlab_core_nosimd attnlab_syshdr PRIVATE stb_image_write)
target_compile_options(attnlab_state_nosimd PRIVATE ${ATTNLAB_WARNINGS} ${ATTNLAB_SCALAR_MATH_FLAGS})

# A twin of `target` (same sources, compile and link options) whose math libraries are the
# scalar ones; `export_name` replaces -sEXPORT_NAME where the original sets one.
function(attnlab_scalar_twin target twin)
  get_target_property(sources ${target} SOURCES)
  get_target_property(compile_options ${target} COMPILE_OPTIONS)
  get_target_property(link_options ${target} LINK_OPTIONS)
  get_target_property(suffix ${target} SUFFIX)
  add_executable(${twin} ${sources})
  list(FILTER compile_options EXCLUDE REGEX "^-msimd128$")
  if(compile_options)
    target_compile_options(${twin} PRIVATE ${compile_options})
  endif()
  if(ARGN)
    list(TRANSFORM link_options REPLACE "^-sEXPORT_NAME=.*" "-sEXPORT_NAME=${ARGN}")
  endif()
  target_link_options(${twin} PRIVATE ${link_options})
  set_target_properties(${twin} PROPERTIES SUFFIX "${suffix}" RUNTIME_OUTPUT_DIRECTORY "${ATTNLAB_DIST}")
endfunction()

# The app: the UI library (no SIMD in it) is linked as its archive, so its objects are built
# once; its interface (include folders, ImGui's definitions) comes from ImGui and the state.
attnlab_scalar_twin(attnlab attnlab-nosimd createAttnlabAppNoSimd)
add_dependencies(attnlab-nosimd attnlab_ui)
target_include_directories(attnlab-nosimd PRIVATE "${CMAKE_BINARY_DIR}/generated")
target_link_libraries(attnlab-nosimd PRIVATE $<TARGET_FILE:attnlab_ui> attnlab_state_nosimd imgui_backends)

attnlab_scalar_twin(attnlab-core-wasm attnlab-core-wasm-nosimd)
target_link_libraries(attnlab-core-wasm-nosimd PRIVATE attnlab_core_nosimd)

# ---- dist/ -----------------------------------------------------------------------------
set(ATTNLAB_SITE "${CMAKE_BINARY_DIR}/dist")
# The Python package (python/attnlab) carries the single-file figure page: copied into its
# static/ folder (git-ignored) beside the site.
set(ATTNLAB_PYTHON_STATIC "${CMAKE_SOURCE_DIR}/python/attnlab/static")
add_custom_target(site ALL
  COMMAND /usr/bin/env node "${CMAKE_SOURCE_DIR}/scripts/make-site.mjs"
          --from "${ATTNLAB_DIST}" --to "${ATTNLAB_SITE}" --imgui "${ATTNLAB_IMGUI_DIR}"
  COMMAND ${CMAKE_COMMAND} -E make_directory "${ATTNLAB_PYTHON_STATIC}"
  COMMAND ${CMAKE_COMMAND} -E copy_if_different "${ATTNLAB_SITE}/attnlab-embed-offline.html" "${ATTNLAB_PYTHON_STATIC}/"
  COMMENT "Writing the static site (build/web/dist) and the Python package's figure page" VERBATIM)
# The site is written last: after every target built by default, including those that other
# files of cmake/targets/ add later (so anything they put into ATTNLAB_DIST is published too).
function(attnlab_site_after_all)
  get_property(targets DIRECTORY "${CMAKE_SOURCE_DIR}" PROPERTY BUILDSYSTEM_TARGETS)
  foreach(t ${targets})
    get_target_property(type ${t} TYPE)
    get_target_property(excluded ${t} EXCLUDE_FROM_ALL)
    if(NOT t STREQUAL "site" AND NOT type STREQUAL "INTERFACE_LIBRARY" AND NOT excluded)
      add_dependencies(site ${t})
    endif()
  endforeach()
endfunction()
cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL attnlab_site_after_all)

# The static site (build/web/dist): a second build of the app and of the math module without
# WebAssembly SIMD, for browsers that lack it, and the step that turns the raw build output
# into the published site.
#
#   attnlab-nosimd, attnlab-core-wasm-nosimd   the same sources and link options as attnlab and
#       attnlab-core-wasm, with the math compiled without -msimd128 (their own copies of the
#       core, shared-files and app-state libraries; the UI, ImGui and zlib carry no SIMD and are shared).
#   attnlab-core-wasm-relaxed   the math module's SIMD build again, with kernels whose
#       multiply-adds are relaxed SIMD's f32x4.relaxed_madd (fused where the CPU has FMA),
#       loaded when asked for by name (web/builds.mjs says why). Only src/core/kernels/relaxed.cpp is
#       compiled anew (with -mrelaxed-simd); its object defines the kernel table that
#       baseline.cpp defines inside libattnlab_core.a, so the linker takes it and never loads
#       the archive's. Emscripten 3.1.6 writes the proposal's draft opcode for the
#       multiply-add; cmake/steps/relaxed-simd-opcodes.mjs renumbers it to the standard's after
#       each link.
#   attnlab-state-schema   a Node program printing the state's schema, for the npm package's
#       state types (tools/attnlab-state-schema.js, not published)
#   site   cmake/steps/make-site.mjs: ATTNLAB_DIST (raw output, stable names) -> build/web/dist with
#       content-hashed asset names, the third-party licence notices, the single-file offline
#       pages (the figure's also into python/attnlab/static/) and the npm package's files.
#       Runs on every build (a few hundred ms) so dist/ is never stale.
if(NOT EMSCRIPTEN)
  return()
endif()

# ---- the scalar builds -----------------------------------------------------------------
set(ATTNLAB_SCALAR_MATH_FLAGS -O3)  # no -msimd128: plain wasm32 instructions only
add_library(attnlab_core_nosimd STATIC ${ATTNLAB_CORE_SRC})
target_include_directories(attnlab_core_nosimd PUBLIC src)
target_link_libraries(attnlab_core_nosimd PUBLIC attnlab_eigen zlib PRIVATE fast_float)  # as cmake/libraries.cmake
target_compile_options(attnlab_core_nosimd PRIVATE ${ATTNLAB_WARNINGS} ${ATTNLAB_SCALAR_MATH_FLAGS} ${ATTNLAB_CORE_FLAGS})
set_target_properties(attnlab_core_nosimd PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE ${ATTNLAB_UNITY_BATCH_SIZE})

add_library(attnlab_files_nosimd STATIC ${ATTNLAB_FILES_SRC})
target_link_libraries(attnlab_files_nosimd PUBLIC attnlab_core_nosimd attnlab_syshdr PRIVATE stb_image_write)
target_compile_options(attnlab_files_nosimd PRIVATE ${ATTNLAB_WARNINGS} ${ATTNLAB_SCALAR_MATH_FLAGS})
set_target_properties(attnlab_files_nosimd PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE ${ATTNLAB_UNITY_BATCH_SIZE})

add_library(attnlab_state_nosimd STATIC ${ATTNLAB_STATE_SRC})
target_link_libraries(attnlab_state_nosimd PUBLIC attnlab_files_nosimd)
target_compile_options(attnlab_state_nosimd PRIVATE ${ATTNLAB_WARNINGS} ${ATTNLAB_SCALAR_MATH_FLAGS})
set_target_properties(attnlab_state_nosimd PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE ${ATTNLAB_UNITY_BATCH_SIZE})

# A twin of `target` (same sources, compile and link options, libraries and unity build,
# written beside it): attnlab_twin(target twin [EXPORT_NAME name] [NO_SIMD] [NO_LIBRARIES] [EXTRA_SOURCES ...]).
# EXPORT_NAME replaces -sEXPORT_NAME; NO_SIMD drops -msimd128; NO_LIBRARIES leaves the
# libraries to the caller (the scalar twins link scalar copies).
function(attnlab_twin target twin)
  cmake_parse_arguments(PARSE_ARGV 2 TWIN "NO_SIMD;NO_LIBRARIES" "EXPORT_NAME" "EXTRA_SOURCES")
  get_target_property(sources ${target} SOURCES)
  get_target_property(compile_options ${target} COMPILE_OPTIONS)
  get_target_property(link_options ${target} LINK_OPTIONS)
  get_target_property(suffix ${target} SUFFIX)
  get_target_property(unity ${target} UNITY_BUILD)
  add_executable(${twin} ${sources} ${TWIN_EXTRA_SOURCES})
  if(TWIN_NO_SIMD)
    list(FILTER compile_options EXCLUDE REGEX "^-msimd128$")
  endif()
  if(compile_options)
    target_compile_options(${twin} PRIVATE ${compile_options})
  endif()
  if(TWIN_EXPORT_NAME)
    list(TRANSFORM link_options REPLACE "^-sEXPORT_NAME=.*" "-sEXPORT_NAME=${TWIN_EXPORT_NAME}")
  endif()
  target_link_options(${twin} PRIVATE ${link_options})
  if(NOT TWIN_NO_LIBRARIES)
    get_target_property(libraries ${target} LINK_LIBRARIES)
    target_link_libraries(${twin} PRIVATE ${libraries})
  endif()
  set_target_properties(${twin} PROPERTIES SUFFIX "${suffix}" RUNTIME_OUTPUT_DIRECTORY "${ATTNLAB_DIST}" UNITY_BUILD "${unity}")
endfunction()

# The app: the UI library (no SIMD in it) is linked as its archive, so its objects are built
# once; its interface (include folders, ImGui's definitions) comes from ImGui and the state.
attnlab_twin(attnlab attnlab-nosimd EXPORT_NAME createAttnlabAppNoSimd NO_SIMD NO_LIBRARIES)
add_dependencies(attnlab-nosimd attnlab_ui)
target_include_directories(attnlab-nosimd PRIVATE "${CMAKE_BINARY_DIR}/generated")
target_link_libraries(attnlab-nosimd PRIVATE $<TARGET_FILE:attnlab_ui> attnlab_state_nosimd imgui_backends)

attnlab_twin(attnlab-core-wasm attnlab-core-wasm-nosimd NO_SIMD NO_LIBRARIES)
target_link_libraries(attnlab-core-wasm-nosimd PRIVATE attnlab_core_nosimd)

# ---- the relaxed-SIMD build --------------------------------------------------------------
add_library(attnlab_kernels_relaxed OBJECT src/core/kernels/relaxed.cpp)
target_include_directories(attnlab_kernels_relaxed PRIVATE src)
target_compile_options(attnlab_kernels_relaxed PRIVATE ${ATTNLAB_WARNINGS} ${ATTNLAB_MATH_FLAGS} -mrelaxed-simd)
attnlab_twin(attnlab-core-wasm attnlab-core-wasm-relaxed EXTRA_SOURCES $<TARGET_OBJECTS:attnlab_kernels_relaxed>)
target_link_options(attnlab-core-wasm-relaxed PRIVATE -mrelaxed-simd)
add_custom_command(TARGET attnlab-core-wasm-relaxed POST_BUILD
  COMMAND /usr/bin/env node "${CMAKE_SOURCE_DIR}/cmake/steps/relaxed-simd-opcodes.mjs"
          "${ATTNLAB_DIST}/attnlab-core-wasm-relaxed.wasm" --expect-some
  VERBATIM)

# The kernels' Catch2 tests ([kernels]) once more, on the relaxed build's kernels, under Node
# with relaxed SIMD switched on (Node 20 has it behind a flag). The opcodes are renumbered
# before the tests are listed (POST_BUILD commands run in the order they are added).
if(ATTNLAB_TESTS)
  add_executable(attnlab_tests_relaxed $<TARGET_OBJECTS:attnlab_catch2_main> tests/core/kernels/test_kernels.cpp
                 $<TARGET_OBJECTS:attnlab_kernels_relaxed>)
  target_link_libraries(attnlab_tests_relaxed PRIVATE attnlab_core attnlab_syshdr)
  target_include_directories(attnlab_tests_relaxed PRIVATE "${CMAKE_SOURCE_DIR}/tests")
  target_compile_definitions(attnlab_tests_relaxed PRIVATE ATTNLAB_EXPECTED_WASM_KERNELS="simd128-relaxed")
  target_compile_options(attnlab_tests_relaxed PRIVATE ${ATTNLAB_WARNINGS} -fexceptions)
  target_link_options(attnlab_tests_relaxed PRIVATE -mrelaxed-simd -fexceptions -sDISABLE_EXCEPTION_CATCHING=0
    -sALLOW_MEMORY_GROWTH=1 -sENVIRONMENT=node -sEXIT_RUNTIME=1 -O2)
  set_target_properties(attnlab_tests_relaxed PROPERTIES SUFFIX ".js"
    CROSSCOMPILING_EMULATOR "/usr/bin/node;--experimental-wasm-relaxed-simd;--no-experimental-fetch")
  add_custom_command(TARGET attnlab_tests_relaxed POST_BUILD
    COMMAND /usr/bin/env node "${CMAKE_SOURCE_DIR}/cmake/steps/relaxed-simd-opcodes.mjs"
            "$<TARGET_FILE_DIR:attnlab_tests_relaxed>/attnlab_tests_relaxed.wasm" --expect-some
    VERBATIM)
  add_test(NAME attnlab_tests_relaxed COMMAND attnlab_tests_relaxed "[kernels]" --use-colour no)
endif()

# ---- the state's schema, for the package's types ------------------------------------------
# A Node program over the app-state library that prints state_schema_json() (the one table of the
# state's keys); make-site runs it and writes LabSettings and the setState patch's type into
# api.d.ts (cmake/steps/state-types.mjs). It lies in tools/, outside the site.
add_executable(attnlab-state-schema src/platform/state_schema_main.cpp)
target_link_libraries(attnlab-state-schema PRIVATE attnlab_state)
target_compile_options(attnlab-state-schema PRIVATE ${ATTNLAB_WARNINGS})
target_link_options(attnlab-state-schema PRIVATE -sENVIRONMENT=node -sALLOW_MEMORY_GROWTH=1 -sEXIT_RUNTIME=1 -O0)
set_target_properties(attnlab-state-schema PROPERTIES SUFFIX ".js" RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/tools")

# ---- dist/ -----------------------------------------------------------------------------
set(ATTNLAB_SITE "${CMAKE_BINARY_DIR}/dist")
# The Python package (python/attnlab) carries the single-file figure page and the site's
# licences (LICENSE, licenses/): copied into its static/ folder (git-ignored) beside the site.
set(ATTNLAB_PYTHON_STATIC "${CMAKE_SOURCE_DIR}/python/attnlab/static")
add_custom_target(site ALL
  COMMAND /usr/bin/env node "${CMAKE_SOURCE_DIR}/cmake/steps/make-site.mjs"
          --from "${ATTNLAB_DIST}" --to "${ATTNLAB_SITE}" --imgui "${ATTNLAB_IMGUI_DIR}"
          --schema-tool "$<TARGET_FILE:attnlab-state-schema>"
  COMMAND ${CMAKE_COMMAND} -E make_directory "${ATTNLAB_PYTHON_STATIC}"
  COMMAND ${CMAKE_COMMAND} -E copy_if_different "${ATTNLAB_SITE}/attnlab-embed-offline.html" "${ATTNLAB_SITE}/LICENSE"
          "${ATTNLAB_PYTHON_STATIC}/"
  COMMAND ${CMAKE_COMMAND} -E rm -rf "${ATTNLAB_PYTHON_STATIC}/licenses"
  COMMAND ${CMAKE_COMMAND} -E copy_directory "${ATTNLAB_SITE}/licenses" "${ATTNLAB_PYTHON_STATIC}/licenses"
  COMMENT "Writing the static site (build/web/dist) and the Python package's figure page and licences" VERBATIM)
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

# The sanitizer folder (scripts/build.sh asan -> build/asan, configured with clang and
# -DATTNLAB_SANITIZE=ON): the core, the app state, the Catch2 tests, the CLI and the
# libFuzzer targets, all with AddressSanitizer + UndefinedBehaviorSanitizer and every report
# fatal (-fno-sanitize-recover=all). The tests and the fuzz targets share one instrumented
# build of the libraries, which halves the build time of the two (the libraries also carry
# libFuzzer's coverage counters, fuzzer-no-link, which the tests simply never read).
# -O1 and line tables only (-g1) keep the build and the tests quick enough for the test
# command; the reports still name file and line (frame pointers for the stacks). These
# options come after the layers' own -O3, so -O1 is the one that counts. The GUI is not
# built here (build.sh names the targets it builds).
#
# Fuzz targets: target NAME is tests/fuzz/NAME.cpp (its entry ATTNLAB_FUZZ_TARGET(NAME),
# tests/fuzz/fuzz_check.h), built as build/asan/fuzz_NAME, with its seed corpus in
# tests/fuzz/corpus/NAME/. Adding a parser is one line in ATTNLAB_FUZZ_TARGETS below plus
# those two paths; scripts/test.sh (deterministic runs) and scripts/fuzz.sh (long runs) find
# every target by that layout. The targets' sources compile together, once (a unity object:
# they parse the same headers, and compiled one by one they took about 35 s); each binary
# adds tests/fuzz/entry.cpp, libFuzzer's entry calling its own target.
option(ATTNLAB_SANITIZE "Sanitizer build of the tests, the CLI and the fuzz targets (needs clang)" OFF)
if(ATTNLAB_SANITIZE AND NOT EMSCRIPTEN)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "ATTNLAB_SANITIZE needs clang (libFuzzer): configure with CXX=clang++")
  endif()
  set(ATTNLAB_SANITIZERS -fsanitize=address,undefined -fno-sanitize-recover=all)
  set(ATTNLAB_SANITIZE_FLAGS ${ATTNLAB_SANITIZERS} -fno-omit-frame-pointer -O1 -g1)
  foreach(target attnlab_core attnlab_files attnlab_state)
    target_compile_options(${target} PRIVATE -fsanitize=fuzzer-no-link ${ATTNLAB_SANITIZE_FLAGS})
  endforeach()
  foreach(target attnlab_tests attnlab-cli)
    target_compile_options(${target} PRIVATE ${ATTNLAB_SANITIZE_FLAGS})
    target_link_options(${target} PRIVATE ${ATTNLAB_SANITIZERS})
  endforeach()

  set(ATTNLAB_FUZZ_TARGETS
    state_json   # apply_state_json, state_to_json, update_results (src/app)
    npy          # parse_npy and what callers do with the array (src/core/io/npy.h)
    model_file   # parse_model_file through Trainer::load (src/core/train/model_file.h)
    lm_file      # parse_language_model, then run and save it (src/core/lm/language_model.h)
    tokenizer    # tokenize and decode_utf8 on arbitrary bytes (src/core/attention/tokenizer.h)
    import       # import_attention: .npy / .npz (zlib) / JSON (src/core/io/import_attention.h)
    message      # parse_message, the embed's postMessage protocol (src/app/messages.h)
    fragment     # load_fragment: a link's state (src/app/url_state.h)
    session      # load_settings_json: a stored or loaded session (src/app/url_state.h)
  )
  list(TRANSFORM ATTNLAB_FUZZ_TARGETS PREPEND "${CMAKE_SOURCE_DIR}/tests/fuzz/" OUTPUT_VARIABLE fuzz_sources)
  list(TRANSFORM fuzz_sources APPEND ".cpp")
  add_library(attnlab_fuzz_targets OBJECT EXCLUDE_FROM_ALL ${fuzz_sources})
  set_target_properties(attnlab_fuzz_targets PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 0)
  target_link_libraries(attnlab_fuzz_targets PRIVATE attnlab_state attnlab_file_import attnlab_syshdr)
  target_compile_options(attnlab_fuzz_targets PRIVATE ${ATTNLAB_WARNINGS} -fsanitize=fuzzer-no-link ${ATTNLAB_SANITIZE_FLAGS})

  add_custom_target(attnlab_fuzzers)
  foreach(name IN LISTS ATTNLAB_FUZZ_TARGETS)
    add_executable(fuzz_${name} EXCLUDE_FROM_ALL "${CMAKE_SOURCE_DIR}/tests/fuzz/entry.cpp"
                   $<TARGET_OBJECTS:attnlab_fuzz_targets>)
    target_compile_definitions(fuzz_${name} PRIVATE ATTNLAB_FUZZ_ENTRY=attnlab_fuzz_${name})
    target_link_libraries(fuzz_${name} PRIVATE attnlab_state attnlab_file_import attnlab_syshdr)
    target_compile_options(fuzz_${name} PRIVATE ${ATTNLAB_WARNINGS} -fsanitize=fuzzer ${ATTNLAB_SANITIZE_FLAGS})
    target_link_options(fuzz_${name} PRIVATE -fsanitize=fuzzer ${ATTNLAB_SANITIZERS})
    add_dependencies(attnlab_fuzzers fuzz_${name})
  endforeach()
endif()

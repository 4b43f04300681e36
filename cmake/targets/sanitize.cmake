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
# Fuzz targets: target NAME is tests/fuzz/NAME.cpp (defining LLVMFuzzerTestOneInput),
# built as build/asan/fuzz_NAME, with its seed corpus in tests/fuzz/corpus/NAME/. Adding a
# parser is one attnlab_fuzz_target(NAME) line at the end of this file plus those two
# paths; scripts/test.sh (deterministic runs) and scripts/fuzz.sh (long runs) find every
# target by that layout.
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

  add_custom_target(attnlab_fuzzers)
  function(attnlab_fuzz_target name)
    add_executable(fuzz_${name} EXCLUDE_FROM_ALL "${CMAKE_SOURCE_DIR}/tests/fuzz/${name}.cpp")
    target_link_libraries(fuzz_${name} PRIVATE attnlab_state attnlab_syshdr)
    target_compile_options(fuzz_${name} PRIVATE ${ATTNLAB_WARNINGS} -fsanitize=fuzzer ${ATTNLAB_SANITIZE_FLAGS})
    target_link_options(fuzz_${name} PRIVATE -fsanitize=fuzzer ${ATTNLAB_SANITIZERS})
    add_dependencies(attnlab_fuzzers fuzz_${name})
  endfunction()

  attnlab_fuzz_target(state_json)   # apply_state_json, state_to_json, update_results (src/app)
  attnlab_fuzz_target(npy)          # parse_npy and what callers do with the array (src/core/io/npy.h)
  attnlab_fuzz_target(model_file)   # parse_model_file through Trainer::load (src/core/train/model_file.h)
  attnlab_fuzz_target(lm_file)      # parse_language_model, then run and save it (src/core/lm/language_model.h)
  attnlab_fuzz_target(tokenizer)    # tokenize and decode_utf8 on arbitrary bytes (src/core/attention/tokenizer.h)
  attnlab_fuzz_target(import)       # import_attention: .npy / .npz (zlib) / JSON (src/core/io/import_attention.h)
  target_link_libraries(fuzz_import PRIVATE attnlab_file_import)
  attnlab_fuzz_target(message)      # parse_message, the embed's postMessage protocol (src/app/messages.h)
  attnlab_fuzz_target(fragment)     # load_fragment: a link's state (src/app/url_state.h)
  attnlab_fuzz_target(session)      # load_settings_json: a stored or loaded session (src/app/url_state.h)
endif()

# Performance: SIMD kernel flags, the .wasm name section, and the benchmark targets.
#
#   src/core/kernels/avx2.cpp, avx512.cpp   built with their own instruction sets
#       (x86-64 natively); everything else stays baseline x86-64 and the kernels are
#       chosen at run time (src/core/kernels/dispatch.cpp). No -march=native anywhere.
#   attnlab-core-wasm   keeps a name section (--profiling-funcs), so the test command can
#       check by function name that each hot kernel holds f32x4 instructions.
#   attnlab_bench       (native, not built by default) Google Benchmark of the kernels
#       beside Eigen and the plain-loop reference: scripts/bench.sh.
#   attnlab-bench-ceiling  (web, not built by default) a tight f32x4 multiply-add loop:
#       the SIMD128 ceiling that scripts/bench.sh measures in Node and Chromium; -relaxed, the
#       same loop of relaxed_madd (the relaxed-SIMD build's ceiling, where the engine runs it).

if(NOT EMSCRIPTEN AND CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
  # The wide kernels contract a*b+c into FMA: -ffp-contract=fast for these two files only
  # (ISO C++ mode turns contraction off by default).
  set_source_files_properties("${CMAKE_SOURCE_DIR}/src/core/kernels/avx2.cpp" PROPERTIES
    COMPILE_OPTIONS "-mavx2;-mfma;-ffp-contract=fast")
  set_source_files_properties("${CMAKE_SOURCE_DIR}/src/core/kernels/avx512.cpp" PROPERTIES
    COMPILE_OPTIONS "-mavx512f;-mavx2;-mfma;-ffp-contract=fast")
  target_compile_definitions(attnlab_core PRIVATE ATTNLAB_KERNEL_X86_DISPATCH=1)
endif()

if(EMSCRIPTEN)
  target_link_options(attnlab-core-wasm PRIVATE --profiling-funcs)

  add_executable(attnlab-bench-ceiling EXCLUDE_FROM_ALL "${CMAKE_SOURCE_DIR}/bench/wasm/ceiling.cpp")
  target_compile_options(attnlab-bench-ceiling PRIVATE -msimd128 -O3)
  set_target_properties(attnlab-bench-ceiling PROPERTIES SUFFIX ".mjs" RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/bench")
  target_link_options(attnlab-bench-ceiling PRIVATE
    -sMODULARIZE=1 -sEXPORT_ES6=1 -sENVIRONMENT=web -sDYNAMIC_EXECUTION=0
    "-sEXPORTED_FUNCTIONS=['_ceiling_multiply_add']" -O3)
  add_executable(attnlab-bench-ceiling-relaxed EXCLUDE_FROM_ALL "${CMAKE_SOURCE_DIR}/bench/wasm/ceiling.cpp")
  target_compile_options(attnlab-bench-ceiling-relaxed PRIVATE -msimd128 -mrelaxed-simd -O3)
  set_target_properties(attnlab-bench-ceiling-relaxed PROPERTIES SUFFIX ".mjs" RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/bench")
  target_link_options(attnlab-bench-ceiling-relaxed PRIVATE -mrelaxed-simd
    -sMODULARIZE=1 -sEXPORT_ES6=1 -sENVIRONMENT=web -sDYNAMIC_EXECUTION=0 -sEXPORT_NAME=createCeilingRelaxed
    "-sEXPORTED_FUNCTIONS=['_ceiling_multiply_add']" -O3)
  add_custom_command(TARGET attnlab-bench-ceiling-relaxed POST_BUILD
    COMMAND /usr/bin/env node "${CMAKE_SOURCE_DIR}/cmake/steps/relaxed-simd-opcodes.mjs"
            "${CMAKE_BINARY_DIR}/bench/attnlab-bench-ceiling-relaxed.wasm" --expect-some
    VERBATIM)
else()
  find_package(benchmark QUIET)
  if(benchmark_FOUND)
    set(ATTNLAB_BENCH_DIR "${CMAKE_SOURCE_DIR}/bench/native")
    add_executable(attnlab_bench EXCLUDE_FROM_ALL
      "${ATTNLAB_BENCH_DIR}/bench_attention.cpp" "${ATTNLAB_BENCH_DIR}/eigen_peer.cpp" "${ATTNLAB_BENCH_DIR}/ceiling.cpp")
    target_link_libraries(attnlab_bench PRIVATE attnlab_core benchmark::benchmark)
    target_compile_options(attnlab_bench PRIVATE ${ATTNLAB_WARNINGS} -O3)
    if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
      # The Eigen peer of each wider instruction set: a binary of its own, all of it built
      # with that set's flags; bench/run.mjs runs it only on a CPU that has the set.
      foreach(isa avx2 avx512)
        add_executable(attnlab_bench_eigen_${isa} EXCLUDE_FROM_ALL
          "${ATTNLAB_BENCH_DIR}/eigen_main.cpp" "${ATTNLAB_BENCH_DIR}/eigen_peer.cpp"
          "${CMAKE_SOURCE_DIR}/src/core/base/rng.cpp")
        target_include_directories(attnlab_bench_eigen_${isa} PRIVATE "${CMAKE_SOURCE_DIR}/src")
        target_link_libraries(attnlab_bench_eigen_${isa} PRIVATE attnlab_eigen benchmark::benchmark)
        target_compile_definitions(attnlab_bench_eigen_${isa} PRIVATE ATTNLAB_BENCH_ISA="${isa}")
      endforeach()
      target_compile_options(attnlab_bench_eigen_avx2 PRIVATE -O3 -mavx2 -mfma)
      target_compile_options(attnlab_bench_eigen_avx512 PRIVATE -O3 -mavx512f -mavx512dq -mavx512vl -mavx2 -mfma)
    endif()
  endif()
endif()

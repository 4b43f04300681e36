# Training (src/core/train/*.cpp): no fused multiply-add, so the native build and the
# WebAssembly build round every product and sum the same way. Baseline x86-64 (no -march)
# and wasm32 have no FMA instruction, so this changes no code today; it keeps a later
# -march=native or relaxed-SIMD build from silently changing the loss curves that the
# wasm-vs-native test (tests/node/train.test.mjs) compares.
file(GLOB ATTNLAB_TRAIN_SRC CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/src/core/train/*.cpp")
set_source_files_properties(${ATTNLAB_TRAIN_SRC} TARGET_DIRECTORY attnlab_core
  PROPERTIES COMPILE_OPTIONS "-ffp-contract=off")

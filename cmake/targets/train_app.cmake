# The shipped models the explorer offers: the "trained" scene's (assets/induction-2l.attnmodel,
# made by the command in assets/induction-2l.command.txt) and the "language model" scene's
# (assets/fortunes-lm.attnlm, made by scripts/train-lm.sh). The web page fetches them from
# dist/models/ (the language model only when its scene is opened); the desktop app reads them
# from the source tree (the trained one unless --trained-model says otherwise).
set(ATTNLAB_TRAINED_ASSET "${CMAKE_SOURCE_DIR}/assets/induction-2l.attnmodel")
set(ATTNLAB_LM_ASSET "${CMAKE_SOURCE_DIR}/assets/fortunes-lm.attnlm")
if(EMSCRIPTEN)
  foreach(asset IN ITEMS "${ATTNLAB_TRAINED_ASSET}" "${ATTNLAB_LM_ASSET}")
    get_filename_component(name "${asset}" NAME)
    add_custom_command(
      OUTPUT "${ATTNLAB_DIST}/models/${name}"
      COMMAND ${CMAKE_COMMAND} -E make_directory "${ATTNLAB_DIST}/models"
      COMMAND ${CMAKE_COMMAND} -E copy_if_different "${asset}" "${ATTNLAB_DIST}/models/"
      DEPENDS "${asset}"
      COMMENT "Copying ${name} into dist/models/" VERBATIM)
    list(APPEND ATTNLAB_MODEL_FILES "${ATTNLAB_DIST}/models/${name}")
  endforeach()
  add_custom_target(trained_model_asset ALL DEPENDS ${ATTNLAB_MODEL_FILES})
else()
  target_compile_definitions(attnlab PRIVATE "ATTNLAB_TRAINED_MODEL=\"${ATTNLAB_TRAINED_ASSET}\""
                                             "ATTNLAB_LM_MODEL=\"${ATTNLAB_LM_ASSET}\"")
endif()
# The tests of activation patching read the language model natively (the WebAssembly test
# binary has no file system, and skips that case). That file compiles on its own, outside the
# unity batches, so the definition reaches it and no other test file.
if(TARGET attnlab_tests)
  set(patching_tests "${CMAKE_SOURCE_DIR}/tests/core/lm/test_patching.cpp")
  set_source_files_properties("${patching_tests}" PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
  if(NOT EMSCRIPTEN)
    set_source_files_properties("${patching_tests}" PROPERTIES COMPILE_DEFINITIONS "ATTNLAB_LM_MODEL=\"${ATTNLAB_LM_ASSET}\"")
  endif()
endif()

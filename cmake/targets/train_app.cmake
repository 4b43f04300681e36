# The trained model the explorer offers as its "trained" scene (assets/induction-2l.attnmodel,
# made by the command in assets/induction-2l.command.txt). The web page fetches it from
# dist/models/; the desktop app reads it from the source tree unless --trained-model says
# otherwise.
set(ATTNLAB_TRAINED_ASSET "${CMAKE_SOURCE_DIR}/assets/induction-2l.attnmodel")
if(EMSCRIPTEN)
  add_custom_command(
    OUTPUT "${ATTNLAB_DIST}/models/induction-2l.attnmodel"
    COMMAND ${CMAKE_COMMAND} -E make_directory "${ATTNLAB_DIST}/models"
    COMMAND ${CMAKE_COMMAND} -E copy_if_different "${ATTNLAB_TRAINED_ASSET}" "${ATTNLAB_DIST}/models/"
    DEPENDS "${ATTNLAB_TRAINED_ASSET}"
    COMMENT "Copying the trained model into dist/models/" VERBATIM)
  add_custom_target(trained_model_asset ALL DEPENDS "${ATTNLAB_DIST}/models/induction-2l.attnmodel")
else()
  target_compile_definitions(attnlab PRIVATE "ATTNLAB_TRAINED_MODEL=\"${ATTNLAB_TRAINED_ASSET}\"")
endif()

# What `orthosim --version` reports (docs/cli.md), found at configure time: the project version,
# the git commit of the source tree ("unknown" outside a git checkout: the build never needs git),
# the build type, and the SystemC and Verilator versions the build uses. Sets
# ORTHOSIM_GIT_COMMIT, ORTHOSIM_BUILD_TYPE_NAME and ORTHOSIM_VERILATOR_VERSION.
set(ORTHOSIM_GIT_COMMIT "unknown")
find_package(Git QUIET)
if(GIT_FOUND)
  execute_process(COMMAND ${GIT_EXECUTABLE} -C ${PROJECT_SOURCE_DIR} rev-parse --short=12 HEAD
                  OUTPUT_VARIABLE commit RESULT_VARIABLE status
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(status EQUAL 0 AND commit)
    set(ORTHOSIM_GIT_COMMIT "${commit}")
  endif()
endif()

set(ORTHOSIM_BUILD_TYPE_NAME "${CMAKE_BUILD_TYPE}")
if(NOT ORTHOSIM_BUILD_TYPE_NAME)
  set(ORTHOSIM_BUILD_TYPE_NAME "none")
endif()

# "Verilator 5.006 2023-01-22 rev ..." -> "5.006".
set(ORTHOSIM_VERILATOR_VERSION "unknown")
find_program(ORTHOSIM_VERILATOR_BIN verilator)
if(ORTHOSIM_VERILATOR_BIN)
  execute_process(COMMAND ${ORTHOSIM_VERILATOR_BIN} --version OUTPUT_VARIABLE banner
                  RESULT_VARIABLE status ERROR_QUIET)
  if(status EQUAL 0 AND banner MATCHES "^Verilator ([^ \n]+)")
    set(ORTHOSIM_VERILATOR_VERSION "${CMAKE_MATCH_1}")
  endif()
endif()

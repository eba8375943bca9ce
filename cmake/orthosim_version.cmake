# What `orthosim --version` reports (docs/cli.md), found at configure time: the project version,
# the build type, and the SystemC and Verilator versions the build uses (the git commit is found
# at build time: orthosim_git_commit.cmake). Sets ORTHOSIM_BUILD_TYPE_NAME and
# ORTHOSIM_VERILATOR_VERSION.
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

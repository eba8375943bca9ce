# Test helpers. Plain unit tests link gtest_main; SystemC tests link our sc_main, which calls
# RUN_ALL_TESTS, and CTest runs every TEST in its own process, since SystemC elaborates once per
# process (toolchain fact 2).

# Extra compile options of the test sources alone. The default and asan-ubsan presets give -O0:
# a test source is assertions, fixtures and small brute-force oracles, whose optimised build costs
# about twice its -O0 build (input_file_test.cpp: 9.6 against 4.7 CPU-s at -O2, 21 against 10
# instrumented at -O1) and saves no time worth it when the tests run (lcc_reordering_test, the
# heaviest oracle, 8! orderings: 0.55 s at -O2, 0.87 s at -O0). The code the tests exercise, in
# the libraries, keeps the preset's optimisation and instrumentation.
set(ORTHOSIM_TEST_COMPILE_OPTIONS "" CACHE STRING "Extra compile options of the test sources")

# What every test executable has: the test support headers, our warnings, the test options.
function(orthosim_test_target name)
  orthosim_include_tree(${name} PRIVATE tests/support)
  orthosim_warnings(${name})
  target_compile_options(${name} PRIVATE ${ORTHOSIM_TEST_COMPILE_OPTIONS})
  orthosim_ccache_for_pch(${name})
endfunction()

# Precompiled headers of the test sources. A source that only includes GoogleTest, SystemC,
# nlohmann/json and the standard library compiles in 3.3 CPU-s, in 1.0 with them precompiled;
# a test source, with line tables (-g1), saves 0.4 to 1.9 of its 3 to 10 CPU-s
# (docs/performance.md, "CI"). Two headers, each compiled once per build: `plain` for the unit
# and end-to-end tests, `sc` (with SystemC) for the SystemC tests, so that the SystemC-free
# tests stay SystemC-free. Every test target of a
# kind reuses its kind's header (REUSE_FROM), which needs the same compile flags: they all get
# them from orthosim_test_target. GCC checks that the flags match (-Winvalid-pch, an error under
# ORTHOSIM_WERROR), so a target whose options differ fails to build instead of silently parsing
# everything again. Only headers outside the project go in: a project header's include path
# depends on the target (its include tree), a system header's does not.
set(orthosim_test_pch_headers <gtest/gtest.h> <algorithm> <cstdint> <filesystem> <fstream> <map>
                              <optional> <random> <set> <sstream> <string> <utility> <vector>)
set(orthosim_test_pch_plain ${orthosim_test_pch_headers} <nlohmann/json.hpp>)
set(orthosim_test_pch_sc ${orthosim_test_pch_headers} <systemc>)

# The owner of kind KIND's header: a one-line object library built like a test target.
function(orthosim_test_pch_owner kind)
  set(source ${PROJECT_BINARY_DIR}/tests/test_pch_${kind}.cpp)
  file(CONFIGURE OUTPUT ${source} CONTENT "// The owner of the test targets' precompiled header.\n")
  add_library(orthosim_test_pch_${kind} OBJECT ${source})
  target_link_libraries(orthosim_test_pch_${kind} PRIVATE GTest::gtest ${ARGN})
  orthosim_test_target(orthosim_test_pch_${kind})
  target_precompile_headers(orthosim_test_pch_${kind} PRIVATE ${orthosim_test_pch_${kind}})
endfunction()

# Test target NAME reuses kind KIND's precompiled header (plain or sc).
function(orthosim_test_pch name kind)
  target_precompile_headers(${name} REUSE_FROM orthosim_test_pch_${kind})
endfunction()

function(orthosim_unit_test name)
  cmake_parse_arguments(ARG "" "LABEL" "SOURCES;DEPS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} GTest::gtest GTest::gtest_main)
  orthosim_test_target(${name})
  orthosim_test_pch(${name} plain)
  gtest_discover_tests(${name}
    PROPERTIES LABELS "${ARG_LABEL}" SKIP_REGULAR_EXPRESSION "\\[  SKIPPED \\]"
    DISCOVERY_TIMEOUT 60)
endfunction()

function(orthosim_sc_test name)
  cmake_parse_arguments(ARG "" "LABEL;TIMEOUT;COST" "SOURCES;DEPS" ${ARGN})
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 300)
  endif()
  # COST: CTest starts costlier tests first, so long ones do not run alone at the end of a
  # parallel run (a fresh build has no timings of earlier runs to order by).
  if(NOT ARG_COST)
    set(ARG_COST 0)
  endif()
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} orthosim_sc_test_main GTest::gtest)
  orthosim_test_target(${name})
  orthosim_test_pch(${name} sc)
  gtest_discover_tests(${name}
    PROPERTIES LABELS "${ARG_LABEL}" TIMEOUT ${ARG_TIMEOUT} COST ${ARG_COST}
               ENVIRONMENT "SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1"
               SKIP_REGULAR_EXPRESSION "\\[  SKIPPED \\]"
    DISCOVERY_TIMEOUT 60 NO_PRETTY_VALUES)
endfunction()

# End-to-end tests run the orthosim executable through tests/support/cli_process.hpp: the one
# built beside them (ORTHOSIM_BIN), or the environment's ORTHOSIM_UNDER_TEST. A build given
# ORTHOSIM_REUSE_FROM (CI's sanitizer build) does not compile them: it runs that build's test
# executables against its own orthosim, since they hold none of the code under test (they start
# orthosim and read what it wrote). A test whose expectations depend on the build it is part of
# (PER_BUILD: the build type `orthosim --version` reports) is compiled in every build.
# DEFINITIONS and LIBS: the test's own compile definitions and libraries.
function(orthosim_e2e_test name)
  cmake_parse_arguments(ARG "PER_BUILD" "" "SOURCES;DEFINITIONS;LIBS" ${ARGN})
  if(ORTHOSIM_REUSE_FROM AND NOT ARG_PER_BUILD)
    file(RELATIVE_PATH folder ${PROJECT_BINARY_DIR} ${CMAKE_CURRENT_BINARY_DIR})
    set(executable ${ORTHOSIM_REUSE_FROM}/${folder}/${name})
    if(NOT EXISTS ${executable})
      message(FATAL_ERROR "ORTHOSIM_REUSE_FROM: ${executable} not found: build "
                          "${ORTHOSIM_REUSE_FROM} with its tests first")
    endif()
    add_executable(${name} IMPORTED)
    set_target_properties(${name} PROPERTIES IMPORTED_LOCATION ${executable})
    # Listed when CTest runs, from the executable as it is then (it is another build's).
    gtest_discover_tests(${name} DISCOVERY_MODE PRE_TEST DISCOVERY_TIMEOUT 60
      PROPERTIES LABELS e2e ENVIRONMENT "ORTHOSIM_UNDER_TEST=$<TARGET_FILE:orthosim>")
    return()
  endif()
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE GTest::gtest GTest::gtest_main nlohmann_json::nlohmann_json
                                        ${ARG_LIBS})
  target_compile_definitions(${name} PRIVATE ORTHOSIM_BIN="$<TARGET_FILE:orthosim>"
                             ORTHOSIM_EXAMPLES_DIR="${PROJECT_SOURCE_DIR}/examples"
                             ${ARG_DEFINITIONS})
  orthosim_test_target(${name})
  orthosim_test_pch(${name} plain)
  add_dependencies(${name} orthosim)
  gtest_discover_tests(${name} PROPERTIES LABELS e2e DISCOVERY_TIMEOUT 60)
endfunction()

# libFuzzer targets (the fuzz preset, tests/fuzz/): fuzz_<name> from tests/fuzz/<name>.cpp, its
# seed corpus in tests/fuzz/corpus/<name>/. The preset compiles everything with
# -fsanitize=fuzzer-no-link; only the targets link libFuzzer's main.
function(orthosim_fuzz_target name)
  cmake_parse_arguments(ARG "" "" "DEPS" ${ARGN})
  add_executable(fuzz_${name} ${name}.cpp)
  target_link_libraries(fuzz_${name} PRIVATE ${ARG_DEPS})
  orthosim_include_tree(fuzz_${name} PRIVATE tests/fuzz)
  target_compile_options(fuzz_${name} PRIVATE -fsanitize=fuzzer)
  target_link_options(fuzz_${name} PRIVATE -fsanitize=fuzzer)
  orthosim_warnings(fuzz_${name})
endfunction()

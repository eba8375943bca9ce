# The verilated blocks of another build of this checkout, ORTHOSIM_REUSE_FROM, as the imported
# target orthosim::rtl_verilated (included by rtl/CMakeLists.txt). That build must have been
# configured from the same RTL sizes (limits.cmake) and built first: scripts/test.sh builds the
# default preset, then the sanitizer preset from it.
set(from ${ORTHOSIM_REUSE_FROM})
set(from_library ${from}/rtl/liborthosim_rtl_verilated.a)
if(NOT EXISTS ${from_library})
  message(FATAL_ERROR "ORTHOSIM_REUSE_FROM: ${from_library} not found: build ${from} first")
endif()
file(READ ${from}/generated/rtl/limits.hpp from_limits)
file(READ ${PROJECT_BINARY_DIR}/generated/rtl/limits.hpp our_limits)
if(NOT from_limits STREQUAL our_limits)
  message(FATAL_ERROR "ORTHOSIM_REUSE_FROM: ${from} was configured with other RTL sizes "
                      "(rtl/limits.cmake): configure and build it again first")
endif()
# One folder per verilated block (verilate()'s output: the headers the bridges include). An
# imported target's include folders are system folders: our warnings stay off generated headers.
file(GLOB block_dirs LIST_DIRECTORIES true ${from}/rtl/CMakeFiles/orthosim_rtl_verilated.dir/V*.dir)
find_package(Threads REQUIRED)
add_library(orthosim_rtl_verilated STATIC IMPORTED GLOBAL)
add_library(orthosim::rtl_verilated ALIAS orthosim_rtl_verilated)
set_target_properties(orthosim_rtl_verilated PROPERTIES
  IMPORTED_LOCATION ${from_library}
  INTERFACE_INCLUDE_DIRECTORIES
    "${block_dirs};${VERILATOR_ROOT}/include;${VERILATOR_ROOT}/include/vltstd"
  INTERFACE_LINK_LIBRARIES "PkgConfig::SYSTEMC;Threads::Threads;z;atomic")

# Warning set for the project's own targets. Generated code (Verilator output) never gets it.
# ORTHOSIM_WERROR turns our warnings into errors: CI sets it (scripts/test.sh), so the code stays
# warning-free; it is off for users, whose newer compiler may warn where ours does not and should
# not stop their build.
option(ORTHOSIM_WERROR "Treat warnings in orthosim's own code as errors (CI)" OFF)
function(orthosim_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                                           -Wno-sign-conversion)
  if(ORTHOSIM_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

# One library per folder: orthosim_<layer>_<part>, aliased orthosim::<layer>_<part>. Includes read
# "sw/core/cycle.hpp", so the repository root is the public include directory.
function(orthosim_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;PUBLIC_DEPS;PRIVATE_DEPS" ${ARGN})
  add_library(orthosim_${name} STATIC ${ARG_SOURCES})
  add_library(orthosim::${name} ALIAS orthosim_${name})
  target_include_directories(orthosim_${name} PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(orthosim_${name} PUBLIC ${ARG_PUBLIC_DEPS} PRIVATE ${ARG_PRIVATE_DEPS})
  orthosim_warnings(orthosim_${name})
endfunction()

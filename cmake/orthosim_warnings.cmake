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

# ccache caches a source compiled with a precompiled header only under the sloppiness that says
# the header's macros and __TIME__ need no check (ccache's manual, "Precompiled headers"). With
# ccache as the compiler launcher, the targets that use precompiled headers (the tests,
# cmake/orthosim_testing.cmake; the verilated blocks, rtl/CMakeLists.txt) run it with that
# setting; other targets are untouched.
function(orthosim_ccache_for_pch target)
  if(CMAKE_CXX_COMPILER_LAUNCHER MATCHES "ccache")
    set_property(TARGET ${target} PROPERTY CXX_COMPILER_LAUNCHER
                 ${CMAKE_COMMAND} -E env CCACHE_SLOPPINESS=pch_defines,time_macros
                 ${CMAKE_CXX_COMPILER_LAUNCHER})
  endif()
endfunction()

# A target sees only the folders it is given, under their names from the root: its include
# directory is a tree in the build folder, BUILD/layers/TARGET/, holding one link per folder
# (BUILD/layers/orthosim_sw_core/sw/core -> sw/core). Includes still read "sw/core/cycle.hpp";
# the root itself is never an include directory, so a header of a folder the target was not
# given is not found. The trees are made anew at every configure, so that a link a target no
# longer has does not linger.
file(REMOVE_RECURSE ${PROJECT_BINARY_DIR}/layers)
function(orthosim_include_tree target scope)
  set(tree ${PROJECT_BINARY_DIR}/layers/${target})
  foreach(path IN LISTS ARGN)
    get_filename_component(parent ${tree}/${path} DIRECTORY)
    file(MAKE_DIRECTORY ${parent})
    file(CREATE_LINK ${PROJECT_SOURCE_DIR}/${path} ${tree}/${path} SYMBOLIC)
  endforeach()
  # The tree is the build's alone: installed, the headers sit under include/orthosim at the same
  # paths (orthosim_library).
  target_include_directories(${target} ${scope} $<BUILD_INTERFACE:${tree}>)
endfunction()

# Every library is installed (cmake/orthosim_install.cmake, docs/library.md): in the export set
# that find_package(orthosim) reads, named orthosim::NAME there as here, its headers found under
# include/orthosim.
include(GNUInstallDirs)
set(ORTHOSIM_INSTALL_INCLUDEDIR ${CMAKE_INSTALL_INCLUDEDIR}/orthosim)
function(orthosim_install_library target name)
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${name})
  target_include_directories(${target} INTERFACE
                             $<INSTALL_INTERFACE:${ORTHOSIM_INSTALL_INCLUDEDIR}>)
  install(TARGETS ${target} EXPORT orthosimTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
endfunction()

# One library per folder: orthosim_<layer>_<part>, aliased orthosim::<layer>_<part>. Its public
# include tree holds its own folder alone, and linking a library is what makes that library's
# headers visible: a layer that includes a header of a layer it does not link fails to compile
# (tests/layering/ checks that it does).
function(orthosim_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;PUBLIC_DEPS;PRIVATE_DEPS" ${ARGN})
  add_library(orthosim_${name} STATIC ${ARG_SOURCES})
  add_library(orthosim::${name} ALIAS orthosim_${name})
  set(folders)
  foreach(source IN LISTS ARG_SOURCES)
    get_filename_component(source_dir ${CMAKE_CURRENT_SOURCE_DIR}/${source} DIRECTORY)
    file(RELATIVE_PATH folder ${PROJECT_SOURCE_DIR} ${source_dir})
    list(APPEND folders ${folder})
  endforeach()
  list(REMOVE_DUPLICATES folders)
  list(LENGTH folders folder_count)
  if(NOT folder_count EQUAL 1)
    message(FATAL_ERROR
            "orthosim_library(${name}): sources of one folder expected, found ${folders}")
  endif()
  orthosim_include_tree(orthosim_${name} PUBLIC ${folders})
  target_link_libraries(orthosim_${name} PUBLIC ${ARG_PUBLIC_DEPS} PRIVATE ${ARG_PRIVATE_DEPS})
  orthosim_warnings(orthosim_${name})
  orthosim_install_library(orthosim_${name} ${name})
  # Its public headers, at their include paths ("sw/core/cycle.hpp").
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${folders}/
          DESTINATION ${ORTHOSIM_INSTALL_INCLUDEDIR}/${folders} FILES_MATCHING PATTERN "*.hpp")
  # The list tests/layering/ compares with docs/architecture.md's layer graph.
  set_property(GLOBAL APPEND PROPERTY ORTHOSIM_LIBRARIES ${name})
endfunction()


# What `cmake --install` adds besides the executable, the libraries and their headers (installed
# where they are defined, cmake/orthosim_warnings.cmake): the CMake package that find_package(orthosim)
# reads (docs/library.md).
include(CMakePackageConfigHelpers)
set(ORTHOSIM_PACKAGE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/orthosim)
install(EXPORT orthosimTargets NAMESPACE orthosim:: DESTINATION ${ORTHOSIM_PACKAGE_DIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/orthosimConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/orthosimConfig.cmake
                              INSTALL_DESTINATION ${ORTHOSIM_PACKAGE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/orthosimConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/orthosimConfig.cmake
              ${PROJECT_BINARY_DIR}/orthosimConfigVersion.cmake
        DESTINATION ${ORTHOSIM_PACKAGE_DIR})

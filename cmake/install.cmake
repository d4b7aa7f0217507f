# `cmake --install BUILD [--prefix DIR]` and `cpack` (docs/library.md):
#   bin/icnsim
#   lib/libicnsim_*.a                      the static libraries
#   include/icnsim/<folder>/*.hpp          the headers, as the tree has them (models, nics, power, routers, testbench)
#   include/icnsim/rtl/bridge/*.h          the RTL router modules' C entry point
#   lib/icnsim/icnsim_vc_router_twin.so    the VC router twin, for router.model=rtl
#   lib/cmake/icnsim/                      find_package(icnsim CONFIG)
#   lib/pkgconfig/icnsim.pc                pkg-config icnsim
#   share/icnsim/{scenarios,scripts}       the shipped scenarios, the sweep and rtl_router_module scripts
#   share/icnsim/rtl/                      the module wrapper and the twin's sources, for rtl_router_module
#   share/doc/icnsim/                      README and docs
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(ICNSIM_INSTALL_LIBDIR ${CMAKE_INSTALL_LIBDIR})
set(ICNSIM_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/icnsim)
set(ICNSIM_INSTALL_SCENARIODIR ${CMAKE_INSTALL_DATADIR}/icnsim/scenarios)

set(icnsim_installed_libraries icnsim_fst icnsim_models icnsim_nics icnsim_power icnsim_vc icnsim_crossbar icnsim_fattree_packet
                               icnsim_fattree_bitserial icnsim_ibt icnsim_hpam icnsim_testbench)
if(ICNSIM_RTL)
  list(APPEND icnsim_installed_libraries icnsim_rtl_route_stream icnsim_fattree_bitserial_rtl)
endif()
install(TARGETS ${icnsim_installed_libraries} ARCHIVE DESTINATION ${ICNSIM_INSTALL_LIBDIR} COMPONENT library)
install(TARGETS icnsim RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT library)

# Headers keep their folders under include/icnsim/: a user writes
# #include <icnsim/testbench/driver.hpp>; the headers' own includes
# ("models/link.hpp") resolve through include/icnsim, which the package
# also puts on the include path.
foreach(folder models nics power routers testbench)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${folder}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/icnsim/${folder}
          COMPONENT library FILES_MATCHING PATTERN "*.hpp")
endforeach()

# The RTL router modules' C entry point (routers/vc/rtl_router_module.hpp
# includes it), and the VC router twin's module where an installed icnsim
# looks for it (bin/../lib/icnsim/, testbench/vc_rtl.cpp).
install(FILES ${PROJECT_SOURCE_DIR}/rtl/bridge/icnsim_rtl_router.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/icnsim/rtl/bridge COMPONENT library)
if(ICNSIM_RTL AND DEFINED ICNSIM_RTL_TWIN_MODULE)
  install(FILES ${ICNSIM_RTL_TWIN_MODULE} DESTINATION ${CMAKE_INSTALL_LIBDIR}/icnsim COMPONENT library)
endif()

install(DIRECTORY ${PROJECT_SOURCE_DIR}/testbench/scenarios/ DESTINATION ${ICNSIM_INSTALL_SCENARIODIR}
        COMPONENT library FILES_MATCHING PATTERN "*.yaml")
install(PROGRAMS ${PROJECT_SOURCE_DIR}/scripts/sweep DESTINATION ${CMAKE_INSTALL_DATADIR}/icnsim/scripts COMPONENT library)
# Your own router into a module without the source tree (docs/rtl_router.md):
# the script, the generic wrapper it compiles (its headers are under
# include/icnsim), and the twin's sources and shim example to start from.
install(PROGRAMS ${PROJECT_SOURCE_DIR}/scripts/rtl_router_module DESTINATION ${CMAKE_INSTALL_DATADIR}/icnsim/scripts
        COMPONENT library)
install(FILES ${PROJECT_SOURCE_DIR}/rtl/bridge/icnsim_rtl_router_module.cpp
        DESTINATION ${CMAKE_INSTALL_DATADIR}/icnsim/rtl/bridge COMPONENT library)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/rtl/vc_router/ DESTINATION ${CMAKE_INSTALL_DATADIR}/icnsim/rtl/vc_router
        COMPONENT library FILES_MATCHING PATTERN "*.sv")
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT library)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT library)

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/icnsimConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/icnsimConfig.cmake
                              INSTALL_DESTINATION ${ICNSIM_INSTALL_CMAKEDIR}
                              PATH_VARS CMAKE_INSTALL_INCLUDEDIR ICNSIM_INSTALL_LIBDIR ICNSIM_INSTALL_SCENARIODIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/icnsimConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/icnsimConfig.cmake ${PROJECT_BINARY_DIR}/icnsimConfigVersion.cmake
        DESTINATION ${ICNSIM_INSTALL_CMAKEDIR} COMPONENT library)

# pkg-config: the libraries after the testbench in link order.
set(ICNSIM_PC_LIBS "")
foreach(lib icnsim_crossbar icnsim_fattree_packet icnsim_fattree_bitserial_rtl icnsim_fattree_bitserial icnsim_hpam
            icnsim_vc icnsim_ibt icnsim_rtl_route_stream icnsim_power icnsim_nics icnsim_models icnsim_fst)  # vc needs ibt (IbtTopology)
  if(lib IN_LIST icnsim_installed_libraries)
    string(REPLACE "icnsim_" "-licnsim_" flag ${lib})
    string(APPEND ICNSIM_PC_LIBS " ${flag}")
  endif()
endforeach()
# The prefix relative to the .pc file itself: a moved prefix (cmake --install
# --prefix, an unpacked package) still finds its headers and libraries.
file(RELATIVE_PATH ICNSIM_PC_UP /root/${CMAKE_INSTALL_LIBDIR}/pkgconfig /root)
string(REGEX REPLACE "/$" "" ICNSIM_PC_UP "${ICNSIM_PC_UP}")
set(ICNSIM_PC_PREFIX "\${pcfiledir}/${ICNSIM_PC_UP}")
configure_file(${PROJECT_SOURCE_DIR}/cmake/icnsim.pc.in ${PROJECT_BINARY_DIR}/icnsim.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/icnsim.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT library)

# cpack: a Debian package that installs on a fresh Debian 12 with
# `apt install ./icnsim_*.deb` (the dependencies are the development
# packages its headers and CMake package need).
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME icnsim)
set(CPACK_PACKAGE_VENDOR "icnsim")
set(CPACK_PACKAGE_CONTACT "icnsim developers <icnsim@users.noreply.github.com>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Cycle-level SystemC/TLM-2.0 models of interconnection networks")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "libsystemc-dev (>= 2.3.4), libyaml-cpp-dev, nlohmann-json3-dev, zlib1g-dev, pkg-config, python3")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "cmake, g++, gtkwave")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
include(CPack)

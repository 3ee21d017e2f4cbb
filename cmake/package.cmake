# package.cmake: what `cmake --install` puts where, and the Debian package cpack -G DEB builds from it.

install(TARGETS rl-insight RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# NAMELINK: the unversioned librl-insight.so that -lrl-insight finds, beside the soname's file.
install(TARGETS rlinsight_shared LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY fonts/ DESTINATION ${CMAKE_INSTALL_DATADIR}/rl-insight/fonts)
install(FILES doc/rl-insight.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES include/rl_insight.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
configure_file(cmake/rl-insight.pc.in ${CMAKE_BINARY_DIR}/generated/rl-insight.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/generated/rl-insight.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
install(FILES completion/rl-insight.bash DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
  RENAME rl-insight)

set(RLI_PACKAGE_MAINTAINER "rl-insight maintainers <rl-insight@example.org>"
  CACHE STRING "Maintainer field of the Debian package: who answers for this build")

set(CPACK_PACKAGE_NAME rl-insight)
set(CPACK_PACKAGE_VENDOR "rl-insight")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "RL profiling timelines and memory figures as PNG, PDF and HTML")
set(CPACK_PACKAGE_DESCRIPTION "rl-insight reads the profiles that VeRL training runs leave on Ascend NPUs \
(MSTX, memory records) and NVIDIA GPUs (PyTorch profiler, Nsight NVTX) and draws the RL timeline, one row \
per role and rank, and where the device memory went, as PNG, PDF, a run report and offline HTML pages. \
The package holds the command, its fonts and manual page, bash completion, and the shared library \
librl-insight with its header and pkg-config file.")
set(CPACK_PACKAGE_CONTACT "${RLI_PACKAGE_MAINTAINER}")
set(CPACK_RESOURCE_FILE_README ${CMAKE_SOURCE_DIR}/README.md)
# The package installs where the build looks for its fonts (RLI_FONT_DIR_INSTALL): configure
# with -DCMAKE_INSTALL_PREFIX=/usr for a package that Debian's rules accept.
set(CPACK_PACKAGING_INSTALL_PREFIX ${CMAKE_INSTALL_PREFIX})
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${RLI_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # rl-insight_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "pkg-config, gcc | c-compiler")
set(CPACK_STRIP_FILES ON) # the debug information stays in the build tree
# Depends: dpkg-shlibdeps (dpkg-dev, which build-essential brings) reads what the binary and the
# library link and names Debian's packages with their versions; without it, Debian 12's names of
# the libraries they link.
find_program(RLI_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(RLI_DPKG_SHLIBDEPS)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
else()
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "libc6, libcairo2, libpango-1.0-0, libpangocairo-1.0-0, \
libpangoft2-1.0-0, libfontconfig1, libglib2.0-0, libyajl2, libyaml-0-2, libcsv3, zlib1g, libpng16-16, libzip4, libsqlite3-0")
  if(ISAL_FOUND)
    string(APPEND CPACK_DEBIAN_PACKAGE_DEPENDS ", libisal2")
  endif()
endif()
set(CPACK_GENERATOR DEB)
include(CPack)

# Installation (cmake --install) and the Debian package (cpack): the binary,
# which embeds the API reference pages, its configuration and systemd unit,
# and the documentation. Configure with -DCMAKE_INSTALL_PREFIX=/usr for a
# package (scripts/package): the configuration then goes to /etc.
include(GNUInstallDirs)
set(VCS_CONFIG_DIR ${CMAKE_INSTALL_FULL_SYSCONFDIR}/voice-campaign-service)
set(VCS_DOC_DIR ${CMAKE_INSTALL_FULL_DATAROOTDIR}/doc/voice-campaign-service)
set(VCS_BINARY ${CMAKE_INSTALL_FULL_BINDIR}/voice-campaign-service)
set(packaging ${PROJECT_SOURCE_DIR}/packaging)
set(generated ${PROJECT_BINARY_DIR}/packaging)
configure_file(${packaging}/voice-campaign-service.service.in
               ${generated}/voice-campaign-service.service @ONLY)
configure_file(${packaging}/conffiles.in ${generated}/conffiles @ONLY)

install(TARGETS voice-campaign-service RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${PROJECT_SOURCE_DIR}/config/voice-campaign-service.conf
        DESTINATION ${VCS_CONFIG_DIR})
# The secrets' file: readable by root only (systemd reads it before it
# starts the service as its own user).
install(FILES ${packaging}/env DESTINATION ${VCS_CONFIG_DIR}
        PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ)
install(FILES ${generated}/voice-campaign-service.service
        DESTINATION lib/systemd/system)
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${VCS_DOC_DIR})
# An example's installed packages and generated files are not documentation.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${VCS_DOC_DIR}
        PATTERN "*.png" EXCLUDE
        PATTERN "node_modules" EXCLUDE
        PATTERN "generated" EXCLUDE)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME voice-campaign-service)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Voice-AI calling campaigns, their leads, sub-account clients and billing: HTTP API")
set(CPACK_PACKAGE_CONTACT "Voice Campaign Service maintainers <maintainers@vcs.invalid>")
set(CPACK_PACKAGING_INSTALL_PREFIX ${CMAKE_INSTALL_PREFIX})
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION net)
# Runtime dependencies from the libraries the binary links (dpkg-shlibdeps):
# Debian 12's own packages.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "postgresql-15, haproxy")
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA
    ${generated}/conffiles ${packaging}/postinst ${packaging}/prerm ${packaging}/postrm)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
# The debug information stays in the build tree.
set(CPACK_STRIP_FILES ON)
include(CPack)

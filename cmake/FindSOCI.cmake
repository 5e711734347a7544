# Debian's libsoci-dev ships no CMake config. The PostgreSQL backend's headers
# include libpq-fe.h, so /usr/include/postgresql joins the include path.
find_path(SOCI_INCLUDE_DIR soci/soci.h)
find_library(SOCI_CORE_LIBRARY NAMES soci_core)
find_library(SOCI_POSTGRESQL_LIBRARY NAMES soci_postgresql)
find_path(PQ_INCLUDE_DIR libpq-fe.h PATH_SUFFIXES postgresql)
find_library(PQ_LIBRARY NAMES pq)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(SOCI REQUIRED_VARS
  SOCI_CORE_LIBRARY SOCI_POSTGRESQL_LIBRARY SOCI_INCLUDE_DIR PQ_INCLUDE_DIR PQ_LIBRARY)
if(SOCI_FOUND AND NOT TARGET SOCI::postgresql)
  add_library(SOCI::core UNKNOWN IMPORTED)
  set_target_properties(SOCI::core PROPERTIES
    IMPORTED_LOCATION "${SOCI_CORE_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${SOCI_INCLUDE_DIR}")
  add_library(SOCI::postgresql UNKNOWN IMPORTED)
  set_target_properties(SOCI::postgresql PROPERTIES
    IMPORTED_LOCATION "${SOCI_POSTGRESQL_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${PQ_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES "SOCI::core;${PQ_LIBRARY}")
endif()
mark_as_advanced(SOCI_INCLUDE_DIR SOCI_CORE_LIBRARY SOCI_POSTGRESQL_LIBRARY PQ_INCLUDE_DIR PQ_LIBRARY)

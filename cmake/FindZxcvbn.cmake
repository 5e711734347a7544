# zxcvbn-c (Debian: libzxcvbn-dev, run time libzxcvbn0), the password
# strength estimator; its dictionaries are compiled into the library.
find_path(ZXCVBN_INCLUDE_DIR zxcvbn.h)
# The shared one: Debian builds the static archive without -fPIC.
find_library(ZXCVBN_LIBRARY NAMES libzxcvbn.so zxcvbn)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(Zxcvbn REQUIRED_VARS ZXCVBN_LIBRARY ZXCVBN_INCLUDE_DIR)
if(Zxcvbn_FOUND AND NOT TARGET Zxcvbn::zxcvbn)
  add_library(Zxcvbn::zxcvbn UNKNOWN IMPORTED)
  set_target_properties(Zxcvbn::zxcvbn PROPERTIES
    IMPORTED_LOCATION "${ZXCVBN_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${ZXCVBN_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES m)
endif()
mark_as_advanced(ZXCVBN_INCLUDE_DIR ZXCVBN_LIBRARY)

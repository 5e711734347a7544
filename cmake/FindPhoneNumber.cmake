find_path(PHONENUMBER_INCLUDE_DIR phonenumbers/phonenumberutil.h)
find_library(PHONENUMBER_LIBRARY NAMES phonenumber)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(PhoneNumber REQUIRED_VARS PHONENUMBER_LIBRARY PHONENUMBER_INCLUDE_DIR)
if(PhoneNumber_FOUND AND NOT TARGET PhoneNumber::phonenumber)
  add_library(PhoneNumber::phonenumber UNKNOWN IMPORTED)
  set_target_properties(PhoneNumber::phonenumber PROPERTIES
    IMPORTED_LOCATION "${PHONENUMBER_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${PHONENUMBER_INCLUDE_DIR}")
endif()
mark_as_advanced(PHONENUMBER_INCLUDE_DIR PHONENUMBER_LIBRARY)

# Copies one file out of an npm registry package, at build time (cmake -P):
# `npm pack` fetches the package tarball, and only FILE is kept. Used for the
# API reference page's renderer, so nothing is loaded from a CDN at run time.
# Inputs: PACKAGE (name@version), FILE (path inside the tarball), OUTPUT.
find_program(NPM npm)
if(NOT NPM)
  message(FATAL_ERROR "npm is needed to fetch ${PACKAGE} (scripts/bootstrap installs it)")
endif()
get_filename_component(out_dir "${OUTPUT}" DIRECTORY)
set(work "${out_dir}/npm-pack")
file(REMOVE_RECURSE "${work}")
file(MAKE_DIRECTORY "${work}")
execute_process(COMMAND "${NPM}" pack "${PACKAGE}" --silent
                WORKING_DIRECTORY "${work}" RESULT_VARIABLE status
                OUTPUT_VARIABLE tarball OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "npm pack ${PACKAGE} failed (${status})")
endif()
file(ARCHIVE_EXTRACT INPUT "${work}/${tarball}" DESTINATION "${work}" PATTERNS "${FILE}")
file(COPY_FILE "${work}/${FILE}" "${OUTPUT}")
file(REMOVE_RECURSE "${work}")

# SPDX-License-Identifier: GPL-3.0-or-later
# The CTest fixture npm_ci_clients (tests/clients/CMakeLists.txt): copies the npm clients (package.json, the
# lockfile, the .mjs scripts) from SOURCE_DIR to DEST_DIR in the build tree and runs `npm ci` there, only
# when node_modules is missing or was installed from another lockfile, so a second run needs no registry.
# cmake -DSOURCE_DIR=… -DDEST_DIR=… -P npmci.cmake
cmake_minimum_required(VERSION 3.21)
foreach(var SOURCE_DIR DEST_DIR)
    if(NOT ${var})
        message(FATAL_ERROR "npmci.cmake: -D${var}=… is required")
    endif()
endforeach()

file(MAKE_DIRECTORY "${DEST_DIR}")
file(GLOB scripts "${SOURCE_DIR}/*.mjs")
foreach(f "${SOURCE_DIR}/package.json" "${SOURCE_DIR}/package-lock.json" ${scripts})
    get_filename_component(name "${f}" NAME)
    file(COPY_FILE "${f}" "${DEST_DIR}/${name}" ONLY_IF_DIFFERENT)
endforeach()

file(SHA256 "${SOURCE_DIR}/package-lock.json" lock_hash)
set(stamp "${DEST_DIR}/node_modules/.retrylab-lock-sha256")
if(EXISTS "${stamp}")
    file(READ "${stamp}" installed_hash)
    if(installed_hash STREQUAL lock_hash)
        message(STATUS "npm clients: node_modules matches package-lock.json, nothing to install")
        return()
    endif()
endif()

find_program(NPM npm)
if(NOT NPM)
    message(FATAL_ERROR "npm is not installed: run packaging/install-deps.sh (Debian 12: nodejs npm)")
endif()
execute_process(COMMAND "${NPM}" ci --no-audit --no-fund WORKING_DIRECTORY "${DEST_DIR}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "npm ci in ${DEST_DIR} failed (${rc}): it needs the npm registry once per lockfile")
endif()
file(WRITE "${stamp}" "${lock_hash}")

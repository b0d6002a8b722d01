# SPDX-License-Identifier: MIT
# Which SUNDIALS contensou links (included by the top-level CMakeLists.txt).
#
#   default                       the installed one CMake finds: Debian's
#                                 libsundials-dev (compiled without -O)
#   -DSUNDIALS_DIR=<dir>          an installed SUNDIALS whose SUNDIALSConfig.cmake
#                                 is in <dir> (module, Spack, conda: usually
#                                 <prefix>/lib/cmake/sundials or lib64/...)
#   -DCONTENSOU_SUNDIALS_SOURCE=<tree or .tar.gz/.tar.xz>
#                                 ARKODE and what it needs (serial N_Vector,
#                                 dense matrix and linear solver) built from
#                                 that source at configure time, Release -O3,
#                                 static, position-independent, into
#                                 <build>/sundials, and linked instead
#
# The source build runs SUNDIALS' own CMake (every other solver, the examples,
# MPI, OpenMP and the third-party modules off) once, when the source or the
# flags change, and is then found with find_package like an installed one, so
# that the targets, version and configuration checks are SUNDIALS' own.
# No -march: without fused multiply-adds the optimised library computes bit for
# bit what the unoptimised one does (no reassociation without -ffast-math).
#
# Supported: SUNDIALS 6.x (6.0 introduced sunrealtype and the SUNContext used
# here; 6.4-6.7 share the API). Tested: 6.4.1 (Debian's package and the same
# version built from Debian's source package). 7.x changed the API that
# src/integrate uses (error handlers -> SUNLogger/error codes, SUNContext_Create
# takes a SUNComm, realtype removed, the sundials_core library) and is refused.
#
# Sets CONTENSOU_SUNDIALS_TARGETS (what the library links),
# CONTENSOU_SUNDIALS_INCLUDE_DIRS, CONTENSOU_SUNDIALS_PC_LIBS (pkg-config's
# Libs.private) and CONTENSOU_SUNDIALS_BUILD (how the linked SUNDIALS was
# built, written into every result file as the root attribute sundials_build).

set(CONTENSOU_SUNDIALS_SOURCE "" CACHE PATH
  "SUNDIALS 6.x source tree or release tarball (.tar.gz, .tar.xz): build ARKODE from it (Release, -O3) into the build tree and link it instead of an installed SUNDIALS")
set(CONTENSOU_SUNDIALS_C_FLAGS "-O3 -DNDEBUG" CACHE STRING
  "C flags of the SUNDIALS built from CONTENSOU_SUNDIALS_SOURCE (its CMAKE_C_FLAGS_RELEASE)")

if(CONTENSOU_SUNDIALS_SOURCE)
  set(sundials_root ${CMAKE_BINARY_DIR}/sundials)
  set(sundials_prefix ${sundials_root}/install)
  get_filename_component(sundials_given "${CONTENSOU_SUNDIALS_SOURCE}" ABSOLUTE)
  if(IS_DIRECTORY "${sundials_given}")
    set(sundials_src "${sundials_given}")
  elseif(EXISTS "${sundials_given}")
    # a tarball: unpacked once per tarball into the build tree
    set(sundials_unpacked ${sundials_root}/source)
    file(SHA256 "${sundials_given}" sundials_tar_hash)
    if(NOT EXISTS ${sundials_unpacked}/${sundials_tar_hash})
      file(REMOVE_RECURSE ${sundials_unpacked})
      message(STATUS "contensou: unpacking ${sundials_given}")
      file(ARCHIVE_EXTRACT INPUT "${sundials_given}" DESTINATION ${sundials_unpacked}/${sundials_tar_hash})
    endif()
    # a release tarball holds one folder, sundials-X.Y.Z/
    file(GLOB sundials_top ${sundials_unpacked}/${sundials_tar_hash}/*/CMakeLists.txt
         ${sundials_unpacked}/${sundials_tar_hash}/CMakeLists.txt)
    list(LENGTH sundials_top n)
    if(NOT n EQUAL 1)
      message(FATAL_ERROR "CONTENSOU_SUNDIALS_SOURCE=${sundials_given}: not a SUNDIALS source tarball (expected one folder with a CMakeLists.txt)")
    endif()
    get_filename_component(sundials_src "${sundials_top}" DIRECTORY)
  else()
    message(FATAL_ERROR "CONTENSOU_SUNDIALS_SOURCE=${sundials_given}: no such file or folder (a SUNDIALS 6.x source tree or release tarball)")
  endif()
  if(NOT EXISTS "${sundials_src}/include/sundials/sundials_types.h"
     OR NOT EXISTS "${sundials_src}/src/arkode")
    message(FATAL_ERROR "CONTENSOU_SUNDIALS_SOURCE: ${sundials_src} is not a SUNDIALS source tree (no include/sundials/sundials_types.h or src/arkode)")
  endif()

  set(sundials_args
    -DCMAKE_C_COMPILER=${CMAKE_C_COMPILER}
    -DCMAKE_BUILD_TYPE=Release
    "-DCMAKE_C_FLAGS_RELEASE=${CONTENSOU_SUNDIALS_C_FLAGS}"
    -DCMAKE_INSTALL_PREFIX=${sundials_prefix}
    -DCMAKE_INSTALL_LIBDIR=lib
    -DCMAKE_POSITION_INDEPENDENT_CODE=ON
    -DBUILD_STATIC_LIBS=ON -DBUILD_SHARED_LIBS=OFF
    -DBUILD_ARKODE=ON -DBUILD_CVODE=OFF -DBUILD_CVODES=OFF -DBUILD_IDA=OFF
    -DBUILD_IDAS=OFF -DBUILD_KINSOL=OFF
    -DBUILD_NVECTOR_MANYVECTOR=OFF -DBUILD_FORTRAN_MODULE_INTERFACE=OFF
    -DBUILD_BENCHMARKS=OFF -DEXAMPLES_ENABLE_C=OFF -DEXAMPLES_ENABLE_CXX=OFF
    -DEXAMPLES_INSTALL=OFF -DBUILD_TESTING=OFF
    -DENABLE_MPI=OFF -DENABLE_OPENMP=OFF -DENABLE_PTHREAD=OFF
    -DSUNDIALS_PRECISION=DOUBLE -DSUNDIALS_INDEX_SIZE=64)
  # rebuilt only when the source or the arguments change
  string(SHA256 sundials_key "${sundials_src};${sundials_args}")
  if(NOT EXISTS ${sundials_root}/built-${sundials_key})
    file(REMOVE_RECURSE ${sundials_root}/build ${sundials_prefix})
    file(GLOB old_stamps ${sundials_root}/built-*)
    if(old_stamps)
      file(REMOVE ${old_stamps})
    endif()
    file(MAKE_DIRECTORY ${sundials_root})
    include(ProcessorCount)
    ProcessorCount(ncpu)
    if(ncpu EQUAL 0)
      set(ncpu 2)
    endif()
    message(STATUS "contensou: building SUNDIALS' ARKODE from ${sundials_src} (${CONTENSOU_SUNDIALS_C_FLAGS}), log in ${sundials_root}/build.log")
    execute_process(
      COMMAND ${CMAKE_COMMAND} -S ${sundials_src} -B ${sundials_root}/build
              -G "${CMAKE_GENERATOR}" ${sundials_args}
      COMMAND_ECHO NONE OUTPUT_FILE ${sundials_root}/build.log ERROR_FILE ${sundials_root}/build.log
      RESULT_VARIABLE rc)
    if(rc EQUAL 0)
      execute_process(
        COMMAND ${CMAKE_COMMAND} --build ${sundials_root}/build --target install --parallel ${ncpu}
        OUTPUT_FILE ${sundials_root}/build-make.log ERROR_FILE ${sundials_root}/build-make.log
        RESULT_VARIABLE rc)
    endif()
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "building SUNDIALS from ${sundials_src} failed: see ${sundials_root}/build.log and build-make.log")
    endif()
    file(TOUCH ${sundials_root}/built-${sundials_key})
  endif()
  find_package(SUNDIALS CONFIG REQUIRED PATHS ${sundials_prefix} NO_DEFAULT_PATH)
  set(CONTENSOU_SUNDIALS_BUILD
    "built-from-source (contensou's build tree, CMAKE_BUILD_TYPE=Release, CMAKE_C_FLAGS_RELEASE=${CONTENSOU_SUNDIALS_C_FLAGS}, ${CMAKE_C_COMPILER_ID} ${CMAKE_C_COMPILER_VERSION}, static)")
else()
  find_package(SUNDIALS CONFIG QUIET)
  contensou_require(SUNDIALS_FOUND libsundials-dev "SUNDIALS (ARKODE)")
endif()

if(SUNDIALS_VERSION VERSION_LESS 6.0 OR NOT SUNDIALS_VERSION VERSION_LESS 7.0)
  message(FATAL_ERROR "SUNDIALS ${SUNDIALS_VERSION} (${SUNDIALS_DIR}): contensou needs SUNDIALS 6.x "
    "(tested 6.4.1; 7.x changed the API it uses): set SUNDIALS_DIR to a 6.x installation or "
    "CONTENSOU_SUNDIALS_SOURCE to a 6.x source tree")
endif()

# shared libraries when the installation has them (Debian's, most modules),
# else its static ones
set(CONTENSOU_SUNDIALS_TARGETS)
set(CONTENSOU_SUNDIALS_PC_LIBS)
set(sundials_kind shared)
if(NOT TARGET SUNDIALS::arkode_shared)
  set(sundials_kind static)
endif()
foreach(lib arkode nvecserial sunmatrixdense sunlinsoldense)
  if(NOT TARGET SUNDIALS::${lib}_${sundials_kind})
    message(FATAL_ERROR "SUNDIALS ${SUNDIALS_VERSION} (${SUNDIALS_DIR}) has no ${lib} library (target SUNDIALS::${lib}_${sundials_kind})")
  endif()
  list(APPEND CONTENSOU_SUNDIALS_TARGETS SUNDIALS::${lib}_${sundials_kind})
  string(APPEND CONTENSOU_SUNDIALS_PC_LIBS " -lsundials_${lib}")
endforeach()
string(STRIP "${CONTENSOU_SUNDIALS_PC_LIBS}" CONTENSOU_SUNDIALS_PC_LIBS)
get_target_property(CONTENSOU_SUNDIALS_INCLUDE_DIRS SUNDIALS::arkode_${sundials_kind}
  INTERFACE_INCLUDE_DIRECTORIES)

if(NOT CONTENSOU_SUNDIALS_BUILD)
  # an installation: what its CMake package says about how it was built
  # (Debian's imports configuration NONE: its debian/rules gives CMake
  # CMAKE_C_FLAGS=-fcommon and no build type, so no -O at all)
  get_target_property(configs SUNDIALS::arkode_${sundials_kind} IMPORTED_CONFIGURATIONS)
  if(NOT configs)
    set(configs unknown)
  endif()
  string(REPLACE ";" "," configs "${configs}")
  if(SUNDIALS_DIR MATCHES "^/usr/lib/" AND EXISTS /usr/share/doc/libsundials-dev)
    set(CONTENSOU_SUNDIALS_BUILD
      "debian-system (libsundials-dev, build configuration ${configs}: CMAKE_C_FLAGS=-fcommon, no -O, ${sundials_kind})")
  else()
    set(CONTENSOU_SUNDIALS_BUILD
      "installed (${SUNDIALS_DIR}, build configuration ${configs}, ${sundials_kind})")
  endif()
endif()
message(STATUS "contensou: SUNDIALS ${SUNDIALS_VERSION}: ${CONTENSOU_SUNDIALS_BUILD}")

# Test helpers for every folder.  Every test runs under ctest.  Unit tests use cmocka; integration tests are
# shell scripts driving the real binaries.  A test that cannot run here says
# SKIPPED with the reason (exit 77 -> ctest "Skipped"), never passes silently.

# rcuprof_unit_test(ROOM NAME LIBS lib... [LABELS l...])
# One scheme for every unit test: tests/unit/ROOM/test_NAME.c is the
# executable and the ctest test unit_ROOM_NAME, labels unit;ROOM;l...
# (ctest -L ROOM runs a room's).  Registered in tests/unit/CMakeLists.txt.
function(rcuprof_unit_test room name)
  cmake_parse_arguments(T "" "" "LIBS;LABELS" ${ARGN})
  set(target unit_${room}_${name})
  add_executable(${target}
    "${CMAKE_SOURCE_DIR}/tests/unit/${room}/test_${name}.c")
  target_link_libraries(${target} PRIVATE ${T_LIBS} PkgConfig::CMOCKA)
  add_test(NAME ${target} COMMAND ${target})
  set_tests_properties(${target} PROPERTIES
    LABELS "unit;${room};${T_LABELS}" SKIP_RETURN_CODE 77)
endfunction()

# rcuprof_script_test(NAME SCRIPT [LABELS l...] [NEEDS_VARIANTS] [SERIAL]
#                     [TIMEOUT s] [COST s])
# make test runs ctest -j2: SERIAL (RUN_SERIAL) for a test whose verdict
# rests on measured times (nothing else runs beside it); COST (seconds,
# about) starts the long ones first in a cold run, when ctest has no times
# of its own yet.
function(rcuprof_script_test name script)
  cmake_parse_arguments(T "NEEDS_VARIANTS;SERIAL" "TIMEOUT;COST" "LABELS" ${ARGN})
  if(T_NEEDS_VARIANTS AND NOT RCUPROF_BUILT_VARIANTS)
    return()
  endif()
  add_test(NAME ${name}
           COMMAND bash "${CMAKE_CURRENT_SOURCE_DIR}/${script}")
  string(REPLACE ";" "," built "${RCUPROF_BUILT_VARIANT_NAMES}")
  set(timeout 600)
  if(T_TIMEOUT)
    set(timeout ${T_TIMEOUT})
  endif()
  set_tests_properties(${name} PROPERTIES
    LABELS "integration;${T_LABELS}" SKIP_RETURN_CODE 77 TIMEOUT ${timeout}
    ENVIRONMENT "RCUPROF_SRC=${CMAKE_SOURCE_DIR};RCUPROF_BUILD=${CMAKE_BINARY_DIR};RCUPROF_BINDIR=${CMAKE_BINARY_DIR}/bin;RCUPROF_VARIANTS_BUILT=${built}")
  if(T_SERIAL)
    set_tests_properties(${name} PROPERTIES RUN_SERIAL TRUE)
  endif()
  if(T_COST)
    set_tests_properties(${name} PROPERTIES COST ${T_COST})
  endif()
endfunction()


# cmake -DSRC=<source dir> -DOUT=<header> -P GitRevision.cmake
# Writes rcuprof's git revision into a header, only when it changed, so a
# new commit relinks the binaries without recompiling everything.
execute_process(COMMAND git -C "${SRC}" describe --always --dirty --abbrev=12
                OUTPUT_VARIABLE rev OUTPUT_STRIP_TRAILING_WHITESPACE
                ERROR_QUIET RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR rev STREQUAL "")
  set(rev "unknown (not a git checkout)")
endif()
set(text "#define RCUPROF_GIT_REVISION \"${rev}\"\n")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUT}" "${text}")
endif()

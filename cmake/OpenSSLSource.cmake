# Resolve the pristine OpenSSL source tree of each OpenSSL line the variants
# are built from (docs/interfaces.md, section 6, "Lines").
#
# Per line (patches/variants.json "lines"), first set wins:
#   OPENSSL_SOURCE_DIR      any tree (>= 3.3: a git checkout, an unpacked
#                           release); its line is read from its VERSION.dat
#                           and it is the source of that line only
#   OPENSSL_SOURCE_TARBALL  a file or URL, with the required OPENSSL_SOURCE_SHA256;
#                           likewise the source of its own line
#   (default)               the newest served openssl source package of the
#                           line's Debian suite (3.5: trixie, 3.6: sid, 4.0:
#                           experimental), pinned per line with
#                           OPENSSL_DEBIAN_VERSION (a comma list, one version
#                           per line: 3.5.7-1~deb13u2,4.0.2-1)
#
# rcuprof_resolve_openssl_override() resolves the first two and sets
# RCUPROF_OVERRIDE_LINE ("" when neither is given); rcuprof_resolve_line(LINE
# SUITE) resolves one line.  Each sets, per line L:
#   RCUPROF_LINE_<L>_TREE       the tree (read-only by convention)
#   RCUPROF_LINE_<L>_VERSION    e.g. 3.5.7
#   RCUPROF_LINE_<L>_SOURCE_ID  sha256 of the tarball, or of the tree's contents
#   RCUPROF_LINE_<L>_SOURCE_JSON  the "source" object recorded with every build

set(_RCUPROF_CMAKE_DIR "${CMAKE_CURRENT_LIST_DIR}")
set(OPENSSL_SOURCE_DIR "" CACHE PATH "OpenSSL source tree to build variants from")
set(OPENSSL_SOURCE_TARBALL "" CACHE STRING "OpenSSL source tarball (file or URL); needs OPENSSL_SOURCE_SHA256")
set(OPENSSL_SOURCE_SHA256 "" CACHE STRING "SHA-256 of OPENSSL_SOURCE_TARBALL")
set(OPENSSL_DEBIAN_VERSION "" CACHE STRING
    "Pin Debian openssl source versions, one per line, comma-separated (default: each line's newest served)")

if(DEFINED ENV{RCUPROF_CACHE})
  set(_rcuprof_cache_default "$ENV{RCUPROF_CACHE}")
elseif(DEFINED ENV{XDG_CACHE_HOME})
  set(_rcuprof_cache_default "$ENV{XDG_CACHE_HOME}/rcuprof")
else()
  set(_rcuprof_cache_default "$ENV{HOME}/.cache/rcuprof")
endif()
set(RCUPROF_CACHE_DIR "${_rcuprof_cache_default}" CACHE PATH
    "Cache shared by every clone: downloaded sources, unpacked trees, ccache")

function(_rcuprof_fail msg)
  # One unwrapped line naming the cause and what to do (CMake wraps the
  # text of FATAL_ERROR, so the line itself goes out as a NOTICE).
  message(NOTICE "rcuprof: ${msg}")
  message(FATAL_ERROR "rcuprof: configuration stopped (see the rcuprof: line above)")
endfunction()

# Unpack ARCHIVE into ${RCUPROF_CACHE_DIR}/src/<sha>, atomically: into a temp
# folder, then renamed, so an interrupted unpack never looks complete.
function(_rcuprof_unpack archive sha out_var)
  set(dest "${RCUPROF_CACHE_DIR}/src/${sha}")
  if(NOT EXISTS "${dest}/.rcuprof-complete")
    string(RANDOM LENGTH 8 _r)
    set(tmp "${RCUPROF_CACHE_DIR}/src/.tmp-${_r}")
    file(REMOVE_RECURSE "${tmp}" "${dest}")
    file(MAKE_DIRECTORY "${tmp}")
    file(ARCHIVE_EXTRACT INPUT "${archive}" DESTINATION "${tmp}")
    file(GLOB _top LIST_DIRECTORIES true "${tmp}/*")
    list(LENGTH _top _n)
    if(NOT _n EQUAL 1 OR NOT IS_DIRECTORY "${_top}")
      file(REMOVE_RECURSE "${tmp}")
      _rcuprof_fail("${archive} does not unpack to a single source folder: pass an OpenSSL release tarball")
    endif()
    file(TOUCH "${_top}/.rcuprof-complete")
    file(RENAME "${_top}" "${dest}")
    file(REMOVE_RECURSE "${tmp}")
  endif()
  set(${out_var} "${dest}" PARENT_SCOPE)
endfunction()

# Content hash of a source tree (git metadata excluded), so a build records
# exactly what it was made from even without a tarball.
function(rcuprof_tree_hash tree out_var)
  execute_process(
    COMMAND bash -c "set -o pipefail; find . -path ./.git -prune -o -type f ! -name '.rcuprof-*' -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -d' ' -f1"
    WORKING_DIRECTORY "${tree}" OUTPUT_VARIABLE sha OUTPUT_STRIP_TRAILING_WHITESPACE
    RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    _rcuprof_fail("cannot read ${tree}: check its permissions")
  endif()
  set(${out_var} "${sha}" PARENT_SCOPE)
endfunction()

# Validate an OpenSSL tree and describe it.  Sets RCUPROF_TREE_VERSION,
# RCUPROF_TREE_LINE and RCUPROF_TREE_JSON in the caller's scope.
function(rcuprof_tree_info tree kind sha debver tarball)
  if(NOT EXISTS "${tree}/VERSION.dat")
    _rcuprof_fail("${tree} has no VERSION.dat: it is not an OpenSSL 3.x source tree (need 3.3 or later)")
  endif()
  file(STRINGS "${tree}/VERSION.dat" vlines)
  foreach(l IN LISTS vlines)
    if(l MATCHES "^(MAJOR|MINOR|PATCH)=([0-9]+)")
      set(_${CMAKE_MATCH_1} "${CMAKE_MATCH_2}")
    endif()
  endforeach()
  set(version "${_MAJOR}.${_MINOR}.${_PATCH}")
  if(_MAJOR LESS 3 OR (_MAJOR EQUAL 3 AND _MINOR LESS 3))
    _rcuprof_fail("OpenSSL ${version} at ${tree} has no internal RCU (it came in 3.3): use a 3.3 or later tree")
  endif()
  if(NOT EXISTS "${tree}/crypto/property/property.c")
    _rcuprof_fail("${tree} lacks crypto/property/property.c: pass a complete OpenSSL source tree")
  endif()

  set(json "{}")
  string(JSON json SET "${json}" kind "\"${kind}\"")
  string(JSON json SET "${json}" version "\"${version}\"")
  string(JSON json SET "${json}" sha256 "\"${sha}\"")
  if(debver)
    string(JSON json SET "${json}" debian_version "\"${debver}\"")
  endif()
  if(tarball)
    get_filename_component(_tn "${tarball}" NAME)
    string(JSON json SET "${json}" tarball "\"${_tn}\"")
  endif()
  if(kind STREQUAL "dir")
    string(JSON json SET "${json}" sha256_of "\"tree contents\"")
  else()
    string(JSON json SET "${json}" sha256_of "\"tarball\"")
  endif()

  set(RCUPROF_TREE_VERSION "${version}" PARENT_SCOPE)
  set(RCUPROF_TREE_LINE "${_MAJOR}.${_MINOR}" PARENT_SCOPE)
  # string(JSON) pretty-prints; raw newlines only ever come from that.
  string(REGEX REPLACE "\n *" "" json "${json}")
  set(RCUPROF_TREE_JSON "${json}" PARENT_SCOPE)
endfunction()

# Record a resolved tree as the source of its line.
macro(_rcuprof_set_line tree kind sha debver tarball)
  rcuprof_tree_info("${tree}" "${kind}" "${sha}" "${debver}" "${tarball}")
  message(STATUS "rcuprof: OpenSSL ${RCUPROF_TREE_VERSION} (line ${RCUPROF_TREE_LINE}, ${kind} ${debver}) sha256 ${sha}")
  set(RCUPROF_LINE_${RCUPROF_TREE_LINE}_TREE "${tree}" PARENT_SCOPE)
  set(RCUPROF_LINE_${RCUPROF_TREE_LINE}_VERSION "${RCUPROF_TREE_VERSION}" PARENT_SCOPE)
  set(RCUPROF_LINE_${RCUPROF_TREE_LINE}_SOURCE_ID "${sha}" PARENT_SCOPE)
  set(RCUPROF_LINE_${RCUPROF_TREE_LINE}_SOURCE_JSON "${RCUPROF_TREE_JSON}" PARENT_SCOPE)
endmacro()

function(rcuprof_resolve_openssl_override)
  set(RCUPROF_OVERRIDE_LINE "" PARENT_SCOPE)
  if(OPENSSL_SOURCE_DIR)
    get_filename_component(tree "${OPENSSL_SOURCE_DIR}" ABSOLUTE)
    if(NOT IS_DIRECTORY "${tree}")
      _rcuprof_fail("OPENSSL_SOURCE_DIR=${OPENSSL_SOURCE_DIR} does not exist: pass the top folder of an OpenSSL source tree")
    endif()
    rcuprof_tree_hash("${tree}" sha)
    _rcuprof_set_line("${tree}" dir "${sha}" "" "")
  elseif(OPENSSL_SOURCE_TARBALL)
    if(NOT OPENSSL_SOURCE_SHA256 MATCHES "^[0-9a-fA-F]+$")
      _rcuprof_fail("OPENSSL_SOURCE_TARBALL needs -DOPENSSL_SOURCE_SHA256=<64 hex digits> (sha256sum of the tarball)")
    endif()
    string(TOLOWER "${OPENSSL_SOURCE_SHA256}" want)
    if(OPENSSL_SOURCE_TARBALL MATCHES "^[a-z]+://")
      get_filename_component(_name "${OPENSSL_SOURCE_TARBALL}" NAME)
      set(tarball "${RCUPROF_CACHE_DIR}/downloads/${want}/${_name}")
      if(NOT EXISTS "${tarball}")
        file(DOWNLOAD "${OPENSSL_SOURCE_TARBALL}" "${tarball}.part" STATUS st)
        list(GET st 0 code)
        if(NOT code EQUAL 0)
          list(GET st 1 why)
          file(REMOVE "${tarball}.part")
          _rcuprof_fail("cannot download ${OPENSSL_SOURCE_TARBALL} (${why}): check the URL or download it and pass the file")
        endif()
        file(SHA256 "${tarball}.part" got)
        if(NOT got STREQUAL want)
          file(REMOVE "${tarball}.part")
          _rcuprof_fail("${OPENSSL_SOURCE_TARBALL} has SHA-256 ${got}, not ${want}: check the file or the hash you passed")
        endif()
        file(RENAME "${tarball}.part" "${tarball}")
      endif()
    else()
      get_filename_component(tarball "${OPENSSL_SOURCE_TARBALL}" ABSOLUTE)
      if(NOT EXISTS "${tarball}")
        _rcuprof_fail("OPENSSL_SOURCE_TARBALL=${OPENSSL_SOURCE_TARBALL} does not exist: pass an existing file or a URL")
      endif()
    endif()
    file(SHA256 "${tarball}" sha)
    if(NOT sha STREQUAL want)
      _rcuprof_fail("${tarball} has SHA-256 ${sha}, not ${want}: check the file or the hash you passed")
    endif()
    _rcuprof_unpack("${tarball}" "${sha}" tree)
    _rcuprof_set_line("${tree}" tarball "${sha}" "" "${tarball}")
  else()
    return()
  endif()
  set(RCUPROF_OVERRIDE_LINE "${RCUPROF_TREE_LINE}" PARENT_SCOPE)
endfunction()

# The pin of LINE from OPENSSL_DEBIAN_VERSION ("" when none): each listed
# version pins the line its upstream version belongs to.
function(_rcuprof_debian_pin line out_var)
  set(pin "")
  string(REPLACE "," ";" pins "${OPENSSL_DEBIAN_VERSION}")
  foreach(p IN LISTS pins)
    string(STRIP "${p}" p)
    if(NOT p MATCHES "^([0-9]+:)?([0-9]+)\\.([0-9]+)\\.")
      _rcuprof_fail("OPENSSL_DEBIAN_VERSION entry '${p}' is not a Debian openssl version (e.g. 3.5.7-1~deb13u2): fix -DOPENSSL_DEBIAN_VERSION")
    endif()
    if("${CMAKE_MATCH_2}.${CMAKE_MATCH_3}" STREQUAL "${line}")
      if(pin)
        _rcuprof_fail("OPENSSL_DEBIAN_VERSION pins line ${line} twice (${pin}, ${p}): give one version per line")
      endif()
      set(pin "${p}")
    endif()
  endforeach()
  set(${out_var} "${pin}" PARENT_SCOPE)
endfunction()

# The source of LINE: the override's tree when it is of LINE, else Debian's
# SUITE (the fetcher falls back, loudly, from a listed but unserved newest
# version to the next listed one).
function(rcuprof_resolve_line line suite)
  if(DEFINED RCUPROF_LINE_${line}_TREE)
    return()
  endif()
  if(NOT suite)
    _rcuprof_fail("OpenSSL line ${line} has no Debian suite in patches/variants.json \"lines\": pass -DOPENSSL_SOURCE_DIR=<a ${line} tree>")
  endif()
  _rcuprof_debian_pin("${line}" pin)
  execute_process(
    COMMAND "${_RCUPROF_CMAKE_DIR}/fetch-openssl-debian.sh" "${RCUPROF_CACHE_DIR}" "${pin}" "${line}" "${suite}"
    OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc
    OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_STRIP_TRAILING_WHITESPACE)
  if(err)
    message(NOTICE "${err}")
  endif()
  if(NOT rc EQUAL 0)
    _rcuprof_fail("fetching the OpenSSL ${line} source failed (${rc}; see the line above): pass -DOPENSSL_SOURCE_DIR=<a ${line} tree> to build without the network")
  endif()
  string(REGEX MATCH "version=([^\n]*)" _ "${out}")
  set(debver "${CMAKE_MATCH_1}")
  string(REGEX MATCH "tarball=([^\n]*)" _ "${out}")
  set(tarball "${CMAKE_MATCH_1}")
  string(REGEX MATCH "sha256=([^\n]*)" _ "${out}")
  set(sha "${CMAKE_MATCH_1}")
  _rcuprof_unpack("${tarball}" "${sha}" tree)
  _rcuprof_set_line("${tree}" debian "${sha}" "${debver}" "${tarball}")
  if(NOT RCUPROF_TREE_LINE STREQUAL line)
    _rcuprof_fail("Debian ${suite}'s openssl ${debver} is OpenSSL ${RCUPROF_TREE_VERSION}, not line ${line}: fix patches/variants.json \"lines\"")
  endif()
endfunction()

# The tree of git repository REPO at COMMIT (a user variant's --source DIR
# --ref REF, resolved by `rcuprof variant add`), exported with git archive
# into ${RCUPROF_CACHE_DIR}/src/git-<commit>, atomically (temp folder, then
# renamed): the repository and its work tree are only read.  Sets TREE_VAR to
# the tree and SHA_VAR to its content hash (kept beside it).
function(rcuprof_git_export repo commit ref tree_var sha_var)
  if(NOT commit MATCHES "^[0-9a-f]+$")
    _rcuprof_fail("git source ${repo}: commit '${commit}' is not a hex object name: add the variant again with 'rcuprof variant add NAME --source ${repo} --ref ${ref}'")
  endif()
  set(dest "${RCUPROF_CACHE_DIR}/src/git-${commit}")
  if(NOT EXISTS "${dest}/.rcuprof-complete")
    string(RANDOM LENGTH 8 r)
    set(tmp "${RCUPROF_CACHE_DIR}/src/.tmp-git-${r}")
    file(REMOVE_RECURSE "${tmp}")
    file(MAKE_DIRECTORY "${tmp}")
    execute_process(
      COMMAND git -C "${repo}" archive --format=tar "${commit}"
      COMMAND tar -x -C "${tmp}"
      RESULTS_VARIABLE rcs ERROR_VARIABLE err ERROR_STRIP_TRAILING_WHITESPACE)
    if(NOT rcs MATCHES "^0;0$")
      file(REMOVE_RECURSE "${tmp}")
      string(REGEX REPLACE "\n.*" "" err "${err}")
      _rcuprof_fail("cannot export commit ${commit} (ref ${ref}) of ${repo} (${err}): check the repository, or remove the variant ('rcuprof variant remove')")
    endif()
    rcuprof_tree_hash("${tmp}" sha)
    file(WRITE "${tmp}/.rcuprof-sha256" "${sha}\n")
    file(TOUCH "${tmp}/.rcuprof-complete")
    file(REMOVE_RECURSE "${dest}")
    file(RENAME "${tmp}" "${dest}")
  endif()
  file(STRINGS "${dest}/.rcuprof-sha256" sha LIMIT_COUNT 1)
  set(${tree_var} "${dest}" PARENT_SCOPE)
  set(${sha_var} "${sha}" PARENT_SCOPE)
endfunction()

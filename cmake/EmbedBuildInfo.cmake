# cmake -DIN=build.json -DOUT=build_info.c -P EmbedBuildInfo.cmake
# Embeds a variant's build record into its driver, so every result carries
# exactly what it was built from.
get_filename_component(_dir "${IN}" DIRECTORY)
if(NOT EXISTS "${IN}" AND EXISTS "${_dir}/.failed")
  return()   # a user variant that failed to build (reported in one line)
endif()
file(READ "${IN}" json)
string(STRIP "${json}" json)
string(REPLACE "\\" "\\\\" json "${json}")
string(REPLACE "\"" "\\\"" json "${json}")
file(WRITE "${OUT}.tmp" "/* generated from ${IN}: do not edit */\nconst char rcuprof_build_json[] = \"${json}\";\n")
file(RENAME "${OUT}.tmp" "${OUT}")

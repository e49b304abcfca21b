# Writes version.h from version.h.in at build time (cli/CMakeLists.txt's tb_version target), so
# that the commit a binary names is the source tree's at its last build, not at the last cmake
# run; "-dirty" when tracked files differ from that commit.  configure_file rewrites the header
# only when its text changes, so an unchanged commit rebuilds nothing.
# Inputs (-D): IN, OUT, SOURCE_DIR and the values version.h.in names besides TB_GIT_COMMIT.
execute_process(COMMAND git rev-parse --short=12 HEAD WORKING_DIRECTORY ${SOURCE_DIR}
                OUTPUT_VARIABLE TB_GIT_COMMIT OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET
                RESULT_VARIABLE tb_git_status)
if(NOT tb_git_status EQUAL 0 OR NOT TB_GIT_COMMIT)
  set(TB_GIT_COMMIT unknown)
else()
  execute_process(COMMAND git diff --quiet HEAD -- WORKING_DIRECTORY ${SOURCE_DIR}
                  RESULT_VARIABLE tb_git_dirty OUTPUT_QUIET ERROR_QUIET)
  if(tb_git_dirty EQUAL 1)
    string(APPEND TB_GIT_COMMIT "-dirty")
  endif()
endif()
configure_file(${IN} ${OUT} @ONLY)

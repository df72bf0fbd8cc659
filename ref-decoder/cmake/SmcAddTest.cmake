# smc_add_test(<name> <source>... [LIBS <lib>...] [ARGS <arg>...])
#
# Builds one test executable, registers it with CTest and, when valgrind is available and
# the build is not sanitized (ASan and valgrind do not mix), registers a second run
# `<name>-valgrind` under memcheck that fails on any error or leak.
find_program(SMC_VALGRIND valgrind)

# smc_valgrind_debug_info(<target>): clang 14 emits DWARF 5 by default, which valgrind 3.19
# cannot read ("unhandled DW_FORM"); DWARF 4 keeps memcheck runs of clang builds working.
function(smc_valgrind_debug_info target)
  if(CMAKE_C_COMPILER_ID MATCHES "Clang")
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:C,CXX>:-gdwarf-4>)
  endif()
endfunction()

function(smc_add_test name)
  cmake_parse_arguments(ARG "" "" "LIBS;ARGS" ${ARGN})
  add_executable(${name} ${ARG_UNPARSED_ARGUMENTS})
  target_link_libraries(${name} PRIVATE smc::smc ${ARG_LIBS})
  set_target_properties(${name} PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON C_EXTENSIONS OFF)
  smc_target_warnings(${name})
  smc_valgrind_debug_info(${name})
  add_test(NAME ${name} COMMAND ${name} ${ARG_ARGS})
  if(SMC_VALGRIND AND NOT SMC_SANITIZE)
    add_test(NAME ${name}-valgrind
      COMMAND ${SMC_VALGRIND} --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=all
              --show-leak-kinds=all --quiet $<TARGET_FILE:${name}> ${ARG_ARGS})
    set_tests_properties(${name}-valgrind PROPERTIES LABELS valgrind)
  endif()
endfunction()

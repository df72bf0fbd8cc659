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

# smc_add_headers_alone_test(<name> INCLUDE_PREFIX <prefix> HEADERS <h>... [LIBS <lib>...])
#
# House style rule 2: each header compiles on its own. Writes one translation unit per
# header that includes it twice (the second include checks the guard) and a main() that
# calls one function from each, so the test fails if any unit is left out.
function(smc_add_headers_alone_test name)
  cmake_parse_arguments(ARG "" "INCLUDE_PREFIX" "HEADERS;LIBS" ${ARGN})
  set(tus "")
  set(decls "")
  set(calls "")
  foreach(h ${ARG_HEADERS})
    set(fn "${name}_${h}")
    set(tu ${CMAKE_CURRENT_BINARY_DIR}/${fn}.c)
    file(WRITE ${tu}.in "#include \"${ARG_INCLUDE_PREFIX}${h}.h\"\n"
                        "#include \"${ARG_INCLUDE_PREFIX}${h}.h\" /* include guard */\n"
                        "int ${fn}(void);\nint ${fn}(void) { return 1; }\n")
    configure_file(${tu}.in ${tu} COPYONLY)
    list(APPEND tus ${tu})
    string(APPEND decls "int ${fn}(void);\n")
    string(APPEND calls "  n += ${fn}();\n")
  endforeach()
  list(LENGTH ARG_HEADERS count)
  set(main ${CMAKE_CURRENT_BINARY_DIR}/${name}_main.c)
  file(WRITE ${main}.in "#include <stdio.h>\n${decls}int main(void)\n{\n  int n = 0;\n${calls}"
                        "  printf(\"%d headers compiled alone\\n\", n);\n"
                        "  return n == ${count} ? 0 : 1;\n}\n")
  configure_file(${main}.in ${main} COPYONLY)
  smc_add_test(${name} ${tus} ${main} LIBS ${ARG_LIBS})
endfunction()

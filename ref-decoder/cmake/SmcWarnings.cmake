# Compiler flags shared by every C target of the project (house style rule 15).
set(SMC_WARNING_FLAGS
  -Wall -Wextra -Wpedantic -Wconversion -Wshadow -Wstrict-prototypes
  -Wmissing-prototypes -Wcast-qual -Wswitch-enum -Wformat=2 -Wundef
  -Wpointer-arith -Wwrite-strings -Wvla)
if(SMC_WERROR)
  list(APPEND SMC_WARNING_FLAGS -Werror)
endif()

if(SMC_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()
if(SMC_COVERAGE)
  add_compile_options(--coverage -O0)
  add_link_options(--coverage)
endif()

# smc_target_warnings(<target>): apply the project's warning set to one target.
function(smc_target_warnings target)
  target_compile_options(${target} PRIVATE ${SMC_WARNING_FLAGS})
endfunction()

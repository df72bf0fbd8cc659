# Options and compiler settings shared by libsmc's standalone build and the whole tree.
option(SMC_SANITIZE "Build with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)
option(SMC_COVERAGE "Build with coverage instrumentation" OFF)
option(SMC_WERROR "Treat warnings as errors" OFF)
set(SMC_DEFAULT_MAX_DEPTH 128 CACHE STRING "Default maximum nesting depth of the decoder (spec §15.1)")

set(CMAKE_C_STANDARD 11)
set(CMAKE_C_STANDARD_REQUIRED ON)
set(CMAKE_C_EXTENSIONS OFF)
set(CMAKE_C_VISIBILITY_PRESET hidden)
set(CMAKE_VISIBILITY_INLINES_HIDDEN ON)
if(NOT CMAKE_BUILD_TYPE AND NOT CMAKE_CONFIGURATION_TYPES)
  set(CMAKE_BUILD_TYPE RelWithDebInfo CACHE STRING "Build type" FORCE)
endif()

include(SmcWarnings)
include(SmcAddTest)

# The suite beside the library: the versions `smc --version` reports and the files
# `cmake --install` puts under share/smc/ so that the installed `smc conformance` runs without
# a checkout. Each version is read from the one place that defines it (docs/versioning.md):
#   library   ref-decoder/cmake/SmcVersion.cmake       (SMC_VERSION, set before project())
#   spec      the title line of spec/standard-message-codec.md   ("... specification v0.1")
#   vectors   vectors/MANIFEST.json                      (vectors_version, format_version)
#   protocol  the title line of runners/PROTOCOL.md      ("# Runner protocol, version 2")
# Editing any of these files re-runs the configure step, so a binary never reports a stale one.
include(GNUInstallDirs)

set(SMC_SUITE_SPEC_FILE ${PROJECT_SOURCE_DIR}/spec/standard-message-codec.md)
set(SMC_SUITE_MANIFEST ${PROJECT_SOURCE_DIR}/vectors/MANIFEST.json)
set(SMC_SUITE_PROTOCOL_FILE ${PROJECT_SOURCE_DIR}/runners/PROTOCOL.md)
set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
  ${SMC_SUITE_SPEC_FILE} ${SMC_SUITE_MANIFEST} ${SMC_SUITE_PROTOCOL_FILE})

# smc_suite_title_version(FILE REGEX VAR): the first capture of REGEX on FILE's first line.
function(smc_suite_title_version file regex var)
  file(STRINGS ${file} title LIMIT_COUNT 1 ENCODING UTF-8)
  if(NOT title MATCHES "${regex}")
    message(FATAL_ERROR "${file}: the first line must match `${regex}` (docs/versioning.md); it is `${title}`")
  endif()
  set(${var} ${CMAKE_MATCH_1} PARENT_SCOPE)
endfunction()

smc_suite_title_version(${SMC_SUITE_SPEC_FILE} "specification v([0-9]+\\.[0-9]+)$" SMC_SPEC_VERSION)
smc_suite_title_version(${SMC_SUITE_PROTOCOL_FILE} "^# Runner protocol, version ([0-9]+)$"
  SMC_PROTOCOL_VERSION)
file(READ ${SMC_SUITE_MANIFEST} smc_manifest)
string(JSON SMC_VECTORS_VERSION GET "${smc_manifest}" vectors_version)
string(JSON SMC_VECTORS_FORMAT GET "${smc_manifest}" format_version)
string(JSON smc_manifest_spec GET "${smc_manifest}" spec_version)
if(NOT smc_manifest_spec STREQUAL SMC_SPEC_VERSION)
  # The vectors are generated from the spec they ship with (vectors/gen/generate.py
  # SPEC_VERSION); a release of the two at different versions would judge against the wrong text.
  message(WARNING "vectors/MANIFEST.json says spec_version ${smc_manifest_spec} but "
                  "spec/standard-message-codec.md is v${SMC_SPEC_VERSION}: regenerate the vectors")
endif()

# Installed data: share/smc/ (GNUInstallDirs DATADIR). The judge finds the vectors from its
# own executable through the path from BINDIR to this folder, so a copied or relocated
# prefix keeps working (judge/vectors/vectors_dir.c).
set(SMC_DATADIR ${CMAKE_INSTALL_DATADIR}/smc)
file(RELATIVE_PATH SMC_DATADIR_FROM_BINDIR ${CMAKE_INSTALL_FULL_BINDIR}
  ${CMAKE_INSTALL_FULL_DATADIR}/smc)

option(SMC_INSTALL_SUITE "Install the vectors, their schema, the spec and the runner protocol under share/smc" ON)
if(SMC_INSTALL_SUITE)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/vectors/ DESTINATION ${SMC_DATADIR}/vectors
    FILES_MATCHING PATTERN "s[0-9][0-9]-*.json" PATTERN "c15-complexity.json" PATTERN "schema.json"
    PATTERN "MANIFEST.json"
    PATTERN "retired.txt" PATTERN "README.md"
    PATTERN "gen" EXCLUDE)
  # notation-cases.json: the notation cases a runner author's reader can be tested on.
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/spec/ DESTINATION ${SMC_DATADIR}/spec
    FILES_MATCHING PATTERN "*.md" PATTERN "notation-cases.json")
  install(FILES ${SMC_SUITE_PROTOCOL_FILE} DESTINATION ${SMC_DATADIR}/runners)
  install(FILES ${PROJECT_SOURCE_DIR}/judge/report.schema.json DESTINATION ${SMC_DATADIR}/judge)
  install(FILES ${PROJECT_SOURCE_DIR}/docs/versioning.md DESTINATION ${SMC_DATADIR}/docs)
endif()

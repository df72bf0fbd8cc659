# The library's version, in one place: read by ref-decoder/CMakeLists.txt when libsmc is
# configured on its own and by the top-level CMakeLists.txt for the whole tree.
set(SMC_VERSION 0.1.0)

#!/bin/bash -eu
# ClusterFuzzLite entry point: the one build script is fuzz/oss-fuzz/build.sh.
exec "$SRC/smc-conformance/fuzz/oss-fuzz/build.sh"

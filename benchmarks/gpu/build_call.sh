#!/bin/sh
# Builds vrir._call (lib/Bindings/Python/CallKernel.c) for the python3 on
# PATH and its NumPy into DIR/lib, next to a staged libvrir_runtime.so: for
# a machine whose Python is not the one VRIR was built with (the GPU
# machine; see stage.sh). The build tree's CMake does this for VRIR_PYTHON.
#
#   sh benchmarks/gpu/build_call.sh DIR      # e.g. /opt/vrir
set -eu
dir=$1
repo=$(cd "$(dirname "$0")/../.." && pwd)
py() { python3 -c "$1"; }
include=$(py 'import sysconfig; print(sysconfig.get_paths()["include"])')
numpy_include=$(py 'import numpy; print(numpy.get_include())')
suffix=$(py 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
${CC:-cc} -shared -fPIC -O2 -fvisibility=hidden -I"$include" \
  -I"$numpy_include" -I"$repo/include" "$repo/lib/Bindings/Python/CallKernel.c" \
  -L"$dir/lib" -lvrir_runtime -Wl,-rpath,"$dir/lib" -o "$dir/lib/_call$suffix"
echo "built $dir/lib/_call$suffix"

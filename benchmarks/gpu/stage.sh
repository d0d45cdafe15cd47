#!/bin/sh
# Stages what the GPU machine of the `device` tool needs to run vr-run and
# benchmarks/gpu/run.py, in .stage/ of the repository (git-ignored through
# .git/info/exclude): the ICD and Vulkan loader packages, and one xz tarball
# (under 64 MiB with the working tree) of vr-run, the VRIR runtimes and
# every library they load, at the paths the build recorded.
#
#   sh benchmarks/gpu/stage.sh            # after ninja -C build
#
# Two libraries are replaced to fit: libicudata (30 MB of Unicode tables
# LLVM's XML reader would need, never called) by a stub with its one
# symbol, and OpenBLAS (36 MB) by Debian's reference BLAS, placed at the
# OpenBLAS path the compiler records (host BLAS calls still work, slower:
# time no CPU BLAS with it). On the device (carry .stage/bundle.tar.xz and
# .stage/debs; build/peers too for the CUDA column):
#
#   for f in .stage/debs/*.deb; do dpkg -x $f /; done; ldconfig
#   mkdir -p /etc/OpenCL/vendors
#   echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
#   export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
#   xz -dc .stage/bundle.tar.xz | tar xf - -C / --skip-old-files
#   export LD_LIBRARY_PATH=/opt/vrirlibs PATH=/opt/vrir/bin:$PATH
#   python3 benchmarks/gpu/run.py --vr-run /opt/vrir/bin/vr-run ...
#
# The Python frontend there (its python3 differs from this machine's, so
# vrir._call is built there from its one C file, against that Python and
# NumPy; the bundle has the compiler bridge, libVRIRCompiler.so):
#
#   sh benchmarks/gpu/build_call.sh /opt/vrir
#   export LD_LIBRARY_PATH=/opt/vrir/lib:/opt/vrirlibs
#   PYTHONPATH=python VRIR_BUILD_DIR=/opt/vrir python3 \
#     benchmarks/gpu/jacobi_python.py ...
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$repo/build}
stage=$repo/.stage
root=$stage/root
grep -qx '/.stage/' "$repo/.git/info/exclude" 2>/dev/null ||
  echo '/.stage/' >>"$repo/.git/info/exclude"
rm -rf "$root" "$stage/debs" "$stage/bundle.tar.xz"
mkdir -p "$root/opt/vrir/bin" "$root/opt/vrir/lib" "$root/opt/vrirlibs" \
  "$stage/debs" "$stage/tmp"

cp "$build/bin/vr-run" "$root/opt/vrir/bin/"
strip "$root/opt/vrir/bin/vr-run"
cp -L "$build/lib/libvrir_runtime.so" "$build/lib/libvrir_gpu_runtime.so" \
  "$build/lib/libVRIRCompiler.so" "$root/opt/vrir/lib/"
strip "$root/opt/vrir/lib/libVRIRCompiler.so"

# Libraries the JIT loads by the absolute paths CMake recorded.
cache=$build/CMakeCache.txt
recorded() { sed -n "s/^$1:FILEPATH=//p" "$cache"; }
for path in "$(recorded VRIR_OMP_LIBRARY_PATH)" \
  "$(recorded VRIR_MLIR_RUNNER_UTILS_PATH)"; do
  mkdir -p "$root$(dirname "$path")"
  cp -L "$path" "$root$path"
done
blas=$(recorded VRIR_BLAS_LIBRARY_PATH)
mkdir -p "$root$(dirname "$blas")"
(cd "$stage/tmp" && apt-get download libblas3 >/dev/null 2>&1 &&
  dpkg -x libblas3_*.deb blas)
cp -L "$stage"/tmp/blas/usr/lib/x86_64-linux-gnu/blas/libblas.so.3 "$root$blas"

# Everything they link, but the C library's own (the machine's serve).
for binary in "$build/bin/vr-run" "$build"/lib/libvrir_*.so \
  "$(recorded VRIR_OMP_LIBRARY_PATH)" \
  "$(recorded VRIR_MLIR_RUNNER_UTILS_PATH)" "$root$blas"; do
  ldd "$binary" | awk '/=> \//{print $3}'
done | sort -u | while read -r library; do
  case $(basename "$library") in
  libc.so* | libm.so* | libgcc_s.so* | ld-linux* | libvrir_*) ;;
  libicudata.so.*)
    symbol=$(nm -D "$library" | awk '/ R icudt/{print $3}')
    echo "const char $symbol[64] = {0};" >"$stage/tmp/icu.c"
    clang-22 -shared -fPIC -Wl,-soname,"$(basename "$library")" \
      "$stage/tmp/icu.c" -o "$root/opt/vrirlibs/$(basename "$library")"
    ;;
  *) cp -L "$library" "$root/opt/vrirlibs/" ;;
  esac
done

(cd "$stage/debs" && apt-get download ocl-icd-libopencl1 libvulkan1 libegl1 \
  libglvnd0 libopengl0 libgl1 libglx0 libgles2 >/dev/null 2>&1)
tar cf - -C "$root" . | xz -T0 -9 >"$stage/bundle.tar.xz"
rm -rf "$stage/tmp"
ls -l "$stage/bundle.tar.xz"
du -sh "$stage/debs"

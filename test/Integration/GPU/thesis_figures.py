# REQUIRES: opencl
# RUN: %python %vrir_src_root/test/Integration/compare.py %vrir_src_root/test/Integration/CPU/thesis_figures.py %t --target=opencl
# The thesis figures' spec (test/Integration/CPU/thesis_figures.py), with
# the GPU sections of figure 9.2 run as OpenCL kernels.

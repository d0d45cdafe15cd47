# REQUIRES: opencl || vulkan
# RUN: %if opencl %{ %python %vrir_src_root/test/Integration/compare.py %vrir_src_root/test/Integration/CPU/thesis_figures.py %t/opencl --target=opencl %}
# RUN: %if vulkan %{ %python %vrir_src_root/test/Integration/compare.py %vrir_src_root/test/Integration/CPU/thesis_figures.py %t/vulkan --target=vulkan %}
# RUN: %if opencl %{ %python %vrir_src_root/test/Integration/compare.py %vrir_src_root/test/Integration/CPU/thesis_figures.py %t/opencl-regions --target=opencl --specialize %}
# The thesis figures' spec (test/Integration/CPU/thesis_figures.py), with
# the GPU sections of figure 9.2 run as OpenCL kernels and as Vulkan
# SPIR-V kernels.

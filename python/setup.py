"""Records the VRIR build directory in a non-editable install.

The package calls the compiler's C API in `<build>/lib/libVRIRCompiler.so`.
A regular install copies the package away from the repository, so the
build directory found now ($VRIR_BUILD_DIR, else ../build next to this
file) goes into vrir/_build_config.py. An editable install needs nothing:
it finds ../build from the package's source. $VRIR_BUILD_DIR at run time
overrides both.
"""
import os

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))


class BuildPy(build_py):
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        build = os.path.realpath(os.environ.get("VRIR_BUILD_DIR")
                                 or os.path.join(HERE, "..", "build"))
        path = os.path.join(self.build_lib, "vrir", "_build_config.py")
        with open(path, "w") as f:
            f.write('"""Written by setup.py at install time."""\n'
                    f"BUILD_DIR = {build!r}\n")


setup(cmdclass={"build_py": BuildPy})

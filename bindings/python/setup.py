# The cffi extension is declared here: setuptools reads cffi_modules only
# from setup(). Everything else is in pyproject.toml.
from setuptools import setup

setup(cffi_modules=["tco/_build.py:ffibuilder"])

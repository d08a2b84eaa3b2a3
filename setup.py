"""Build fracas: pure Python, or with its hot modules compiled by mypyc.

``pip install`` builds the pure-Python package.  ``FRACAS_MYPYC=1 python setup.py
build_ext --inplace`` (what ``make`` runs once the dependencies are installed, since mypyc
type-checks the modules against them) compiles the modules listed in
``src/fracas/_compiled.py`` into extension modules beside their sources.
"""

import os
import runpy

from setuptools import setup

ext_modules = []
if os.environ.get("FRACAS_MYPYC") == "1":
    from mypyc.build import mypycify

    modules = runpy.run_path("src/fracas/_compiled.py")["MODULES"]
    ext_modules = mypycify([f"src/{m.replace('.', '/')}.py" for m in modules], opt_level="3",
                            multi_file=True)

setup(ext_modules=ext_modules)

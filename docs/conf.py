"""Sphinx configuration of the tvbo_verify documentation: the plugin tutorial, the architecture and the API
reference of ``tvbo_verify.authoring`` with the tables of β rules, algorithms and environments.

Build (warnings are errors): ``python -m sphinx -W --keep-going -b html docs docs/_build/html`` after
``pip install -e '.[docs]'``.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import tables  # noqa: E402  (docs/tables.py: the reference tables, generated from the registries)

project = "tvbo_verify"
author = "the tvbo_verify authors"
copyright = "the tvbo_verify authors"  # noqa: A001

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.doctest",
    "sphinx.ext.mathjax",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "_generated", "Thumbs.db", ".DS_Store"]

# numpydoc-style docstrings, read by napoleon
napoleon_google_docstring = False
napoleon_numpy_docstring = True
napoleon_use_rtype = False
napoleon_preprocess_types = False

autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_typehints_format = "short"
autodoc_class_signature = "mixed"
autodoc_default_options = {"exclude-members": "__init__, __new__, __post_init__"}

myst_heading_anchors = 3
suppress_warnings = ["myst.header"]

html_theme = "alabaster"
html_title = "tvbo_verify"
html_static_path: list[str] = []

# the tables of β rules, algorithms and environments, from the registries at every build
tables.write(HERE / "_generated")

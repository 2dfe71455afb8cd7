"""The build backend (pyproject.toml): setuptools', plus mypy as a build requirement when
`WEBURL_NB_COMPILE=1` asks for the compiled build. The pin is settings.ini's `mypyc_requirement`;
the package's own `requirements` (idna) join it, since mypy type-checks the modules that import them
and pip's isolated build environment holds only the build requirements."""
import os
from configparser import ConfigParser

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403  (the PEP 517 hooks, unchanged)


def _mypyc_requirements() -> list[str]:
    if os.environ.get('WEBURL_NB_COMPILE') != '1':
        return []
    config = ConfigParser(delimiters=['='])
    config.read('settings.ini', encoding='utf-8')
    return [config['DEFAULT']['mypyc_requirement'], *config['DEFAULT']['requirements'].split()]


# setuptools' own hooks run setup.py to read its `setup_requires`, which it has none of; with the
# variable set setup.py needs mypyc to run at all, so the pin is the whole answer then.

def get_requires_for_build_wheel(config_settings=None):
    return _mypyc_requirements() or _setuptools.get_requires_for_build_wheel(config_settings)


def get_requires_for_build_editable(config_settings=None):
    return _mypyc_requirements() or _setuptools.get_requires_for_build_editable(config_settings)

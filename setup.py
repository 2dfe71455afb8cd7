"""Packaging for weburl-nb: every setting is read from settings.ini (nbdev 2 layout).

`WEBURL_NB_COMPILE=1 pip install .` builds the compiled edition: the modules `mypyc_modules` of
settings.ini compiled with mypyc (the mypy `mypyc_requirement` pins, which the in-tree build backend
`tools/build_backend.py` adds to the build requirements only then). Without the variable the package
is pure Python, the default, built by setuptools alone.
"""
from configparser import ConfigParser
import os, setuptools, shlex

config = ConfigParser(delimiters=['='])
config.read('settings.ini', encoding='utf-8')
cfg = config['DEFAULT']

cfg_keys = 'version description keywords author author_email'.split()
expected = cfg_keys + "lib_name user branch license status min_python audience language".split()
for o in expected: assert o in cfg, f"missing expected setting: {o}"
setup_cfg = {o: cfg[o] for o in cfg_keys}

licenses = {
    'apache2': ('Apache Software License 2.0', 'OSI Approved :: Apache Software License'),
    'mit': ('MIT License', 'OSI Approved :: MIT License'),
}
statuses = ['0 - Pre-Planning', '1 - Planning', '2 - Pre-Alpha', '3 - Alpha',
            '4 - Beta', '5 - Production/Stable', '6 - Mature', '7 - Inactive']
py_versions = '3.11 3.12 3.13 3.14'.split()

requirements = shlex.split(cfg.get('requirements', ''))
dev_requirements = shlex.split(cfg.get('dev_requirements', ''))
bench_requirements = shlex.split(cfg.get('bench_requirements', ''))
whatwg_requirements = shlex.split(cfg.get('whatwg_requirements', ''))
fuzz_requirements = shlex.split(cfg.get('fuzz_requirements', ''))
test_requirements = shlex.split(cfg.get('test_requirements', ''))   # oracles of tests only
scale_requirements = shlex.split(cfg.get('scale_requirements', ''))   # pandas + Dask: tested in make test
spark_requirements = shlex.split(cfg.get('spark_requirements', ''))   # PySpark: make test-spark (needs Java)
site_requirements = shlex.split(cfg.get('site_requirements', ''))   # the Public Suffix List
scrapy_requirements = shlex.split(cfg.get('scrapy_requirements', ''))   # Scrapy: tested in make test
arrow_requirements = shlex.split(cfg.get('arrow_requirements', ''))   # canonicalize_arrow
min_python = cfg['min_python']
lic = licenses.get(cfg['license'].lower(), (cfg['license'], None))

ext_modules = []
if os.environ.get('WEBURL_NB_COMPILE') == '1':
    # No fallback: without mypyc this fails, so a "compiled" build is never silently pure.
    from mypyc.build import mypycify
    ext_modules = mypycify(
        # the package's mypy settings, less the warning about overrides for modules not compiled
        ['--config-file', 'pyproject.toml', '--no-warn-unused-configs']
        + [f"{cfg['lib_path']}/{m}.py" for m in cfg['mypyc_modules'].split()],
        opt_level='3', group_name=cfg['lib_name'])   # one group: one shared library, no hash in its name

setuptools.setup(
    name=cfg['repo'],
    license=lic[0],
    classifiers=[
        'Development Status :: ' + statuses[int(cfg['status'])],
        'Intended Audience :: ' + cfg['audience'].title(),
        'Natural Language :: ' + cfg['language'].title(),
    ] + ['Programming Language :: Python :: ' + o for o in py_versions[py_versions.index(min_python):]]
      + (['License :: ' + lic[1]] if lic[1] else []),
    url=cfg['git_url'],
    packages=setuptools.find_packages(include=[cfg['lib_name'], cfg['lib_name'] + '.*']),
    include_package_data=True,
    package_data={cfg['lib_name']: ['py.typed', 'gecko_idn.json', 'data/*.zip', 'data/*.md']},
    install_requires=requirements,
    extras_require={'dev': dev_requirements + scale_requirements + test_requirements
                           + site_requirements + scrapy_requirements + arrow_requirements,
                    'test': test_requirements, 'bench': bench_requirements,
                    'whatwg': whatwg_requirements, 'fuzz': fuzz_requirements,
                    'scale': scale_requirements, 'spark': spark_requirements,
                    'site': site_requirements, 'scrapy': scrapy_requirements,
                    'arrow': arrow_requirements},
    python_requires='>=' + min_python,
    long_description=open('README.md', encoding='utf-8').read(),
    long_description_content_type='text/markdown',
    zip_safe=False,
    ext_modules=ext_modules,
    entry_points={
        'console_scripts': cfg.get('console_scripts', '').split(),
        'nbdev': [f'{cfg.get("lib_path")}={cfg.get("lib_path")}._modidx:d'],
    },
    **setup_cfg)

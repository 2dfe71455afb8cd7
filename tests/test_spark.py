"""weburl_nb on Spark (`make test-spark`, which CI runs): pandas_udf, mapInPandas, mapInArrow on local[2].

Needs the `spark` extra and Java (Debian: `apt-get install default-jre-headless`). Outside
`make test-spark` (`WEBURL_TEST_SPARK` unset) `conftest.py` leaves this module uncollected (named
on the command line, it is skipped); inside it, a missing Java, PySpark or PyArrow is an error, so
that a run that was asked for cannot pass by skipping.
"""
import os
import shutil
import sys

import pytest

from weburl_nb.batch import canonicalize_many
from weburl_nb.frames import canonical_url, canonicalize_series

if not os.environ.get("WEBURL_TEST_SPARK"):     # named on the command line: conftest.py let it in
    pytest.skip("Spark tests run with `make test-spark`", allow_module_level=True)
if shutil.which("java") is None:
    raise RuntimeError("make test-spark: no Java (Debian: apt-get install default-jre-headless)")
try:
    import pandas as pd
    import pyarrow as pa
    import pyspark  # noqa: F401
except ImportError as e:
    raise RuntimeError(f"make test-spark: {e.name} is missing: pip install -e '.[spark]'") from e
# Spark starts its Python workers with $PYSPARK_PYTHON, else `python3` from PATH: this interpreter.
os.environ.setdefault("PYSPARK_PYTHON", sys.executable)

PAIRS = [(f"http://s{i % 5}.test/d/p.html", link) for i, link in
         enumerate(["../a", "#f", "HTTP://X/./y", "http://[::1/", "?q=ü", "mailto:a@b", None] * 300)]


@pytest.fixture(scope="module")
def spark():
    from pyspark.sql import SparkSession
    session = (SparkSession.builder.master("local[2]").appName("weburl-nb-test")
               .config("spark.ui.enabled", "false").getOrCreate())
    yield session
    session.stop()


def expected():
    return [None if link is None else c for (page, link), c in
            zip(PAIRS, canonicalize_many([link or "" for _, link in PAIRS], [p for p, _ in PAIRS]), strict=True)]


def test_pandas_udf(spark):
    from pyspark.sql.functions import pandas_udf

    @pandas_udf("string")
    def canonical(links: pd.Series, pages: pd.Series) -> pd.Series:
        return canonicalize_series(links, pages)

    frame = spark.createDataFrame(PAIRS, "page string, link string")
    got = [r.c for r in frame.select(canonical("link", "page").alias("c")).collect()]
    assert got == expected()


def test_map_in_pandas_and_plain_udf(spark):
    from pyspark.sql.functions import udf

    def add(batches):
        for b in batches:
            yield b.assign(canonical=canonicalize_series(b.link, b.page))

    frame = spark.createDataFrame(PAIRS, "page string, link string")
    got = [r.canonical for r in frame.mapInPandas(add, "page string, link string, canonical string").collect()]
    assert got == expected()
    plain = udf(canonical_url, "string")
    got = [r.c for r in frame.select(plain("link", "page").alias("c")).collect()]
    assert got == expected()


def test_map_in_arrow(spark):
    from weburl_nb.arrow import canonicalize_arrow

    def add(batches):
        for b in batches:
            canon = canonicalize_arrow(b.column("link"), b.column("page"))
            yield pa.RecordBatch.from_arrays([*b.columns, canon], names=[*b.schema.names, "canonical"])

    frame = spark.createDataFrame(PAIRS, "page string, link string")
    got = [r.canonical for r in frame.mapInArrow(add, "page string, link string, canonical string").collect()]
    assert got == expected()

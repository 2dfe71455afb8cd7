"""weburl_nb.frames on pandas, and on a Dask LocalCluster of two workers (the `scale` extra)."""
import pytest

from weburl_nb import url_to_canon_url
from weburl_nb.batch import canonicalize_many
from weburl_nb.frames import canonical_url, canonicalize_series

LINKS = ["../a", "#f", "HTTP://X.test/./y", "http://[::1/", "?q=ü", "mailto:a@b", "//c.test/d"]
PAGES = ["http://h.test/d/p.html", "http://h.test/", "http://other.test/x/"]


def pairs(n):
    return [(PAGES[i % 3], LINKS[i % 7] + (str(i) if i % 2 else "")) for i in range(n)]


def test_canonical_url_is_the_single_call():
    for page, link in pairs(50):
        assert canonical_url(link, page) == url_to_canon_url(link, page)
    assert canonical_url(None) is None


def cells(column) -> list:
    "A column's values, None where missing (pandas 3's `str` columns write a missing value as NaN)."
    return column.astype(object).where(column.notna(), None).to_list()


def test_series_keeps_index_and_holes():
    pd = pytest.importorskip("pandas", reason="the scale extra is not installed")
    data = pairs(200)
    links = pd.Series([l for _, l in data], index=range(1000, 1200), name="link")
    pages = pd.Series([p for p, _ in data], index=range(1000, 1200))
    out = canonicalize_series(links, pages)
    assert cells(out) == canonicalize_many(links.to_list(), pages.to_list())
    assert out.name == "link" and list(out.index) == list(links.index)
    links[1003] = None
    pages[1004] = None
    out = canonicalize_series(links, pages)
    assert pd.isna(out[1003]) and cells(out)[1004 - 1000] == url_to_canon_url(links[1004])
    for dtype in (object, "string[pyarrow]"):                 # the loop, and the Arrow path
        assert cells(canonicalize_series(links.astype(dtype), pages)) == cells(out)
    assert canonicalize_series(pd.Series([], dtype=object)).to_list() == []
    with pytest.raises(ValueError):
        canonicalize_series(links, pages[:5])


def test_dask_local_cluster_of_two_workers():
    dd = pytest.importorskip("dask.dataframe", reason="the scale extra is not installed")
    distributed = pytest.importorskip("distributed", reason="the scale extra is not installed")
    pd = pytest.importorskip("pandas")
    data = pairs(5000)
    frame = dd.from_pandas(pd.DataFrame(data, columns=["page", "link"]), npartitions=4)
    # no dashboard; the scheduler's HTTP routes on a free port, not 8787 (no warning if it is taken)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address="localhost:0",
                                  scheduler_kwargs={"dashboard": False}) as cluster, \
            distributed.Client(cluster) as client:
        assert len(client.scheduler_info()["workers"]) == 2
        canon = frame.link.map_partitions(canonicalize_series, frame.page, meta=("canonical", "object"))
        got = cells(canon.compute())
        invalid = int(canon.isna().sum().compute())
    expected = canonicalize_many([l for _, l in data], [p for p, _ in data])
    assert got == expected and invalid == expected.count(None) > 0

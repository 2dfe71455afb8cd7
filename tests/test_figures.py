"""The README's and the index's speed figures are those of `bench/recorded.json`: the index computes them
from the file when it runs (an `#| echo: false` cell), and this test fails when the stored text and the
file part ways (after `make bench-record`, re-run `nbs/index.ipynb` and `make readme`)."""
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _figures() -> list[str]:
    rec = json.loads((ROOT / "bench" / "recorded.json").read_text(encoding="utf-8"))
    c = rec["corpora"]
    return [f"{c['hrefs']['weburl_nb.url_to_canon_url']['us_per_url']:.2f} µs per link",
            f"`urljoin` took {c['hrefs']['urllib.parse.urljoin']['us_per_url']:.2f}",
            f"{c['absolute']['weburl_nb.url_to_canon_url']['us_per_url']:.2f} µs per absolute URL",
            f"`urlsplit` took {c['absolute']['urllib.parse.urlsplit']['us_per_url']:.2f}",
            f"peak of {rec['memory']['peak_rss_mb']:.1f} MB"]


def test_readme_speed_figures_are_the_recorded_ones():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    missing = [f for f in _figures() if f not in readme]
    assert not missing, f"README.md lacks the recorded figures {missing}: re-run nbs/index.ipynb, then make readme"


def test_index_speed_figures_are_the_recorded_ones():
    nb = json.loads((ROOT / "nbs" / "index.ipynb").read_text(encoding="utf-8"))
    shown = "".join("".join(o.get("data", {}).get("text/markdown", "")) for c in nb["cells"] if c["cell_type"] == "code"
                    for o in c.get("outputs", []))
    missing = [f for f in _figures() if f not in shown]
    assert not missing, f"nbs/index.ipynb shows stale figures (lacks {missing}): re-run it"

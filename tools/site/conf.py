"""Sphinx configuration of the offline site (`make site`). Title and description come from
`_quarto.yml`; page order from `nbs/sidebar.yml`, through the generated index's toctree."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import siteconf  # noqa: E402

project = html_title = siteconf.title()
# The footer: copyright and licence from settings.ini (the package's metadata), and where pages come from.
copyright = siteconf.footer()
html_short_title = project
extensions = ["myst_nb"]
root_doc = "index"
exclude_patterns = ["_build", "**.ipynb_checkpoints", "jupyter_execute"]

# The notebooks are executed by the build script before Sphinx reads them (tools/site/build.py).
nb_execution_mode = "off"
nb_output_stderr = "show"
nb_merge_streams = True
nb_render_markdown_format = "myst"
myst_heading_anchors = 4
myst_enable_extensions = ["colon_fence", "deflist", "html_image"]
suppress_warnings = ["myst.header"]  # show_doc outputs start their own heading levels

html_theme = "furo"
html_theme_options = {"top_of_page_buttons": [], "navigation_with_keys": True}
html_copy_source = False
html_show_sourcelink = False
html_show_sphinx = False
html_last_updated_fmt = None
html_permalinks_icon = "#"
pygments_style = "tango"
pygments_dark_style = "monokai"
html_favicon = "favicon.svg"
html_static_path = ["static"]
html_css_files = ["site.css"]

# Every IPython kernel of the project's .venv (`make dev` copies this file to .venv/etc/ipython/):
# autoreload, so that after `make export` a notebook that imports `weburl_nb` runs the new code
# without a kernel restart. It reloads a module whose file changed, before each cell runs, and
# prints nothing otherwise. `nbdev_test` does not start kernels, so it never loads this file.
c = get_config()  # noqa: F821 (IPython's config loader provides it)
c.InteractiveShellApp.extensions = ["autoreload"]
c.InteractiveShellApp.exec_lines = ["%autoreload 2"]

# Jupyter servers of the project's .venv (`make dev` copies this file to .venv/etc/jupyter/):
# saving a notebook cleans it first, as `nbdev_clean` does (execution counts, volatile metadata),
# so that a save gives the same file `make export` would. nbdev's own hook is used; it needs the
# notebook's full path to find settings.ini (`jupyter_hooks = True` there switches it on).
import os


def clean_on_save(model, path, contents_manager, **kwargs):
    "nbdev's pre-save hook, given the notebook's path on disk."
    try:
        from nbdev.clean import clean_jupyter
    except ModuleNotFoundError:
        return
    full = os.path.join(contents_manager.root_dir, path.lstrip("/"))
    clean_jupyter(path=full, model=model, contents_manager=contents_manager, **kwargs)


c = get_config()  # noqa: F821 (Jupyter's config loader provides it)
c.ContentsManager.pre_save_hook = clean_on_save

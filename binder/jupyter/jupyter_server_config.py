# JupyterLab for the book (Binder copies this folder into ~/.jupyter; `make setup` into the
# venv's etc/jupyter). Chapters open through Jupytext's contents manager, with their
# Sphinx-only markup (citations, cross-references, glue, self-checks) rewritten for
# jupyterlab-myst; saving restores the markup of every cell the reader did not edit.
c = get_config()  # noqa: F821
c.ServerApp.contents_manager_class = "clfbook.tooling.lab_contents.BookContentsManager"

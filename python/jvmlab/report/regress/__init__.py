"""Views of `jvmlab regress`: terminal (text.py), offline HTML page (html.py), JSON (json_export.py)."""

"""Results out: the results file (JSON, CSV) and the printable bracket (HTML).

* :mod:`clockd.reports.results` — :class:`~clockd.reports.results.Results` from a bracket;
  JSON and CSV; :func:`~clockd.reports.results.check_results`, the rule check on a file.
* :mod:`clockd.reports.html` — the bracket page; ``clockd/reports/render.py`` turns it into PDF/PNG.
"""

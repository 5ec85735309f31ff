"""The bundled fonts (DejaVu Sans and Sans Mono, see ``LICENSE.txt``): a package so they install with it."""

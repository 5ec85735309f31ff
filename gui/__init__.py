"""The PySide6 referee window and audience screen; talks to clockd only through clockd.api."""

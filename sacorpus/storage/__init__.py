"""Article storage: one protocol (base.ArticleStore), SQLite and MongoDB backends.

Pick the backend with the import-path setting ``SACORPUS_STORE`` and build it with
:func:`store_from_settings`; both backends pass the contract tests in tests/storage/.
"""

from __future__ import annotations

from sacorpus.storage.base import ArticleStore, StorageError, load_store_class, store_from_settings
from sacorpus.storage.spill_lines import write_spill

__all__ = ["ArticleStore", "StorageError", "load_store_class", "store_from_settings", "write_spill"]

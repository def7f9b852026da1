"""One repository per table of the data database: SQL and encryption, nothing else.

Each takes the :class:`bot.store.access.Database` and, for a user's rows, that user's
:class:`bot.crypto.cells.RecordCipher`; every cell is sealed bound to its user, table,
column and row (the ``Field`` constants of ``bot.store.models``).  Keeping the memory
copy of a context in step is the facade's job (``bot.store.facade``), not theirs.
"""

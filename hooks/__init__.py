"""Built-in hook implementations (plain modules, listed in ``context_compactor.plugins``)."""

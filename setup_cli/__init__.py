"""The `context-compactor` command line."""

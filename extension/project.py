"""The one name everywhere: the pluggy project our hooks belong to and the entry-point group extensions
register through (shared with OpenClaw-style hosts). A leaf module, so that the contract, the plugin
manager and the package itself can all import it."""

from __future__ import annotations

PROJECT = "openclaw"  # pluggy project name, shared with OpenClaw-style hosts
ENTRY_POINT_GROUP = "openclaw.extensions"

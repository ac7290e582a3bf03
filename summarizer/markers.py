"""The ledger block's own markers, defined once: every module that writes, finds or disarms them
imports them from here (a leaf module, so the ledger and the extractor both can)."""

from __future__ import annotations

OWN_BLOCK = "[context-compactor: ledger of "  # a block's first line opens with it
BLOCK_END = "[end of ledger]"  # a block's last line is exactly this
OWN_PREFIX = "[context-compactor:"  # every line the compactor writes in a prompt opens with it


def disarmed(text: str) -> str:
    """``text`` with the markers a line of the block must not carry as ours ("[end of ledger]" ->
    "(end of ledger]"): quoted words never open or close a block when it is read back."""
    if BLOCK_END in text or OWN_PREFIX in text:
        return text.replace(BLOCK_END, "(" + BLOCK_END[1:]).replace(OWN_PREFIX, "(" + OWN_PREFIX[1:])
    return text

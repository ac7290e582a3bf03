"""In-process host adapters: gptme and Hermes Agent load these through their own plugin entry points.

Each adapter converts the host's messages to OpenAI chat messages and back (a message kept is the
host's own object), hands them to the same hooks every host runs (through :class:`~context_compactor.Compactor`),
and carries the result back: a view for gptme, a replacement request for Hermes. They decide nothing
(invariant 9). Host modules are imported only by the host, so nothing here imports gptme or Hermes at
import time of ``context_compactor``.
"""

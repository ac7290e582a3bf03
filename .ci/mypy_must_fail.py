"""A file mypy must reject: `.ci/mypy` fails unless each marked line is an error, and only those.

Each line takes a value whose type comes from our package, through a different folder of package-dir,
and stores it as the wrong type. mypy can object only when it has resolved the import to our typed code;
were `context_compactor.*` unresolved (Any), everything here would pass, and so would any real error in
the package: this is what makes "Success" on the package mean something.
"""

from __future__ import annotations

import context_compactor
from context_compactor.hookspecs import ModelInfo
from context_compactor.setup_cli.main import main

version: int = context_compactor.__version__  # mypy must reject: str, not int
exit_code: str = main(["--version"])  # mypy must reject: main() returns int
model: int = ModelInfo(id="m").id  # mypy must reject: str, not int

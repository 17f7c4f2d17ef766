"""``python -m obsim`` runs the command line (same as ``obsim``)."""

from .cli import main

raise SystemExit(main())

"""Put the oracles that cannot live in the book's environment on sys.path: irrCAC and
pingouin, installed by `make venv` into .venv/oracles (requirements-oracles.txt says why)."""

import sys
from pathlib import Path

ORACLES = Path(__file__).resolve().parents[2] / ".venv" / "oracles"
if str(ORACLES) not in sys.path:
    sys.path.insert(0, str(ORACLES))

"""The console's routes, one router per part: the GM's home, reading, changing, seats."""

from fracas.web.routes.changes import router as changes
from fracas.web.routes.home import router as home
from fracas.web.routes.odds import router as odds
from fracas.web.routes.seats import router as seats
from fracas.web.routes.tables import router as tables

__all__ = ["changes", "home", "odds", "seats", "tables"]

"""`jvmlab serve`: the lab as a web app for a team, over the shared results store (docs/serve.md).

app = jvmlab.serve.create_app(ServeSettings(db="postgresql://lab@db/jvmlab", runs=Path("runs"),
                                            uploads=Path("uploads")))
"""

from jvmlab.serve.app import create_app
from jvmlab.serve.settings import ServeSettings, check_bind

__all__ = ["ServeSettings", "check_bind", "create_app"]

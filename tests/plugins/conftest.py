from tests.plugin_support import _fresh_registry  # noqa: F401  (autouse: each test discovers anew)

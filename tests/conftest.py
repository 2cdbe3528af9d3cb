from tests.e2e import world  # noqa: F401  (the end-to-end fixture, for every test module)

"""What a game plugin's tests use: the conformance kit (``conformance``),
its sweeps of seeds (``sweeps``), the legibility checks of pictures
(``legibility``) and the pytest plugin (``pytest_plugin``, registered by
installing gamehost). Plugins' own code depends on ``gamehost.sdk`` only.

Nothing is imported here: the pytest plugin loads in every pytest run, the
kit (and with it the host) only when a test uses it.
"""

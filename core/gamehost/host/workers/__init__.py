"""Rules, renderers and bots run apart from the host: supervised worker
processes (``pool.py`` in the host, ``worker.py`` in each worker, ``wire.py``
between them) or, for trusted plugins, in the host. The engine sees one interface for
both, ``RulesRunner`` (``runner.py``), over ``MatchResidences``
(``residence.py``: where each match's state is held); what they say to each other is
declared in ``messages.py``, and answered by ``ResidentMatches``
(``resident.py``) on either side."""

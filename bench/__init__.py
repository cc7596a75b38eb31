"""The benchmarks, run from the repository's root as modules: ``python -m bench.<script>``."""

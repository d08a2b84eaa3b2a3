"""Rule sets shipped with fracas, one package each."""
